// Where the decoder's time goes: the decoder run alone, in this process, over a store the indexer
// filled (a `--decode off` round of bench:decoder-ingest), every masterchain block from its
// checkpoint to `head`, with the time of each kind of ClickHouse statement, of the emulator's
// get-methods, of the state reads and of the verdicts measured around the calls (the decoder
// decodes one account after another, so these add up within a block).
//   node --import tsx bench/support/decoder-profile.ts <store dir> <global config> <head>
// The last line of its output is JSON.
import { readFileSync } from "node:fs";
import { EmulatorPool } from "@tongate/emulator";
import { LiteserverPool } from "@tongate/liteclient";
import { createLogger } from "@tongate/runtime";
import { openStore } from "@tongate/store";
import { installSpeedShims } from "@tongate/ton";
import { ChainContext } from "../../services/decoder/src/chain-context.js";
import { StateReader } from "../../services/decoder/src/read-state.js";
import { DecoderRun } from "../../services/decoder/src/run.js";
import { DECODER_MIGRATIONS } from "../../services/decoder/src/service.js";
import { Verdicts } from "../../services/decoder/src/verdicts.js";

installSpeedShims();
const [storeDir, globalConfigPath, headArg] = process.argv.slice(2);
if (!storeDir || !globalConfigPath || !headArg) throw new Error("usage: decoder-profile.ts <store dir> <global config> <head>");
const head = Number(headArg);

interface Timed {
  ms: number;
  calls: number;
}
const timings = new Map<string, Timed>();
const add = (name: string, ms: number) => {
  const t = timings.get(name) ?? { ms: 0, calls: 0 };
  t.ms += ms;
  t.calls++;
  timings.set(name, t);
};

/** Wraps `obj[key]` (an async method) so that its time is added under the name `name(args)` gives. */
function timeMethod<T extends object, K extends keyof T>(obj: T, key: K, name: (...args: never[]) => string): void {
  const original = obj[key];
  if (typeof original !== "function") throw new Error(`${String(key)} is not a method`);
  const fn = original as (...args: unknown[]) => Promise<unknown>;
  const wrapped = async function (this: unknown, ...args: unknown[]) {
    const t0 = performance.now();
    try {
      return await fn.apply(this, args);
    } finally {
      add(name(...(args as never[])), performance.now() - t0);
    }
  };
  Object.assign(obj, { [key]: wrapped });
}

/** A statement's kind: its verb and tables (values and lists left out). */
function statementKind(sql: string): string {
  const s = sql.replace(/\s+/g, " ").trim();
  const verb = s.split(" ")[0]!.toUpperCase();
  const tables = [...s.matchAll(/\b(?:FROM|INTO|JOIN)\s+([a-z_]+)(\s+FINAL)?/gi)].map((m) => `${m[1]}${m[2] ? " FINAL" : ""}`);
  return `clickhouse ${verb} ${[...new Set(tables)].join(", ")}`;
}

const store = await openStore({ path: storeDir });
await store.register({ owner: "decoder", migrations: DECODER_MIGRATIONS });
const client = store.client;
timeMethod(client, "query", (p: { query: string }) => statementKind(p.query));
timeMethod(client, "command", (p: { query: string }) => statementKind(p.query));
timeMethod(client, "insert", (p: { table: string }) => `clickhouse INSERT ${p.table}`);

const lite = LiteserverPool.fromGlobalConfig(JSON.parse(readFileSync(globalConfigPath, "utf8")));
await lite.ready(30_000);
const emulator = new EmulatorPool({ size: Number(process.env.BENCH_EMULATOR_PROCESSES ?? 2) });
await emulator.warm();
timeMethod(emulator, "getMethod", () => "emulator get-method");
const chain = new ChainContext(lite, emulator);
const reader = new StateReader(chain);
timeMethod(reader, "read", () => "state read (interfaces, storage loader or get-methods)");
const verdicts = new Verdicts(store, chain);
timeMethod(verdicts, "jettonWallet", () => "verdict: jetton wallet (master's state, get_wallet_address)");
timeMethod(verdicts, "nftItem", () => "verdict: NFT item (collection's state, get_nft_address_by_index)");

const blockMs: number[] = [];
let rows = 0;
const run = new DecoderRun({
  store,
  reader,
  verdicts,
  log: createLogger({ level: "warn" }),
  onBlock: (_mc, ms, n) => {
    blockMs.push(ms);
    rows += n;
  },
});
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await run.start();
while (run.status().decodedSeqno < head) {
  if (run.status().lastError) console.log(`decoder error: ${run.status().lastError}`);
  await new Promise((r) => setTimeout(r, 100));
}
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
await run.stop();
await emulator.close();
await lite.close();
await store.close();

const total = blockMs.reduce((a, b) => a + b, 0);
const sorted = [...blockMs].sort((a, b) => a - b);
const byMs = [...timings.entries()].sort((a, b) => b[1].ms - a[1].ms);
console.log(`decoded ${blockMs.length} masterchain blocks in ${seconds.toFixed(1)} s (${(blockMs.length / seconds).toFixed(2)} blocks/s), ${rows} rows; per block p50 ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} ms, max ${sorted[sorted.length - 1]?.toFixed(0)} ms; main thread CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`);
console.log("| what | s | % of the blocks' time | calls | ms a call |");
console.log("|---|---|---|---|---|");
for (const [name, t] of byMs) console.log(`| ${name} | ${(t.ms / 1000).toFixed(1)} | ${((t.ms / total) * 100).toFixed(1)} | ${t.calls} | ${(t.ms / t.calls).toFixed(2)} |`);
console.log(JSON.stringify({ blocks: blockMs.length, seconds, blockMsTotal: total, cpuSeconds: (cpu.user + cpu.system) / 1e6, timings: Object.fromEntries(byMs) }));
