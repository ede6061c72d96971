// The adversarial fuzz suite: a real `tongate start` (a localnet, every service and the indexer with
// chDB in one process, the emulator in its child processes) takes 20,000 generated hostile inputs
// (tests/support/hostile.ts, adversarial.ts) on every endpoint that takes a BoC, a TVM stack or a
// JSON body: API v2 with /jsonRPC and its batches, API v3, the localnet's control API. Meanwhile a
// prober calls API v2 and v3 without pause. What a user would check:
// - the process never exits (no restart) and answers every request within REQUEST_BOUND_MS;
// - no 5xx except an emulator run failing within its bounds (500 trapped/aborted/memory, 504 past
//   its time bound, 503 busy), counted apart; every error in its API's envelope;
// - every probe answers 200, 99 % of them within PROBE_BOUND_MS and all within PROBE_WEDGED_MS, under the load;
// - the localnet goes on sealing blocks and the indexer follows it;
// - the process's resident memory comes back within 10 % of what it was after a warm-up load.
// A failing input is rebuilt from the seed and its index (buildCase); its body is written to
// FAILURE_DIR for curl. TONGATE_FUZZ_SEED and TONGATE_FUZZ_INPUTS choose another run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { Cell, contractAddress, internal, SendMode, toNano, type Address } from "@ton/core";
import { TonClient, WalletContractV4 } from "@ton/ton";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../bench/support/processes.js";
import { buildCase, childPids, endpointsOf, inFlightDuring, planCases, residentMiB, runCases, startProber, type RunStats, type Target } from "../support/adversarial.js";
import { contractCode } from "../support/contracts/index.js";
import { collectGarbage, metric, sleep, Tongates, type Tongate } from "../support/tongate.js";

const SEED = Number(process.env.TONGATE_FUZZ_SEED ?? 20261126);
const INPUTS = Number(process.env.TONGATE_FUZZ_INPUTS ?? 20_000);
/** A fifth of the load first, to fill the bounded caches the load fills (the localnet keeps 10,000 account proofs, its liteserver 4,096 answers), then the baseline. */
const WARMUP_INPUTS = Math.ceil(INPUTS / 5);
/**
 * Clients at once. The bound is on a v2 and a v3 call answered within 1 s after each hostile
 * input; two inputs always in flight keep tongate's two cores busy (its emulator processes, the
 * localnet, embedded chDB, which serves one query at a time) without making the bound a test of
 * the scheduler: at 4, the v3 probes waited up to 1 s behind chDB on a shared machine.
 */
const CONCURRENCY = 2;
const REQUEST_BOUND_MS = 20_000;
const PROBE_BOUND_MS = 1000;
/** A probe this late means a wedged process, whatever else the machine runs. */
const PROBE_WEDGED_MS = 5000;
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
/** An inspector on loopback, so that the test can ask for a full garbage collection before it reads the memory. */
const NODE_ARGS = ["--inspect=127.0.0.1:0"];

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
  rmSync(FAILURE_DIR, { recursive: true, force: true });
  dataDir = mkdtempSync(join(tmpdir(), "tongate-fuzz-"));
  const [port, lite, ctl] = await Promise.all([freePort(), freePort(), freePort()]);
  gateway = `http://127.0.0.1:${port}`;
  control = `http://127.0.0.1:${ctl}`;
  // The chain's own growth is kept out of the memory comparison: 16 blocks of states in memory (the
  // default 256 fill for four minutes), the index on disk (chDB in memory grows with every block), a
  // block every 2 s (the localnet keeps up to 10,000 account proofs, a new one for each account asked
  // for at each block: a bounded cache that fills with time while clients ask).
  START_ARGS = [
    ...["start", "--host", "127.0.0.1", "--port", String(port), "--liteserver", `127.0.0.1:${lite}`, "--control", `127.0.0.1:${ctl}`],
    ...["--wallets", "1", "--data-dir", dataDir, "--state-window", "16", "--index-dir", join(dataDir, "index"), "--block-interval", "2000", "--log-format", "json"],
  ];
  tongate = await procs.start(START_ARGS, /"msg":"tongate ready"/, 120_000, NODE_ARGS);
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
  tongate = await procs.start(START_ARGS, /"msg":"tongate ready"/, 120_000, NODE_ARGS);
}

/**
 * The memory of tongate after a full garbage collection (what is alive, not what V8 has yet to
 * collect): its resident set, the anonymous part of it, its heap and external memory as its
 * /metrics has them; and its emulator processes' resident sets.
 */
async function memory(collect = true): Promise<{ rss: number; anon: number; emulators: number; heaps: string }> {
  if (collect && running(tongate)) await collectGarbage(tongate.out()).catch(() => undefined);
  const own = residentMiB(tongate.child.pid!);
  let heaps = "no /metrics";
  try {
    const [heap, external] = await Promise.all([metric(gateway, "tongate_nodejs_heap_size_used_bytes"), metric(gateway, "tongate_nodejs_external_memory_bytes")]);
    heaps = `heap ${mib(heap / 2 ** 20)}, external ${mib(external / 2 ** 20)}`;
  } catch {
    // gone: the figures say 0
  }
  return { ...own, emulators: childPids(tongate.child.pid!).reduce((sum, pid) => sum + residentMiB(pid).rss, 0), heaps };
}
const mib = (x: number) => `${Math.round(x)} MiB`;

/** Get-methods through the emulator after the load, in both APIs: their status, exit code and time. */
async function getMethodsAfter(): Promise<{ v2: string; v3: string; ok: boolean }> {
  const call = async (path: string, body: object) => {
    const at = performance.now();
    try {
      const res = await fetch(`${gateway}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal: AbortSignal.timeout(REQUEST_BOUND_MS) });
      const b = (await res.json()) as { result?: { exit_code?: number }; exit_code?: number };
      const exit = b.result?.exit_code ?? b.exit_code;
      return { what: `${res.status}, exit code ${exit}, ${Math.round(performance.now() - at)} ms`, ok: res.status === 200 && exit === 0 };
    } catch (e) {
      return { what: (e as Error).message, ok: false };
    }
  };
  const v2 = await call("/api/v2/runGetMethod", { address: target.wallet.toString(), method: "seqno", stack: [] });
  const v3 = await call("/api/v3/runGetMethod", { address: target.echo.toString(), method: "identity", stack: [{ type: "num", value: "7" }] });
  return { v2: v2.what, v3: v3.what, ok: v2.ok && v3.ok };
}

/** Exceptions and rejections no code caught, which tongate counts and serves on (tongate_uncaught_errors_total). */
async function uncaughtErrors(): Promise<number | undefined> {
  try {
    const text = await (await fetch(`${gateway}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
    return text
      .split("\n")
      .filter((l) => l.startsWith("tongate_uncaught_errors_total{"))
      .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
  } catch {
    return undefined;
  }
}

/** The lines tongate logged at error (level 50) or above, by message, most frequent first. */
function loggedErrors(output: string): string[] {
  const counts = new Map<string, number>();
  for (const line of output.split("\n")) {
    if (!/"level":(5\d|60)/.test(line)) continue;
    let key = line.slice(0, 160);
    try {
      const o = JSON.parse(line) as { msg?: string; err?: { message?: string } };
      key = `${o.msg ?? ""}: ${(o.err?.message ?? "").slice(0, 120)}`;
    } catch {
      // not JSON: the line as it is
    }
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} × ${k}`);
}

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
  it(`${INPUTS} hostile inputs: no exit, no hang, no 5xx but bounded emulator failures, probes within ${PROBE_BOUND_MS} ms (p99), memory back`, { timeout: 1_200_000 }, async () => {
    const pid = tongate.child.pid;
    // warm-up (a different seed, no changes to the chain): caches and pools that grow once, then the baseline
    const warm = await load(SEED + 1, WARMUP_INPUTS, false);
    await sleep(5000);
    const baseline = await memory();
    const before = await seqno();
    // the probes without the load, for comparison
    const quietProber = startProber(gateway, PROBE_BOUND_MS);
    await sleep(QUIET_MS);
    const quiet = await quietProber.stop();

    const prober = startProber(gateway, PROBE_BOUND_MS);
    // The clients that build and send the hostile inputs would be elsewhere, not on tongate's two
    // cores: this thread (building the cases costs seconds of CPU) yields to tongate; the prober's
    // own thread keeps its priority (Linux's nice is per thread).
    setPriority(0, 10);
    const run = await load(SEED, INPUTS, true).finally(() => {
      try {
        setPriority(0, 0); // back (needs the right to raise a priority; else it stays lowered)
      } catch {
        /* an unprivileged user keeps nice 10 for the rest of this file: only the clients slow down */
      }
    });
    const probes = await prober.stop();
    const getMethods = await getMethodsAfter();
    const peak = await memory(false);

    // the memory settles back: looked at after a collection every few seconds, until within the tolerance or SETTLE_MS
    const settleStart = performance.now();
    let after = await memory();
    while (after.rss > baseline.rss * (1 + RSS_TOLERANCE) && performance.now() - settleStart < SETTLE_MS && running(tongate)) {
      await sleep(5000);
      after = await memory();
    }
    const settled = Math.round((performance.now() - settleStart) / 1000);
    const last = await seqno();
    const uncaught = await uncaughtErrors();
    const errors = loggedErrors(tongate.out());

    // the figures, for CI's output
    const lines = [
      `adversarial fuzz, seed ${SEED}${SURVEY ? ` (survey: ${warm.deaths + run.deaths} restarts)` : ""}: ${run.sent} inputs in ${run.seconds.toFixed(1)} s (${Math.round(run.sent / run.seconds)}/s, ${CONCURRENCY} at a time, each within ${REQUEST_BOUND_MS} ms); warm-up: ${warm.sent} in ${warm.seconds.toFixed(1)} s`,
      `  family              inputs  mean ms  statuses (building the cases took ${run.buildSeconds.toFixed(1)} s of this thread)`,
      ...[...run.byFamily].sort().map(([family, statuses]) => {
        const n = [...statuses.values()].reduce((a, b) => a + b, 0);
        return `  ${family.padEnd(18)} ${String(n).padStart(6)}  ${String(Math.round((run.msByFamily.get(family) ?? 0) / n)).padStart(7)}  ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`;
      }),
      `  5xx allowed (emulator runs failing within their bounds; toncenter's 500 for a state the liteserver dropped): ${JSON.stringify(Object.fromEntries(run.allowed))} (warm-up: ${JSON.stringify(Object.fromEntries(warm.allowed))})`,
      `  slowest answer: ${Math.round(run.slowest.ms)} ms (#${run.slowest.index}: ${run.slowest.label})`,
      `  prober: ${probes.calls} calls, p50 ${probes.p50} ms, p99 ${probes.p99} ms, max ${probes.max} ms; ${probes.late.length} not a 200 within ${PROBE_BOUND_MS} ms (without the load, for ${QUIET_MS / 1000} s before: p50 ${quiet.p50} ms, p99 ${quiet.p99} ms, max ${quiet.max} ms)`,
      `  tongate's event loop delay: at most ${probes.lagMax} ms in any second of the load (without it: ${quiet.lagMax} ms)`,
      ...probes.late.slice(0, 20).map((l) => `    at ${l.at} ms: ${l.what} (event loop delay ${l.lag} ms); in flight: ${inFlightDuring(run, l.start, l.end).join("; ")}`),
      `  after the load: v2 runGetMethod seqno ${getMethods.v2}; v3 runGetMethod identity ${getMethods.v3}`,
      `  masterchain seqno: ${before ?? "?"} before, v2 ${last ?? "?"} and v3 ${probes.v3Seqno} after`,
      `  RSS of tongate (after a full collection): ${mib(baseline.rss)} after warm-up, ${mib(peak.rss)} at the end of the load (before one), ${mib(after.rss)} after ${settled} s more (${(((after.rss - baseline.rss) / baseline.rss) * 100).toFixed(1)} %)`,
      `    anonymous: ${mib(baseline.anon)}, ${mib(peak.anon)}, ${mib(after.anon)}; its own account: ${baseline.heaps}; ${peak.heaps}; ${after.heaps}`,
      `    its emulator processes (RSS, all of them): ${mib(baseline.emulators)}, ${mib(peak.emulators)}, ${mib(after.emulators)}`,
      `  uncaught exceptions tongate served on: ${uncaught ?? "?"}; lines it logged at error: ${errors.length ? errors.slice(0, 6).join("; ") : "none"}`,
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
    expect.soft(uncaught, "uncaught exceptions").toBe(0);
    expect.soft(getMethods.ok, `get-methods after the load: ${getMethods.v2}; ${getMethods.v3}`).toBe(true);
    // Every probe is a 200; 99 % within the bound, none past PROBE_WEDGED_MS (a wedged process). A few
    // probes past 1 s are the 2-core machine's scheduler when others share it (seen with four other
    // jobs running: v3 probes of 1.1–1.3 s, waiting their turn at embedded chDB).
    expect.soft(probes.late.filter((l) => l.status !== 200 || l.ms > PROBE_WEDGED_MS).map((l) => l.what), "probes not a 200, or past the wedge bound").toEqual([]);
    expect.soft(probes.p99, "the probes' p99, ms").toBeLessThanOrEqual(PROBE_BOUND_MS);
    expect.soft(last ?? 0, "the localnet seals blocks").toBeGreaterThan(before ?? Infinity);
    expect.soft(probes.v3Seqno, "the indexer follows").toBeGreaterThan(before ?? Infinity);
    expect.soft(after.rss, `RSS ${mib(after.rss)} against ${mib(baseline.rss)} after warm-up`).toBeLessThanOrEqual(baseline.rss * (1 + RSS_TOLERANCE));
  });
});
