// Soak (issue 15, "Long runs"): one `tongate gateway` serving API v3 from the synthesized set
// (bench/support/index-set.ts) through its key readers, under a closed-loop load at concurrency
// BENCH_CONCURRENCY for BENCH_SECONDS; every BENCH_SAMPLE_SECONDS the process's resident memory (all
// its threads: the HTTP thread and the key readers) from /proc and its heap from /metrics. The
// requests mix what the readers answer (account pages at random offsets, messages by source, latest
// states, wallet states) with what goes back to the service's thread (a time range: ClickHouse), 1
// in 50. Prints the samples, then the anonymous memory and the heap of the first and last fifth of
// the run and the slope between them.
//
//   BENCH_TX=200000 BENCH_ACCOUNTS=2000 npm run bench:v3-soak   (BENCH_SECONDS=600 BENCH_CONCURRENCY=8)
import { readFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { accountsOf, indexSetDir, openIndexSet, TX } from "./support/index-set.js";
import { closedLoop, seeded } from "./support/load.js";
import { freePort, startProcess, stopProcess } from "./support/processes.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 600);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const SAMPLE_SECONDS = Number(process.env.BENCH_SAMPLE_SECONDS ?? 30);
const bin = fileURLToPath(new URL("../cli/bin/tongate.js", import.meta.url));
const mib = (n: number) => (n / 2 ** 20).toFixed(1);

const store = await openIndexSet();
const accounts = await accountsOf(store);
await store.close(); // chDB binds its directory to one process: the gateway opens it next

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const gateway = await startProcess(
  process.execPath,
  [bin, "gateway", "--port", String(port), "--host", "127.0.0.1", "--upstream", "lite-proxy=http://127.0.0.1:9", "--index-dir", indexSetDir, "--index", "off", "--ratelimit", "off", "--cache-max-bytes", "0"],
  /gateway listening/,
  {},
  600_000,
);
process.on("exit", () => gateway.kill());

const rnd = seeded(15);
const pick = () => accounts[Math.floor(rnd() * accounts.length)]!;
const path = (k: number): string => {
  if (k % 50 === 49) return `/api/v3/transactions?account=${pick()}&start_utime=1700000000&limit=10`;
  switch (k % 4) {
    case 0:
      return `/api/v3/transactions?account=${pick()}&limit=10&offset=${Math.floor(rnd() * 50)}&sort=${rnd() < 0.5 ? "asc" : "desc"}`;
    case 1:
      return `/api/v3/messages?source=${pick()}&limit=20`;
    case 2:
      return `/api/v3/accountStates?address=${pick()}&address=${pick()}&address=${pick()}`;
    default:
      return `/api/v3/walletStates?address=${pick()}`;
  }
};

/** Resident memory of the process, bytes: anonymous (heaps, buffers: what a leak grows) and file-backed (LMDB's and chDB's mapped files: the page cache). */
function rss(pid: number): { anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { anon: kb("RssAnon"), file: kb("RssFile") + kb("RssShmem") };
}

/** The sum of the series that start with each of `names`, from one read of /metrics. */
async function metrics(...names: string[]): Promise<number[]> {
  const lines = (await (await fetch(`${base}/metrics`)).text()).split("\n");
  return names.map((name) => lines.filter((l) => l.startsWith(name)).reduce((sum, l) => sum + Number(l.split(" ").pop()), 0));
}

console.log(`date: ${new Date().toISOString()}`);
console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}; load average ${os.loadavg()[0]!.toFixed(2)}`);
console.log(`set: ${TX} transactions of ${accounts.length} accounts; ${SECONDS} s at concurrency ${CONCURRENCY}, a sample every ${SAMPLE_SECONDS} s\n`);
const samples: { t: number; anon: number; file: number; heap: number; answered: number }[] = [];
const started = performance.now();
const sample = async () => {
  const t = (performance.now() - started) / 1000;
  const [heap = 0, answered = 0] = await metrics("tongate_nodejs_heap_size_used_bytes", 'tongate_v3_key_reader_requests_total{result="answered"}');
  const s = { t, ...rss(gateway.pid!), heap, answered };
  samples.push(s);
  console.log(
    `${s.t.toFixed(0).padStart(5)} s  anonymous ${mib(s.anon).padStart(7)} MiB  mapped files ${mib(s.file).padStart(7)} MiB  heap (HTTP thread) ${mib(s.heap).padStart(6)} MiB  answered by the readers ${s.answered}`,
  );
};
await sample();
const timer = setInterval(() => void sample(), SAMPLE_SECONDS * 1000);
const load = await closedLoop({ base, path, concurrency: CONCURRENCY, seconds: SECONDS });
clearInterval(timer);
await sample();
await stopProcess(gateway);

console.log(`\n${load.requests} answers (${load.rps} req/s, p50 ${load.p50} ms, p99 ${load.p99} ms), ${load.errors} errors`);
for (const e of load.errorSamples) console.log(`  error: ${e}`);
const fifth = Math.max(1, Math.floor(samples.length / 5));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const early = samples.slice(1, 1 + fifth);
const late = samples.slice(-fifth);
const hours = (mean(late.map((s) => s.t)) - mean(early.map((s) => s.t))) / 3600;
for (const [what, of] of [
  ["anonymous resident memory", (s: (typeof samples)[number]) => s.anon],
  ["the HTTP thread's heap", (s: (typeof samples)[number]) => s.heap],
] as const) {
  const [e, l] = [mean(early.map(of)), mean(late.map(of))];
  console.log(`${what}: first fifth ${mib(e)} MiB, last fifth ${mib(l)} MiB (${((l / e - 1) * 100).toFixed(1)} %, ${mib((l - e) / hours)} MiB per hour); max ${mib(Math.max(...samples.map(of)))} MiB`);
  // the heap saws between collections: the lowest sample of each fifth is what stays alive
  const troughs = [0, 1, 2, 3, 4].map((i) => samples.slice(1 + i * fifth, 1 + (i + 1) * fifth).map(of)).filter((xs) => xs.length);
  console.log(`  lowest of each fifth: ${troughs.map((xs) => mib(Math.min(...xs))).join(", ")} MiB`);
}
