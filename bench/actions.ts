// Benchmark (issue 25): how fast traces are classified into actions, and whether the decoder's
// classification keeps up with the indexer's ingest.
//  1. Fixture traces: toncenter's recorded mainnet traces (../shared/fixtures/toncenter_actions/traces,
//     TONCENTER_ACTIONS_DIR, ~100: wallet transfers, jettons, NFTs, DEX swaps, staking, multisig…),
//     read with the replay harness's loader (tests/support/toncenter-actions.ts) and classified with
//     their own `interfaces` as facts, replicated to BENCH_TRACES (≥ 100,000) classifications. Each
//     round classifies fresh copies of the traces (structuredClone, untimed), so nothing a trace
//     object carries from an earlier round is reused. Baseline in the same run: parsing every message
//     body's BoC of the same traces, the least any classifier does.
//  2. Localnet, mixed traffic: the decoder benchmarks' token chain (bench/support/token-chain.ts:
//     jetton and NFT transfers among many owners, new wallets deployed, comments, excesses, tick-tock;
//     generated once into bench/.cache/) served by `tongate localnet --data-dir`, and `tongate start
//     --decode on --index-from 1` in a child process, /healthz sampled every BENCH_SAMPLE_MS. The
//     indexer's ingest rate: the complete traces of the transfer blocks over the time it took to store
//     them. The decoder's classification rate: the traces it classified over the seconds its
//     classification step took (its metrics), and over its wall time from the first transfer block to
//     the head (bounded by ingest while it follows the indexer). Ratio ≥ 1.0: the classifier keeps up.
//   npm run bench:actions   (BENCH_TRACES=100000 BENCH_ROUNDS=3 BENCH_TRANSFERS=6000 BENCH_SENDERS=40)
//   BENCH_PART=fixtures|localnet: one part only; BENCH_FAMILIES=standard (or a comma list of the
//   suite's families): the fixture part on those families' traces only; BENCH_GENERATE_ONLY=1: generate the chain and stop
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Cell } from "@ton/core";
import { classifyTrace, type InterfaceLookup, type TraceInput } from "@tongate/actions";
import { openStore, select } from "@tongate/store";
import { installSpeedShims } from "@tongate/ton";
import { loadFamilies, loadTraceFile, toncenterActionsDir } from "../tests/support/toncenter-actions.js";
import { BenchRun, freePort, startProcess } from "./support/processes.js";
import { generateTokenChain, serveTokenChain, type TokenChainInfo, type TokenChainParams } from "./support/token-chain.js";

installSpeedShims(); // as `tongate` does at startup

const PART = process.env.BENCH_PART ?? "all";
const TRACES = Number(process.env.BENCH_TRACES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SAMPLE_MS = Number(process.env.BENCH_SAMPLE_MS ?? 250);
const root = fileURLToPath(new URL("..", import.meta.url));
const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const loadavg = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");
const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

console.log(`actions — ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}, ${new Date().toISOString()}, load average ${loadavg()}`);

// ---- 1. fixture traces

interface Loaded {
  trace: TraceInput;
  lookup: InterfaceLookup;
}

/** toncenter's families of the standard contracts (wallets, jettons, NFTs, staking, vesting): BENCH_FAMILIES=standard. */
const STANDARD_FAMILIES = ["ton-transfers", "jetton-transfer", "jetton-mints", "nft", "ethena", "tonstakers", "vesting"];

/** The fixture traces; with BENCH_FAMILIES (a comma list, or "standard"), only the traces of those families' cases. */
function fixtureTraces(): Loaded[] {
  const root = toncenterActionsDir();
  const dir = join(root, "traces");
  const wanted = process.env.BENCH_FAMILIES === "standard" ? STANDARD_FAMILIES : process.env.BENCH_FAMILIES?.split(",").filter(Boolean);
  const ids = wanted ? new Set(wanted.flatMap((f) => loadFamilies(root).get(f) ?? []).map((c) => c.traceId)) : undefined;
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json") && (!ids || ids.has(f.slice(0, -".json".length))))
    .sort()
    .map((f) => loadTraceFile(join(dir, f)));
}

interface FixtureRound {
  classifyPerSec: number;
  classifyPerCpuSec: number;
  parsePerSec: number;
  parsePerCpuSec: number;
}

/**
 * Classifies `copies` fresh copies of the traces, and parses every body of `baselineCopies` more
 * (the baseline's rate settles on far fewer traces).
 */
function fixtureRound(traces: Loaded[], copies: number, baselineCopies: number): FixtureRound {
  let classifySeconds = 0;
  let classifyCpu = 0;
  for (let c = 0; c < copies; c++) {
    const fresh = traces.map((t) => ({ trace: structuredClone(t.trace), lookup: t.lookup }));
    const t0 = performance.now();
    const c0 = cpuSeconds();
    for (const t of fresh) classifyTrace(t.trace, t.lookup);
    classifySeconds += (performance.now() - t0) / 1000;
    classifyCpu += cpuSeconds() - c0;
  }
  let parseSeconds = 0;
  let parseCpu = 0;
  for (let c = 0; c < baselineCopies; c++) {
    const fresh = traces.map((t) => structuredClone(t.trace));
    const t0 = performance.now();
    const c0 = cpuSeconds();
    for (const tr of fresh) for (const tx of tr.transactions) for (const m of [tx.inMsg, ...tx.outMsgs]) if (m?.body) Cell.fromBase64(m.body);
    parseSeconds += (performance.now() - t0) / 1000;
    parseCpu += cpuSeconds() - c0;
  }
  const n = copies * traces.length;
  const b = baselineCopies * traces.length;
  return { classifyPerSec: n / classifySeconds, classifyPerCpuSec: n / classifyCpu, parsePerSec: b / parseSeconds, parsePerCpuSec: b / parseCpu };
}

async function fixturesPart(): Promise<Record<string, unknown>> {
  const traces = fixtureTraces();
  const copies = Math.ceil(TRACES / traces.length);
  const txs = traces.reduce((n, t) => n + t.trace.transactions.length, 0);
  const states = new Map<string, number>();
  let actions = 0;
  for (const t of traces) {
    const c = classifyTrace(t.trace, t.lookup);
    states.set(c.state, (states.get(c.state) ?? 0) + 1);
    actions += c.actions.length;
  }
  const baselineCopies = Math.min(copies, Number(process.env.BENCH_BASELINE_COPIES ?? 50));
  fixtureRound(traces, 2, 2); // warm
  console.log();
  console.log(`1. fixture traces: ${traces.length} traces (${txs} transactions, ${actions} actions; states ${JSON.stringify(Object.fromEntries(states))}) from ${toncenterActionsDir()}, × ${copies} = ${fmt(copies * traces.length)} classifications a round (the baseline: ${fmt(baselineCopies * traces.length)}), ${ROUNDS} rounds`);
  console.log();
  console.log("| round | classified traces/s | classified traces per CPU-s | baseline: every body's BoC parsed, traces/s | baseline per CPU-s | classification ÷ baseline (CPU) |");
  console.log("|---|---|---|---|---|---|");
  const rounds: FixtureRound[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const x = fixtureRound(traces, copies, baselineCopies);
    rounds.push(x);
    console.log(`| ${r} | ${fmt(x.classifyPerSec)} | ${fmt(x.classifyPerCpuSec)} | ${fmt(x.parsePerSec)} | ${fmt(x.parsePerCpuSec)} | ${(x.classifyPerCpuSec / x.parsePerCpuSec).toFixed(2)} |`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rate = median(rounds.map((r) => r.classifyPerSec));
  const perCpu = median(rounds.map((r) => r.classifyPerCpuSec));
  console.log(`median ${fmt(rate)} traces/s, ${fmt(perCpu)} per CPU-second (${fmt(1e6 / perCpu)} µs of CPU a trace of ${(txs / traces.length).toFixed(1)} transactions on average)`);
  return { traces: traces.length, transactions: txs, actions, classificationsPerRound: copies * traces.length, rounds, medianTracesPerSecond: Math.round(rate), medianTracesPerCpuSecond: Math.round(perCpu) };
}

// ---- 2. localnet, mixed traffic

const params: TokenChainParams = {
  seed: "bench-actions",
  senders: Number(process.env.BENCH_SENDERS ?? 40),
  wallets: Number(process.env.BENCH_SENDERS ?? 40) + 1,
  transfers: Number(process.env.BENCH_TRANSFERS ?? 6_000),
  itemsPerSender: Number(process.env.BENCH_ITEMS_PER_SENDER ?? 2),
  holders: Number(process.env.BENCH_HOLDERS ?? 400),
};

interface Sample {
  t: number;
  indexed: number;
  decoded: number;
  /** the decoder's classification counters (its /metrics), when it has them */
  classified?: number;
  classifySeconds?: number;
}

/**
 * The decoder's classification counters in a Prometheus text answer: traces classified (every
 * reason), and the seconds its classification step took (classifying and writing a block's traces).
 */
function classificationMetrics(text: string): { classified?: number; classifySeconds?: number } {
  const value = (re: RegExp) => {
    let sum: number | undefined;
    for (const line of text.split("\n")) {
      if (line.startsWith("#")) continue;
      const m = re.exec(line);
      if (m) sum = (sum ?? 0) + Number(m[1]);
    }
    return sum;
  };
  return {
    classified: value(/^tongate_decoder_traces_classified_total(?:\{[^}]*\})? ([0-9.e+-]+)$/),
    classifySeconds: value(/^tongate_decoder_classify_seconds_sum(?:\{[^}]*\})? ([0-9.e+-]+)$/),
  };
}

async function localnetPart(run: BenchRun): Promise<Record<string, unknown>> {
  const chainDir = join(root, "bench", ".cache", `actions-chain-s${params.senders}-t${params.transfers}-i${params.itemsPerSender}-h${params.holders}`);
  const doneFile = join(chainDir, "complete.json");
  const chain: TokenChainInfo = existsSync(doneFile) ? (JSON.parse(readFileSync(doneFile, "utf8")) as TokenChainInfo) : await generateTokenChain(chainDir, params, console.log);
  if (process.env.BENCH_GENERATE_ONLY) return { chain };
  console.log();
  console.log(
    `2. localnet: ${chain.jettonTransfers} jetton and ${chain.nftTransfers} NFT transfers, ${chain.transactions} transactions in ${chain.mcSeqno} masterchain and ${chain.shardBlocks} shard blocks; transfers from block ${chain.firstTransferSeqno} (${chainDir})`,
  );

  const tmp = mkdtempSync(join(os.tmpdir(), "tongate-bench-actions-"));
  run.onCleanup(async () => rmSync(tmp, { recursive: true, force: true }));
  const configPath = join(tmp, "global.config.json");
  const server = await serveTokenChain(join(root, "cli/bin/tongate.js"), chainDir, params, configPath);
  run.children.push(server);

  const storeDir = join(tmp, "store");
  const port = await freePort();
  const t0 = performance.now();
  const seconds = () => (performance.now() - t0) / 1000;
  const child = await startProcess(
    process.execPath,
    [
      join(root, "cli/bin/tongate.js"),
      "start",
      ...["--global-config", configPath, "--index-dir", storeDir, "--index-from", "1", "--decode", "on"],
      ...["--host", "127.0.0.1", "--port", String(port), "--ratelimit", "off", "--chain-halt-after", "0", "--log-format", "json"],
    ],
    /tongate (is )?ready/,
    {},
    600_000,
  );
  run.children.push(child);
  const samples: Sample[] = [];
  try {
    for (;;) {
      const h = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { detail?: { indexer?: { lastIndexedSeqno?: number }; decoder?: { decodedSeqno?: number } } };
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text().catch(() => "");
      const s: Sample = { t: seconds(), indexed: h.detail?.indexer?.lastIndexedSeqno ?? 0, decoded: h.detail?.decoder?.decodedSeqno ?? 0, ...classificationMetrics(metrics) };
      samples.push(s);
      if (s.indexed >= chain.mcSeqno && s.decoded >= chain.mcSeqno) break;
      if (s.t > 3600) throw new Error(`not at the head in an hour: ${JSON.stringify(s)}`);
      await new Promise((r) => setTimeout(r, SAMPLE_MS));
    }
  } finally {
    await run.stop(child);
  }
  await run.stop(server);

  // traces by the masterchain block that completed them (the indexer's), classifications by the block of their trace (the decoder's)
  const store = await openStore({ path: storeDir });
  const perBlock = async (q: string) => new Map((await select<{ s: number; n: string }>(store, q, {})).map((r) => [Number(r.s), Number(r.n)]));
  const traces = await perBlock("SELECT mc_seqno_end AS s, count() AS n FROM traces FINAL WHERE state = 'complete' GROUP BY s");
  const classified = await perBlock("SELECT trace_mc_seqno_end AS s, count() AS n FROM trace_classifications FINAL GROUP BY s");
  const actionTypes = await select<{ type: string; n: string }>(store, "SELECT type, count() AS n FROM actions FINAL WHERE NOT deleted GROUP BY type ORDER BY n DESC", {});
  await store.close();
  const sum = (m: Map<number, number>, from: number, to: number) => [...m].filter(([s]) => s > from && s <= to).reduce((n, [, x]) => n + x, 0);

  const iStart = samples.find((s) => s.indexed >= chain.firstTransferSeqno) ?? samples[0]!;
  const iEnd = samples.find((s) => s.indexed >= chain.mcSeqno)!;
  const ingestTraces = sum(traces, iStart.indexed, chain.mcSeqno);
  const ingestRate = ingestTraces / (iEnd.t - iStart.t);
  const dStart = samples.find((s) => s.decoded >= chain.firstTransferSeqno) ?? samples[0]!;
  const dEnd = samples[samples.length - 1]!;
  const decodedTraces = sum(classified, dStart.decoded, chain.mcSeqno);
  const wallRate = decodedTraces / (dEnd.t - dStart.t);
  const busy = dEnd.classifySeconds !== undefined && dEnd.classified !== undefined ? { traces: dEnd.classified, seconds: dEnd.classifySeconds } : undefined;
  const busyRate = busy && busy.seconds > 0 ? busy.traces / busy.seconds : undefined;
  const maxLag = Math.max(...samples.map((s) => s.indexed - s.decoded));

  console.log();
  console.log("| rate (traces/s) | traces | seconds | ÷ ingest |");
  console.log("|---|---|---|---|");
  console.log(`| indexer: ingest (complete traces of blocks ${iStart.indexed + 1}–${chain.mcSeqno}) | ${fmt(ingestTraces)} | ${(iEnd.t - iStart.t).toFixed(1)} | 1.00 |`);
  if (busyRate !== undefined) console.log(`| decoder: classification, per second of its classification step | ${fmt(busy!.traces)} | ${busy!.seconds.toFixed(1)} | ${(busyRate / ingestRate).toFixed(2)} |`);
  console.log(`| decoder: traces classified per second of wall time, blocks ${dStart.decoded + 1}–${chain.mcSeqno} (its whole block step, following the indexer) | ${fmt(decodedTraces)} | ${(dEnd.t - dStart.t).toFixed(1)} | ${(wallRate / ingestRate).toFixed(2)} |`);
  console.log(`lag: at most ${maxLag} masterchain blocks; the decoder at the head ${(dEnd.t - iEnd.t).toFixed(1)} s after the indexer`);
  console.log(`actions: ${actionTypes.map((r) => `${r.type} ${r.n}`).join(", ")}`);
  const keepsUp = (busyRate ?? wallRate) / ingestRate;
  console.log(`classifier ÷ ingest: ${keepsUp.toFixed(2)} (${keepsUp >= 1 ? "keeps up" : "falls behind"}; target ≥ 1.0)`);
  return {
    chain: { transactions: chain.transactions, mcBlocks: chain.mcSeqno, jettonTransfers: chain.jettonTransfers, nftTransfers: chain.nftTransfers },
    ingest: { traces: ingestTraces, seconds: Number((iEnd.t - iStart.t).toFixed(2)), perSecond: Number(ingestRate.toFixed(1)) },
    classification: { busy, busyPerSecond: busyRate && Number(busyRate.toFixed(1)), wallTraces: decodedTraces, wallSeconds: Number((dEnd.t - dStart.t).toFixed(2)), wallPerSecond: Number(wallRate.toFixed(1)) },
    ratio: Number(keepsUp.toFixed(3)),
    maxLag,
    actionTypes: Object.fromEntries(actionTypes.map((r) => [r.type, Number(r.n)])),
  };
}

const result: Record<string, unknown> = { bench: "actions" };
if (PART === "all" || PART === "fixtures") result.fixtures = await fixturesPart();
if (PART === "all" || PART === "localnet") {
  const run = new BenchRun();
  try {
    result.localnet = await localnetPart(run);
  } finally {
    await run.cleanup();
  }
}
result.loadAfter = loadavg();
console.log();
console.log(JSON.stringify(result));
