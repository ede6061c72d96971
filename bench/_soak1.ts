import { buildShardState, localnetProofs, Localnet } from "@tongate/localnet";
import { installSpeedShims } from "@tongate/ton";
installSpeedShims();
const net = await Localnet.start({ seed: "soak", wallets: 4, listen: [], buildState: buildShardState, proofs: localnetProofs, checkWorkers: 0 });
let t = performance.now();
const N = Number(process.argv[2] ?? 1500);
for (let i = 1; i <= N; i++) {
  await net.chain.seal();
  if (i % 250 === 0) {
    const now = performance.now();
    globalThis.gc?.();
    const m = process.memoryUsage();
    console.log(i, (250000 / (now - t)).toFixed(1), "blk/s", "rss", (m.rss / 2**20).toFixed(0), "heap", (m.heapUsed / 2**20).toFixed(0));
    t = performance.now();
  }
}
await net.close();
