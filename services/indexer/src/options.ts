// The indexer's command-line values, read the same way by its two hosts: `tongate index`
// (cli/) and the indexer service inside `start`/`serve`/`gateway` (api/service.ts).
import { ConfigError, type OptionSpec } from "@tongate/runtime";
import { DEFAULT_PREFETCH } from "./follower/index-range.js";
import { ParsePool } from "./follower/parse-pool.js";
import type { StoreOptions } from "./store/store.js";

/** Options of the indexer where it runs inside `tongate start`, `serve` or `gateway`. */
export const indexOptions: OptionSpec[] = [
  { name: "clickhouse-url", description: "indexer: a ClickHouse server (default: chDB in this process)" },
  { name: "index-dir", description: "indexer: chDB's data directory (default: memory only)" },
  { name: "index", default: "on", description: "indexer: on: follow the chain into the store; off: only answer API v3 from what is stored" },
  { name: "index-from", description: "indexer: first masterchain seqno when nothing is indexed yet (default: 1 on a localnet, the head otherwise)" },
  { name: "key-index", default: "on", description: "indexer: on: answer API v3 key lookups from the key index kept beside the store (LMDB); off: from ClickHouse only" },
  { name: "key-index-dir", description: "indexer: the key index's directory (default: <index-dir>/key-index; needed with --clickhouse-url)" },
  { name: "parse-workers", default: "0", description: "indexer: worker threads parsing blocks ahead of the inserts (0: on the main thread, enough for a localnet)" },
];

/**
 * Where the store is (--clickhouse-url or --index-dir) and its key index: on by default beside
 * embedded chDB; beside a ClickHouse server only with --key-index-dir (it must be the directory of
 * the process that indexes: the key index is written by the indexer's inserts).
 */
export function storeOptionsOf(o: Record<string, unknown>): StoreOptions {
  const url = o["clickhouse-url"] as string | undefined;
  const path = o["index-dir"] as string | undefined;
  const mode = o["key-index"] ?? "on";
  if (mode !== "on" && mode !== "off") throw new ConfigError(`--key-index ${String(mode)}: expected on or off`);
  const dir = o["key-index-dir"] as string | undefined;
  if (mode === "off") return { url, path };
  return { url, path, keyIndex: dir ?? (url === undefined ? true : undefined) };
}

/** A masterchain seqno option (--from, --to, --index-from); undefined when not given. */
export function seqnoOption(o: Record<string, unknown>, name: string): number | undefined {
  if (o[name] === undefined) return undefined;
  const n = Number(o[name]);
  if (!Number.isSafeInteger(n) || n < 1) throw new ConfigError(`--${name} ${String(o[name])} is not a masterchain seqno (an integer ≥ 1)`);
  return n;
}

/** `tongate index --prefetch`: masterchain batches fetched and parsed ahead, also the most one group of inserts stores. */
export const prefetchOptionSpec: OptionSpec = {
  name: "prefetch",
  default: String(DEFAULT_PREFETCH),
  description: "masterchain blocks fetched and parsed ahead of the inserts; while catching up, those ready are stored together",
};

/** --prefetch as a number (1..256). */
export function prefetchOf(o: Record<string, unknown>): number {
  const n = Number(o.prefetch ?? DEFAULT_PREFETCH);
  if (!Number.isSafeInteger(n) || n < 1 || n > 256) throw new ConfigError(`--prefetch ${String(o.prefetch)}: expected 1..256`);
  return n;
}

/** The parse pool --parse-workers asks for (undefined: parse on the main thread). */
export function parsePoolOf(o: Record<string, unknown>): ParsePool | undefined {
  const workers = Number(o["parse-workers"] ?? 0);
  if (!Number.isSafeInteger(workers) || workers < 0 || workers > 64) throw new ConfigError(`--parse-workers ${String(o["parse-workers"])}: expected 0..64`);
  return workers > 0 ? ParsePool.create(workers) : undefined;
}

/**
 * The <network> of event subjects (tongate.<network>.blocks.indexed): --network-name, else
 * `custom` with --global-config, else --network, else `localnet` for the chain `start` runs in
 * its process.
 */
export function eventNetworkOf(o: Record<string, unknown>): string {
  const network = (o["network-name"] as string | undefined) ?? (o["global-config"] ? "custom" : ((o.network as string | undefined) ?? (o.globalConfig ? "localnet" : "custom")));
  if (!/^[A-Za-z0-9_-]+$/.test(network)) throw new ConfigError(`--network-name ${network}: letters, digits, '-' and '_' only (a NATS subject token)`);
  return network;
}
