// Distributed layout: lite-proxy in its own process serving gRPC, the gateway in
// another, calling it over HTTP/2. Both are the real `tongate` command.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../cli/bin/tongate.js", import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Starts `tongate ARGS` and resolves once it logs `ready` (a JSON log line whose msg matches). */
function startTongate(args: string[], ready: RegExp): Promise<{ child: ChildProcess; logs: string[] }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const logs: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tongate ${args[0]} did not start:\n${logs.join("")}`)), 20_000);
    const onData = (d: Buffer) => {
      logs.push(d.toString());
      if (ready.test(d.toString())) {
        clearTimeout(timer);
        resolve({ child, logs });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (d: Buffer) => logs.push(d.toString()));
    child.once("exit", (code) => reject(new Error(`tongate ${args[0]} exited with ${code}:\n${logs.join("")}`)));
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once("exit", (code) => resolve(code));
    child.kill("SIGTERM");
  });
}

let services: ChildProcess;
let gateway: ChildProcess;
let url: string;

beforeAll(async () => {
  const grpcPort = await freePort();
  const httpPort = await freePort();
  services = (await startTongate(["serve", "--service", "lite-proxy", "--listen", `127.0.0.1:${grpcPort}`], /services listening/)).child;
  gateway = (await startTongate(["gateway", "--upstream", `lite-proxy=http://127.0.0.1:${grpcPort}`, "--host", "127.0.0.1", "--port", String(httpPort), "--ratelimit", "off"], /gateway listening/)).child;
  url = `http://127.0.0.1:${httpPort}`;
});

afterAll(async () => {
  if (gateway) await stop(gateway);
  if (services) await stop(services);
});

describe("gateway and lite-proxy as two processes", () => {
  it("answers a utility over HTTP → gRPC", async () => {
    const res = await fetch(`${url}/api/v2/detectAddress?address=0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8`);
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.result.bounceable.b64).toBe("EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N");
  });

  it("carries service errors and their HTTP status across the process boundary", async () => {
    const res = await fetch(`${url}/api/v2/getAddressInformation?address=EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N`);
    expect(res.status).toBe(501);
    expect(((await res.json()) as any).error).toContain("getAddressInformation");
  });

  it("shuts down gracefully on SIGTERM", async () => {
    expect(await stop(gateway)).toBe(0);
    expect(await stop(services)).toBe(0);
  });
});
