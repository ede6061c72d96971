// Benchmark (issue 5): what rate limiting costs the gateway. detectAddress
// through `tongate gateway` (every service in process) twice, in separate
// processes of one run: rate limiting off, and on with an API key whose custom
// limit is far above the load (every request goes through the key's lookup and
// the leased budget, none is refused); both get the same requests, key included.
// Throughput: autocannon at 64 connections on each, both loaded AT ONCE for
// BENCH_ROUNDS rounds: the machine here is shared and its load swings by 2x within
// seconds, so only gateways measured side by side see the same machine. They then
// share the cores, and the ratio of their rates is the ratio of their costs per
// request; the ratio is the median of the rounds'. The CPU time each gateway
// process spends per request (/proc/PID/stat) is reported too.
// Latency: 1 connection, requests to the two alternating, p50.
// Targets: ≥ 0.9 of the unlimited throughput; p50 added latency ≤ 0.2 ms.
//   npm run bench:ratelimit   (BENCH_SECONDS=5, BENCH_ROUNDS=4 by default)
import { readFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { freePort, startProcess, stopProcess } from "./support/processes.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 4);
const latencySamples = Number(process.env.BENCH_LATENCY_SAMPLES ?? 5000);
const connections = 64;
const ADMIN = "bench-admin-token";
const PATH = "/api/v2/detectAddress?address=EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N";
const bin = fileURLToPath(new URL("../cli/bin/tongate.js", import.meta.url));

async function startGateway(limits: "on" | "off") {
  const port = await freePort();
  const child = await startProcess(
    process.execPath,
    [bin, "gateway", "--host", "127.0.0.1", "--port", String(port), "--log-level", "warn", "--ratelimit", limits, "--admin-token", ADMIN],
    null,
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      if (i > 200) throw new Error(`gateway (--ratelimit ${limits}) did not start`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { base, child, pid: child.pid! };
}

/** CPU time (user + system) a process has used, ms. */
function cpuMs(pid: number): number {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks (100/s).
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const off = await startGateway("off");
const on = await startGateway("on");
const created = await fetch(`${on.base}/api/admin/v1/keys/create`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ admin_token: ADMIN, plan: "custom", rps: 10_000_000 }),
});
if (!created.ok) throw new Error(`creating the key failed: ${created.status} ${await created.text()}`);
const { secret } = (await created.json()) as { secret: string };
// The same requests to both: the key goes to the unlimited gateway too (which ignores it).
const headers = { "x-api-key": secret };
const targets = {
  off: { url: off.base + PATH, headers, pid: off.pid },
  on: { url: on.base + PATH, headers, pid: on.pid },
};

async function load(t: { url: string; headers: Record<string, string>; pid: number }, duration: number) {
  const cpu = cpuMs(t.pid);
  const r = await autocannon({ url: t.url, headers: t.headers, connections, duration });
  const cpuUsPerRequest = ((cpuMs(t.pid) - cpu) * 1000) / (r.requests.total || 1);
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, cpu_us_per_request: round2(cpuUsPerRequest), non2xx: r.non2xx, errors: r.errors };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One request on a keep-alive connection; its time in ms. */
function timed(agent: http.Agent, t: { url: string; headers: Record<string, string> }): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(t.url, { agent, headers: t.headers }, (res) => {
        res.resume();
        res.on("end", () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`status ${res.statusCode}`))));
      })
      .on("error", reject);
  });
}

async function latencies(): Promise<{ off: number; on: number }> {
  const agents = { off: new http.Agent({ keepAlive: true, maxSockets: 1 }), on: new http.Agent({ keepAlive: true, maxSockets: 1 }) };
  const samples = { off: [] as number[], on: [] as number[] };
  for (let i = 0; i < latencySamples; i++) {
    samples.off.push(await timed(agents.off, targets.off));
    samples.on.push(await timed(agents.on, targets.on));
  }
  const p50 = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { off: p50(samples.off), on: p50(samples.on) };
}

await Promise.all([load(targets.off, 2), load(targets.on, 2)]); // warm-up, both at once (JIT, connection pools)
await latencies(); // warm-up of the 1-connection path
const runs: { off: Awaited<ReturnType<typeof load>>; on: Awaited<ReturnType<typeof load>> }[] = [];
for (let i = 0; i < rounds; i++) {
  const [offRun, onRun] = await Promise.all([load(targets.off, seconds), load(targets.on, seconds)]);
  runs.push({ off: offRun, on: onRun });
}
const latency = await latencies();
await stopProcess(on.child);
await stopProcess(off.child);

const ratio = median(runs.map((r) => r.on.rps / r.off.rps));
const cpuRatio = mean(runs.map((r) => r.off.cpu_us_per_request)) / mean(runs.map((r) => r.on.cpu_us_per_request));
const addedP50 = latency.on - latency.off;
const report = {
  benchmark: "detectAddress through the gateway: rate limiting on (a key with a 10M rps custom limit) vs off",
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`,
  date: new Date().toISOString(),
  loadavg: os.loadavg().map(round2),
  connections,
  seconds,
  rounds: runs,
  throughput: {
    off_rps: Math.round(mean(runs.map((r) => r.off.rps))),
    on_rps: Math.round(mean(runs.map((r) => r.on.rps))),
    ratio_median_of_rounds: Number(ratio.toFixed(3)),
    ratio_by_cpu_per_request: Number(cpuRatio.toFixed(3)),
  },
  latency_1_connection_p50_ms: { off: round2(latency.off * 1000) / 1000, on: round2(latency.on * 1000) / 1000, added: round2(addedP50 * 1000) / 1000 },
  targets: { ratio: ">= 0.9", added_p50_ms: "<= 0.2" },
  met: ratio >= 0.9 && addedP50 <= 0.2 && runs.every((r) => r.on.non2xx === 0 && r.off.non2xx === 0),
};
console.log(JSON.stringify(report, null, 2));
