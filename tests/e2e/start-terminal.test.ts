// `tongate start` as a new user meets it: JSON lines with --log-format json (and whenever stdout is
// not a terminal), readable lines and a banner with --log-format pretty, and on a localnet keyless
// requests from loopback are not rate-limited unless --ratelimit on. On a localnet the gateway
// listens on loopback only unless --host opens it.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, stopProcess } from "../../bench/support/processes.js";

const BIN = fileURLToPath(new URL("../../cli/bin/tongate.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "tongate-terminal-"));
const started: ChildProcess[] = [];

afterAll(async () => {
  await Promise.all(started.map(stopProcess));
  rmSync(dir, { recursive: true, force: true });
});

/** `tongate start` on a localnet of ephemeral ports; resolves once `ready` matches its stdout. */
async function start(args: string[], ready: RegExp): Promise<{ url: string; output: () => string }> {
  const [port, lite, control] = [await freePort(), await freePort(), await freePort()];
  const child = spawn(
    process.execPath,
    [BIN, "start", "--port", String(port), "--liteserver", `127.0.0.1:${lite}`, "--control", `127.0.0.1:${control}`, "--wallets", "1", "--block-interval", "0", ...args],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  started.push(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (ready.test(out)) {
        clearInterval(timer);
        resolve();
      }
    }, 50);
    child.once("exit", (code) => (clearInterval(timer), reject(new Error(`tongate start exited ${code}:\n${out}${err}`))));
  });
  return { url: `http://127.0.0.1:${port}`, output: () => out };
}

/** A non-loopback IPv4 address of this machine, if it has one. */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

/** Whether a TCP connection to host:port is accepted ("refused" when nothing listens there). */
function reach(host: string, port: number): Promise<"accepted" | "refused"> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host);
    socket.once("connect", () => (socket.destroy(), resolve("accepted")));
    socket.once("error", (e: NodeJS.ErrnoException) => (e.code === "ECONNREFUSED" ? resolve("refused") : reject(e)));
  });
}

/** Two keyless requests in the same instant, from loopback. */
async function twoQuick(url: string): Promise<number[]> {
  return Promise.all([0, 1].map(async () => (await fetch(`${url}/api/v2/getMasterchainInfo`)).status));
}

describe("tongate start: the terminal, and where the gateway listens", () => {
  it("--log-format json: every line is JSON, the last start-up event says where everything is; loopback only and not limited", { timeout: 60_000 }, async () => {
    const globalConfig = join(dir, "global-config.json");
    const { url, output } = await start(["--log-format", "json", "--write-global-config", globalConfig], /"msg":"tongate ready"/);
    expect(await twoQuick(url)).toEqual([200, 200]);
    expect(await twoQuick(url)).toEqual([200, 200]);
    const lines = output().trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const ready = lines.find((l) => l.msg === "tongate ready")!;
    expect(ready).toMatchObject({
      gateway: url,
      docs: { v2: `${url}/api/v2/`, v3: `${url}/api/v3/` },
      network: "localnet",
      globalConfig,
      data: "temporary",
    });
    expect(ready.control).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // no --host: this machine only
    const port = Number(new URL(url).port);
    expect(ready.listen).toBe(`127.0.0.1:${port}`);
    if (lanAddress) expect(await reach(lanAddress, port)).toBe("refused");
    expect(ready.wallets).toHaveLength(2);
    // the wallets and the global config are in the banner; their own lines are at debug
    expect(lines.filter((l) => l.msg === "localnet wallet")).toEqual([]);
  });

  it("--log-format pretty: readable lines and a banner; --host 0.0.0.0 opens the gateway; --ratelimit on limits loopback too", { timeout: 60_000 }, async () => {
    const { url, output } = await start(["--log-format", "pretty", "--ratelimit", "on", "--host", "0.0.0.0"], /rate limit/);
    const text = output();
    expect(text).toContain("tongate is ready (localnet)");
    const port = Number(new URL(url).port);
    expect(text).toMatch(new RegExp(`gateway +http://127\\.0\\.0\\.1:${port} +\\(listening on 0\\.0\\.0\\.0:${port}\\)`));
    // --host 0.0.0.0 opens it to the network
    if (lanAddress) expect((await fetch(`http://${lanAddress}:${port}/api/v2/detectAddress?address=0:${"0".repeat(64)}`)).status).toBe(200);
    expect(text).toContain(`${url}/api/v2/`);
    expect(text).toContain(`${url}/api/v3/`);
    expect(text).toMatch(/control API +http:\/\/127\.0\.0\.1:\d+/);
    expect(text).toMatch(/wallets +v4r2 +UQ/);
    expect(text).toContain("temporary");
    expect(text).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO  \[localnet\] localnet running /m);
    expect(text.split("\n").some((l) => l.startsWith("{"))).toBe(false);
    const statuses = await twoQuick(url);
    expect(statuses.sort()).toEqual([200, 429]);
  });
});
