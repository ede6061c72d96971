// The store as a host resource: a module declares `needs: { store: storeKey }` and the host opens
// one store for its process from the store's flags (below), hands the same one to every module that
// needs it (embedded chDB binds one data directory per process), and closes it after them. Each
// module registers the schema of its own tables on start (`store.register`). A process whose modules
// need no store opens none, and never loads chDB.
import { ConfigError, provide, resourceKey, type OptionSpec, type Provision, type RawOptions } from "@tongate/runtime";
import { openStore, type Store, type StoreOptions } from "./store.js";

export const storeKey = resourceKey<Store>("the store: chDB in this process (--index-dir) or a ClickHouse server (--clickhouse-url)");

/** The flags of the store, shared by every module that needs it and by `tongate index`. */
export const storeFlags: readonly OptionSpec[] = [
  { name: "clickhouse-url", description: "store: a ClickHouse server (default: chDB in this process)" },
  { name: "index-dir", description: "store: chDB's data directory (default: memory only)" },
  { name: "key-index", default: "on", description: "store: on: keep the key index of API v3's key lookups beside the store (LMDB), written with the stored rows; off: API v3 reads ClickHouse only" },
  { name: "key-index-dir", description: "store: the key index's directory (default: <index-dir>/key-index; needed with --clickhouse-url)" },
];

function stringOption(o: RawOptions, name: string): string | undefined {
  const v = o[name];
  if (v === undefined || v === "") return undefined;
  if (typeof v !== "string") throw new ConfigError(`--${name}: expected one value`);
  return v;
}

/**
 * --clickhouse-url (a server) or --index-dir (chDB's directory), at most one; and the key index: on
 * by default beside embedded chDB; beside a ClickHouse server only with --key-index-dir (the
 * directory of the process that writes: the key index is written with the rows).
 */
export function storeOptionsOf(o: RawOptions): StoreOptions {
  const url = stringOption(o, "clickhouse-url");
  const path = stringOption(o, "index-dir");
  if (url !== undefined && path !== undefined) throw new ConfigError("--clickhouse-url and --index-dir: give one (a ClickHouse server, or chDB's directory)");
  const mode = stringOption(o, "key-index") ?? "on";
  if (mode !== "on" && mode !== "off") throw new ConfigError(`--key-index ${mode}: expected on or off`);
  if (mode === "off") return { url, path };
  const dir = stringOption(o, "key-index-dir");
  return { url, path, keyIndex: dir ?? (url === undefined ? true : undefined) };
}

/** One store for the modules of a process, opened from the store's flags on the first need. */
export function storeProvision(o: RawOptions): Provision<Store> {
  return provide(storeKey, () => openStore(storeOptionsOf(o)));
}
