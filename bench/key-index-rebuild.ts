// Benchmark: the key index rebuilt from ClickHouse (store/key-index/rebuild.ts), as a format change
// or a deleted index makes tongate do at start: the synthesized set of bench/support/index-set.ts
// (BENCH_TX transactions of BENCH_ACCOUNTS accounts in chDB) into a fresh directory, BENCH_RUNS times;
// transactions per second of each run, and the median.
//
//   BENCH_TX=200000 BENCH_ACCOUNTS=2000 npm run bench:key-index-rebuild   (BENCH_RUNS=3)
import { openIndexStore, prepareKeyIndex } from "@tongate/indexer";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { indexSetDir, openIndexSet, TX } from "./support/index-set.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

console.log(`date: ${new Date().toISOString()}`);
console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, node ${process.version}, load average ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}`);
if (!existsSync(indexSetDir)) await (await openIndexSet()).close();
const rates: number[] = [];
for (let run = 1; run <= RUNS; run++) {
  const dir = mkdtempSync(join(os.tmpdir(), "tongate-rebuild-"));
  const store = await openIndexStore({ path: indexSetDir, keyIndex: dir });
  try {
    const started = performance.now();
    await prepareKeyIndex(store, store.keys!);
    const s = (performance.now() - started) / 1000;
    rates.push(TX / s);
    console.log(`run ${run}: ${TX} transactions in ${s.toFixed(1)} s (${(TX / s).toFixed(0)} tx/s), load average ${os.loadavg()[0]!.toFixed(2)}`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
rates.sort((a, b) => a - b);
console.log(`median: ${rates[rates.length >> 1]!.toFixed(0)} tx/s over ${RUNS} runs`);
