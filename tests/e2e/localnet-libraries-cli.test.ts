// `tongate localnet --library FILE`: the real command publishes the library at start (the control
// API then finds it there), and a file that is not a library BoC stops it with a message naming it.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { jetton2WalletCode } from "../support/libraries.js";

const BIN = fileURLToPath(new URL("../../cli/bin/tongate.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "tongate-library-"));
const children: ChildProcess[] = [];

afterAll(async () => {
  const exited = (c: ChildProcess) =>
    new Promise((resolve) => {
      if (c.exitCode !== null) return resolve(null);
      c.once("exit", resolve);
      c.kill("SIGTERM");
    });
  await Promise.all(children.map(exited));
  rmSync(dir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Runs `tongate ARGS` until it logs a line matching `until` (resolves) or exits (resolves with its output). */
function run(args: string[], until: RegExp): Promise<{ started: boolean; output: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let output = "";
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ started: false, output }), 30_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      if (!until.test(output)) return;
      clearTimeout(timer);
      resolve({ started: true, output });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve({ started: false, output });
    });
  });
}

describe("tongate localnet --library", () => {
  it("publishes the file's cell at start", async () => {
    const file = join(dir, "jetton2_wallet.code.boc");
    writeFileSync(file, jetton2WalletCode().toBoc());
    const control = await freePort();
    const r = await run(["localnet", "--library", file, "--listen", `127.0.0.1:${await freePort()}`, "--control", `127.0.0.1:${control}`, "--block-interval", "0", "--wallets", "1", "--seed", "cli-library"], /localnet running/);
    expect(r.started, r.output).toBe(true);
    const res = await fetch(`http://127.0.0.1:${control}/localnet/libraries`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ boc: jetton2WalletCode().toBoc().toString("base64") }) });
    expect(await res.json()).toMatchObject({ hash: jetton2WalletCode().hash().toString("hex"), published: false });
  });

  it("stops with a message naming a file that is not a library BoC", async () => {
    const file = join(dir, "not-a-boc.bin");
    writeFileSync(file, "hello");
    const r = await run(["localnet", "--library", file, "--listen", `127.0.0.1:${await freePort()}`, "--control", `127.0.0.1:${await freePort()}`], /localnet running/);
    expect(r.started).toBe(false);
    expect(r.output).toContain(`--library ${file}: not a valid BoC`);
  });
});
