// Benchmark (issue 15): API v3 reads side by side with PostgreSQL on the same rows.
//
// `GET /api/v3/transactions?account=<random>&limit=10&sort=desc` from
//   - tongate: `tongate gateway` in its own process on the synthesized chDB set of
//     bench/support/index-set.ts (the indexer hosted there with --index off; rate limits and the
//     answer cache off);
//   - PostgreSQL: the same rows copied into a private cluster with toncenter's schema and indexes
//     (bench/support/pg-schema.ts; PostgreSQL from Debian, installed when missing), served by a
//     minimal node:http server in its own process doing ton-index-go's five queries per page
//     (bench/support/pg-server.ts).
// A closed-loop load generator in this process (kept-alive connections, N requests in flight) at
// each concurrency, BENCH_SECONDS per run, BENCH_ROUNDS rounds interleaved (tongate c1, pg c1,
// tongate c8, pg c8, … per round); any non-200 is an error and is printed. Then the medians per
// concurrency, the ratios tongate/PostgreSQL and issue 15's targets.
//
// Second part (issue 15: "v2 requests in the same process keep their latency while v3 is loaded"):
// one tongate process serving both API v2 (lite-proxy in the process, on a localnet in a process of
// its own) and API v3 (the same index), its answer cache on; the p99 of a cached v2 call
// (getMasterchainInfo, 1 s TTL; one call every 2 ms) alone, then while another process loads v3 at
// concurrency 8 (its client process at nice 0, then at BENCH_LOAD_NICE, 19: below tongate's threads,
// as clients on other machines would be), interleaved for BENCH_ROUNDS rounds. Each loaded run is
// repeated with the same load served by a second tongate process (on a copy of the set): what the v3
// load costs the v2 call through the machine alone (its 2 cores), not through the process — the floor
// of the in-process figure on this machine.
//
//   npm run bench:v3-reads   (BENCH_TX=1000000 BENCH_ACCOUNTS=10000 BENCH_SECONDS=15 BENCH_ROUNDS=3
//                             BENCH_CONCURRENCY=1,8,32 BENCH_V2=on BENCH_SIDE=on BENCH_LOAD_NICE=19)
// The chDB set and the loaded cluster are kept in bench/.cache (delete them to build them again).
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ACCOUNTS, accountsOf, indexSetDir, openIndexSet, TX } from "./support/index-set.js";
import { closedLoop, v3Page, type LoadFigures } from "./support/load.js";
import { dirBytes, startCluster, type PgCluster } from "./support/pg-cluster.js";
import { loadOnce } from "./support/pg-load.js";
import { BenchRun, freePort } from "./support/processes.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? "1,8,32").split(",").map(Number);
const V2 = (process.env.BENCH_V2 ?? "on") !== "off";
/**
 * The v2-under-v3 part loads v3 twice a round: its client process at nice 0, then at this nice value
 * (BENCH_LOAD_NICE): clients on other machines take no CPU from the server, these do.
 */
const LOAD_NICE = Number(process.env.BENCH_LOAD_NICE ?? 19);
/** BENCH_SIDE=off: only the second part (v2 latency under v3 load), without PostgreSQL */
const SIDE = (process.env.BENCH_SIDE ?? "on") !== "off";
/** node flags (BENCH_GATEWAY_NODE_ARGS) and tongate flags (BENCH_GATEWAY_ARGS) of the v2-under-v3 gateway, space-separated */
const GATEWAY_NODE_ARGS = (process.env.BENCH_GATEWAY_NODE_ARGS ?? "").split(" ").filter(Boolean);
const GATEWAY_ARGS = (process.env.BENCH_GATEWAY_ARGS ?? "").split(" ").filter(Boolean);
/** the nice values of the v3 load's client process in the v2-under-v3 part (BENCH_LOAD_NICES; default 0 and BENCH_LOAD_NICE) */
const LOAD_NICES = (process.env.BENCH_LOAD_NICES ?? `0,${LOAD_NICE}`).split(",").map(Number);
const WARMUP_SECONDS = 3;
const V2_INTERVAL_MS = 2;
const bin = fileURLToPath(new URL("../cli/bin/tongate.js", import.meta.url));
const pgDir = fileURLToPath(new URL(`./.cache/pg-${TX}-${ACCOUNTS}`, import.meta.url));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const fmt = (x: number, digits = 1) => x.toFixed(digits);
const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;

// what started here is stopped however the run ends
const run = new BenchRun();
const { start, stop } = run;

async function until(url: string, ok: (r: Response) => boolean = (r) => r.ok): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      if (ok(await fetch(url))) return;
    } catch {
      // not listening yet
    }
    if (i > 600) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function header(): void {
  const env = Object.entries(process.env)
    .filter(([k]) => k.startsWith("BENCH_"))
    .map(([k, v]) => `${k}=${v}`);
  console.log(`command: ${[...env, "npm run bench:v3-reads"].join(" ")}`);
  console.log(`date: ${new Date().toISOString()}`);
  console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}, ${os.type()} ${os.release()}`);
  console.log(`load average: ${os.loadavg().map((x) => fmt(x, 2)).join(" ")}`);
  console.log(`set: ${TX} transactions of ${ACCOUNTS} accounts; ${SECONDS} s per run, ${ROUNDS} rounds, concurrency ${CONCURRENCY.join(", ")}`);
}

interface Page {
  transactions: { hash: string }[];
  address_book: Record<string, unknown>;
}

/** Both servers give the same page (the same transactions in the same order, the same address book keys) for a few accounts. */
async function sameAnswers(bases: Record<string, string>, accounts: readonly string[]): Promise<Record<string, number>> {
  const sizes: Record<string, number> = {};
  for (const a of accounts.slice(0, 5)) {
    const pages: Record<string, Page> = {};
    for (const [name, base] of Object.entries(bases)) {
      const r = await fetch(`${base}/api/v3/transactions?account=${a}&limit=10&sort=desc`);
      const text = await r.text();
      if (r.status !== 200) throw new Error(`${name}: ${r.status} ${text.slice(0, 300)}`);
      sizes[name] = text.length;
      pages[name] = JSON.parse(text) as Page;
    }
    const [x, y] = Object.values(pages) as [Page, Page];
    const key = (p: Page) => JSON.stringify([p.transactions.map((t) => t.hash), Object.keys(p.address_book).sort()]);
    if (key(x) !== key(y)) throw new Error(`the servers answer different pages for ${a}:\n${key(x)}\n${key(y)}`);
    if (x.transactions.length !== 10) throw new Error(`${a}: ${x.transactions.length} transactions, 10 expected`);
  }
  return sizes;
}

const line = (round: number, name: string, f: LoadFigures) =>
  `round ${round}  ${name.padEnd(10)} c${String(f.concurrency).padEnd(3)} ${fmt(f.rps).padStart(7)} req/s  p50 ${fmt(f.p50).padStart(7)} ms  p99 ${fmt(f.p99).padStart(7)} ms  errors ${f.errors}  (${f.requests} answers, ${f.bytes} B)`;

function printErrors(name: string, f: LoadFigures): void {
  for (const e of f.errorSamples) console.log(`    ${name} error: ${e}`);
}

type Side = "tongate" | "postgres";

async function sideBySide(accounts: string[], cluster: PgCluster): Promise<Record<number, Record<Side, LoadFigures[]>>> {
  const pgPort = await freePort();
  const pgServer = await start(["--import", "tsx", fileURLToPath(new URL("./support/pg-server.ts", import.meta.url))], /listening/, {
    PGHOST: cluster.socketDir,
    PGPORT: String(cluster.port),
    POOL_SIZE: String(Math.max(...CONCURRENCY)),
    PORT: String(pgPort),
  });
  const tgPort = await freePort();
  // as bench:indexer-queries starts it: the index served from the set, no lite-proxy, no limits, no answer cache
  const gateway = await start(
    [bin, "gateway", "--port", String(tgPort), "--host", "127.0.0.1", "--upstream", "lite-proxy=http://127.0.0.1:9", "--index-dir", indexSetDir, "--index", "off", "--ratelimit", "off", "--cache-max-bytes", "0"],
    /gateway listening/,
  );
  const bases: Record<Side, string> = { tongate: `http://127.0.0.1:${tgPort}`, postgres: `http://127.0.0.1:${pgPort}` };
  try {
    const sizes = await sameAnswers(bases, accounts);
    console.log(`\nsame pages from both (5 accounts); page size: tongate ${sizes.tongate} B, PostgreSQL ${sizes.postgres} B`);
    for (const side of ["tongate", "postgres"] as const) await closedLoop({ base: bases[side], path: v3Page(accounts, 999), concurrency: 8, seconds: WARMUP_SECONDS });
    console.log(`warmed up (${WARMUP_SECONDS} s at c8 each)\n`);
    const runs: Record<number, Record<Side, LoadFigures[]>> = {};
    for (let round = 1; round <= ROUNDS; round++) {
      for (const c of CONCURRENCY) {
        for (const side of ["tongate", "postgres"] as const) {
          // the same accounts in the same order for both servers of a round and concurrency
          const f = await closedLoop({ base: bases[side], path: v3Page(accounts, round * 1000 + c), concurrency: c, seconds: SECONDS });
          ((runs[c] ??= { tongate: [], postgres: [] })[side]).push(f);
          console.log(line(round, side, f));
          printErrors(side, f);
        }
      }
    }
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

function summary(runs: Record<number, Record<Side, LoadFigures[]>>): Acceptance[] {
  console.log(`\nmedians of ${ROUNDS} rounds (${TX.toLocaleString("en")} transactions, ${SECONDS} s per run):\n`);
  console.log("| concurrency | tongate req/s | PostgreSQL req/s | req/s tongate/pg | tongate p50 | pg p50 | tongate p99 | pg p99 | p99 tongate/pg | errors tongate / pg |");
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  const med: Record<number, Record<Side, { rps: number; p50: number; p99: number; errors: number }>> = {};
  for (const c of CONCURRENCY) {
    const m = (side: Side) => ({
      rps: median(runs[c]![side].map((f) => f.rps)),
      p50: median(runs[c]![side].map((f) => f.p50)),
      p99: median(runs[c]![side].map((f) => f.p99)),
      errors: runs[c]![side].reduce((n, f) => n + f.errors, 0),
    });
    const t = m("tongate");
    const p = m("postgres");
    med[c] = { tongate: t, postgres: p };
    console.log(
      `| ${c} | ${fmt(t.rps)} | ${fmt(p.rps)} | ${fmt(t.rps / p.rps, 2)}× | ${fmt(t.p50)} ms | ${fmt(p.p50)} ms | ${fmt(t.p99)} ms | ${fmt(p.p99)} ms | ${fmt(t.p99 / p.p99, 2)}× | ${t.errors} / ${p.errors} |`,
    );
  }
  const out: Acceptance[] = [];
  for (const c of [8, 32].filter((c) => med[c])) {
    const r = med[c]!.tongate.rps / med[c]!.postgres.rps;
    out.push({ what: `req/s at c${c} ≥ 1.0× PostgreSQL's`, value: `${fmt(r, 2)}×`, met: r >= 1 });
  }
  if (med[8]) out.push({ what: "p99 at c8 ≤ 50 ms", value: `${fmt(med[8].tongate.p99)} ms`, met: med[8].tongate.p99 <= 50 });
  if (med[1]) out.push({ what: "p99 at c1 ≤ 20 ms", value: `${fmt(med[1].tongate.p99)} ms`, met: med[1].tongate.p99 <= 20 });
  return out;
}

/** The gateway's answer cache lookups of getMasterchainInfo so far (hit, miss), from /metrics. */
async function cacheLookups(base: string): Promise<{ hit: number; miss: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const n = { hit: 0, miss: 0 };
  for (const l of text.split("\n")) {
    const m = /^tongate_cache_lookups_total\{(.*)\} (\d+)/.exec(l);
    if (!m || !/getmasterchaininfo/i.test(m[1]!)) continue;
    if (m[1]!.includes('result="hit"')) n.hit += Number(m[2]);
    else if (m[1]!.includes('result="miss"')) n.miss += Number(m[2]);
  }
  return n;
}

/** v3 at concurrency 8 from a process of its own for `seconds`; resolves with its figures. */
function backgroundV3(base: string, accountsFile: string, seconds: number, seed: number, nice: number): { loading: Promise<void>; done: Promise<LoadFigures> } {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./support/load-process.ts", import.meta.url))], {
    env: { ...process.env, LOAD_BASE: base, LOAD_ACCOUNTS: accountsFile, LOAD_CONCURRENCY: "8", LOAD_SECONDS: String(seconds), LOAD_SEED: String(seed) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  run.children.push(child);
  if (nice) os.setPriority(child.pid!, nice);
  let out = "";
  let onLoading: () => void = () => {};
  const loading = new Promise<void>((r) => (onLoading = r));
  child.stdout!.on("data", (d: Buffer) => {
    out += d.toString();
    if (out.includes("loading\n")) onLoading();
  });
  const done = new Promise<LoadFigures>((resolve, reject) =>
    child.once("exit", (code) => {
      run.children.splice(run.children.indexOf(child), 1);
      const last = out.trim().split("\n").pop() ?? "";
      if (code === 0 && last.startsWith("{")) resolve(JSON.parse(last) as LoadFigures);
      else reject(new Error(`v3 load process exited ${code}: ${out}`));
    }),
  );
  return { loading, done };
}

async function v2UnderV3(accounts: string[]): Promise<Acceptance | undefined> {
  console.log(`\n## v2 latency while v3 is loaded (one tongate process: lite-proxy on a localnet, and the index)\n`);
  const work = mkdtempSync(join(os.tmpdir(), "tongate-v3-reads-"));
  run.onCleanup(async () => rmSync(work, { recursive: true, force: true }));
  const configFile = join(work, "global-config.json");
  const accountsFile = join(work, "accounts.txt");
  writeFileSync(accountsFile, accounts.join("\n"));
  // the floor: the same v3 load served by a second tongate process (on a copy of the set: chDB binds a
  // directory to one process), so that it takes the machine's CPU but nothing of the v2 process
  const copy = join(work, "set-copy");
  const copied = performance.now();
  cpSync(indexSetDir, copy, { recursive: true });
  console.log(`copied the set for the second process in ${fmt((performance.now() - copied) / 1000)} s`);
  const lsPort = await freePort();
  const controlPort = await freePort();
  const localnet = await start(
    [bin, "localnet", "--seed", "bench-v3-reads", "--wallets", "1", "--listen", `127.0.0.1:${lsPort}`, "--control", `127.0.0.1:${controlPort}`, "--write-global-config", configFile],
    /localnet running/,
  );
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // the answer cache at its default size: getMasterchainInfo is served from it (1 s TTL)
  const gateway = await start(
    [...GATEWAY_NODE_ARGS, bin, "gateway", "--port", String(port), "--host", "127.0.0.1", "--global-config", configFile, "--index-dir", indexSetDir, "--index", "off", "--ratelimit", "off", ...GATEWAY_ARGS],
    /gateway listening/,
  );
  const otherPort = await freePort();
  const other = `http://127.0.0.1:${otherPort}`;
  const otherGateway = await start(
    [...GATEWAY_NODE_ARGS, bin, "gateway", "--port", String(otherPort), "--host", "127.0.0.1", "--upstream", "lite-proxy=http://127.0.0.1:9", "--index-dir", copy, "--index", "off", "--ratelimit", "off", ...GATEWAY_ARGS],
    /gateway listening/,
  );
  try {
    await until(`${base}/healthz`);
    // a client's calls, paced (one every V2_INTERVAL_MS): a closed loop at full speed would be a load of its own
    const v2 = { base, path: () => "/api/v2/getMasterchainInfo", concurrency: 1, seconds: SECONDS, intervalMs: V2_INTERVAL_MS };
    await closedLoop({ ...v2, seconds: WARMUP_SECONDS });
    for (const b of [base, other]) await closedLoop({ base: b, path: v3Page(accounts, 998), concurrency: 8, seconds: WARMUP_SECONDS });
    const alone: LoadFigures[] = [];
    // the v3 load's clients as a process at nice 0 (they take CPU from tongate on these 2 cores) and
    // at LOAD_NICE (below tongate's threads: as clients on other machines would be); its server the
    // v2 process itself, or the second process (the floor of this machine)
    const loaded: Record<string, LoadFigures[]> = {};
    const measured = async (round: number, name: string): Promise<LoadFigures> => {
      const before = await cacheLookups(base);
      const f = await closedLoop(v2);
      const after = await cacheLookups(base);
      const hits = after.hit - before.hit;
      console.log(`${line(round, name, f)}  cache hits ${hits} of ${hits + after.miss - before.miss}`);
      printErrors("v2", f);
      return f;
    };
    const cases = LOAD_NICES.flatMap((nice) => (["same", "other"] as const).map((where) => ({ nice, where, key: `${where} ${nice}` })));
    for (let round = 1; round <= ROUNDS; round++) {
      alone.push(await measured(round, "v2 alone"));
      for (const c of cases) {
        const bg = backgroundV3(c.where === "same" ? base : other, accountsFile, SECONDS + 2, round, c.nice);
        await bg.loading;
        await new Promise((r) => setTimeout(r, 500));
        (loaded[c.key] ??= []).push(await measured(round, `v2 loaded, v3 in the ${c.where} process, clients at nice ${c.nice}`));
        const v3 = await bg.done;
        console.log(`${line(round, "(v3 load)", v3)}`);
        printErrors("v3", v3);
      }
    }
    const pa = median(alone.map((f) => f.p99));
    console.log(`\n| getMasterchainInfo (cached), one call every ${V2_INTERVAL_MS} ms | req/s | p50 | p99 | p99 / alone | p99 / v3 in the other process |`);
    console.log("|---|---|---|---|---|---|");
    console.log(`| alone | ${fmt(median(alone.map((f) => f.rps)))} | ${fmt(median(alone.map((f) => f.p50)), 2)} ms | ${fmt(pa, 2)} ms | | |`);
    const ratios: string[] = [];
    let met = true;
    for (const c of cases) {
      const figures = loaded[c.key]!;
      const pb = median(figures.map((f) => f.p99));
      const floor = median(loaded[`other ${c.nice}`]!.map((f) => f.p99));
      const where = c.where === "same" ? "in the v2 process" : "in another process (the floor)";
      console.log(
        `| while v3 is loaded at c8 ${where}, its clients at nice ${c.nice} | ${fmt(median(figures.map((f) => f.rps)))} | ${fmt(median(figures.map((f) => f.p50)), 2)} ms | ${fmt(pb, 2)} ms | ${fmt(pb / pa, 2)}× | ${c.where === "same" ? `${fmt(pb / floor, 2)}×` : ""} |`,
      );
      if (c.where === "same") {
        ratios.push(`${fmt(pb / pa, 2)}× with the clients at nice ${c.nice} (${fmt(pb, 2)} / ${fmt(pa, 2)} ms; v3 in another process: ${fmt(floor / pa, 2)}×)`);
        met &&= pb / pa <= 1.5;
      }
    }
    return { what: "v2 p99 under v3 load ≤ 1.5× alone", value: ratios.join("; "), met };
  } finally {
    await stop(otherGateway);
    await stop(gateway);
    await stop(localnet);
  }
}

async function main(): Promise<void> {
  header();
  const store = await openIndexSet();
  let accounts: string[];
  let cluster: PgCluster | undefined;
  try {
    accounts = await accountsOf(store);
    if (SIDE) {
      cluster = await startCluster(pgDir);
      const started = cluster;
      run.onCleanup(() => started.stop());
      await loadOnce(cluster, store, pgDir);
    }
  } finally {
    await store.close(); // chDB binds its directory to one process: the gateways open it next
  }
  const acceptance: Acceptance[] = [];
  if (cluster) {
    const version = (await cluster.psql("SHOW server_version")).split("\n")[2]?.trim();
    console.log(`PostgreSQL ${version}, cluster ${pgDir} (${mb(dirBytes(cluster.dataDir))}), chDB set ${indexSetDir} (${mb(dirBytes(indexSetDir))})`);
    acceptance.push(...summary(await sideBySide(accounts, cluster)));
  }
  if (V2) {
    const v2 = await v2UnderV3(accounts);
    if (v2) acceptance.push(v2);
  }
  console.log(`\nissue 15's targets${TX < 1_000_000 ? ` (set for 1,000,000 transactions; ${TX.toLocaleString("en")} here)` : ""}:\n`);
  console.log("| target | this run | |");
  console.log("|---|---|---|");
  for (const a of acceptance) console.log(`| ${a.what} | ${a.value} | ${a.met ? "met" : "not met"} |`);
  console.log(`\nload average at the end: ${os.loadavg().map((x) => fmt(x, 2)).join(" ")}`);
}

try {
  await main();
} finally {
  await run.cleanup();
}
