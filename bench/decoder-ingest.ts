// Benchmark: ingest with the decoder on vs off, as `tongate start` runs them side by side on one
// store, on a chain of jetton and NFT transfers.
//  1. The chain (bench/support/token-chain.ts): ≥ BENCH_TRANSFERS jetton and NFT transfers between
//     many owners, on known code (precompiled readers) and unknown code (get-methods in the
//     emulator); generated once into bench/.cache/decoder-chain-<params>/ and reused.
//  2. The chain served by `tongate localnet --data-dir` in a child process, as in bench:indexer-ingest.
//  3. Rounds in ABBA order (off, on, on, off, …): `tongate start --global-config … --index-dir <fresh>
//     --decode off|on` in a child process each, indexing from block 1. /healthz is sampled every
//     BENCH_SAMPLE_MS: the indexer's last stored block and the decoder's last decoded one. The
//     indexer's rate is measured over the transfer rounds of the chain (its first sample at or past
//     them to the head); the decoder's lag is sampled over time, its catch-up is the time from the
//     indexer at the head to the decoder at the head.
//  4. The last "on" round's store is opened afterwards: every transfer the chain holds is there,
//     decoded and confirmed.
//   npm run bench:decoder-ingest   (BENCH_TRANSFERS=50000, BENCH_SENDERS=100, BENCH_ROUNDS=4)
//   BENCH_GENERATE_ONLY=1: generate the chain and stop
//   BENCH_TONGATE_NODE_OPTIONS: node flags of the measured `tongate start` (e.g. --cpu-prof)
//   BENCH_START_ARGS: more flags for it (e.g. "--parse-workers 1")
//   BENCH_PROFILE=1: then the decoder alone over the last "off" store, its time by phase
//   (bench/support/decoder-profile.ts; BENCH_PROFILE_NODE_OPTIONS=--cpu-prof for a profile of it)
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openStore, select } from "@tongate/store";
import { freePort, startProcess, stopProcess } from "./support/processes.js";
import { generateTokenChain, serveTokenChain, type TokenChainInfo, type TokenChainParams } from "./support/token-chain.js";

const params: TokenChainParams = {
  seed: "bench-decoder-ingest",
  senders: Number(process.env.BENCH_SENDERS ?? 100),
  wallets: Number(process.env.BENCH_SENDERS ?? 100) + 1,
  transfers: Number(process.env.BENCH_TRANSFERS ?? 50_000),
  itemsPerSender: Number(process.env.BENCH_ITEMS_PER_SENDER ?? 4),
  holders: Number(process.env.BENCH_HOLDERS ?? 5_000),
};
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SAMPLE_MS = Number(process.env.BENCH_SAMPLE_MS ?? 250);
/** BENCH_PROFILE=1: after the rounds, the decoder alone over the last "off" round's store, its time by phase */
const PROFILE = !!process.env.BENCH_PROFILE;
/** node flags of that process (e.g. --cpu-prof) */
const PROFILE_NODE_OPTIONS = (process.env.BENCH_PROFILE_NODE_OPTIONS ?? "").split(" ").filter(Boolean);
const root = fileURLToPath(new URL("..", import.meta.url));
const chainDir = join(root, "bench", ".cache", `decoder-chain-s${params.senders}-t${params.transfers}-i${params.itemsPerSender}-h${params.holders}`);
const doneFile = join(chainDir, "complete.json");
const loadavg = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
const loadBefore = loadavg();

const chain: TokenChainInfo = existsSync(doneFile) ? (JSON.parse(readFileSync(doneFile, "utf8")) as TokenChainInfo) : await generateTokenChain(chainDir, params, console.log);
const blocks = chain.mcSeqno + chain.shardBlocks;
console.log(
  `chain ${chainDir}: ${chain.jettonTransfers} jetton and ${chain.nftTransfers} NFT transfers (${chain.failedTransactions} failed transactions), ${chain.transactions} transactions in ${chain.mcSeqno} masterchain and ${chain.shardBlocks} shard blocks; transfers from block ${chain.firstTransferSeqno}; generated in ${chain.generateSeconds} s`,
);
if (process.env.BENCH_GENERATE_ONLY) process.exit(0);

// the child processes, stopped if the bench fails half-way
const children = new Set<ChildProcess>();
process.on("exit", () => {
  for (const c of children) c.kill("SIGKILL");
});

// The chain served by a liteserver in its own process (it opens the store: no replay).
const tmp = mkdtempSync(join(os.tmpdir(), "tongate-decoder-ingest-"));
const configPath = join(tmp, "global.config.json");
const server = await serveTokenChain(join(root, "cli/bin/tongate.js"), chainDir, params, configPath);
children.add(server);

interface Sample {
  /** seconds since the process was spawned */
  t: number;
  indexed: number;
  decoded: number;
}

interface RoundResult {
  mode: "off" | "on";
  startSeconds: number;
  /** the indexer over the transfer rounds: from its first sample there to the head */
  indexSeconds: number;
  /** from the process's spawn to the indexer at the head (its start included) */
  toHeadSeconds: number;
  indexBlocks: number;
  indexTransactions: number;
  /** the decoder over the same window, to the head */
  decodeSeconds?: number;
  decodeBlocks?: number;
  /** from the indexer at the head to the decoder at the head */
  catchUpSeconds?: number;
  maxLag?: number;
  lagAtIndexed?: number;
  /** CPU seconds of the process (all threads, chDB's included) until the indexer, and the decoder, were done */
  cpuIndexed: number;
  cpuDone: number;
  rssMiB: number;
  samples: Sample[];
  storeDir: string;
  liteserver?: LiteserverCounters;
}

/** Transactions of masterchain block `seqno` and the shard blocks it commits. */
const txOf = (from: number, to: number) => chain.blockTransactions.slice(from + 1, to + 1).reduce((n, x) => n + x, 0);

function procStat(pid: number): { cpu: number; rssMiB: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const tick = 100; // USER_HZ
  const cpu = (Number(fields[11]) + Number(fields[12])) / tick;
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return { cpu, rssMiB: rss ? Number(rss[1]) / 1024 : 0 };
}

interface Health {
  detail?: {
    indexer?: { lastIndexedSeqno?: number };
    decoder?: { decodedSeqno?: number; lastError?: string | null };
    "lite-proxy"?: { pool?: { liteservers?: { counters?: LiteserverCounters }[] } };
  };
}

/** The pool's counters of the liteserver (the process's own pool: probes that failed, queries that timed out). */
interface LiteserverCounters {
  queries: number;
  timeouts: number;
  reconnects: number;
  probeFailures: number;
}

async function round(mode: "off" | "on", n: number): Promise<RoundResult> {
  const storeDir = join(tmp, `store-${n}-${mode}`);
  const port = await freePort();
  const t0 = performance.now();
  const seconds = () => (performance.now() - t0) / 1000;
  const child: ChildProcess = await startProcess(
    process.execPath,
    [
      ...(process.env.BENCH_TONGATE_NODE_OPTIONS ?? "").split(" ").filter(Boolean),
      join(root, "cli/bin/tongate.js"),
      "start",
      ...["--global-config", configPath, "--index-dir", storeDir, "--index-from", "1", "--decode", mode],
      ...["--host", "127.0.0.1", "--port", String(port), "--ratelimit", "off", "--chain-halt-after", "0", "--log-format", "json"],
      ...(process.env.BENCH_START_ARGS ?? "").split(" ").filter(Boolean),
    ],
    /tongate (is )?ready/,
    {},
    600_000,
  );
  children.add(child);
  const startSeconds = seconds();
  const samples: Sample[] = [];
  let cpuIndexed = 0;
  let lastError: string | undefined;
  let liteserver: LiteserverCounters | undefined;
  for (;;) {
    const h = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as Health;
    liteserver = h.detail?.["lite-proxy"]?.pool?.liteservers?.[0]?.counters ?? liteserver;
    const s: Sample = { t: seconds(), indexed: h.detail?.indexer?.lastIndexedSeqno ?? 0, decoded: h.detail?.decoder?.decodedSeqno ?? 0 };
    if (h.detail?.decoder?.lastError && h.detail.decoder.lastError !== lastError) {
      lastError = h.detail.decoder.lastError;
      console.log(`    decoder error at ${s.t.toFixed(1)} s: ${lastError}`);
    }
    const first = samples.length === 0 || samples[samples.length - 1]!.indexed < chain.mcSeqno;
    samples.push(s);
    if (s.indexed >= chain.mcSeqno && first) cpuIndexed = procStat(child.pid!).cpu;
    if (s.indexed >= chain.mcSeqno && (mode === "off" || s.decoded >= chain.mcSeqno)) break;
    if (s.t > 3600) throw new Error(`round ${n} (${mode}) did not finish in an hour: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, SAMPLE_MS));
  }
  const { cpu: cpuDone, rssMiB } = procStat(child.pid!);
  await stopProcess(child);
  children.delete(child);

  const start = samples.find((s) => s.indexed >= chain.firstTransferSeqno) ?? samples[0]!;
  const indexedAt = samples.find((s) => s.indexed >= chain.mcSeqno)!;
  const r: RoundResult = {
    mode,
    startSeconds,
    indexSeconds: indexedAt.t - start.t,
    toHeadSeconds: indexedAt.t,
    indexBlocks: blockCount(start.indexed, chain.mcSeqno),
    indexTransactions: txOf(start.indexed, chain.mcSeqno),
    cpuIndexed,
    cpuDone,
    rssMiB,
    samples,
    storeDir,
    liteserver,
  };
  if (mode === "on") {
    const decodedAt = samples[samples.length - 1]!;
    r.decodeSeconds = decodedAt.t - start.t;
    r.decodeBlocks = chain.mcSeqno - start.decoded;
    r.catchUpSeconds = decodedAt.t - indexedAt.t;
    r.maxLag = Math.max(...samples.map((s) => s.indexed - s.decoded));
    r.lagAtIndexed = indexedAt.indexed - indexedAt.decoded;
  }
  return r;
}

/** About 12 samples of a round's lag, evenly over it. */
function lagSeries(r: RoundResult): string {
  const step = Math.max(1, Math.floor(r.samples.length / 12));
  const picked = r.samples.filter((_, i) => i % step === 0 || i === r.samples.length - 1);
  return picked.map((s) => `${s.t.toFixed(0)}: ${s.indexed - s.decoded}`).join(", ");
}

/** Masterchain blocks after `from` up to `to`, with their shard blocks. */
const blockCount = (from: number, to: number) => chain.blockCounts.slice(from + 1, to + 1).reduce((n, x) => n + x, 0);

const order: ("off" | "on")[] = Array.from({ length: ROUNDS }, (_, i) => (i % 4 === 0 || i % 4 === 3 ? "off" : "on"));
const results: RoundResult[] = [];
for (const [i, mode] of order.entries()) {
  const la = loadavg();
  const r = await round(mode, i);
  results.push(r);
  const lagLine = r.mode === "on" ? `; decoder ${fmt(r.decodeBlocks! / r.decodeSeconds!, 1)} mc blocks/s, lag max ${r.maxLag} at the head ${r.lagAtIndexed}, caught up ${r.catchUpSeconds!.toFixed(1)} s later` : "";
  console.log(
    `  round ${i + 1}/${order.length} decoder ${mode}: started in ${r.startSeconds.toFixed(1)} s; indexer ${fmt(r.indexTransactions / r.indexSeconds)} tx/s, ${fmt(r.indexBlocks / r.indexSeconds, 1)} blocks/s (${r.indexSeconds.toFixed(1)} s)${lagLine}; CPU ${r.cpuIndexed.toFixed(1)} / ${r.cpuDone.toFixed(1)} s, RSS ${r.rssMiB.toFixed(0)} MiB; liteserver ${r.liteserver ? `${r.liteserver.queries} queries, ${r.liteserver.timeouts} timed out, ${r.liteserver.probeFailures} probes failed, ${r.liteserver.reconnects} reconnects` : "?"} (load ${la})`,
  );
  if (r.mode === "on") console.log(`    lag over time (s: blocks behind): ${lagSeries(r)}`);
  // the last "on" store is checked after the rounds, the last "off" one profiled; the others go now
  const lastOfItsMode = !order.slice(i + 1).includes(mode);
  if (!(lastOfItsMode && (mode === "on" || PROFILE))) rmSync(r.storeDir, { recursive: true, force: true });
}

// The decoder alone, in a process of its own, over the last "off" round's store: where its time goes.
let profile: { blocks: number; seconds: number; blockMsTotal: number; cpuSeconds: number; timings: Record<string, { ms: number; calls: number }> } | undefined;
const lastOff = [...results].reverse().find((r) => r.mode === "off");
if (PROFILE && lastOff) {
  console.log();
  console.log("the decoder alone over the last \"off\" round's store (bench/support/decoder-profile.ts):");
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [...PROFILE_NODE_OPTIONS, "--import", "tsx", join(root, "bench/support/decoder-profile.ts"), lastOff.storeDir, configPath, String(chain.mcSeqno)], { stdio: ["ignore", "pipe", "inherit"] });
    children.add(child);
    let text = "";
    child.stdout!.on("data", (d: Buffer) => {
      text += d.toString();
      process.stdout.write(d);
    });
    child.once("exit", (code) => (children.delete(child), code === 0 ? resolve(text) : reject(new Error(`decoder-profile exited ${code}`))));
  });
  profile = JSON.parse(out.trim().split("\n").pop()!) as typeof profile;
  rmSync(lastOff.storeDir, { recursive: true, force: true });
}
await stopProcess(server);

function fmt(n: number, digits = 0): string {
  return n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

// Every transfer of the chain decoded and confirmed, in the last "on" round's store.
const last = [...results].reverse().find((r) => r.mode === "on");
let decodedCounts: Record<string, number> | undefined;
if (last) {
  const store = await openStore({ path: last.storeDir });
  const count = async (q: string) => Number((await select<{ n: string }>(store, q, {}))[0]!.n);
  decodedCounts = {
    jettonTransfers: await count("SELECT count() AS n FROM jetton_transfers FINAL WHERE confirmed = 1"),
    nftTransfers: await count("SELECT count() AS n FROM nft_transfers FINAL WHERE confirmed = 1"),
    jettonWallets: await count("SELECT uniqExact(address) AS n FROM jetton_wallets WHERE verdict = 'confirmed'"),
    nftItems: await count("SELECT uniqExact(address) AS n FROM nft_items WHERE verdict = 'confirmed'"),
  };
  await store.close();
  rmSync(last.storeDir, { recursive: true, force: true });
}
rmSync(tmp, { recursive: true, force: true });
const loadAfter = loadavg();

// --- report
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const offs = results.filter((r) => r.mode === "off");
const ons = results.filter((r) => r.mode === "on");
const txRate = (r: RoundResult) => r.indexTransactions / r.indexSeconds;
const blockRate = (r: RoundResult) => r.indexBlocks / r.indexSeconds;
const ratio = mean(ons.map(txRate)) / mean(offs.map(txRate));
/** the same from the processes' spawn (their start included) */
const toHeadRatio = mean(offs.map((r) => r.toHeadSeconds)) / mean(ons.map((r) => r.toHeadSeconds));
/** the lag's growth while the indexer runs: blocks per second, least squares over the samples */
function lagSlope(r: RoundResult): number {
  const xs = r.samples.filter((s) => s.indexed < chain.mcSeqno && s.indexed >= chain.firstTransferSeqno);
  if (xs.length < 3) return 0;
  const mt = mean(xs.map((s) => s.t));
  const ml = mean(xs.map((s) => s.indexed - s.decoded));
  const num = xs.reduce((n, s) => n + (s.t - mt) * (s.indexed - s.decoded - ml), 0);
  const den = xs.reduce((n, s) => n + (s.t - mt) ** 2, 0);
  return den === 0 ? 0 : num / den;
}
const decoderMcRate = mean(ons.map((r) => r.decodeBlocks! / r.decodeSeconds!));
const indexerMcRate = mean(ons.map((r) => (chain.mcSeqno - (r.samples.find((s) => s.indexed >= chain.firstTransferSeqno) ?? r.samples[0]!).indexed) / r.indexSeconds));

console.log();
console.log(`decoder ingest — ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}, ${new Date().toISOString()}, load average before ${loadBefore}, after ${loadAfter}`);
console.log(
  `chain: ${fmt(chain.jettonTransfers)} jetton + ${fmt(chain.nftTransfers)} NFT transfers, ${fmt(chain.transactions)} transactions, ${chain.mcSeqno} masterchain + ${chain.shardBlocks} shard blocks (${blocks}); ${params.senders} sending owners, ${params.holders} receiving-only owners`,
);
if (decodedCounts) console.log(`decoded (last "on" round): ${JSON.stringify(decodedCounts)}`);
console.log();
console.log("| round | decoder | indexer tx/s | indexer blocks/s | indexer at head s | decoder mc blocks/s | lag max (at head) | lag growth blocks/s | catch-up s | CPU s (indexed / done) | RSS MiB |");
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
for (const [i, r] of results.entries()) {
  const on = r.mode === "on";
  console.log(
    `| ${i + 1} | ${r.mode} | ${fmt(txRate(r))} | ${fmt(blockRate(r), 1)} | ${r.toHeadSeconds.toFixed(1)} | ${on ? fmt(r.decodeBlocks! / r.decodeSeconds!, 2) : "–"} | ${on ? `${r.maxLag} (${r.lagAtIndexed})` : "–"} | ${on ? lagSlope(r).toFixed(2) : "–"} | ${on ? r.catchUpSeconds!.toFixed(1) : "–"} | ${r.cpuIndexed.toFixed(1)} / ${r.cpuDone.toFixed(1)} | ${r.rssMiB.toFixed(0)} |`,
  );
}
console.log();
console.log(
  `indexer with the decoder / without: ${ratio.toFixed(2)} (tx/s, means of ${ons.length} and ${offs.length} rounds; target ≥ 0.8), ${toHeadRatio.toFixed(2)} by the time from spawn to the head; decoder ${decoderMcRate.toFixed(2)} masterchain blocks/s against the indexer's ${indexerMcRate.toFixed(2)} in the same rounds`,
);
const bounded = decoderMcRate >= indexerMcRate;
console.log(
  bounded
    ? "lag: bounded — the decoder decodes faster than the indexer stores, so it stays within a few blocks of it"
    : `lag: grows while the indexer catches up (${mean(ons.map(lagSlope)).toFixed(2)} blocks/s on average); following a chain it stays bounded while blocks come slower than the decoder's ${(1 / decoderMcRate).toFixed(2)} s a masterchain block of ${fmt(chain.transactions / chain.mcSeqno)} transactions`,
);
console.log(
  JSON.stringify({
    bench: "decoder-ingest",
    chain: { transactions: chain.transactions, jettonTransfers: chain.jettonTransfers, nftTransfers: chain.nftTransfers, mcBlocks: chain.mcSeqno, shardBlocks: chain.shardBlocks },
    ratio: Number(ratio.toFixed(3)),
    toHeadRatio: Number(toHeadRatio.toFixed(3)),
    decoderMcBlocksPerSecond: Number(decoderMcRate.toFixed(3)),
    indexerMcBlocksPerSecond: Number(indexerMcRate.toFixed(3)),
    decodedCounts,
    profile,
    rounds: results.map((r) => ({
      mode: r.mode,
      txPerSecond: Math.round(txRate(r)),
      blocksPerSecond: Number(blockRate(r).toFixed(2)),
      indexSeconds: Number(r.indexSeconds.toFixed(2)),
      toHeadSeconds: Number(r.toHeadSeconds.toFixed(2)),
      decodeSeconds: r.decodeSeconds && Number(r.decodeSeconds.toFixed(2)),
      catchUpSeconds: r.catchUpSeconds && Number(r.catchUpSeconds.toFixed(2)),
      maxLag: r.maxLag,
      lagAtIndexed: r.lagAtIndexed,
      lagSlope: r.mode === "on" ? Number(lagSlope(r).toFixed(3)) : undefined,
      cpuIndexed: r.cpuIndexed,
      cpuDone: r.cpuDone,
      rssMiB: Math.round(r.rssMiB),
      liteserver: r.liteserver,
    })),
    loadBefore,
    loadAfter,
  }),
);
