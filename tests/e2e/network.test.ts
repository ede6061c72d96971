// `--network`: which TON global config lite-proxy builds its liteserver pool from. No internet here, so the
// check is the pool itself (/healthz lists its liteservers), not answers from mainnet.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { int32ToIpv4 } from "@tongate/liteclient";
import { freePort, startProcess, stopProcess } from "../../bench/support/processes.js";

const BIN = fileURLToPath(new URL("../../cli/bin/tongate.js", import.meta.url));
const MAINNET = JSON.parse(readFileSync(new URL("../../packages/liteclient/global-config/mainnet.json", import.meta.url), "utf8"));
const TESTNET = JSON.parse(readFileSync(new URL("../../packages/liteclient/global-config/testnet.json", import.meta.url), "utf8"));
const started: ChildProcess[] = [];

afterAll(async () => {
  await Promise.all(started.map(stopProcess));
});

/** `tongate start ARGS` without a localnet; the addresses of the liteservers its pool holds. */
async function poolOf(args: string[]): Promise<string[]> {
  const port = await freePort();
  started.push(await startProcess(process.execPath, [BIN, "start", "--host", "127.0.0.1", "--port", String(port), ...args], /gateway listening/));
  const res = await fetch(`http://127.0.0.1:${port}/healthz`);
  const body = (await res.json()) as any;
  return body.detail["lite-proxy"].pool.liteservers.map((l: { address: string }) => l.address);
}

const addresses = (config: { liteservers: { ip: number; port: number }[] }) => config.liteservers.map((l) => `${int32ToIpv4(l.ip)}:${l.port}`);

/**
 * Runs `tongate ARGS`, which must fail at startup; its exit code and output. (Given 2 minutes: the
 * CLI's imports alone take seconds, and a loaded host once stretched them past startProcess's 30 s
 * default between the error printed and the exit.)
 */
async function failing(args: string[]): Promise<string> {
  const err = await startProcess(process.execPath, [BIN, ...args], /listening/, {}, 120_000).then(
    (child) => {
      started.push(child);
      throw new Error(`tongate ${args.join(" ")} started`);
    },
    (e: Error) => e.message,
  );
  return err;
}

describe("--network", () => {
  // each case starts `tongate start` (or fails it) up to three times: seconds each on a loaded machine
  it("mainnet and testnet build the pool from their bundled global configs; --global-config overrides it", async () => {
    const own = join(mkdtempSync(join(tmpdir(), "tongate-network-")), "config.json");
    const key = Buffer.alloc(32, 7).toString("base64");
    writeFileSync(own, JSON.stringify({ liteservers: [{ ip: 2130706433, port: 1, id: { "@type": "pub.ed25519", key } }] }));
    const [mainnet, testnet, overridden] = await Promise.all([poolOf(["--network", "mainnet"]), poolOf(["--network", "testnet"]), poolOf(["--network", "mainnet", "--global-config", own])]);
    expect(mainnet).toEqual(addresses(MAINNET));
    expect(testnet).toEqual(addresses(TESTNET));
    expect(mainnet.length).toBeGreaterThan(5);
    expect(overridden).toEqual(["127.0.0.1:1"]);
  }, 90_000);

  it("names what is bundled when a network has no global config, and localnet outside `start`", async () => {
    const [devnet, localnet] = await Promise.all([failing(["serve", "--service", "lite-proxy", "--network", "devnet"]), failing(["serve", "--network", "localnet"])]);
    expect(devnet).toMatch(/exited 2/);
    expect(devnet).toContain("--network devnet: no global config bundled for it (bundled: mainnet, testnet)");
    expect(localnet).toMatch(/exited 2/);
    expect(localnet).toContain("localnet is only run by `tongate start`");
  }, 150_000);
});
