import { readFileSync } from "node:fs";
import { buildShardState, localnetProofs, Localnet } from "@tongate/localnet";
import { installSpeedShims } from "@tongate/ton";
installSpeedShims();
const net = await Localnet.start({ seed: "soak", wallets: 4, listen: [], buildState: buildShardState, proofs: localnetProofs, checkWorkers: 0 });
function report(n: number) {
  globalThis.gc?.();
  const smaps = readFileSync("/proc/self/smaps", "utf8").split("\n");
  let cur = ""; const rss = new Map<string, number>();
  for (const l of smaps) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(l)) cur = l.split(/\s+/)[5] || "[anon]";
    else if (l.startsWith("Rss:")) rss.set(cur, (rss.get(cur) ?? 0) + Number(l.split(/\s+/)[1]));
  }
  const m = process.memoryUsage();



  console.log(n, [...rss].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([k, v]) => `${k.split("/").pop()}=${(v / 1024).toFixed(0)}`).join(" "), `v8heap=${(m.heapUsed / 2 ** 20).toFixed(0)} ext=${(m.external / 2 ** 20).toFixed(0)} ab=${(m.arrayBuffers / 2 ** 20).toFixed(0)}`);
}
const N = Number(process.argv[2] ?? 8000);
for (let i = 1; i <= N; i++) { await net.chain.seal(); if (i % 1000 === 0) report(i); }
{
  const lines = readFileSync("/proc/self/smaps", "utf8").split("\n");
  let on = false;
  for (const l of lines) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(l)) { on = l.includes("chain.mdb"); if (on) console.log(l); }
    else if (on && /^(Size|Rss|Shared_Clean|Shared_Dirty|Private_Clean|Private_Dirty|Anonymous):/.test(l)) console.log("   ", l);
  }
}
await net.close();
