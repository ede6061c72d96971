// The adversarial fuzz suite: a real `tongate start` (a localnet, every service and the indexer with
// chDB in one process, the emulator in its child processes) takes 20,000 generated hostile inputs
// (tests/support/hostile.ts, adversarial.ts) on every endpoint that takes a BoC, a TVM stack or a
// JSON body: API v2 with /jsonRPC and its batches, API v3, the localnet's control API. Meanwhile a
// prober calls API v2 and v3 without pause. What a user would check:
// - the process never exits (no restart) and answers every request within REQUEST_BOUND_MS;
// - no 5xx except an emulator run failing within its bounds (500 trapped/aborted/memory, 504 past
//   its time bound, 503 busy), counted apart; every error in its API's envelope;
// - every probe answers 200 within PROBE_BOUND_MS, under the load;
// - the localnet goes on sealing blocks and the indexer follows it;
// - the process's resident memory comes back within 10 % of what it was after a warm-up load.
// A failing input is rebuilt from the seed and its index (buildCase); its body is written to
// FAILURE_DIR for curl. TONGATE_FUZZ_SEED and TONGATE_FUZZ_INPUTS choose another run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Cell, contractAddress, internal, SendMode, toNano, type Address } from "@ton/core";
import { TonClient, WalletContractV4 } from "@ton/ton";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../bench/support/processes.js";
import { buildCase, childPids, endpointsOf, inFlightDuring, planCases, rssMiB, runCases, startProber, type RunStats, type Target } from "../support/adversarial.js";
import { contractCode } from "../support/contracts/index.js";
import { metric, sleep, Tongates, type Tongate } from "../support/tongate.js";

const SEED = Number(process.env.TONGATE_FUZZ_SEED ?? 20261126);
const INPUTS = Number(process.env.TONGATE_FUZZ_INPUTS ?? 20_000);
const WARMUP_INPUTS = Math.min(1500, Math.ceil(INPUTS / 10));
/** Clients at once: modest, so that a 1 s bound on the probes is fair on a 2-core machine. */
const CONCURRENCY = 4;
const REQUEST_BOUND_MS = 20_000;
const PROBE_BOUND_MS = 1000;
const RSS_TOLERANCE = 0.1;
const SETTLE_MS = 60_000;
const QUIET_MS = 10_000;
const FAILURE_DIR = join(tmpdir(), `tongate-fuzz-${SEED}`);
/** TONGATE_FUZZ_SURVEY=1: restart tongate when an input ends it and go on, to list every such input in one run (the test fails all the same). */
const SURVEY = process.env.TONGATE_FUZZ_SURVEY === "1";

const procs = new Tongates();
let tongate: Tongate;
let dataDir = "";
let gateway = "";
let control = "";
let target: Target;
let START_ARGS: string[] = [];

async function getJson(url: string): Promise<any> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return res.json();
}

/** Deploys the contract whose `identity` get-method returns its stack, from the genesis v4r2 wallet, through the gateway as a client would. */
async function deployEcho(): Promise<{ echo: Address; wallet: Address }> {
  const wallets = (await getJson(`${control}/localnet/wallets`)) as { version: string; public_key: string; secret_key: string }[];
  const w = wallets.find((x) => x.version === "v4r2")!;
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: Buffer.from(w.public_key, "hex") });
  const client = new TonClient({ endpoint: `${gateway}/api/v2/jsonRPC` });
  const init = { code: await contractCode("stack-return"), data: Cell.EMPTY };
  const echo = contractAddress(0, init);
  const opened = client.open(wallet);
  await opened.sendTransfer({
    seqno: await opened.getSeqno(),
    secretKey: Buffer.from(w.secret_key, "hex"),
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    messages: [internal({ to: echo, value: toNano(5), init, bounce: false })],
  });
  for (let i = 0; !(await client.isContractDeployed(echo)); i++) {
    if (i > 100) throw new Error("the echo contract was not deployed");
    await sleep(200);
  }
  return { echo, wallet: wallet.address };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "tongate-fuzz-"));
  const [port, lite, ctl] = await Promise.all([freePort(), freePort(), freePort()]);
  gateway = `http://127.0.0.1:${port}`;
  control = `http://127.0.0.1:${ctl}`;
  // The chain's own growth is kept out of the memory comparison: 16 blocks of states in memory (the
  // default 256 fill for four minutes), the index on disk (chDB in memory grows with every block).
  START_ARGS = ["start", "--host", "127.0.0.1", "--port", String(port), "--liteserver", `127.0.0.1:${lite}`, "--control", `127.0.0.1:${ctl}`, "--wallets", "1", "--data-dir", dataDir, "--state-window", "16", "--index-dir", join(dataDir, "index"), "--log-format", "json"];
  tongate = await procs.start(START_ARGS, /"msg":"tongate ready"/, 120_000);
  const [v2, v3] = await Promise.all([getJson(`${gateway}/api/v2/openapi.json`), getJson(`${gateway}/api/v3/openapi.json`)]);
  target = { v2: endpointsOf(v2), v3: endpointsOf(v3), ...(await deployEcho()) };
}, 180_000);

afterAll(async () => {
  await procs.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const running = (t: Tongate) => t.child.exitCode === null && t.child.signalCode === null;
/** What the processes that exited said last (a survey restarts them). */
const deaths: string[] = [];

/** Runs `n` cases of `seed`'s plan against the tongate. */
function load(seed: number, n: number, chainChanges: boolean): Promise<RunStats> {
  const plan = planCases(seed, n, chainChanges);
  return runCases({
    gateway,
    control,
    count: n,
    build: (i) => buildCase(target, plan[i]!, seed, i),
    concurrency: CONCURRENCY,
    timeoutMs: REQUEST_BOUND_MS,
    alive: () => running(tongate),
    revive: SURVEY ? revive : undefined,
    report: (line) => process.stderr.write(`adversarial fuzz (seed ${seed}): ${line}\n`),
  });
}

/** Starts tongate again on the same chain (the survey's way past an input that ends the process). */
async function revive(): Promise<void> {
  deaths.push(`exited (${tongate.child.exitCode ?? tongate.child.signalCode}): ${tongate.out().slice(-3000)}`);
  tongate = await procs.start(START_ARGS, /"msg":"tongate ready"/, 120_000);
}

const main = () => rssMiB(tongate.child.pid!);
/** The JavaScript heap in use and the memory outside it (chDB, buffers) as tongate's /metrics has them, MiB. */
async function heaps(): Promise<string> {
  try {
    const [heap, external] = await Promise.all([metric(gateway, "tongate_nodejs_heap_size_used_bytes"), metric(gateway, "tongate_nodejs_external_memory_bytes")]);
    return `heap ${mib(heap / 2 ** 20)}, external ${mib(external / 2 ** 20)}`;
  } catch {
    return "no /metrics";
  }
}
const emulators = () => childPids(tongate.child.pid!).reduce((sum, pid) => sum + rssMiB(pid), 0);
const mib = (x: number) => `${Math.round(x)} MiB`;

/** The newest masterchain seqno API v2 answers; undefined when it does not. */
async function seqno(): Promise<number | undefined> {
  try {
    return (await getJson(`${gateway}/api/v2/getMasterchainInfo`)).result.last.seqno;
  } catch {
    return undefined;
  }
}

const failureLines = (what: string, run: RunStats) => [
  `  ${what} failures: ${run.failures.length}${run.failures.length ? ` (bodies in ${FAILURE_DIR})` : ""}`,
  ...run.failures.slice(0, 40).map((f) => `    #${f.index} [${f.case.family}] ${f.case.method} ${f.case.on === "control" ? control : ""}${f.case.path.slice(0, 120)} (${f.case.label}): ${f.what.slice(0, 300)}`),
];

function keepBodies(prefix: string, run: RunStats): void {
  if (!run.failures.length) return;
  mkdirSync(FAILURE_DIR, { recursive: true });
  for (const f of run.failures.slice(0, 100)) if (f.case.body !== undefined) writeFileSync(join(FAILURE_DIR, `${prefix}${f.index}.body`), f.case.body);
}

describe("adversarial fuzz", () => {
  it(`${INPUTS} hostile inputs: no exit, no hang, no 5xx but bounded emulator failures, probes within ${PROBE_BOUND_MS} ms, memory back`, { timeout: 1_200_000 }, async () => {
    const pid = tongate.child.pid;
    // warm-up (a different seed, no changes to the chain): caches and pools that grow once, then the baseline
    const warm = await load(SEED + 1, WARMUP_INPUTS, false);
    await sleep(5000);
    const baseline = { main: main(), emulators: emulators(), heaps: await heaps() };
    const before = await seqno();
    // the probes without the load, for comparison
    const quietProber = startProber(gateway, PROBE_BOUND_MS);
    await sleep(QUIET_MS);
    const quiet = await quietProber.stop();

    const prober = startProber(gateway, PROBE_BOUND_MS);
    const run = await load(SEED, INPUTS, true);
    const probes = await prober.stop();
    const peak = { main: main(), emulators: emulators(), heaps: await heaps() };

    // the memory settles back: polled until within the tolerance or SETTLE_MS
    const settleStart = performance.now();
    let after = peak;
    while (after.main > baseline.main * (1 + RSS_TOLERANCE) && performance.now() - settleStart < SETTLE_MS && running(tongate)) {
      await sleep(2000);
      after = { main: main(), emulators: emulators(), heaps: "" };
    }
    after.heaps = await heaps();
    const settled = Math.round((performance.now() - settleStart) / 1000);
    const last = await seqno();

    // the figures, for CI's output
    const lines = [
      `adversarial fuzz, seed ${SEED}${SURVEY ? ` (survey: ${warm.deaths + run.deaths} restarts)` : ""}: ${run.sent} inputs in ${run.seconds.toFixed(1)} s (${Math.round(run.sent / run.seconds)}/s, ${CONCURRENCY} at a time, each within ${REQUEST_BOUND_MS} ms); warm-up: ${warm.sent} in ${warm.seconds.toFixed(1)} s`,
      `  family              inputs  mean ms  statuses (building the cases took ${run.buildSeconds.toFixed(1)} s of this thread)`,
      ...[...run.byFamily].sort().map(([family, statuses]) => {
        const n = [...statuses.values()].reduce((a, b) => a + b, 0);
        return `  ${family.padEnd(18)} ${String(n).padStart(6)}  ${String(Math.round((run.msByFamily.get(family) ?? 0) / n)).padStart(7)}  ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`;
      }),
      `  5xx allowed (bounded emulator failures; toncenter's 500 for a state the liteserver dropped): ${JSON.stringify(Object.fromEntries(run.allowed))} (warm-up: ${JSON.stringify(Object.fromEntries(warm.allowed))})`,
      `  slowest answer: ${Math.round(run.slowest.ms)} ms (#${run.slowest.index}: ${run.slowest.label})`,
      `  prober: ${probes.calls} calls, p50 ${probes.p50} ms, p99 ${probes.p99} ms, max ${probes.max} ms; ${probes.late.length} not a 200 within ${PROBE_BOUND_MS} ms (without the load, for ${QUIET_MS / 1000} s before: p50 ${quiet.p50} ms, p99 ${quiet.p99} ms, max ${quiet.max} ms)`,
      `  tongate's event loop delay: at most ${probes.lagMax} ms in any second of the load (without it: ${quiet.lagMax} ms)`,
      ...probes.late.slice(0, 20).map((l) => `    at ${l.at} ms: ${l.what} (event loop delay ${l.lag} ms); in flight: ${inFlightDuring(run, l.start, l.end).join("; ")}`),
      `  masterchain seqno: ${before ?? "?"} before, v2 ${last ?? "?"} and v3 ${probes.v3Seqno} after`,
      `  RSS of tongate: ${mib(baseline.main)} after warm-up, ${mib(peak.main)} at the end of the load, ${mib(after.main)} after ${settled} s more (${(((after.main - baseline.main) / baseline.main) * 100).toFixed(1)} %); of its emulator processes: ${mib(baseline.emulators)}, ${mib(peak.emulators)}, ${mib(after.emulators)}`,
      `    tongate's own account: ${baseline.heaps}; ${peak.heaps}; ${after.heaps}`,
      ...failureLines("warm-up", warm),
      ...failureLines("load", run),
      ...(running(tongate) ? [] : [`  tongate exited (${tongate.child.exitCode ?? tongate.child.signalCode}); its last output:`, tongate.out().slice(-4000)]),
      ...deaths.map((d, k) => `  survey: tongate ${k + 1} ${d.slice(-1500)}`),
    ];
    console.log(lines.join("\n"));
    keepBodies("warm-", warm);
    keepBodies("", run);

    const listed = (r: RunStats) => r.failures.map((f) => `#${f.index} [${f.case.family}] ${f.case.label}: ${f.what.slice(0, 200)}`).slice(0, 40);
    expect.soft(procs.allRunning(), "tongate is still running, never restarted").toBe(true);
    expect.soft(tongate.child.pid).toBe(pid);
    expect.soft(warm.sent + run.sent, "inputs answered before the end").toBe(WARMUP_INPUTS + INPUTS);
    expect.soft(listed(warm), "warm-up").toEqual([]);
    expect.soft(listed(run)).toEqual([]);
    expect.soft(probes.late.slice(0, 20).map((l) => l.what)).toEqual([]);
    expect.soft(last ?? 0, "the localnet seals blocks").toBeGreaterThan(before ?? Infinity);
    expect.soft(probes.v3Seqno, "the indexer follows").toBeGreaterThan(before ?? Infinity);
    expect.soft(after.main, `RSS ${mib(after.main)} against ${mib(baseline.main)} after warm-up`).toBeLessThanOrEqual(baseline.main * (1 + RSS_TOLERANCE));
  });
});
