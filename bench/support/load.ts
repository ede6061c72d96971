// A closed-loop HTTP load generator: `concurrency` requests in flight on kept-alive connections,
// each sent as the previous one of its loop answers (or paced: `intervalMs` apart), for `seconds`. Every answer other than a 200
// is an error (counted, and the first few kept to be printed); latencies are of the 200s.
import http from "node:http";

export interface LoadFigures {
  concurrency: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** the first few errors: status and the start of the body, or the failure */
  errorSamples: string[];
  /** mean size of a 200's body */
  bytes: number;
}

export interface LoadOptions {
  base: string;
  /** the path of the k-th request */
  path: (k: number) => string;
  concurrency: number;
  seconds: number;
  /** a loop sends its next request no sooner than this after its previous one was sent (default: at once) */
  intervalMs?: number;
}

const TIMEOUT_MS = 30_000;

function get(agent: http.Agent, url: string): Promise<{ status: number; bytes: number; sample?: string }> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent, timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (d: Buffer) => chunks.push(d));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        const status = res.statusCode ?? 0;
        resolve({ status, bytes: body.length, sample: status === 200 ? undefined : `${status} ${body.toString("utf8", 0, Math.min(body.length, 300))}` });
      });
      res.on("error", (e) => resolve({ status: 0, bytes: 0, sample: `response: ${e.message}` }));
    });
    req.on("timeout", () => req.destroy(new Error(`no answer in ${TIMEOUT_MS} ms`)));
    req.on("error", (e) => resolve({ status: 0, bytes: 0, sample: `request: ${e.message}` }));
  });
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const ms = (x: number) => Math.round(x * 100) / 100;

export async function closedLoop(o: LoadOptions): Promise<LoadFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.concurrency });
  const latencies: number[] = [];
  const errorSamples: string[] = [];
  let errors = 0;
  let bytes = 0;
  let k = 0;
  const started = performance.now();
  const end = started + o.seconds * 1000;
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const r = await get(agent, o.base + o.path(k++));
        if (r.status === 200) {
          latencies.push(performance.now() - t0);
          bytes += r.bytes;
        } else {
          errors++;
          if (errorSamples.length < 5) errorSamples.push(r.sample ?? String(r.status));
        }
        const wait = t0 + (o.intervalMs ?? 0) - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    }),
  );
  const secs = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    concurrency: o.concurrency,
    requests: latencies.length,
    rps: Math.round((latencies.length / secs) * 10) / 10,
    p50: ms(quantile(latencies, 0.5)),
    p99: ms(quantile(latencies, 0.99)),
    errors,
    errorSamples,
    bytes: latencies.length ? Math.round(bytes / latencies.length) : 0,
  };
}

/** A small seeded PRNG (mulberry32): the same accounts in the same order for both servers of a run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `/api/v3/transactions` of a random account of `accounts` per request (the page the benchmark compares). */
export function v3Page(accounts: readonly string[], seed: number): (k: number) => string {
  const rnd = seeded(seed);
  return () => `/api/v3/transactions?account=${accounts[Math.floor(rnd() * accounts.length)]}&limit=10&sort=desc`;
}
