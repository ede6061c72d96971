// `tongate index`: the real command indexes a range of a localnet's chain (over ADNL, from the global
// config the localnet writes) into chDB and exits; run again without --from, it resumes after its
// checkpoint.
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestLocalnet } from "../support/localnet.js";

const BIN = fileURLToPath(new URL("../../cli/bin/tongate.js", import.meta.url));
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "tongate-index-"));
const globalConfig = join(dir, "global-config.json");
let net: Localnet;

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "index-cli" });
  for (let i = 0; i < 4; i++) await net.chain.seal();
  writeFileSync(globalConfig, JSON.stringify(net.globalConfig()));
});

afterAll(async () => {
  await net?.close();
});

/** The log lines (JSON) of `tongate index ARGS`, which must exit 0. */
async function index(args: string[]): Promise<Record<string, unknown>[]> {
  const { stdout } = await run(process.execPath, [BIN, "index", "--global-config", globalConfig, "--index-dir", join(dir, "db"), ...args], { timeout: 60_000 });
  return stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("tongate index", () => {
  it("indexes a range and exits, then resumes after its checkpoint", async () => {
    const first = await index(["--from", "1", "--to", "2"]);
    expect(first.filter((l) => l.msg === "indexed").map((l) => l.mcSeqno)).toEqual([1, 2]);
    expect(first.at(-1)).toMatchObject({ msg: "range indexed", from: 1, last: 2, blocks: 4 });
    const head = net.chain.lastMasterchain!.id.seqno;
    const second = await index(["--to", String(head)]);
    expect(second.at(-1)).toMatchObject({ msg: "range indexed", from: 3, last: head });
  }, 90_000);

  it("refuses to start without a chain, naming what to give", async () => {
    const err = await run(process.execPath, [BIN, "index", "--to", "1"]).catch((e: { code: number; stderr: string }) => e);
    expect(err).toMatchObject({ code: 2 });
    expect((err as { stderr: string }).stderr).toMatch(/--global-config FILE .* or --network mainnet/);
  });
});
