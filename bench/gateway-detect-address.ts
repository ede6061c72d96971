// Benchmark (issue 2): detectAddress through the gateway under autocannon at 64
// connections, next to a bare node:http server answering a fixed JSON body in
// the same run. Targets: ≥ 10,000 req/s, ≥ 0.35 of the bare rate, p99 ≤ 10 ms.
//   npm run bench:gateway   (BENCH_SECONDS=10 by default)
import os from "node:os";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { freePort, startProcess, stopProcess } from "./support/processes.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 64;
const ADDRESS = "EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N";
const bin = fileURLToPath(new URL("../cli/bin/tongate.js", import.meta.url));

async function load(url: string) {
  await autocannon({ url, connections, duration: 2 }); // warm-up (JIT, connection pools)
  const r = await autocannon({ url, connections, duration: seconds });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

const gwPort = await freePort();
const gateway = await startProcess(process.execPath, [bin, "start", "--host", "127.0.0.1", "--port", String(gwPort), "--log-level", "warn", "--ratelimit", "off"], null);
// "start" logs nothing at warn level: poll until it answers.
const url = `http://127.0.0.1:${gwPort}/api/v2/detectAddress?address=${ADDRESS}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(url)).ok) break;
  } catch {
    if (i > 100) throw new Error("gateway did not start");
    await new Promise((r) => setTimeout(r, 100));
  }
}
const fixed = await (await fetch(url)).text();

const barePort = await freePort();
const bare = await startProcess(process.execPath, [fileURLToPath(new URL("./support/bare-server.mjs", import.meta.url))], /listening/, {
  PORT: String(barePort),
  BARE_BODY: fixed,
});

const bareResult = await load(`http://127.0.0.1:${barePort}/`);
const gwResult = await load(url);
await stopProcess(bare);
await stopProcess(gateway);

const ratio = gwResult.rps / bareResult.rps;
const report = {
  benchmark: "detectAddress through the gateway vs bare node:http (fixed JSON)",
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`,
  date: new Date().toISOString(),
  connections,
  seconds,
  bare: bareResult,
  gateway: gwResult,
  ratio: Number(ratio.toFixed(3)),
  targets: { rps: ">= 10000", ratio: ">= 0.35", p99: "<= 10 ms" },
  met: gwResult.rps >= 10_000 && ratio >= 0.35 && gwResult.p99 <= 10 && gwResult.non2xx === 0,
};
console.log(JSON.stringify(report, null, 2));
