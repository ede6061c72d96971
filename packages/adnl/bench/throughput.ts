// Transport throughput: AdnlServer in its own process (one core), AdnlClient load in this one.
// Closed loop with a fixed number of queries in flight, split over 1..N connections.
//   node --import tsx packages/adnl/bench/throughput.ts [seconds=5]
// The handler answers liteServer.getTime-sized queries (8-byte answer), so this measures
// framing + crypto + syscalls, the per-query floor a liteserver built on this pays.
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { AdnlClient, AdnlServer } from "../src/index.js";

const ANSWER = Buffer.from("0d0053e9" + "00000000", "hex");

async function serve(): Promise<void> {
  const server = new AdnlServer({ seed: randomBytes(32), handler: async () => ANSWER });
  const { port } = await server.listen(0, "127.0.0.1");
  process.send!({ port, publicKey: server.publicKey.toString("hex") });
  process.on("message", (m) => {
    if (m === "stats") process.send!({ stats: server.stats, cpu: process.cpuUsage(), mem: process.memoryUsage().rss });
    if (m === "exit") void server.close({ graceMs: 100 }).then(() => process.exit(0));
  });
}

async function run(port: number, publicKey: Buffer, connections: number, inflight: number, seconds: number) {
  const clients = await Promise.all(Array.from({ length: connections }, () => AdnlClient.connect("127.0.0.1", port, publicKey)));
  const query = Buffer.from("df068c7904345aad16000000", "hex"); // liteServer.query{liteServer.getTime}
  let done = 0;
  let stop = false;
  const worker = async (c: AdnlClient) => {
    while (!stop) {
      await c.query(query, 10_000);
      done++;
    }
  };
  const per = Math.floor(inflight / connections);
  const workers = clients.flatMap((c) => Array.from({ length: per }, () => worker(c)));
  await new Promise((r) => setTimeout(r, 500)); // warm-up
  const start = done;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const qps = ((done - start) * 1000) / (performance.now() - t0);
  stop = true;
  await Promise.all(workers);
  for (const c of clients) c.close();
  return qps;
}

if (process.argv[2] === "server") {
  await serve();
} else {
  const seconds = Number(process.argv[2] ?? 5);
  const child = fork(fileURLToPath(import.meta.url), ["server"], { execArgv: ["--import", "tsx"] });
  const hello = await new Promise<{ port: number; publicKey: string }>((r) => child.once("message", (m) => r(m as never)));
  const publicKey = Buffer.from(hello.publicKey, "hex");
  for (const [connections, inflight] of [
    [1, 32],
    [4, 32],
    [8, 32],
    [32, 32],
  ] as const) {
    const qps = await run(hello.port, publicKey, connections, inflight, seconds);
    console.log(`${connections} connection(s), ${inflight} in flight: ${Math.round(qps).toLocaleString("en-US")} queries/s`);
  }
  child.send("stats");
  const s = await new Promise<{ stats: { queries: number }; mem: number }>((r) => child.once("message", (m) => r(m as never)));
  console.log(`server: ${s.stats.queries.toLocaleString("en-US")} queries total, rss ${(s.mem / 2 ** 20).toFixed(0)} MiB`);
  child.send("exit");
}
