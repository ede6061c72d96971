// Benchmark (issue 24): /api/v3/decode of 1,000 real message bodies per request, in bodies per second
// on one core.
//  - The bodies: every distinct body of toncenter's recorded traces (../shared/fixtures/toncenter_actions/traces,
//    ~885: wallet-signed externals with their nested messages, jetton and NFT transfers, DEX swaps,
//    comments, excesses…), repeated in order up to 1,000 per request.
//  - Direct: the /decode handler's body decoding (decodeBody) in this thread, the same requests.
//  - HTTP: `tongate gateway` in its own process (the indexer's API with --index off, no rate limits,
//    no answer cache), POST /api/v3/decode with 1,000 bodies, one request at a time; bodies per second
//    of wall time, and per second of the server's CPU time (its /proc stat: all its threads), which is
//    what one core would give it.
// Decoding runs on the thread that answers (a request of 1,000 bodies gives the event loop back every
// 10 ms), so one request at a time is what one core does; more in flight share that core.
//   npm run bench:decode   (BENCH_REQUESTS=20 BENCH_ROUNDS=3)
import { readdirSync, readFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { decodeBody } from "../services/indexer/src/api/utils/decode.js";
import { installSpeedShims } from "@tongate/ton";
import { freePort, startProcess, stopProcess } from "./support/processes.js";

installSpeedShims(); // as `tongate` does at startup

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PER_REQUEST = 1000;
const bin = fileURLToPath(new URL("../cli/bin/tongate.js", import.meta.url));
const tracesDir = fileURLToPath(new URL("../../shared/fixtures/toncenter_actions/traces/", import.meta.url));

function realBodies(): string[] {
  const seen = new Set<string>();
  for (const f of readdirSync(tracesDir).sort()) {
    const trace = JSON.parse(readFileSync(join(tracesDir, f), "utf8")) as { transactions: { messages: { message_content?: { body?: string } }[] }[] };
    for (const tx of trace.transactions) for (const m of tx.messages) if (m.message_content?.body) seen.add(m.message_content.body);
  }
  return [...seen];
}

const distinct = realBodies();
const request = Array.from({ length: PER_REQUEST }, (_, i) => distinct[i % distinct.length]!);
const payload = JSON.stringify({ bodies: request });
const decodedShare = request.filter((b) => !("error" in decodeBody(b))).length / request.length;

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const TICKS = 100; // USER_HZ on Linux
function processCpu(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS; // utime, stime
}

interface Figures {
  bodiesPerSec: number;
  bodiesPerCpuSec: number;
}

function direct(): Figures {
  for (const b of request) decodeBody(b); // warm
  const t0 = performance.now();
  const c0 = cpu();
  for (let i = 0; i < REQUESTS; i++) for (const b of request) decodeBody(b);
  const seconds = (performance.now() - t0) / 1000;
  const cpuSeconds = cpu() - c0;
  return { bodiesPerSec: (REQUESTS * PER_REQUEST) / seconds, bodiesPerCpuSec: (REQUESTS * PER_REQUEST) / cpuSeconds };
}

const dir = mkdtempSync(join(os.tmpdir(), "tongate-bench-decode-"));
const port = await freePort();
const gateway = await startProcess(
  process.execPath,
  [bin, "gateway", "--port", String(port), "--host", "127.0.0.1", "--upstream", "lite-proxy=http://127.0.0.1:9", "--index-dir", dir, "--index", "off", "--ratelimit", "off", "--cache-max-bytes", "0"],
  /gateway listening/,
);
const url = `http://127.0.0.1:${port}/api/v3/decode`;

async function post(): Promise<void> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: payload });
  const body = (await res.json()) as { bodies?: unknown[]; error?: string };
  if (res.status !== 200 || body.bodies?.length !== PER_REQUEST) throw new Error(`POST /api/v3/decode: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
}

async function http(): Promise<Figures> {
  const t0 = performance.now();
  const c0 = processCpu(gateway.pid!);
  for (let i = 0; i < REQUESTS; i++) await post();
  const seconds = (performance.now() - t0) / 1000;
  const cpuSeconds = processCpu(gateway.pid!) - c0;
  return { bodiesPerSec: (REQUESTS * PER_REQUEST) / seconds, bodiesPerCpuSec: (REQUESTS * PER_REQUEST) / cpuSeconds };
}

const rows: string[] = [];
try {
  for (let i = 0; i < 3; i++) await post(); // warm the server
  for (let round = 1; round <= ROUNDS; round++) {
    const d = direct();
    const h = await http();
    const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
    rows.push(`| ${round} | ${fmt(d.bodiesPerSec)} | ${fmt(d.bodiesPerCpuSec)} | ${fmt(h.bodiesPerSec)} | ${fmt(h.bodiesPerCpuSec)} | ${((PER_REQUEST / h.bodiesPerSec) * 1000).toFixed(0)} ms |`);
    console.log(rows.at(-1));
  }
} finally {
  await stopProcess(gateway);
  rmSync(dir, { recursive: true, force: true });
}

console.log();
console.log(`decode — ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, node ${process.version}, ${new Date().toISOString()}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
console.log(`${distinct.length} distinct bodies of the recorded traces, ${PER_REQUEST} per request (${(decodedShare * 100).toFixed(1)} % decode, the rest answer an error object), ${REQUESTS} requests a round; payload ${(payload.length / 1024).toFixed(0)} KiB`);
console.log();
console.log("| round | direct bodies/s | direct bodies per CPU-s | HTTP bodies/s | HTTP bodies per server CPU-s | per request |");
console.log("|---|---|---|---|---|---|");
for (const r of rows) console.log(r);
