// Crash safety of the decoder while the chain runs: a localnet seals blocks with token activity
// (jettons minted and transferred with comments, a wallet its master denies, a wallet seen before
// its master and a transfer from it, an aborted burn, NFT items minted and passed around, an item
// its collection denies); `tongate index` follows it into a ClickHouse server (ClickHouse's HTTP
// interface on chDB, in this process); the decoder (`tongate serve --service decoder` on that server,
// a real child process) is killed with SIGKILL at least 10 times meanwhile and restarted each time —
// seeded kinds of kill: at a random moment of its startup, at a random moment after it decoded a
// block or a few, the moment one of its inserts reaches the server (that insert run or not: killed
// between a block's inserts), the moment a block's checkpoint reaches the server (not run: killed
// between a block's rows and its checkpoint), and once the moment it confirms the events of the
// wallet seen before its master, when the master arrives. Then the chain stops, the last run decodes
// up to the head, and the decoder's tables and checkpoint are dumped; they are emptied, the decoder
// decodes the same index again without interruption, and every table of the decoder, read with
// FINAL and ordered, is the same, as are its checkpoint and the entries of its key-index tables.
// Each run's output is kept in the test's temporary directory (decoder-<n>.log); the seed is
// TONGATE_CRASH_SEED, and TONGATE_CRASH_VERBOSE=1 prints each kill as it lands.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Address, beginCell, toNano, type Cell, type StateInit } from "@ton/core";
import { storeJettonBurn, storeJettonTransfer, storeTextComment } from "@tongate/contracts";
import type { Localnet } from "@tongate/localnet";
import { getCheckpoint, openStore, select, setCheckpoint, type Store } from "@tongate/store";
import { open } from "lmdb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startClickHouseHttp, type ClickHouseHttp } from "../support/clickhouse-http.js";
import { contractCode, deployItemBody, jettonMinterData, jettonWalletData, mintBody, nftCollectionData, nftItemData, nftTransferBody, onchainContent, snake, type ContractName } from "../support/contracts/index.js";
import { LocalnetSender, runGetMethod } from "../support/localnet-deploy.js";
import { startTestLocalnet } from "../support/localnet.js";
import { rng } from "../support/rng.js";
import { signalAndWait, sleep } from "../support/tongate.js";

const BIN = fileURLToPath(new URL("../../cli/bin/tongate.js", import.meta.url));
const SEED = Number(process.env.TONGATE_CRASH_SEED ?? 20261123);
const KILLS = 10;
/** A run waiting for an insert or a checkpoint to be killed at, with nothing left to decode this long (caught up with the indexer): killed then. */
const IDLE_MS = 5_000;
/** The decoder's tables (its migrations), compared whole. */
const TABLES = ["account_interfaces", "jetton_masters", "jetton_wallets", "nft_collections", "nft_items", "nft_sales", "jetton_transfers", "jetton_burns", "nft_transfers"];
const dir = mkdtempSync(join(tmpdir(), "tongate-decoder-crash-"));
const globalConfig = join(dir, "global-config.json");
/** Each decoder run's output is kept in <dir>/decoder-<n>.log (the directory is removed when the test passes). */
let runNumber = 0;
let passed = false;
let net: Localnet;
let clickhouse: ClickHouseHttp;
let store: Store;
let indexer: ChildProcess | undefined;
let decoder: ChildProcess | undefined;
/** Set when the test ends: the chain stops sealing (before the localnet closes). */
let stopping = false;
let activity: Promise<unknown> | undefined;
/** The decoder's writes as they reach the server: what the running test does with each. */
let onDecoderWrite: ((w: DecoderWrite) => "run" | "drop") | undefined;

/** `select`: an INSERT … SELECT (the decoder confirming the events of wallets or items decided late). */
type DecoderWrite = { kind: "rows"; table: string; select: boolean } | { kind: "checkpoint" };

/** A statement the server received, if it is one of the decoder's writes: rows into its tables, or its checkpoint. */
function decoderWrite(sql: string): DecoderWrite | undefined {
  const table = /^\s*INSERT INTO\s+`?(\w+)/i.exec(sql)?.[1];
  if (table && TABLES.includes(table)) return { kind: "rows", table, select: /^\s*INSERT INTO\s+`?\w+`?\s+SELECT/i.test(sql) };
  if (table === "indexer_checkpoints" && sql.includes('"name":"decoder"')) return { kind: "checkpoint" };
  return undefined;
}

const addressSlice = (a: Address) => ({ type: "slice" as const, cell: beginCell().storeAddress(a).endCell() });
const addressOf = (init: StateInit) => new Address(0, beginCell().storeUint(0, 2).storeMaybeRef(init.code).storeMaybeRef(init.data).storeUint(0, 1).endCell().hash());

/**
 * Token activity, block after block with pauses: the decoder's whole repertoire; then empty blocks
 * every 2 s while `more()` says so (a chain that runs on). Resolves with the last block's seqno.
 */
async function tokenActivity(more: () => boolean): Promise<number> {
  const admin = new LocalnetSender(net, net.genesis.wallets[1]!);
  const holder = new LocalnetSender(net, net.genesis.wallets[2]!);
  const random = rng(SEED + 1);
  const names: ContractName[] = ["jetton-minter", "jetton-wallet", "nft-collection", "nft-item"];
  const code = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await contractCode(n)] as const))) as Record<ContractName, Cell>;
  const walletCode = code["jetton-wallet"];
  const deploy = (s: LocalnetSender, name: ContractName, data: Cell) => s.deploy({ code: code[name], data }, toNano("0.2"));
  const walletOf = async (master: Address, owner: Address) => (await runGetMethod(net, master, "get_wallet_address", [addressSlice(owner)])).readAddress();
  const transfer = (o: { queryId: bigint; amount: bigint; to: Address; back: Address; comment?: string }) =>
    beginCell()
      .store(
        storeJettonTransfer({
          queryId: o.queryId,
          amount: o.amount,
          destination: o.to,
          responseDestination: o.back,
          customPayload: null,
          forwardTonAmount: toNano("0.01"),
          forwardPayload: o.comment ? { cell: beginCell().store(storeTextComment({ text: o.comment })).endCell(), inRef: true } : null,
        }),
      )
      .endCell();
  // a pause, and now and then an empty block
  const pause = async () => {
    if (stopping) throw new Error("the test ended");
    await sleep(150);
    if (random() < 0.3) await net.chain.seal();
  };

  const master = await deploy(admin, "jetton-minter", jettonMinterData({ totalSupply: 0n, admin: admin.address, content: onchainContent({ name: "Crash", symbol: "CRS", decimals: "9" }), walletCode }));
  await admin.send({ to: master, value: toNano("0.5"), body: mintBody({ to: admin.address, ton: toNano("0.1"), amount: 1_000_000n }) });
  await admin.send({ to: master, value: toNano("0.5"), body: mintBody({ to: holder.address, ton: toNano("0.1"), amount: 5_000n }) });
  const adminWallet = await walletOf(master, admin.address);
  const holderWallet = await walletOf(master, holder.address);
  await pause();
  // a wallet its master did not make: denied
  await deploy(admin, "jetton-wallet", jettonWalletData({ balance: 10n ** 18n, owner: admin.address, master, walletCode }));
  // a wallet seen before its master (pending), and a transfer from it that deploys another one
  const lateMaster = { code: code["jetton-minter"], data: jettonMinterData({ totalSupply: 0n, admin: admin.address, content: onchainContent({ name: "Late" }), walletCode }) };
  const earlyWallet = await deploy(holder, "jetton-wallet", jettonWalletData({ balance: 0n, owner: holder.address, master: addressOf(lateMaster), walletCode }));
  await holder.send({ to: earlyWallet, value: toNano("0.3"), body: transfer({ queryId: 5n, amount: 0n, to: admin.address, back: holder.address, comment: "before the master" }) });
  await pause();

  const collection = await deploy(admin, "nft-collection", nftCollectionData({ owner: admin.address, nextItemIndex: 0n, content: onchainContent({ name: "Crash NFTs" }), commonContent: "https://example.org/crash/", itemCode: code["nft-item"] }));
  const owners = [admin, holder];
  for (let i = 0; i < 2; i++) {
    await admin.send({ to: collection, value: toNano("0.2"), body: deployItemBody({ index: BigInt(i), ton: toNano("0.05"), owner: owners[i % 2]!.address, content: `${i}.json` }) });
  }
  const items = await Promise.all([0n, 1n].map(async (i) => (await runGetMethod(net, collection, "get_nft_address_by_index", [{ type: "int", value: i }])).readAddress()));
  // an item its collection did not make: denied
  await deploy(holder, "nft-item", nftItemData({ index: 1n, collection, owner: holder.address, content: snake(Buffer.from("1.json")) }));
  await pause();

  const holders = items.map((_, i) => i % 2);
  for (let round = 0; round < 4; round++) {
    const q = BigInt(100 + round);
    await admin.send({ to: adminWallet, value: toNano("0.3"), body: transfer({ queryId: q, amount: 1000n + BigInt(round), to: holder.address, back: admin.address, comment: `round ${round}` }) });
    await holder.send({ to: holderWallet, value: toNano("0.3"), body: transfer({ queryId: q, amount: 7n, to: admin.address, back: holder.address }) });
    // an item passed on by whoever holds it now
    const i = round % 2;
    const [from, to] = [owners[holders[i]!]!, owners[1 - holders[i]!]!];
    await from.send({ to: items[i]!, value: toNano("0.1"), body: nftTransferBody({ newOwner: to.address, responseTo: from.address, queryId: q }) });
    holders[i] = 1 - holders[i]!;
    await pause();
    // the test wallet has no burn: the burn is an aborted transaction, still an event
    if (round === 1) await admin.send({ to: adminWallet, value: toNano("0.2"), body: beginCell().store(storeJettonBurn({ queryId: 66n, amount: 10n, responseDestination: admin.address, customPayload: null })).endCell() }).catch(() => undefined);
    // the early wallet's master arrives: the wallets it made are confirmed, and their transfer
    if (round === 2) await admin.deploy(lateMaster, toNano("0.2"));
  }
  for (let i = 0; more() && !stopping && i < 1000; i++) {
    await sleep(2000);
    await net.chain.seal();
  }
  return net.chain.lastMasterchain!.id.seqno;
}

beforeAll(async () => {
  // archival: the indexer starts at block 1 and may fall behind the state window
  net = await startTestLocalnet({ seed: "decoder-crash", wallets: 2, archival: true });
  writeFileSync(globalConfig, JSON.stringify(net.globalConfig()));
  clickhouse = await startClickHouseHttp({
    onStatement: (sql) => {
      const w = onDecoderWrite && decoderWrite(sql);
      return w ? onDecoderWrite!(w) : "run";
    },
  });
  store = await openStore({ url: clickhouse.url });
}, 60_000);

afterAll(async () => {
  stopping = true;
  await activity?.catch(() => undefined);
  for (const child of [decoder, indexer]) if (child) await signalAndWait(child, "SIGKILL");
  await store?.close();
  await clickhouse?.close();
  await net?.close();
  if (passed) rmSync(dir, { recursive: true, force: true });
  else console.log(`the decoder's output of each run: ${dir}/decoder-<n>.log`);
});

/** How a run is killed. */
type Kill =
  /** `ms` after its start */
  | { kind: "startup"; ms: number }
  /** `ms` after it logged `blocks` decoded blocks */
  | { kind: "after-block"; blocks: number; ms: number }
  /** when its `nth` insert of rows reaches the server; `drop`: that insert is not run */
  | { kind: "insert"; nth: number; drop: boolean }
  /** when its first INSERT … SELECT (events confirmed late) reaches the server; `drop`: it is not run */
  | { kind: "confirm"; drop: boolean }
  /** when its `nth` checkpoint reaches the server, which does not run it: the block's rows are written, its checkpoint not */
  | { kind: "checkpoint"; nth: number };

interface Run {
  kill?: Kill;
  signal: NodeJS.Signals | null;
  /** masterchain seqnos logged as decoded */
  decoded: number[];
  /** rows each of them wrote */
  rows: number[];
  ms: number;
  /** ms from the start to its services listening (its startup done) */
  listeningMs?: number;
  /** whether the chain was still sealing blocks when the run ended */
  chainRunning: boolean;
  trigger?: "planned" | "fallback";
  /** the table of the write at which it was killed */
  at?: string;
}

/**
 * The decoder alone on the server until /healthz says its checkpoint reached `head()` (then it is
 * stopped with SIGTERM), or killed with SIGKILL as `kill` says — or, with `confirm`, at its first
 * INSERT … SELECT (the block that confirms the early wallet's events) if that comes first.
 * Off-chain metadata is not fetched (--metadata-fetch off): what a fetch gives depends on the network,
 * not on the chain, so it stays out of the comparison.
 */
function decode(keyIndexDir: string, head: () => number | undefined, chainRunning: () => boolean, kill?: Kill, confirm?: Extract<Kill, { kind: "confirm" }>): Promise<Run> {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [BIN, "serve", "--service", "decoder", "--clickhouse-url", clickhouse.url, "--key-index-dir", keyIndexDir, "--global-config", globalConfig, "--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0", "--emulator-processes", "1", "--metadata-fetch", "off", "--log-level", "debug"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  decoder = child;
  let out = "";
  let err = "";
  let timer: NodeJS.Timeout | undefined;
  let poll: NodeJS.Timeout | undefined;
  /** since when /healthz has said the decoder is at the indexer's checkpoint */
  let idleSince: number | undefined;
  let listeningMs: number | undefined;
  let done = false;
  /** the kill that landed, and what triggered it: its planned moment, or the fallback of a kill at a write that did not come */
  let landed: { kill: Kill; trigger: NonNullable<Run["trigger"]>; at?: string } | undefined;
  const sigkill = (how: NonNullable<typeof landed>) => {
    landed ??= how;
    child.kill("SIGKILL");
  };
  const arm = (ms: number, trigger: NonNullable<Run["trigger"]> = "planned") => (timer ??= setTimeout(() => sigkill({ kill: kill!, trigger }), ms));
  if (kill?.kind === "startup") arm(kill.ms);
  let inserts = 0;
  let checkpoints = 0;
  let rowsSinceCheckpoint = false;
  onDecoderWrite = (w) => {
    if (landed) return "run";
    const at = w.kind === "rows" ? w.table : "indexer_checkpoints";
    if (confirm && w.kind === "rows" && w.select) {
      sigkill({ kill: confirm, trigger: "planned", at });
      return confirm.drop ? "drop" : "run";
    }
    // the checkpoints that count are those of blocks with rows
    const hit = w.kind === "rows" ? kill?.kind === "insert" && ++inserts === kill.nth : kill?.kind === "checkpoint" && rowsSinceCheckpoint && ++checkpoints === kill.nth;
    rowsSinceCheckpoint = w.kind === "rows";
    if (!hit) return "run";
    sigkill({ kill: kill!, trigger: "planned", at });
    return kill!.kind === "checkpoint" || (kill!.kind === "insert" && kill!.drop) ? "drop" : "run";
  };
  const watch = (url: string) => {
    poll = setInterval(() => {
      fetch(`${url}/healthz`)
        .then((r) => r.json() as Promise<{ detail?: { decoder?: { decodedSeqno: number; indexedSeqno: number } } }>)
        .then((h) => {
          const decoded = h.detail?.decoder?.decodedSeqno ?? 0;
          const caughtUp = decoded > 0 && decoded >= (h.detail?.decoder?.indexedSeqno ?? 0);
          if (!caughtUp) idleSince = undefined;
          else if ((idleSince ??= Date.now()) < Date.now() - IDLE_MS && (kill?.kind === "insert" || kill?.kind === "checkpoint")) arm(0, "fallback");
          const last = head();
          if (last !== undefined && decoded >= last && !done && !landed) {
            done = true;
            clearInterval(poll);
            child.kill("SIGTERM");
          }
        })
        .catch(() => undefined);
    }, 100);
  };
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    if (poll === undefined) {
      const url = /"url":"(http:\/\/[^"]+)\/metrics"/.exec(out)?.[1];
      if (url) watch(url);
    }
    if (out.includes('"msg":"services listening')) listeningMs ??= Date.now() - started;
    const n = out.match(/"msg":"decoded"/g)?.length ?? 0;
    if (kill?.kind === "after-block" && n >= kill.blocks) arm(kill.ms);
  });
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      clearInterval(poll);
      onDecoderWrite = undefined;
      const lines = out
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as { msg: string; mcSeqno?: number; rows?: number })
        .filter((l) => l.msg === "decoded");
      writeFileSync(join(dir, `decoder-${++runNumber}.log`), `${JSON.stringify(kill)} ${JSON.stringify(confirm)}\n${out}\n${err}`);
      const run = { signal, decoded: lines.map((l) => l.mcSeqno!), rows: lines.map((l) => l.rows!), ms: Date.now() - started, listeningMs, chainRunning: chainRunning() };
      if (landed && signal === "SIGKILL") resolve({ ...run, ...landed });
      else if (done && !landed && (code === 0 || signal === "SIGTERM")) resolve({ ...run, signal: null });
      else reject(new Error(`tongate serve --service decoder exited ${code ?? signal} (kill: ${JSON.stringify(kill)}):\n${err}\n${out.slice(-4000)}`));
    });
  });
}

interface Dump {
  checkpoint: number | null;
  tables: Record<string, unknown[]>;
  keys: { table: string; key: string; value: string }[];
}

/** The decoder's tables, read with FINAL, rows in a stable order; its checkpoint; its key-index tables in `keyIndexDir`. */
async function dump(keyIndexDir: string): Promise<Dump> {
  const tables: Record<string, unknown[]> = {};
  for (const t of TABLES) tables[t] = await select(store, `SELECT * FROM ${t} FINAL ORDER BY ALL`, {});
  return { checkpoint: await getCheckpoint(store, "decoder"), tables, keys: decoderKeys(keyIndexDir) };
}

/** Every entry of the decoder's tables in a key index (LMDB: `decoder/<table>`), and its meta. */
function decoderKeys(path: string): Dump["keys"] {
  const env = open({ path, maxDbs: 128, compression: false });
  try {
    const out: Dump["keys"] = [];
    const names = [...env.getKeys({})].map(String).filter((n) => n.startsWith("decoder/"));
    for (const name of names.sort()) {
      const db = env.openDB<Buffer, Buffer>({ name, encoding: "binary", keyEncoding: "binary" });
      for (const { key, value } of db.getRange({})) out.push({ table: name, key: key.toString("hex"), value: value.toString("base64") });
    }
    const meta = env.openDB<unknown, string>({ name: "meta", encoding: "json" });
    for (const { key, value } of meta.getRange({})) if (String(key).startsWith("decoder")) out.push({ table: "meta", key: String(key), value: JSON.stringify(value) });
    return out;
  } finally {
    void env.close();
  }
}

/** Rows of the decoder's tables past its checkpoint (distinct): what a block written and not checkpointed left. */
async function rowsPastCheckpoint(): Promise<number> {
  const cp = await decoderCheckpoint();
  let n = 0;
  for (const t of await existing(TABLES)) n += Number((await select<{ n: string }>(store, `SELECT count() AS n FROM (SELECT DISTINCT * FROM ${t} WHERE mc_seqno > {cp:UInt32})`, { cp }))[0]!.n);
  return n;
}

/** Those of `tables` that exist (a run killed in its first startup may not have made them). */
async function existing(tables: string[]): Promise<string[]> {
  const rows = await select<{ name: string }>(store, "SELECT name FROM system.tables WHERE database = currentDatabase() AND name IN {tables:Array(String)}", { tables });
  return tables.filter((t) => rows.some((r) => r.name === t));
}

/** The decoder's checkpoint; 0 before it has one (or before the checkpoints' table exists). */
async function decoderCheckpoint(): Promise<number> {
  return (await existing(["indexer_checkpoints"])).length ? ((await getCheckpoint(store, "decoder")) ?? 0) : 0;
}

/** The seeded kinds of kill (the kill at the confirmation of late events aside), in a seeded order, at least two of each. */
function killPlan(random: () => number): Kill["kind"][] {
  const kinds: Kill["kind"][] = ["startup", "startup", "after-block", "after-block", "insert", "insert", "insert", "checkpoint", "checkpoint"];
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
  }
  return kinds;
}

/** Where a kill landed, as the run and the store after it say. */
function landing(r: Run, cp: number, past: number): string {
  const k = r.kill!;
  if (r.trigger === "fallback") return `caught up with the indexer (nothing to decode for ${IDLE_MS} ms)`;
  switch (k.kind) {
    case "startup":
      return r.decoded.length === 0 ? `in startup, ${Math.round(k.ms)} ms in` : `${Math.round(k.ms)} ms in, after ${r.decoded.length} blocks`;
    case "after-block":
      return `${Math.round(k.ms)} ms after its block ${r.decoded[k.blocks - 1]}: ${past > 0 ? `block ${cp + 1} partly written` : `nothing of block ${cp + 1} written`}`;
    case "insert":
      return `${k.drop ? "before" : "after"} its insert into ${r.at} of block ${cp + 1}`;
    case "checkpoint":
      return `between the rows of block ${cp + 1} and its checkpoint`;
    case "confirm":
      return `${k.drop ? "before" : "after"} the confirmation of late-decided events (${r.at}) in block ${cp + 1}`;
  }
}

describe("the decoder killed with SIGKILL while the chain runs", () => {
  it(`≥ ${KILLS} kills at random points: the same decoder tables as an uninterrupted run`, async () => {
    const t0 = Date.now();
    indexer = spawn(process.execPath, [BIN, "index", "--global-config", globalConfig, "--clickhouse-url", clickhouse.url, "--from", "1", "--parse-workers", "0"], { stdio: ["ignore", "ignore", "pipe"] });
    let indexerErr = "";
    indexer.stderr!.on("data", (d: Buffer) => (indexerErr += d.toString()));

    const random = rng(SEED);
    const plan = killPlan(random);
    const runs: Run[] = [];
    const landed: { kind: Kill["kind"]; trigger: Run["trigger"]; past: number; chainRunning: boolean; where: string }[] = [];
    let head: number | undefined;
    // the chain seals blocks until the last kill has landed
    activity = tokenActivity(() => landed.length < KILLS).then((h) => (head = h));
    activity.catch(() => undefined);
    let startupMs = 3000;
    for (let attempt = 0; ; attempt++) {
      if (attempt > 30) throw new Error(`no completion after ${attempt} runs: ${JSON.stringify(runs)}`);
      // a startup's kill within the last run's startup; the others a few
      // blocks further than the last run, so that the kills spread over the chain's token blocks;
      // and every run until then is killed at the confirmation of late events if it gets there
      const kind = plan[landed.filter((l) => l.kind !== "confirm").length];
      const kill: Kill | undefined =
        kind === "startup"
          ? { kind, ms: 100 + random() * startupMs }
          : kind === "after-block"
            ? { kind, blocks: 1 + Math.floor(random() * 6), ms: random() * 300 }
            : kind === "insert"
              ? { kind, nth: 1 + Math.floor(random() * 16), drop: random() < 0.5 }
              : kind === "checkpoint"
                ? { kind, nth: 1 + Math.floor(random() * 5) }
                : undefined;
      const confirm = landed.some((l) => l.kind === "confirm") ? undefined : { kind: "confirm" as const, drop: random() < 0.5 };
      const r = await decode(join(dir, "keys-killed"), () => head, () => head === undefined, kill, confirm);
      runs.push(r);
      if (r.listeningMs !== undefined) startupMs = r.listeningMs;
      if (r.signal !== "SIGKILL") break;
      const cp = await decoderCheckpoint();
      const past = await rowsPastCheckpoint();
      landed.push({ kind: r.kill!.kind, trigger: r.trigger, past, chainRunning: r.chainRunning, where: landing(r, cp, past) });
      if (process.env.TONGATE_CRASH_VERBOSE) console.log(`kill ${landed.length} after ${r.ms} ms (${Date.now() - t0} ms in): ${landed.at(-1)!.where}`);
    }
    await activity;
    const killedMs = Date.now() - t0;
    const b = await dump(join(dir, "keys-killed"));
    expect((await getCheckpoint(store, "follower")) ?? 0).toBeGreaterThanOrEqual(head!);
    await signalAndWait(indexer, "SIGTERM");
    expect(indexer.exitCode, indexerErr).toBe(0);

    // the same index decoded again from nothing, without interruption
    for (const t of TABLES) await store.client.command({ query: `TRUNCATE TABLE ${t}` });
    await setCheckpoint(store, "decoder", 0);
    const whole = await decode(join(dir, "keys-whole"), () => head, () => false);
    const a = await dump(join(dir, "keys-whole"));
    console.log(
      [
        `head ${head}, ${landed.length} kills in ${runs.length} runs (${killedMs} ms with the chain's activity), the uninterrupted run ${whole.ms} ms, ${Date.now() - t0} ms in all`,
        ...landed.map((l, i) => `kill ${i + 1}: ${l.kind}${l.chainRunning ? "" : " (chain stopped)"}: ${l.where}; ${l.past} rows past the checkpoint`),
        `rows: ${JSON.stringify(Object.fromEntries(Object.entries(a.tables).map(([k, v]) => [k, v.length])))}`,
      ].join("\n"),
    );

    expect(landed.length).toBeGreaterThanOrEqual(KILLS);
    expect(landed.filter((l) => l.chainRunning).length).toBeGreaterThanOrEqual(KILLS);
    expect(landed.filter((l) => l.kind === "startup" && runs[landed.indexOf(l)]!.decoded.length === 0).length).toBeGreaterThanOrEqual(1);
    // killed between a block's rows and its checkpoint: the rows are there, the checkpoint before them
    const betweenRowsAndCheckpoint = landed.filter((l) => l.kind === "checkpoint" && l.trigger === "planned");
    expect(betweenRowsAndCheckpoint.length).toBeGreaterThanOrEqual(1);
    for (const l of betweenRowsAndCheckpoint) expect(l.past, l.where).toBeGreaterThan(0);
    expect(landed.filter((l) => l.kind === "insert" && l.trigger === "planned").length).toBeGreaterThanOrEqual(1);
    expect(landed.filter((l) => l.kind === "confirm")).toMatchObject([{ trigger: "planned" }]);

    // the scenario is what the decoder is meant to decide: a denied wallet and item, the early
    // wallet's and its transfer's confirmation, an aborted burn
    const verdicts = (t: string) => a.tables[t]!.map((r) => (r as { verdict: string }).verdict).sort();
    expect(verdicts("jetton_wallets")).toEqual(["confirmed", "confirmed", "confirmed", "confirmed", "denied"]);
    expect(verdicts("nft_items")).toEqual(["confirmed", "confirmed", "denied"]);
    expect(a.tables.jetton_masters).toHaveLength(2);
    expect(a.tables.jetton_transfers!.filter((r) => (r as { comment: string | null }).comment === "before the master")).toMatchObject([{ confirmed: 1 }]);
    expect(a.tables.jetton_burns).toMatchObject([{ transaction_aborted: true, query_id: "66" }]);
    expect(a.tables.nft_transfers).toHaveLength(4);

    expect(a.checkpoint).toBe(head);
    expect(b.checkpoint).toBe(head);
    for (const t of TABLES) expect(b.tables[t], t).toEqual(a.tables[t]);
    // the key-index tables hold the scenario (wallets and transfers by owner, items by owner), as of the head
    const keyTable = (t: string) => a.keys.filter((k) => k.table === `decoder/${t}`);
    for (const t of ["jetton_wallets_by_owner", "jetton_transfers_by_owner", "nft_items_by_owner", "interfaces"]) expect(keyTable(t).length, t).toBeGreaterThan(0);
    expect(keyTable("staged")).toEqual([]);
    expect(b.keys).toEqual(a.keys);
    passed = true;
  }, 600_000);
});
