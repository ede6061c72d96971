// /traces from ClickHouse (embedded chDB) and from the key index, in process, on the localnet chain
// services/indexer/test/key-index.test.ts indexes (same seed and traffic): every trace by id, then
// every account's first page, each asked BENCH_ROUNDS times of both paths, interleaved, through the
// v3 service as it is served (with the book step). Prints p50/p99/mean per request and the ratio.
//
//   node --import tsx bench/traces-keys.ts        (BENCH_ROUNDS=20)
import { create } from "@bufbuild/protobuf";
import { LiteserverPool } from "@tongate/liteclient";
import { GetTracesRequestSchema, type GetTracesRequest } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import { indexRange, openIndexStore, prepareKeyIndex, type IndexStore as Store, v3Api } from "@tongate/indexer";
import { installSpeedShims } from "@tongate/ton";
import { loadavg } from "node:os";
import { startTestLocalnet } from "../tests/support/localnet.js";
import { keyIndexTraffic } from "../tests/support/traffic.js";

installSpeedShims();

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const noLiteProxy = () => {
  throw new Error("no lite-proxy here");
};

const net = await startTestLocalnet({ seed: "key-index", wallets: 2 });
const pool = LiteserverPool.fromGlobalConfig(net.globalConfig(), { probeIntervalMs: 200 });
const store = await openIndexStore({ keyIndex: true });
const clickhouse: Store = { ...store, keys: undefined };
try {
  await prepareKeyIndex(store, store.keys!);
  await pool.ready(5000);
  await keyIndexTraffic(net);
  await indexRange(pool, store, { to: net.chain.lastMasterchain!.id.seqno });

  const q = async <T>(query: string) => (await store.client.query({ query, format: "JSONEachRow" })).json<T>();
  const traces = await q<{ trace_id: string; nodes: number }>("SELECT trace_id, nodes FROM traces FINAL");
  const accounts = (await q<{ account: string }>("SELECT DISTINCT account FROM transactions FINAL")).map((r) => r.account);
  const served = { keys: v3Api(store, noLiteProxy).actions, clickhouse: v3Api(clickhouse, noLiteProxy).actions };
  const ctx = undefined as never;

  const measure = async (label: string, requests: GetTracesRequest[]) => {
    const times: Record<keyof typeof served, number[]> = { keys: [], clickhouse: [] };
    for (const r of requests.slice(0, 10)) for (const s of Object.values(served)) await s.getTraces!(r, ctx); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const r of requests) {
        for (const name of ["clickhouse", "keys"] as const) {
          const t0 = performance.now();
          await served[name].getTraces!(r, ctx);
          times[name].push(performance.now() - t0);
        }
      }
    }
    const stats = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return { p50: quantile(s, 0.5), p99: quantile(s, 0.99), mean: xs.reduce((a, b) => a + b, 0) / xs.length };
    };
    const k = stats(times.keys);
    const c = stats(times.clickhouse);
    const f = (x: number) => x.toFixed(3);
    console.log(`${label} (${times.keys.length} requests each): ClickHouse p50 ${f(c.p50)} ms, p99 ${f(c.p99)} ms, mean ${f(c.mean)} ms | key index p50 ${f(k.p50)} ms, p99 ${f(k.p99)} ms, mean ${f(k.mean)} ms | ×${(c.mean / k.mean).toFixed(1)} by mean`);
  };
  console.log(`${traces.length} traces (${traces.reduce((n, t) => n + t.nodes, 0)} transactions), ${accounts.length} accounts; load ${loadavg()[0]!.toFixed(1)}`);
  await measure("/traces?trace_id=", traces.map((t) => create(GetTracesRequestSchema, { traceId: [t.trace_id] })));
  await measure("/traces?account=&limit=10", accounts.map((account) => create(GetTracesRequestSchema, { account, limit: 10 })));
  console.log(`load after ${loadavg()[0]!.toFixed(1)}`);
} finally {
  await pool.close();
  await store.close();
  await net.close();
}
