// API v3 query latency on a large index: /transactions?account= and /messages?source= p50/p99 on
// ≥ 1,000,000 transactions (issue 6: p99 ≤ 50 ms).
//
// The index is the synthesized set of bench/support/index-set.ts (kept in bench/.cache between runs).
//
// Two measurements in the same run: the v3 query functions called in this process on the store
// (the baseline: ClickHouse and the row → object work), then the same requests over HTTP through
// `tongate gateway` in its own process (the indexer hosted there with --index off). Sequential
// requests give latency; the ratio says what the gateway and the service hop add.
//
//   npm run bench:indexer-queries            (BENCH_TX=1000000 BENCH_REQUESTS=2000)
import { create } from "@bufbuild/protobuf";
import { GetTransactionsRequestSchema, GetMessagesRequestSchema } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { v3Api } from "@tongate/indexer";
import { cpus, loadavg } from "node:os";
import { accountsOf, indexSetDir as dir, openIndexSet, TX } from "./support/index-set.js";
import { freePort, startProcess, stopProcess } from "./support/processes.js";
import { installSpeedShims } from "@tongate/ton";

installSpeedShims(); // as `tongate` does at startup (importing the indexer installs nothing)

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function measure(label: string, call: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number; rps: number }> {
  for (let i = 0; i < 50; i++) await call(i); // warm-up
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    await call(i * 7919);
    times.push(performance.now() - t0);
  }
  const secs = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const r = { p50: quantile(times, 0.5), p99: quantile(times, 0.99), rps: REQUESTS / secs };
  console.log(`${label.padEnd(44)} p50 ${r.p50.toFixed(2).padStart(7)} ms  p99 ${r.p99.toFixed(2).padStart(7)} ms  ${r.rps.toFixed(0).padStart(5)} req/s`);
  return r;
}

async function main(): Promise<void> {
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model}, node ${process.version}, load ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
  const store = await openIndexSet();
  const accounts = await accountsOf(store);
  const pick = (i: number) => accounts[i % accounts.length]!;

  console.log(`\n${REQUESTS} sequential requests each, random accounts, default limit (10):`);
  // the Blockchain service as the host serves it: each answer through the address-book step
  const impl = v3Api(store, () => {
    throw new Error("no lite-proxy in this benchmark");
  }).blockchain;
  const direct = {
    tx: await measure("in process: transactions(account)", async (i) => impl.getTransactions!(create(GetTransactionsRequestSchema, { account: [pick(i)] }), undefined as never)),
    msg: await measure("in process: messages(source)", async (i) => impl.getMessages!(create(GetMessagesRequestSchema, { source: pick(i) }), undefined as never)),
  };
  await store.close(); // the gateway process opens the directory next

  const port = await freePort();
  const gateway = await startProcess(
    "node",
    ["cli/bin/tongate.js", "gateway", "--port", String(port), "--host", "127.0.0.1", "--upstream", "lite-proxy=http://127.0.0.1:9", "--index-dir", dir, "--index", "off", "--ratelimit", "off", "--cache-max-bytes", "0"],
    /gateway listening/,
  );
  try {
    const get = async (path: string) => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    };
    const http = {
      tx: await measure("HTTP: /api/v3/transactions?account=", (i) => get(`/api/v3/transactions?account=${pick(i)}`)),
      msg: await measure("HTTP: /api/v3/messages?source=", (i) => get(`/api/v3/messages?source=${pick(i)}`)),
    };
    console.log("\n| query | p50 in process | p99 in process | p50 HTTP | p99 HTTP | p99 ratio HTTP/in process |");
    console.log("|---|---|---|---|---|---|");
    for (const k of ["tx", "msg"] as const) {
      console.log(
        `| ${k === "tx" ? "/transactions?account=" : "/messages?source="} | ${direct[k].p50.toFixed(1)} ms | ${direct[k].p99.toFixed(1)} ms | ${http[k].p50.toFixed(1)} ms | ${http[k].p99.toFixed(1)} ms | ${(http[k].p99 / direct[k].p99).toFixed(2)} |`,
      );
    }
    console.log(`target: p99 ≤ 50 ms on ≥ 1,000,000 transactions (${TX.toLocaleString("en")} here)`);
  } finally {
    await stopProcess(gateway);
  }
}

await main();
