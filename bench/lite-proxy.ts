// Benchmark (issue 4): API v2 chain reads through the gateway next to the same liteserver calls made
// directly with ton-lite-client, in one run. A localnet runs in its own process (`tongate localnet`),
// tongate in two more (`tongate start --global-config`, answer cache off and on); autocannon and the
// direct client run here.
//   - getAddressInformation, uncached: getMasterchainInfo + getAccountState (+ proof check, rendering)
//     next to the direct call alone and the direct call followed by the proof check lite-proxy makes
//   - getAddressInformation, cached (the gateway's answer cache; the direct call has none)
//   - runGetMethod "seqno" on a genesis wallet, uncached: getMasterchainInfo + runSmcMethod
// Each is measured at 1 connection (latency: gateway and direct calls alternate, so both see the same
// machine load; the gateway's overhead p50 is its p50 minus the direct p50) and at BENCH_CONNECTIONS
// (throughput, autocannon for HTTP).
// Targets: overhead p50 ≤ 1 ms; ≥ 2,000 req/s uncached getAddressInformation; ≥ 10,000 req/s cached.
//   npm run bench:lite-proxy   (BENCH_SECONDS=10, BENCH_CONNECTIONS=32)
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { Address } from "@ton/core";
import { LiteClient, LiteSingleEngine } from "ton-lite-client";
import { verifyAccountState } from "@tongate/proof";
import { installSpeedShims } from "@tongate/ton";
import { freePort, startProcess, stopProcess } from "./support/processes.js";

installSpeedShims(); // as `tongate` does at startup

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const bin = fileURLToPath(new URL("../cli/bin/tongate.js", import.meta.url));
const loadBefore = os.loadavg();

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

const round = (x: number) => Math.round(x * 100) / 100;

class Recorder {
  readonly latencies: number[] = [];
  errors = 0;

  async time(call: () => Promise<unknown>): Promise<void> {
    const t = performance.now();
    try {
      await call();
      this.latencies.push(performance.now() - t);
    } catch {
      this.errors++;
    }
  }

  /** Latencies in ms with sub-ms precision; rps over `secs`. */
  figures(secs: number): Figures {
    const l = this.latencies.sort((a, b) => a - b);
    const q = (p: number) => round(l[Math.min(l.length - 1, Math.floor(l.length * p))] ?? NaN);
    return { rps: Math.round(l.length / secs), p50: q(0.5), p99: q(0.99), errors: this.errors };
  }
}

/** Runs each of `calls` in turn from `concurrency` loops for `secs`: one Recorder per call. */
async function closedLoop(calls: (() => Promise<unknown>)[], concurrency: number, secs: number): Promise<Figures[]> {
  const recorders = calls.map(() => new Recorder());
  const end = performance.now() + secs * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) for (const [i, call] of calls.entries()) await recorders[i]!.time(call);
    }),
  );
  return recorders.map((r) => r.figures(secs));
}

interface HttpCall {
  url: string;
  method: "GET" | "POST";
  body?: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request on a kept-alive connection; rejects unless 200 with ok:true. */
function request(c: HttpCall): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(c.url, { method: c.method, agent, headers: c.body ? { "content-type": "application/json" } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (d: Buffer) => chunks.push(d));
      res.on("end", () => (res.statusCode === 200 && Buffer.concat(chunks).includes('"ok":true') ? resolve() : reject(new Error(`${res.statusCode}`))));
    });
    req.on("error", reject);
    req.end(c.body);
  });
}

async function throughput(c: HttpCall): Promise<Figures> {
  const opts = { url: c.url, method: c.method, body: c.body, headers: c.body ? { "content-type": "application/json" } : {}, connections };
  await autocannon({ ...opts, duration: 2 }); // warm-up (JIT, caches, connection pools)
  const r = await autocannon({ ...opts, duration: seconds });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

async function untilUp(url: string) {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The servers this script starts, killed however it ends (a failed run must not leave them behind). */
const children: ChildProcess[] = [];
process.on("exit", () => children.forEach((c) => c.kill()));

// The chain: its own process, sealing a block a second.
const lsPort = await freePort();
const controlPort = await freePort();
const configFile = join(mkdtempSync(join(os.tmpdir(), "tongate-bench-")), "global-config.json");
const localnet = await startProcess(process.execPath, [
  bin, "localnet", "--seed", "bench-lite-proxy", "--wallets", "1", "--listen", `127.0.0.1:${lsPort}`, "--control", `127.0.0.1:${controlPort}`,
  "--write-global-config", configFile, "--log-level", "warn",
], null);
children.push(localnet);
await untilUp(`http://127.0.0.1:${controlPort}/localnet/wallets`);
const wallets = (await (await fetch(`http://127.0.0.1:${controlPort}/localnet/wallets`)).json()) as { address: string }[];
const address = wallets[0]!.address;

// tongate twice: the answer cache off (every call reaches the liteserver) and on.
async function startTongate(cacheBytes: number) {
  const port = await freePort();
  const child = await startProcess(process.execPath, [
    bin, "start", "--global-config", configFile, "--host", "127.0.0.1", "--port", String(port), "--cache-max-bytes", String(cacheBytes), "--log-level", "warn", "--ratelimit", "off",
  ], null);
  children.push(child);
  await untilUp(`http://127.0.0.1:${port}/healthz`);
  return { url: `http://127.0.0.1:${port}` };
}
const uncached = await startTongate(0);
const cached = await startTongate(64 << 20);

// The direct client: ton-lite-client on one ADNL connection to the same liteserver.
const config = JSON.parse(readFileSync(configFile, "utf8")) as { liteservers: { port: number; id: { key: string } }[] };
const engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${lsPort}`, publicKey: Buffer.from(config.liteservers[0]!.id.key, "base64") });
await once(engine, "ready");
const client = new LiteClient({ engine });
const wallet = Address.parse(address);

const getInfo = (base: string): HttpCall => ({ url: `${base}/api/v2/getAddressInformation?address=${encodeURIComponent(address)}`, method: "GET" });
const runSeqno = (base: string): HttpCall => ({ url: `${base}/api/v2/runGetMethod`, method: "POST", body: JSON.stringify({ address, method: "seqno", stack: [] }) });
const directInfo = async () => client.getAccountStateRaw(wallet, (await client.getMasterchainInfo()).last);
type LiteBlockId = { workchain: number; shard: string; seqno: number; rootHash: Buffer; fileHash: Buffer };
const tlBlockId = (b: LiteBlockId) => ({ kind: "tonNode.blockIdExt", workchain: b.workchain, shard: BigInt(b.shard), seqno: b.seqno, root_hash: b.rootHash, file_hash: b.fileHash });
/** The direct call, then the Merkle proof checks lite-proxy makes on every account read (@tongate/proof). */
const directInfoVerified = async () => {
  const r = await directInfo();
  const id = tlBlockId(r.block as LiteBlockId);
  const answer = { id, shardblk: tlBlockId(r.shardBlock as LiteBlockId), shard_proof: r.shardProof, proof: r.proof, state: r.raw };
  verifyAccountState(answer, id, { workchain: wallet.workChain, id: wallet.hash });
};
const directSeqno = async () => {
  const r = await client.runMethod(wallet, "seqno", Buffer.alloc(0), (await client.getMasterchainInfo()).last);
  if (r.exitCode !== 0) throw new Error(`exit code ${r.exitCode}`);
};

const cases = [
  { name: "getAddressInformation (uncached)", http: getInfo(uncached.url), direct: directInfo },
  { name: "getAddressInformation (uncached) vs direct + proof check", http: getInfo(uncached.url), direct: directInfoVerified },
  { name: "getAddressInformation (cached)", http: getInfo(cached.url), direct: directInfo },
  { name: "runGetMethod seqno (uncached)", http: runSeqno(uncached.url), direct: directSeqno },
];

const results = [];
for (const c of cases) {
  await request(c.http); // the method answers (runGetMethod may not be implemented yet: then this throws)
  const pair = [() => request(c.http), c.direct];
  await closedLoop(pair, 1, 1); // warm-up
  const [gatewayLatency, directLatency] = await closedLoop(pair, 1, seconds);
  const gatewayLoad = await throughput(c.http);
  const [directLoad] = await closedLoop([c.direct], connections, seconds);
  results.push({
    call: c.name,
    latency_1_connection_ms: { gateway: gatewayLatency, direct: directLatency, overhead_p50: round(gatewayLatency.p50 - directLatency.p50) },
    throughput: { connections, gateway: gatewayLoad, direct: directLoad },
  });
}

engine.close();
await Promise.all(children.map(stopProcess));

const [info, , infoCached] = results;
const report = {
  benchmark: "lite-proxy through the gateway vs ton-lite-client direct (same liteserver, same run)",
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`,
  load_average_1_5_15min: { before: loadBefore.map(round), after: os.loadavg().map(round) },
  date: new Date().toISOString(),
  seconds,
  results,
  targets: { overhead_p50_ms: "<= 1 (uncached calls)", uncached_getAddressInformation_rps: ">= 2000", cached_rps: ">= 10000" },
  met: {
    overhead: results.filter((r) => r.call.includes("(uncached)")).every((r) => r.latency_1_connection_ms.overhead_p50 <= 1),
    uncached_rps: info!.throughput.gateway.rps >= 2000,
    cached_rps: infoCached!.throughput.gateway.rps >= 10_000,
  },
};
console.log(JSON.stringify(report, null, 2));
