// Benchmark (issue 23): API v3 jetton reads side by side with PostgreSQL on the same rows.
//
//   GET /api/v3/jetton/wallets?owner_address=<random owner>&limit=10          (the default order)
//   GET /api/v3/jetton/transfers?owner_address=<random owner>&limit=10&sort=desc
// from
//   - tongate: `tongate gateway` in its own process on the synthesized set of
//     bench/support/token-set.ts (the decoder's tables and the indexer's latest states in chDB; the
//     indexer hosted with --index off, the decoder with --decode on and --metadata-fetch off: its
//     key-index tables rebuilt from ClickHouse if need be, then live, so that API v3's key readers
//     answer from them; with no liteserver and nothing indexed past its checkpoint it decodes
//     nothing; rate limits and the answer cache off);
//   - PostgreSQL: the same rows copied into a private cluster with toncenter's schema and indexes
//     (bench/support/pg-token-schema.ts), served by a minimal node:http server in its own process
//     doing ton-index-go's queries per page: the page, then its address book
//     (bench/support/pg-token-server.ts).
// First both servers are checked to answer the same rows and the same address book for a few owners
// (among them the busiest), after the gateway reports every key index complete (the indexer's, and
// the decoder's "complete": rebuilt from ClickHouse on its start when not already) and answers; the
// rebuild's time is printed. After the runs, the share of tongate's pages the key readers answered
// (the indexer's keyReaders counters in /healthz; the rest went to ClickHouse). Then a closed-loop load generator in this process
// (kept-alive connections, N requests in flight) at each concurrency, BENCH_SECONDS per run,
// BENCH_ROUNDS rounds interleaved (per round and concurrency: wallets on tongate, on PostgreSQL,
// transfers on tongate, on PostgreSQL); any non-200 is an error and is printed. Then the medians,
// the ratios tongate/PostgreSQL and issue 23's targets.
//
//   npm run bench:v3-token-reads   (BENCH_TRANSFERS=1000000 BENCH_OWNERS=100000 BENCH_JETTONS=100
//                                   BENCH_SECONDS=15 BENCH_ROUNDS=3 BENCH_CONCURRENCY=1,8,32)
// The chDB set and the loaded cluster are kept in bench/.cache (delete them to build them again).
import os from "node:os";
import { fileURLToPath } from "node:url";
import { closedLoop, seeded, type LoadFigures } from "./support/load.js";
import { dirBytes, startCluster, type PgCluster } from "./support/pg-cluster.js";
import { loadOnce } from "./support/pg-load.js";
import { TOKEN_SCHEMA } from "./support/pg-token-schema.js";
import { BenchRun, freePort } from "./support/processes.js";
import { JETTONS, openTokenSet, ownerAddress, OWNERS, ownersOf, tokenSetDir, TRANSFERS } from "./support/token-set.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? "1,8,32").split(",").map(Number);
const WARMUP_SECONDS = 3;
/** How long the gateway may take to report its key indexes complete and answer. */
const READY_TIMEOUT_MS = 30 * 60_000;
const bin = fileURLToPath(new URL("../cli/bin/tongate.js", import.meta.url));
const pgDir = fileURLToPath(new URL(`./.cache/pg-tokens-${TRANSFERS}-${OWNERS}-${JETTONS}`, import.meta.url));

const ENDPOINTS = {
  wallets: (owner: string) => `/api/v3/jetton/wallets?owner_address=${owner}&limit=10`,
  transfers: (owner: string) => `/api/v3/jetton/transfers?owner_address=${owner}&limit=10&sort=desc`,
};
type Endpoint = keyof typeof ENDPOINTS;
const SIDES = ["tongate", "postgres"] as const;
type Side = (typeof SIDES)[number];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const fmt = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "—");
const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;
const load = () => os.loadavg().map((x) => fmt(x, 2)).join(" ");

// what started here is stopped however the run ends
const run = new BenchRun();
const { start, stop } = run;

function header(): void {
  const env = Object.entries(process.env)
    .filter(([k]) => k.startsWith("BENCH_"))
    .map(([k, v]) => `${k}=${v}`);
  console.log(`command: ${[...env, "npm run bench:v3-token-reads"].join(" ")}`);
  console.log(`date: ${new Date().toISOString()}`);
  console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}, ${os.type()} ${os.release()}`);
  console.log(`load average: ${load()}`);
  console.log(`set: ${TRANSFERS} jetton transfers among ${OWNERS} owners over ${JETTONS} jettons; ${SECONDS} s per run, ${ROUNDS} rounds, concurrency ${CONCURRENCY.join(", ")}`);
}

/** What /healthz says of the key indexes and the key readers. */
interface Health {
  detail?: {
    indexer?: { keyIndex?: string; keyReaders?: { answered: number; declined: number; overflow: number } | "off" };
    decoder?: { keyIndex?: string };
  };
}

async function health(base: string): Promise<Health> {
  return (await (await fetch(`${base}/healthz`)).json()) as Health;
}

/** Pages the key readers answered, and those answered from ClickHouse (declined by a reader, or every reader busy), since the gateway started. */
async function keyReaderCounts(base: string): Promise<{ answered: number; declined: number }> {
  const readers = (await health(base)).detail?.indexer?.keyReaders;
  if (readers === undefined || readers === "off") throw new Error(`${base}: no key readers in /healthz`);
  return { answered: readers.answered, declined: readers.declined + readers.overflow };
}

/**
 * Waits until the gateway's /healthz reports the indexer's key index and the decoder's key-index
 * tables complete (the decoder's rebuilt from ClickHouse first when they are not) and a wallets page
 * of the busiest owner has rows; prints how long the decoder's tables took.
 */
async function ready(base: string): Promise<void> {
  const started = performance.now();
  let said = "";
  let saidAt = 0;
  let decoderReady: number | undefined;
  for (;;) {
    try {
      const h = await health(base);
      const indexer = h.detail?.indexer?.keyIndex ?? "?";
      const decoder = h.detail?.decoder?.keyIndex ?? "?";
      const state = `indexer key index ${indexer}, decoder key-index tables ${decoder}`;
      // a rebuild's row count changes each chunk: said again every 30 s at most
      const kind = state.replace(/\d+/g, "N");
      if (kind !== said || (state !== said && performance.now() - saidAt > 30_000)) {
        console.log(`gateway: ${state} (${fmt((performance.now() - started) / 1000, 0)} s)`);
        saidAt = performance.now();
      }
      said = kind;
      if (decoder === "failed" || decoder === "off") throw new Error(`${base}: the decoder's key-index tables are ${decoder}`);
      if (decoder === "complete") decoderReady ??= performance.now();
      if (indexer === "complete" && decoder === "complete") {
        const r = await fetch(`${base}${ENDPOINTS.wallets(ownerAddress(0))}`);
        if (r.ok && ((await r.json()) as { jetton_wallets?: unknown[] }).jetton_wallets?.length) break;
      }
    } catch (e) {
      if (e instanceof Error && e.message.startsWith(base)) throw e;
      // not listening yet
    }
    if (performance.now() - started > READY_TIMEOUT_MS) throw new Error(`${base}: not ready after ${READY_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
  console.log(
    `gateway ready: key indexes complete (the decoder's ${fmt(((decoderReady ?? performance.now()) - started) / 1000)} s after the gateway listened), answering (${fmt((performance.now() - started) / 1000)} s)`,
  );
}

/**
 * After a run on tongate: waits (up to a minute) until a wallets page answers within SETTLED_MS, so
 * that queries still queued in chDB from requests that timed out do not load the next run.
 */
const SETTLED_MS = 1000;
async function settle(base: string): Promise<void> {
  const started = performance.now();
  for (;;) {
    const t0 = performance.now();
    await fetch(`${base}${ENDPOINTS.wallets(ownerAddress(0))}`).then((r) => r.arrayBuffer(), () => undefined);
    if (performance.now() - t0 < SETTLED_MS || performance.now() - started > 60_000) break;
  }
  const waited = performance.now() - started;
  if (waited > 5 * SETTLED_MS) console.log(`    (tongate settled after ${fmt(waited / 1000)} s)`);
}

type Json = Record<string, unknown>;

/** What a page must agree on: the rows (their fields both servers render) in order, and the address book. */
function essence(endpoint: Endpoint, page: Json): string {
  const pick = (o: Json, keys: string[]) => keys.map((k) => (o[k] === undefined || o[k] === null ? null : String(o[k])));
  const rows =
    endpoint === "wallets"
      ? (page.jetton_wallets as Json[]).map((w) => pick(w, ["address", "balance", "owner", "jetton", "last_transaction_lt", "code_hash", "data_hash"]))
      : (page.jetton_transfers as Json[]).map((t) =>
          pick(t, ["transaction_hash", "transaction_lt", "transaction_now", "query_id", "amount", "source", "destination", "source_wallet", "jetton_master", "response_destination", "forward_ton_amount", "forward_payload", "trace_id"]),
        );
  const book = Object.entries(page.address_book as Record<string, Json>)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([a, r]) => [a, r.user_friendly, [...((r.interfaces as string[] | undefined) ?? [])].sort(), r.domain ?? null]);
  return JSON.stringify({ rows, book });
}

/** Both servers give the same page for a few owners (the busiest among them); returns the page sizes and rows seen. */
async function sameAnswers(bases: Record<Side, string>, owners: readonly string[]): Promise<string> {
  const rnd = seeded(7);
  const sample = [ownerAddress(0), ...Array.from({ length: 5 }, () => owners[Math.floor(rnd() * owners.length)]!)];
  const out: string[] = [];
  for (const endpoint of Object.keys(ENDPOINTS) as Endpoint[]) {
    const rows: number[] = [];
    const bytes: Record<Side, number[]> = { tongate: [], postgres: [] };
    for (const owner of sample) {
      const got = {} as Record<Side, string>;
      for (const side of SIDES) {
        const r = await fetch(bases[side] + ENDPOINTS[endpoint](owner));
        const text = await r.text();
        if (r.status !== 200) throw new Error(`${side} ${endpoint} ${owner}: ${r.status} ${text.slice(0, 300)}`);
        bytes[side].push(text.length);
        got[side] = essence(endpoint, JSON.parse(text) as Json);
      }
      if (got.tongate !== got.postgres) throw new Error(`the servers answer different ${endpoint} pages for ${owner}:\ntongate  ${got.tongate}\npostgres ${got.postgres}`);
      rows.push((JSON.parse(got.tongate) as { rows: unknown[] }).rows.length);
    }
    if (rows[0] !== 10) throw new Error(`${endpoint}: ${rows[0]} rows for the busiest owner, 10 expected`);
    out.push(`${endpoint}: rows ${rows.join(", ")}; page size tongate ${bytes.tongate.join("/")} B, PostgreSQL ${bytes.postgres.join("/")} B`);
  }
  return `same rows and address books from both servers for ${sample.length} owners (the busiest first):\n  ${out.join("\n  ")}`;
}

/** A random owner of `owners` per request, from a seeded generator: the same owners in the same order for both servers. */
const pages = (endpoint: Endpoint, owners: readonly string[], seed: number) => {
  const rnd = seeded(seed);
  return () => ENDPOINTS[endpoint](owners[Math.floor(rnd() * owners.length)]!);
};

const line = (round: number, endpoint: Endpoint, side: Side, f: LoadFigures) =>
  `round ${round}  ${endpoint.padEnd(9)} ${side.padEnd(8)} c${String(f.concurrency).padEnd(3)} ${fmt(f.rps).padStart(7)} pages/s  p50 ${fmt(f.p50).padStart(7)} ms  p99 ${fmt(f.p99).padStart(7)} ms  errors ${f.errors}  (${f.requests} answers, ${f.bytes} B)`;

type Runs = Record<Endpoint, Record<number, Record<Side, LoadFigures[]>>>;

async function sideBySide(owners: string[], cluster: PgCluster): Promise<Runs> {
  const pgPort = await freePort();
  const pgServer = await start(["--import", "tsx", fileURLToPath(new URL("./support/pg-token-server.ts", import.meta.url))], /listening/, {
    PGHOST: cluster.socketDir,
    PGPORT: String(cluster.port),
    POOL_SIZE: String(Math.max(...CONCURRENCY)),
    PORT: String(pgPort),
  });
  const tgPort = await freePort();
  // the index and the decoder hosted on the set, neither following nor decoding; no lite-proxy, no limits, no answer cache
  const gateway = await start(
    [
      bin,
      "gateway",
      "--port",
      String(tgPort),
      "--host",
      "127.0.0.1",
      "--upstream",
      "lite-proxy=http://127.0.0.1:9",
      "--index-dir",
      tokenSetDir,
      "--index",
      "off",
      "--decode",
      "on",
      "--metadata-fetch",
      "off",
      "--ratelimit",
      "off",
      "--cache-max-bytes",
      "0",
    ],
    /gateway listening/,
  );
  const bases: Record<Side, string> = { tongate: `http://127.0.0.1:${tgPort}`, postgres: `http://127.0.0.1:${pgPort}` };
  try {
    await ready(bases.tongate);
    const before = await keyReaderCounts(bases.tongate);
    console.log(`\n${await sameAnswers(bases, owners)}`);
    for (const endpoint of Object.keys(ENDPOINTS) as Endpoint[]) {
      for (const side of SIDES) await closedLoop({ base: bases[side], path: pages(endpoint, owners, 999), concurrency: 8, seconds: WARMUP_SECONDS });
    }
    console.log(`warmed up (${WARMUP_SECONDS} s at c8 each endpoint and server); load average ${load()}\n`);
    const runs = { wallets: {}, transfers: {} } as Runs;
    for (let round = 1; round <= ROUNDS; round++) {
      for (const c of CONCURRENCY) {
        for (const endpoint of Object.keys(ENDPOINTS) as Endpoint[]) {
          for (const side of SIDES) {
            // the same owners in the same order for both servers of a round, concurrency and endpoint
            const f = await closedLoop({ base: bases[side], path: pages(endpoint, owners, round * 1000 + c), concurrency: c, seconds: SECONDS });
            ((runs[endpoint][c] ??= { tongate: [], postgres: [] })[side]).push(f);
            console.log(line(round, endpoint, side, f));
            for (const e of f.errorSamples) console.log(`    ${side} error: ${e}`);
            if (side === "tongate") await settle(bases.tongate);
          }
        }
      }
      console.log(`load average after round ${round}: ${load()}`);
    }
    const after = await keyReaderCounts(bases.tongate);
    const answered = after.answered - before.answered;
    const declined = after.declined - before.declined;
    console.log(`\nkey readers: ${answered} of tongate's pages answered from the key-index tables, ${declined} answered from ClickHouse (declined or every reader busy; ${fmt((100 * answered) / Math.max(1, answered + declined))}% by keys)`);
    return runs;
  } finally {
    await stop(gateway);
    await stop(pgServer);
  }
}

interface Acceptance {
  what: string;
  value: string;
  met: boolean;
}

function summary(runs: Runs): Acceptance[] {
  const out: Acceptance[] = [];
  console.log(`\nmedians of ${ROUNDS} rounds (${TRANSFERS.toLocaleString("en")} transfers, ${SECONDS} s per run):\n`);
  console.log("| endpoint | c | tongate pages/s | PostgreSQL pages/s | tongate/pg | tongate p50 / p99 | PostgreSQL p50 / p99 | p99 tongate/pg | errors tongate / pg |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const endpoint of Object.keys(ENDPOINTS) as Endpoint[]) {
    for (const c of CONCURRENCY) {
      const m = (side: Side) => {
        const fs = runs[endpoint][c]![side];
        return { rps: median(fs.map((f) => f.rps)), p50: median(fs.map((f) => f.p50)), p99: median(fs.map((f) => f.p99)), errors: fs.reduce((n, f) => n + f.errors, 0) };
      };
      const t = m("tongate");
      const p = m("postgres");
      console.log(
        `| ${endpoint} | ${c} | ${fmt(t.rps)} | ${fmt(p.rps)} | ${fmt(t.rps / p.rps, 2)}× | ${fmt(t.p50)} / ${fmt(t.p99)} ms | ${fmt(p.p50)} / ${fmt(p.p99)} ms | ${fmt(t.p99 / p.p99, 2)}× | ${t.errors} / ${p.errors} |`,
      );
      if (c === 8 || c === 32) out.push({ what: `${endpoint}: pages/s at c${c} ≥ 1.0× PostgreSQL's`, value: `${fmt(t.rps / p.rps, 2)}×`, met: t.rps >= p.rps });
      if (c === 8) out.push({ what: `${endpoint}: p99 at c8 ≤ 50 ms`, value: `${fmt(t.p99)} ms`, met: t.p99 <= 50 });
    }
  }
  return out;
}

async function main(): Promise<void> {
  header();
  const store = await openTokenSet();
  let owners: string[];
  let cluster: PgCluster;
  try {
    owners = await ownersOf(store);
    cluster = await startCluster(pgDir);
    const started = cluster;
    run.onCleanup(() => started.stop());
    await loadOnce(cluster, store, pgDir, TOKEN_SCHEMA);
  } finally {
    await store.close(); // chDB binds its directory to one process: the gateway opens it next
  }
  const version = (await cluster.psql("SHOW server_version")).split("\n")[2]?.trim();
  console.log(`PostgreSQL ${version}, cluster ${pgDir} (${mb(dirBytes(cluster.dataDir))}), chDB set ${tokenSetDir} (${mb(dirBytes(tokenSetDir))}); ${owners.length} owners with wallets`);
  const acceptance = summary(await sideBySide(owners, cluster));
  console.log(`\nissue 23's targets${TRANSFERS < 1_000_000 ? ` (set for 1,000,000 transfers; ${TRANSFERS.toLocaleString("en")} here)` : ""}:\n`);
  console.log("| target | this run | |");
  console.log("|---|---|---|");
  for (const a of acceptance) console.log(`| ${a.what} | ${a.value} | ${a.met ? "met" : "not met"} |`);
  console.log(`\nload average at the end: ${load()}`);
}

try {
  await main();
} finally {
  await run.cleanup();
}
