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
//   - estimateFee of a wallet transfer (the external message and its one hop, in TON's emulator)
// Targets: overhead p50 ≤ 1 ms; ≥ 2,000 req/s uncached getAddressInformation; ≥ 10,000 req/s cached.
//
// The cost of running the emulator in child processes: with BENCH_BASELINE_REF (a git commit, e.g.
// one from before the isolation), that commit's tongate runs from a worktree of its own beside this
// one, and runGetMethod and estimateFee are measured on both in the same run (1 connection
// alternating, then throughput in interleaved rounds); ratio = this tree / the baseline (≥ 0.8).
//   npm run bench:lite-proxy   (BENCH_SECONDS=10, BENCH_CONNECTIONS=32, BENCH_BASELINE_REF, BENCH_ROUNDS=3)
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { Address, beginCell, internal, toNano } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { LiteClient, LiteSingleEngine } from "ton-lite-client";
import { verifyAccountState } from "@tongate/proof";
import { installSpeedShims } from "@tongate/ton";
import { freePort, startProcess, stopProcess } from "./support/processes.js";

installSpeedShims(); // as `tongate` does at startup

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const bin = fileURLToPath(new URL("../cli/bin/tongate.js", import.meta.url));
const baselineRef = process.env.BENCH_BASELINE_REF;
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
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

/** A checkout of `ref` with its dependencies installed (kept under the system's temp dir between runs). */
function baselineBin(ref: string): string {
  const commit = execFileSync("git", ["rev-parse", ref], { encoding: "utf8" }).trim();
  const dir = join(os.tmpdir(), `tongate-baseline-${commit.slice(0, 12)}`);
  if (!existsSync(join(dir, "node_modules"))) {
    if (!existsSync(dir)) execFileSync("git", ["worktree", "add", "--detach", dir, commit], { stdio: "inherit" });
    execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: dir, stdio: "inherit" });
  }
  return join(dir, "cli/bin/tongate.js");
}

// tongate twice: the answer cache off (every call reaches the liteserver) and on.
async function startTongate(cacheBytes: number, tongate = bin) {
  const port = await freePort();
  const child = await startProcess(process.execPath, [
    tongate, "start", "--global-config", configFile, "--host", "127.0.0.1", "--port", String(port), "--cache-max-bytes", String(cacheBytes), "--log-level", "warn", "--ratelimit", "off",
  ], null);
  children.push(child);
  await untilUp(`http://127.0.0.1:${port}/healthz`);
  return { url: `http://127.0.0.1:${port}` };
}
const uncached = await startTongate(0);
const cached = await startTongate(64 << 20);
const baseline = baselineRef ? await startTongate(0, baselineBin(baselineRef)) : undefined;

// The direct client: ton-lite-client on one ADNL connection to the same liteserver.
const config = JSON.parse(readFileSync(configFile, "utf8")) as { liteservers: { port: number; id: { key: string } }[] };
const engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${lsPort}`, publicKey: Buffer.from(config.liteservers[0]!.id.key, "base64") });
await once(engine, "ready");
const client = new LiteClient({ engine });
const wallet = Address.parse(address);

const getInfo = (base: string): HttpCall => ({ url: `${base}/api/v2/getAddressInformation?address=${encodeURIComponent(address)}`, method: "GET" });
const runSeqno = (base: string): HttpCall => ({ url: `${base}/api/v2/runGetMethod`, method: "POST", body: JSON.stringify({ address, method: "seqno", stack: [] }) });
/** A transfer from the wallet, unsigned (estimateFee checks no signature by default): the wallet's transaction and its one hop. */
async function transferBody(base: string): Promise<string> {
  const seqno = await fetch(`${base}/api/v2/runGetMethod`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ address, method: "seqno", stack: [] }) });
  const { result } = (await seqno.json()) as { result: { stack: [string, string][] } };
  const w = WalletContractV4.create({ workchain: 0, publicKey: Buffer.alloc(32) });
  const body = w.createTransfer({ seqno: Number(result.stack[0]![1]), timeout: Math.floor(Date.now() / 1000) + 24 * 3600, secretKey: Buffer.alloc(64), messages: [internal({ to: Address.parse(address), value: toNano("0.01"), body: beginCell().storeUint(0, 32).storeStringTail("bench").endCell() })] });
  return body.toBoc().toString("base64");
}
const estimate = (base: string, body: string): HttpCall => ({ url: `${base}/api/v2/estimateFee`, method: "POST", body: JSON.stringify({ address, body, ignore_chksig: true }) });
const fee = (base: string) => estimate(base, feeBody);
const feeBody = await transferBody(uncached.url);

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
const isolation = baseline ? await isolationCost(baseline.url) : undefined;

/** runGetMethod and estimateFee on this tree's tongate and on the baseline's, in the same run. */
async function isolationCost(base: string) {
  const out = [];
  for (const [name, make] of [["runGetMethod seqno", runSeqno], ["estimateFee (wallet transfer)", fee]] as const) {
    const now = make(uncached.url);
    const before = make(base);
    await request(now);
    await request(before);
    const pair = [() => request(now), () => request(before)];
    await closedLoop(pair, 1, 1); // warm-up
    const [nowLatency, beforeLatency] = await closedLoop(pair, 1, seconds);
    const nowRps: number[] = [];
    const beforeRps: number[] = [];
    let errors = 0;
    for (let i = 0; i < rounds; i++) {
      // ABBA: which goes first alternates, so that a trend in the machine's load favours neither
      const order = [[now, nowRps], [before, beforeRps]] as const;
      for (const [c, rps] of i % 2 === 0 ? order : [...order].reverse()) {
        const f = await throughput(c);
        rps.push(f.rps);
        errors += f.errors;
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    out.push({
      call: name,
      latency_1_connection_ms: { isolated: nowLatency, baseline: beforeLatency, p50_ratio: round(beforeLatency!.p50 / nowLatency!.p50) },
      throughput_rps: { connections, isolated: nowRps, baseline: beforeRps, errors, ratio_of_medians: round(median(nowRps) / median(beforeRps)) },
    });
  }
  return out;
}

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
  ...(isolation ? { emulator_isolation: { baseline: baselineRef, rounds, ratio: "this tree / the baseline (throughput: medians of the rounds; latency: baseline p50 / this p50)", results: isolation, target: ">= 0.8" } } : {}),
  targets: { overhead_p50_ms: "<= 1 (uncached calls)", uncached_getAddressInformation_rps: ">= 2000", cached_rps: ">= 10000" },
  met: {
    overhead: results.filter((r) => r.call.includes("(uncached)")).every((r) => r.latency_1_connection_ms.overhead_p50 <= 1),
    uncached_rps: info!.throughput.gateway.rps >= 2000,
    cached_rps: infoCached!.throughput.gateway.rps >= 10_000,
  },
};
console.log(JSON.stringify(report, null, 2));
