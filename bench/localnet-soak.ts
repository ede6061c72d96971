// Soak (issue 13): empty blocks sealed back to back on a localnet (its store in a temporary
// directory, as `tongate localnet` without --data-dir), RSS and the sealing rate along the way.
//   npm run bench:localnet-soak              (SOAK_BLOCKS=50000)
// Passes when RSS after all blocks ≤ 1.2× RSS after 2,000 and the rate of the last 1,000 blocks
// ≥ 0.9× that of blocks 1,000–2,000; prints both ratios (and exits 1 when either fails). The rate
// is given by wall time and by this process's CPU time (blocks per CPU second): on a machine other
// work shares, the wall-time rate of two windows minutes apart measures the neighbours, the CPU one
// the chain. The verdict uses the CPU rate when the load average exceeded the cores.
import { cpus, loadavg } from "node:os";
import { buildShardState, localnetProofs, Localnet } from "@tongate/localnet";
import { installSpeedShims } from "@tongate/ton";

installSpeedShims(); // as `tongate` does at startup

const blocks = Number(process.env.SOAK_BLOCKS ?? 50_000);
const every = Math.max(1000, Math.floor(blocks / 25));
const net = await Localnet.start({ seed: "soak", wallets: 4, listen: [], buildState: buildShardState, proofs: localnetProofs, emulator: { size: 1 } });
const mb = (n: number) => Math.round(n / 2 ** 20);
const rss = () => {
  globalThis.gc?.();
  return process.memoryUsage().rss;
};
let t = performance.now();
let c = 0;
const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
let cpuRate1000to2000 = 0;
let cpuLastRate = 0;
let maxLoad = loadavg()[0]!;
let rate1000to2000 = 0;
let rssAt2000 = 0;
let lastRate = 0;
const started = performance.now();
for (let i = 1; i <= blocks; i++) {
  await net.chain.seal();
  if (i === 1000 || i === blocks - 1000) {
    t = performance.now();
    c = cpuSeconds();
  }
  if (i === 2000) {
    rate1000to2000 = 1000 / ((performance.now() - t) / 1000);
    cpuRate1000to2000 = 1000 / (cpuSeconds() - c);
    rssAt2000 = rss();
  }
  if (i === blocks) {
    lastRate = 1000 / ((performance.now() - t) / 1000);
    cpuLastRate = 1000 / (cpuSeconds() - c);
  }
  if (i % 1000 === 0) maxLoad = Math.max(maxLoad, loadavg()[0]!);
  if (i % every === 0) console.log(`${i} blocks  rss ${mb(process.memoryUsage().rss)} MB  heap ${mb(process.memoryUsage().heapUsed)} MB  ${((i / (performance.now() - started)) * 1000).toFixed(0)} blocks/s on average`);
}
const rssEnd = rss();
await net.close();
const rssRatio = rssEnd / rssAt2000;
const rateRatio = lastRate / rate1000to2000;
const cpuRateRatio = cpuLastRate / cpuRate1000to2000;
const loaded = maxLoad > cpus().length;
const result = {
  machine: `${cpus().length} × ${cpus()[0]?.model ?? "?"}`,
  blocks,
  rssAt2000MB: mb(rssAt2000),
  rssEndMB: mb(rssEnd),
  rssRatio: Number(rssRatio.toFixed(3)),
  blocksPerSecond1000to2000: Math.round(rate1000to2000),
  blocksPerSecondLast1000: Math.round(lastRate),
  rateRatio: Number(rateRatio.toFixed(3)),
  blocksPerCpuSecond1000to2000: Math.round(cpuRate1000to2000),
  blocksPerCpuSecondLast1000: Math.round(cpuLastRate),
  cpuRateRatio: Number(cpuRateRatio.toFixed(3)),
  maxLoadAverage: Number(maxLoad.toFixed(1)),
  pass: rssRatio <= 1.2 && (loaded ? cpuRateRatio : rateRatio) >= 0.9,
};
console.log(JSON.stringify(result, null, 2));
if (!result.pass) process.exitCode = 1;
