// Benchmark (issue 6): indexer ingest, from blocks fetched over ADNL from a real liteserver to rows
// committed in embedded chDB, with the parse-only ceiling of the same blocks in the same run.
//  1. The chain: a localnet of wallet-to-wallet transfers (≥ BENCH_TX transactions, big blocks),
//     generated once into bench/.cache/indexer-chain-<params>/ (its --data-dir: the chain store) and reused.
//  2. The chain served by `tongate localnet --data-dir` in a child process (it opens the store).
//  3. Parse-only: every block fetched into memory first, then parsed by the same worker pool.
//  4. Ingest: indexRange from the liteserver into a fresh chDB directory.
//  Throughout 3 and 4, getMasterchainInfo every 0.5 s on a connection of its own: what the pool's health probe sees.
//   npm run bench:indexer-ingest   (BENCH_TX=100000, BENCH_WALLETS=400, BENCH_PARSE_WORKERS=cores, BENCH_PREFETCH=16)
//   BENCH_KEY_INDEX=off: ingest without the key index (on by default, as the indexer runs)
//   BENCH_SERVER_NODE_OPTIONS: node flags of the serving localnet (e.g. --cpu-prof)
//   BENCH_DECODE=ab (default): parse-only and ingest each run with message bodies decoded (A) and
//     without (B, TONGATE_DECODE_BODIES=off in the parse workers), in the order A B B A B A A B, and the
//     ratio B→A reported; "on": decoded only (as the indexer runs), "off": without only
import { createPrivateKey, sign as ed25519Sign, type KeyObject } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beginCell, external, internal, storeMessage, toNano, type Cell } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { buildShardState, Localnet, localnetProofs } from "@tongate/localnet";
import { LiteserverPool } from "@tongate/liteclient";
import { type BlockParser, type ParseContext, ParsePool, indexRange, masterchainHead, openIndexStore, parseInline, setBodyDecoding, startMcBatch } from "@tongate/indexer";
import { installSpeedShims } from "@tongate/ton";
import type { ShardTopRow } from "@tongate/indexer";
import { firstLiteserver, monitorProbes } from "./support/probe-latency.js";
import { freePort, startProcess, stopProcess } from "./support/processes.js";

installSpeedShims(); // as `tongate` does at startup

const TX = Number(process.env.BENCH_TX ?? 100_000);
const WALLETS = Number(process.env.BENCH_WALLETS ?? 400);
const SEED = "bench-indexer-ingest";
const PARSE_WORKERS = Number(process.env.BENCH_PARSE_WORKERS ?? os.availableParallelism());
const PREFETCH = Number(process.env.BENCH_PREFETCH ?? 16);
const DECODE = process.env.BENCH_DECODE ?? "ab";
if (!["ab", "on", "off"].includes(DECODE)) throw new Error(`BENCH_DECODE: "ab", "on" or "off", not ${DECODE}`);
/**
 * The runs in order: decoded (true) and not (false), A B B A B A A B, so that a drift of the shared
 * host's load, or of this process (each ingest opens another chDB directory), falls on both alike.
 */
const RUNS: boolean[] = DECODE === "ab" ? [true, false, false, true, false, true, true, false] : [DECODE === "on"];
/** Decoding in this thread and in the parse workers a pool starts from now on (they copy the environment when they start). */
function decodeBodies(on: boolean): void {
  setBodyDecoding(on);
  process.env.TONGATE_DECODE_BODIES = on ? "on" : "off";
}
const root = fileURLToPath(new URL("..", import.meta.url));
const chainDir = join(root, "bench", ".cache", `indexer-chain-w${WALLETS}-tx${TX}`);
const doneFile = join(chainDir, "complete.json");

interface ChainInfo {
  transactions: number;
  mcSeqno: number;
  shardBlocks: number;
  generateSeconds: number;
}

/** The DER (PKCS #8) header of an Ed25519 private key; the 32-byte seed follows. */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/**
 * A wallet signer on node's OpenSSL Ed25519 (deterministic: the same signature as @ton/crypto's
 * tweetnacl, which made signing the transfers most of the generator's main-thread time).
 */
function nodeSigner(secretKey: Buffer): (message: Cell) => Promise<Buffer> {
  const key: KeyObject = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, secretKey.subarray(0, 32)]), format: "der", type: "pkcs8" });
  return (message) => Promise.resolve(ed25519Sign(null, message.hash(), key));
}

/** Generates the chain into `chainDir`: every round each v4r2 wallet sends 0.01 TON to the next, then one seal. */
async function generateChain(): Promise<ChainInfo> {
  rmSync(chainDir, { recursive: true, force: true }); // an interrupted generation leaves a partial store
  const t0 = performance.now();
  // The smallest window of blocks held in memory: with 800 transactions a block, the default window
  // (256 blocks, each with its cells, state and transactions) grows the heap by tens of MB a block and
  // each seal's garbage collection with it. Nothing reads old blocks while the chain is generated.
  const net = await Localnet.start({ seed: SEED, wallets: WALLETS, listen: [], buildState: buildShardState, proofs: localnetProofs, dataDir: chainDir, blockIntervalMs: 0, stateWindow: 16 });
  const v4 = net.genesis.wallets.filter((w) => w.version === "v4r2");
  const contracts = v4.map((w) => WalletContractV4.create({ workchain: 0, publicKey: w.keyPair.publicKey }));
  const signers = v4.map((w) => nodeSigner(w.keyPair.secretKey));
  // Counted as sealed (reading the whole chain back from the store every round would cost more than the seal).
  const initial = [...net.chain.masterchain, ...net.chain.shardchain]; // the first seal, at start
  let transactions = initial.reduce((n, b) => n + b.transactions.length, 0);
  let shardBlocks = net.chain.shardchain.length;
  let lastLog = 0;
  for (let round = 0; transactions < TX; round++) {
    const msgs = await Promise.all(
      v4.map(async (w, i) => {
        const body = await contracts[i]!.createTransfer({
          seqno: round,
          signer: signers[i]!,
          messages: [internal({ to: v4[(i + 1) % v4.length]!.address, value: toNano("0.01"), bounce: false })],
        });
        return beginCell().store(storeMessage(external({ to: contracts[i]!.address, body }))).endCell().toBoc();
      }),
    );
    await Promise.all(msgs.map((m) => net.chain.sendExternal(m)));
    const mc = await net.chain.seal();
    const sealed = [mc, ...net.chain.shardTips.flatMap((t) => (t.rec && t.rec.mcSeqno === mc.mcSeqno ? [t.rec] : []))];
    transactions += sealed.reduce((n, b) => n + b.transactions.length, 0);
    shardBlocks += sealed.length - 1;
    if (performance.now() - lastLog > 5000) {
      lastLog = performance.now();
      const s = (performance.now() - t0) / 1000;
      console.log(`  generating: mc ${mc.id.seqno}, ${transactions}/${TX} transactions, ${s.toFixed(0)} s (${(transactions / s).toFixed(0)} tx/s)`);
    }
  }
  const info: ChainInfo = {
    transactions,
    mcSeqno: net.chain.lastMasterchain!.id.seqno,
    shardBlocks,
    generateSeconds: Number(((performance.now() - t0) / 1000).toFixed(1)),
  };
  // The chain store is closed by chain.close(); the emulator's close after it can wait on a promise
  // nothing settles (the process then exits with "unsettled top-level await", code 13, before the
  // chain is marked complete): the store first, then the emulator, waited for at most 30 s.
  await net.chain.close();
  const closed = await Promise.race([net.chain.executor.close().then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 30_000))]);
  if (!closed) console.log("  (the localnet's close did not finish in 30 s; its chain store is closed)");
  writeFileSync(doneFile, JSON.stringify(info, null, 2));
  return info;
}

const chain: ChainInfo = existsSync(doneFile) ? (JSON.parse(readFileSync(doneFile, "utf8")) as ChainInfo) : await generateChain();
console.log(`chain ${chainDir}: ${chain.transactions} transactions in ${chain.mcSeqno} masterchain and ${chain.shardBlocks} shard blocks`);
if (process.env.BENCH_GENERATE_ONLY) process.exit(0);

// The chain served by a liteserver in its own process (it opens the store: no replay).
const port = await freePort();
const controlPort = await freePort();
const tmp = mkdtempSync(join(os.tmpdir(), "tongate-ingest-"));
const configPath = join(tmp, "global.config.json");
let t0 = performance.now();
// BENCH_GLOBAL_CONFIG: a liteserver already serving this chain (e.g. left up by an earlier run)
const server = process.env.BENCH_GLOBAL_CONFIG
  ? null
  : await startProcess(
      process.execPath,
      [
        ...(process.env.BENCH_SERVER_NODE_OPTIONS ?? "").split(" ").filter(Boolean), // e.g. --cpu-prof
        join(root, "cli/bin/tongate.js"),
        "localnet",
        ...["--seed", SEED, "--wallets", String(WALLETS), "--block-interval", "0", "--data-dir", chainDir],
        ...["--listen", `127.0.0.1:${port}`, "--control", `127.0.0.1:${controlPort}`, "--write-global-config", configPath],
      ],
      /localnet running/,
      {},
      3_600_000,
    );
const startSeconds = (performance.now() - t0) / 1000;
if (server) console.log(`liteserver up (store opened) in ${startSeconds.toFixed(1)} s`);

const globalConfig = JSON.parse(readFileSync(process.env.BENCH_GLOBAL_CONFIG ?? configPath, "utf8")) as Parameters<typeof LiteserverPool.fromGlobalConfig>[0] & Parameters<typeof firstLiteserver>[0];
const lite = LiteserverPool.fromGlobalConfig(globalConfig);
// What the pool's health probe sees while the bench loads the liteserver.
const probes = await monitorProbes(firstLiteserver(globalConfig));
await lite.ready(10_000);
const head = (await masterchainHead(lite)).seqno;
decodeBodies(RUNS[0]!);
let parsePool = ParsePool.create(PARSE_WORKERS);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

// (a) Every block fetched into memory (with the ids the parse checks it against), then parsed.
const fetched: { boc: Buffer; ctx: ParseContext }[] = [];
const recording: BlockParser = (boc, ctx) => {
  fetched.push({ boc, ctx });
  return parsePool.parse(boc, ctx);
};
t0 = performance.now();
let tops: Promise<readonly ShardTopRow[]> | readonly ShardTopRow[] = [];
for (let seqno = 1; seqno <= head; seqno++) {
  const b = startMcBatch(lite, seqno, tops, { parse: recording });
  tops = b.tops;
  await b.batch;
}
const fetchSeconds = (performance.now() - t0) / 1000;
const bytes = fetched.reduce((n, f) => n + f.boc.length, 0);
console.log(`fetched ${fetched.length} blocks (${(bytes / 2 ** 20).toFixed(1)} MiB) in ${fetchSeconds.toFixed(1)} s`);

interface Run {
  seconds: number;
  cpuSeconds: number;
  transactions: number;
}

async function parseAll(parse: BlockParser, inFlight: number): Promise<Run> {
  const start = performance.now();
  const cpu0 = cpu();
  let transactions = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < fetched.length) {
        const f = fetched[next++]!;
        const parsed = await parse(f.boc, f.ctx);
        transactions += parsed.rows.transactions.length;
      }
    }),
  );
  return { seconds: (performance.now() - start) / 1000, cpuSeconds: cpu() - cpu0, transactions };
}

/** A fresh pool whose workers decode bodies or not. */
async function poolFor(decode: boolean): Promise<ParsePool> {
  await parsePool.close();
  decodeBodies(decode);
  return ParsePool.create(PARSE_WORKERS);
}

// Parse-only, in this thread (the rows alone) and in the pool (the rows and their key-index form,
// where bodies are decoded), for each run of RUNS, after one run of each that is not counted (the
// first pays for compiling the code and filling the caches).
const inline: Run[] = [];
const pooled: Run[] = [];
parsePool = await poolFor(RUNS[0]!);
await parseAll(parseInline, 1);
await parseAll(parsePool.parse, parsePool.size * 4);
for (const decode of RUNS) {
  parsePool = await poolFor(decode);
  inline.push(await parseAll(parseInline, 1));
  pooled.push(await parseAll(parsePool.parse, parsePool.size * 4));
  console.log(`  parse-only, bodies ${decode ? "decoded" : "not decoded"}: this thread ${rate(inline.at(-1)!.transactions, inline.at(-1)!.seconds)} tx/s, ${parsePool.size} workers ${rate(pooled.at(-1)!.transactions, pooled.at(-1)!.seconds)} tx/s`);
}
for (const run of [...inline, ...pooled]) {
  if (run.transactions !== chain.transactions) throw new Error(`parsed ${run.transactions} transactions, the chain has ${chain.transactions}`);
}
fetched.length = 0;

// (b) Ingest: fetched from the liteserver, parsed in the pool, inserted into a fresh chDB directory,
// with the key index, as the indexer writes it by default (BENCH_KEY_INDEX=off: ClickHouse only),
// once per run of RUNS.
interface Ingest extends Run {
  insertSeconds: number;
  blocks: number;
}
async function ingest(decode: boolean, n: number): Promise<Ingest> {
  parsePool = await poolFor(decode);
  const dir = join(tmp, `chdb-${n}`);
  const store = await openIndexStore({ path: dir, keyIndex: (process.env.BENCH_KEY_INDEX ?? "on") !== "off" });
  let insertSeconds = 0;
  let lastLog = 0;
  const start = performance.now();
  const cpu0 = cpu();
  const r = await indexRange(lite, store, {
    from: 1,
    to: head,
    parse: parsePool.parse,
    prefetch: PREFETCH,
    onStored: (b) => {
      insertSeconds += b.insertSeconds;
      if (performance.now() - lastLog > 5000) {
        lastLog = performance.now();
        console.log(`  ingest (bodies ${decode ? "decoded" : "not decoded"}): mc ${b.mcSeqno}/${head}, ${b.progress.totalTransactions} transactions, ${b.progress.txPerSec.toFixed(0)} tx/s`);
      }
    },
  });
  const seconds = (performance.now() - start) / 1000;
  const cpuSeconds = cpu() - cpu0;
  const stored = await (await store.client.query({ query: "SELECT count() AS n FROM transactions FINAL", format: "JSONEachRow" })).json<{ n: string }>();
  if (Number(stored[0]!.n) !== chain.transactions || r.transactions !== chain.transactions) {
    throw new Error(`stored ${stored[0]!.n} transactions, the chain has ${chain.transactions}`);
  }
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(`  ingest, bodies ${decode ? "decoded" : "not decoded"}${n < 0 ? " (not counted)" : ""}: ${rate(r.transactions, seconds)} tx/s (${seconds.toFixed(1)} s)`);
  return { seconds, cpuSeconds, transactions: r.transactions, insertSeconds, blocks: r.blocks };
}
const ingests: Ingest[] = [];
await ingest(RUNS[0]!, -1); // not counted, as the first parse-only runs
for (const [n, decode] of RUNS.entries()) ingests.push(await ingest(decode, n));
const probeStats = await probes.stop();
await parsePool.close();
await lite.close();
if (server) await stopProcess(server);
rmSync(tmp, { recursive: true, force: true });

function rate(n: number, s: number): string {
  return Math.round(n / s).toLocaleString("en-US");
}
const txPerSec = (runs: Run[], decode: boolean) => {
  const picked = runs.filter((_, i) => RUNS[i] === decode);
  return picked.reduce((n, r) => n + r.transactions, 0) / picked.reduce((n, r) => n + r.seconds, 0);
};
const blocks = ingests[0]!.blocks;
const label = (decode: boolean) => (decode ? "decoded" : "not decoded");
console.log();
console.log(`indexer ingest — ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}, ${new Date().toISOString()}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
console.log(`chain: ${chain.transactions.toLocaleString("en-US")} transactions, ${head} masterchain + ${blocks - head} shard blocks (${WALLETS} wallets); liteserver start ${server ? `${startSeconds.toFixed(1)} s` : "(given)"}, fetch into memory ${fetchSeconds.toFixed(1)} s`);
console.log(`getMasterchainInfo probes during fetch and ingest (every 0.5 s): ${probeStats.probes}, p50 ${probeStats.p50Ms} ms, p99 ${probeStats.p99Ms} ms, max ${probeStats.maxMs} ms, over 2 s ${probeStats.over2s}`);
console.log();
console.log("| run | bodies | tx/s | blocks/s | seconds | chDB inserts + checkpoints s | CPU s of this process (all its threads) |");
console.log("|---|---|---|---|---|---|---|");
for (const [i, decode] of RUNS.entries()) {
  const p = inline[i]!;
  console.log(`| parse-only, this thread (rows only: nothing rendered, nothing decoded) | ${label(decode)} | ${rate(p.transactions, p.seconds)} | ${rate(blocks, p.seconds)} | ${p.seconds.toFixed(1)} | | |`);
}
for (const [i, decode] of RUNS.entries()) {
  const p = pooled[i]!;
  console.log(`| parse-only, ${PARSE_WORKERS} workers | ${label(decode)} | ${rate(p.transactions, p.seconds)} | ${rate(blocks, p.seconds)} | ${p.seconds.toFixed(1)} | | ${p.cpuSeconds.toFixed(1)} |`);
}
for (const [i, decode] of RUNS.entries()) {
  const r = ingests[i]!;
  console.log(`| ingest (fetch + parse + insert), prefetch ${PREFETCH} | ${label(decode)} | ${rate(r.transactions, r.seconds)} | ${rate(r.blocks, r.seconds)} | ${r.seconds.toFixed(1)} | ${r.insertSeconds.toFixed(1)} | ${r.cpuSeconds.toFixed(1)} |`);
}
if (DECODE === "ab") {
  console.log();
  const ratio = (runs: Run[]) => (txPerSec(runs, true) / txPerSec(runs, false)).toFixed(2);
  // what the shared host's load does not move as much: transactions per CPU-second of this process
  const cpuOf = (runs: Run[], decode: boolean) => runs.filter((_, i) => RUNS[i] === decode).reduce((n, r) => n + r.cpuSeconds, 0);
  const cpuRatio = (runs: Run[]) => (cpuOf(runs, false) / cpuOf(runs, true)).toFixed(2);
  console.log(`decoded / not decoded (A B B A B A A B after a run not counted; transactions over seconds of each side): parse-only pool ${ratio(pooled)}, ingest ${ratio(ingests)}; per CPU-second of this process: parse-only pool ${cpuRatio(pooled)}, ingest ${cpuRatio(ingests)}`);
}
