// Crash safety of `tongate index` (issue 6): a localnet chain with traffic (wallet transfers,
// deploys, bounces off masterchain accounts, i.e. traces over several blocks) is indexed once
// without interruption, and once by a real child process killed with SIGKILL at random moments
// (seeded; during startup, migrations, inserts, checkpoints) at least 10 times and restarted each
// time until it completes. `--prefetch 2`: groups of at most 2 masterchain blocks per insert, so
// that a run lasts long enough for its kills (all 16 default batches of this chain would be one
// group, stored in one go). Every table of both chDB directories, read with FINAL and ordered, is
// the same (the checkpoint and migration rows apart from their timestamps), and so is every entry
// of both key indexes.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Address, toNano } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import type { Localnet } from "@tongate/localnet";
import { KeyIndex } from "@tongate/indexer";
import { openStore } from "@tongate/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalnetSender } from "../support/localnet-deploy.js";
import { startTestLocalnet } from "../support/localnet.js";
import { rng } from "../support/rng.js";

const BIN = fileURLToPath(new URL("../../cli/bin/tongate.js", import.meta.url));
const SEED = Number(process.env.TONGATE_CRASH_SEED ?? 20261122);
const KILLS = 10;
/** masterchain blocks ahead, and so the most one group of inserts stores */
const PREFETCH = 2;
const dir = mkdtempSync(join(tmpdir(), "tongate-crash-"));
const globalConfig = join(dir, "global-config.json");
let net: Localnet;
let head = 0;

const fresh = (wc: number, n: number) => new Address(wc, Buffer.alloc(32, n));

beforeAll(async () => {
  // archival: the runs index from block 1 while the head is hundreds of blocks ahead
  net = await startTestLocalnet({ seed: "indexer-crash", wallets: 2, archival: true });
  const w1 = new LocalnetSender(net, net.genesis.wallets[1]!);
  const w2 = new LocalnetSender(net, net.genesis.wallets[2]!);
  const random = rng(SEED);
  for (let round = 0; round < 4; round++) {
    await net.faucet(fresh(0, 0x10 + round), toNano("2"));
    // a deploy (a v4 wallet of a fresh key), transfers between the wallets, a bounce off an empty
    // basechain account, and bounces off empty masterchain accounts (delivered blocks later)
    const key = Buffer.alloc(32, 0x40 + round);
    await w1.deploy(WalletContractV4.create({ workchain: 0, publicKey: key }).init, toNano("0.5"));
    await w2.send({ to: w1.address, value: toNano("0.3") }, { to: fresh(0, 0x20 + round), value: toNano("0.2"), bounce: true });
    await w1.send({ to: fresh(-1, 0x30 + round), value: toNano("1"), bounce: true }, { to: w2.address, value: toNano("0.1") });
    await w2.send({ to: fresh(-1, 0x50 + round), value: toNano("1"), bounce: true });
    const empty = Math.floor(random() * 3);
    for (let i = 0; i < empty; i++) await net.chain.seal();
  }
  // a tail of empty blocks: with blocks stored in groups a restarted run otherwise finished
  // the range before a mid-batch kill landed (and the loop stops at the first completed run)
  for (let i = 0; i < 300; i++) await net.chain.seal();
  head = net.chain.lastMasterchain!.id.seqno;
  writeFileSync(globalConfig, JSON.stringify(net.globalConfig()));
});

afterAll(async () => {
  await net?.close();
});

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** masterchain seqnos logged as indexed */
  indexed: number[];
  ms: number;
  /** ms from the start to the first indexed block */
  firstIndexedMs?: number;
}

/** When to kill a run: `ms` after its start, or `ms` after it logged `blocks` indexed blocks. */
type Kill = { blocks: number; ms: number };

/** `tongate index --to head` into `db`; killed with SIGKILL as `kill` says unless done by then. */
function index(db: string, kill?: Kill): Promise<Run> {
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, "index", "--global-config", globalConfig, "--to", String(head), "--index-dir", db, "--parse-workers", "0", "--prefetch", String(PREFETCH)], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  let timer: NodeJS.Timeout | undefined;
  let firstIndexedMs: number | undefined;
  const arm = () => (timer ??= setTimeout(() => child.kill("SIGKILL"), kill!.ms));
  if (kill && kill.blocks === 0) arm();
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    const n = out.match(/"msg":"indexed"/g)?.length ?? 0;
    if (n > 0) firstIndexedMs ??= Date.now() - started;
    if (kill && kill.blocks > 0 && n >= kill.blocks) arm();
  });
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      const lines = out.split("\n").filter((l) => l.startsWith("{"));
      const indexed = lines.map((l) => JSON.parse(l) as { msg: string; mcSeqno?: number }).filter((l) => l.msg === "indexed").map((l) => l.mcSeqno!);
      if (signal === null && code !== 0) reject(new Error(`tongate index exited ${code}:\n${err}\n${out.slice(-4000)}`));
      else resolve({ code, signal, indexed, ms: Date.now() - started, firstIndexedMs });
    });
  });
}

/** Every MergeTree table of a chDB directory, read with FINAL, rows in a stable order. */
async function dump(db: string): Promise<Record<string, unknown[]>> {
  const store = await openStore({ path: db });
  try {
    const q = async <T>(query: string) => (await store.client.query({ query, format: "JSONEachRow" })).json<T>();
    const tables = (await q<{ name: string }>("SELECT name FROM system.tables WHERE database = currentDatabase() AND engine LIKE '%MergeTree' ORDER BY name")).map((t) => t.name);
    const out: Record<string, unknown[]> = {};
    for (const t of tables) {
      if (t === "indexer_checkpoints") out[t] = await q("SELECT name, mc_seqno FROM indexer_checkpoints FINAL ORDER BY name");
      else if (t === "schema_migrations") out[t] = await q("SELECT version, name, checksum FROM schema_migrations FINAL ORDER BY version");
      else out[t] = await q(`SELECT * FROM ${t} FINAL ORDER BY ALL`);
    }
    return out;
  } finally {
    await store.close();
  }
}

describe("tongate index killed with SIGKILL and restarted", () => {
  it(`≥ ${KILLS} kills at random moments: the same tables as an uninterrupted run`, async () => {
    const whole = await index(join(dir, "whole"));
    expect(whole.indexed).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    const startupMs = whole.firstIndexedMs ?? whole.ms;

    const random = rng(SEED);
    const db = join(dir, "killed");
    const runs: Run[] = [];
    let kills = 0;
    for (let attempt = 0; ; attempt++) {
      if (attempt > 60) throw new Error(`no completion after ${attempt} runs: ${JSON.stringify(runs)}`);
      // a third of the kills anywhere in startup (loading, chDB, migrations, the first fetches), the
      // others 0-200 ms after the run's 1st-3rd indexed block (mid-batch: inserts, traces, checkpoint);
      // once enough kills landed, run to the end
      const kill = random() < 1 / 3 ? { blocks: 0, ms: 100 + random() * startupMs } : { blocks: 1 + Math.floor(random() * 3), ms: random() * 200 };
      const r = await index(db, kills < KILLS ? kill : undefined);
      runs.push(r);
      if (r.signal === "SIGKILL") kills++;
      else break;
    }
    const indexed = runs.flatMap((r) => r.indexed);
    expect(kills).toBeGreaterThanOrEqual(KILLS);
    // every block was indexed at least once, in order within each run; a kill may land after a
    // group's checkpoint and before its "indexed" lines (the next run resumes after it): at most
    // the PREFETCH blocks (one group) after the last one a killed run logged go unlogged
    const unlogged = new Set<number>();
    let logged = 0;
    for (const r of runs) {
      logged = Math.max(logged, ...r.indexed);
      if (r.signal === "SIGKILL") for (let i = 1; i <= PREFETCH; i++) unlogged.add(logged + i);
    }
    const all = Array.from({ length: head }, (_, i) => i + 1);
    expect(all.filter((n) => !indexed.includes(n) && !unlogged.has(n))).toEqual([]);
    // some kills landed mid-range (after a run had indexed a block but before it finished)
    expect(runs.filter((r) => r.signal === "SIGKILL" && r.indexed.length > 0).length).toBeGreaterThanOrEqual(3);

    const a = await dump(join(dir, "whole"));
    const b = await dump(db);
    expect(Object.keys(b)).toEqual(Object.keys(a));
    expect(a.traces!.length).toBeGreaterThan(0);
    expect(a.transactions!.length).toBeGreaterThan(20);
    for (const t of Object.keys(a)) expect(b[t], t).toEqual(a[t]);

    const keysOf = async (db: string) => {
      const keys = await KeyIndex.open(join(db, "key-index"));
      try {
        return [...keys.contents()];
      } finally {
        await keys.close();
      }
    };
    const ka = await keysOf(join(dir, "whole"));
    expect(ka.filter((e) => e.table === "transactions").length).toBe(a.transactions!.length);
    // trace records (replaced as traces grow over blocks), their transactions and the accounts' traces
    expect(ka.filter((e) => e.table === "traces").length).toBe(a.traces!.length);
    expect(ka.filter((e) => e.table === "trace_transactions").length).toBe(a.transactions!.length);
    expect(ka.filter((e) => e.table === "traces_by_account").length).toBeGreaterThan(a.traces!.length);
    expect(await keysOf(db)).toEqual(ka);
  }, 300_000);
});
