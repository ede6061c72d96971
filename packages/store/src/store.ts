// The ClickHouse store: one @clickhouse/client for both deployments.
//
// - embedded (default): chDB inside this process, plugged into @clickhouse/client through
//   `createChdbConnection` (chdb/connection). `path` keeps the data in that directory; without it
//   the data lives in chDB's temporary `:memory:` session directory (gone when the process ends).
//   libchdb binds ONE data directory per process: close the store (which waits for chDB to release
//   it) before opening another path.
// - server: `url` (e.g. http://user:pass@host:8123/db) reaches a ClickHouse server; same code.
//
// Every query binds its values with `query_params` ({name:Type} placeholders) — never string
// building. The JSON settings are set explicitly because chDB's defaults differ from a server's
// (chDB leaves 64-bit integers unquoted, which loses precision in JavaScript).
import {
  createClient,
  type ClickHouseClient,
  type ClickHouseClientConfigOptions,
  type ClickHouseSettings,
} from "@clickhouse/client";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type KeyIndexEnv, openKeyIndexEnv } from "./key-index/env.js";
import { Owners, type Registration, type StoreSchema } from "./schema.js";

export interface StoreOptions {
  /** ClickHouse server URL (http[s]://[user:password@]host:port[/database]); embedded chDB when absent */
  url?: string;
  /** embedded chDB: data directory (created if missing); a temporary session when absent */
  path?: string;
  /**
   * The key index (LMDB) of the owners' key lookups: true keeps it beside the embedded data
   * (`<path>/key-index`, a temporary directory without a path); a string is its directory (needed
   * with a server `url`). None when absent.
   */
  keyIndex?: boolean | string;
}

export interface Store {
  readonly client: ClickHouseClient;
  /** true for chDB in this process */
  readonly embedded: boolean;
  /** the embedded data directory (undefined for a server or a temporary session) */
  readonly path: string | undefined;
  /** the key index's environment, when opened (StoreOptions.keyIndex): every owner's tables */
  readonly keyIndex?: KeyIndexEnv;
  /**
   * Registers a service's tables (on its start): applies its migrations and opens its key-index
   * tables. Each owner once per store.
   */
  register(schema: StoreSchema): Promise<Registration>;
  close(): Promise<void>;
}

/** Settings sent with every query and insert (same on chDB and a server). */
export const STORE_SETTINGS: ClickHouseSettings = {
  // 64-bit (and wider) integers — lt, shard, coins — as JSON strings, never lossy JS numbers
  output_format_json_quote_64bit_integers: 1,
  output_format_json_quote_64bit_floats: 0,
  output_format_json_quote_decimals: 0,
  output_format_json_quote_denormals: 0,
  // named tuples (prev_blocks) as objects both ways, maps as objects
  output_format_json_named_tuples_as_objects: 1,
  input_format_json_named_tuples_as_objects: 1,
  output_format_json_map_as_array_of_tuples: 0,
  // base64 hashes contain '/': do not escape it
  output_format_json_escape_forward_slashes: 0,
  output_format_json_validate_utf8: 1,
  date_time_output_format: "simple",
  // a row field without a column is an error (rows and tables must agree)
  input_format_skip_unknown_fields: 0,
  // a JSON object or array for a String column is stored as its JSON text (transactions.description, .messages)
  input_format_json_read_objects_as_strings: 1,
  input_format_json_read_arrays_as_strings: 1,
  // one thread parses an insert's rows: the parallel parser split a batch's JSON across threads at
  // twice the CPU, which the block parser needs more (bench:indexer-ingest)
  input_format_parallel_parsing: 0,
  // chDB and a server both wait for the insert to be written
  async_insert: 0,
  wait_end_of_query: 1,
};

/**
 * Settings of the embedded engine only. chDB runs one query at a time, and the v3 endpoints read a
 * few rows by key: one thread per query saves the thread set-up of a parallel pipeline (~1.5 ms of
 * a ~12 ms key lookup, and most of its tail) and leaves the other core to the gateway and the
 * indexer's parse workers.
 */
export const EMBEDDED_SETTINGS: ClickHouseSettings = {
  max_threads: 1,
};

/** Rows of a query, its values bound as `query_params` ({name:Type} placeholders). */
export async function select<T>(store: Pick<Store, "client">, query: string, query_params: Record<string, unknown>): Promise<T[]> {
  const rs = await store.client.query({ query, query_params, format: "JSONEachRow" });
  return rs.json<T>();
}

export async function openStore(options: StoreOptions = {}): Promise<Store> {
  if (options.url !== undefined && options.path !== undefined) {
    throw new Error("openStore: give either url (a ClickHouse server) or path (embedded chDB), not both");
  }
  if (options.keyIndex === true && options.url !== undefined) {
    throw new Error("openStore: a key index beside a ClickHouse server needs its own directory (keyIndex: DIR)");
  }
  const clickhouse = await openClickHouse(options);
  // without a data directory both live only as long as this process
  const temporary = options.keyIndex === true && options.path === undefined ? mkdtempSync(join(tmpdir(), "tongate-key-index-")) : undefined;
  let keyIndex: KeyIndexEnv | undefined;
  try {
    if (options.keyIndex) keyIndex = openKeyIndexEnv(typeof options.keyIndex === "string" ? options.keyIndex : (temporary ?? join(options.path!, "key-index")));
  } catch (e) {
    await clickhouse.close();
    if (temporary) rmSync(temporary, { recursive: true, force: true });
    throw e;
  }
  const owners = new Owners();
  const store: Store = {
    client: clickhouse.client,
    embedded: clickhouse.embedded,
    path: clickhouse.path,
    keyIndex,
    register: (schema) => owners.register(store, keyIndex, schema),
    async close() {
      await keyIndex?.close();
      await clickhouse.close();
      if (temporary) rmSync(temporary, { recursive: true, force: true });
    },
  };
  return store;
}

/** ClickHouse alone. */
interface ClickHouse {
  client: ClickHouseClient;
  embedded: boolean;
  path: string | undefined;
  close(): Promise<void>;
}

async function openClickHouse(options: StoreOptions): Promise<ClickHouse> {
  if (options.url !== undefined) {
    const client = createClient({ url: options.url, clickhouse_settings: STORE_SETTINGS });
    const ping = await client.ping();
    if (!ping.success) {
      await client.close();
      throw new Error(`ClickHouse at ${redact(options.url)} is unreachable: ${String(ping.error)}`);
    }
    return { client, embedded: false, path: undefined, close: () => client.close() };
  }
  if (options.path !== undefined) {
    mkdirSync(options.path, { recursive: true });
  }
  // loaded only in embedded mode: a server deployment never maps libchdb
  const { createChdbConnection } = await import("chdb/connection");
  const connection = createChdbConnection({ path: options.path ?? ":memory:" });
  // @clickhouse/client's `connection` injection point (≥ 1.23) takes the chDB connection. The cast:
  // chdb types it with @clickhouse/client-common 1.23.0 while @clickhouse/client 1.23.1 carries its
  // own copy of those types, whose ClickHouseSettings differ by a few newer settings.
  // No per-query clickhouse_settings: chDB's connection turns them into `SET …;` statements in
  // front of every query, and a multi-statement text is tokenised to its end — the whole data of an
  // INSERT (5× the insert's cost) and ~2.5 ms on every SELECT. Session settings persist, so they
  // are set once here.
  const client = createClient({
    connection: connection as unknown as NonNullable<ClickHouseClientConfigOptions["connection"]>,
  });
  for (const [name, value] of Object.entries({ ...STORE_SETTINGS, ...EMBEDDED_SETTINGS })) {
    if (SESSION_SKIPPED.has(name)) continue;
    await client.command({ query: `SET ${name} = ${settingLiteral(name, value)}` });
  }
  let closed = false;
  return {
    client,
    embedded: true,
    path: options.path,
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
      // chDB releases its data directory asynchronously; wait so another path can be opened next
      const { drainPending } = await import("chdb");
      await drainPending();
    },
  };
}

/** HTTP-only settings chDB has no counterpart for (its connection drops them too). */
const SESSION_SKIPPED = new Set(["wait_end_of_query"]);

/** A STORE_SETTINGS value as a SET literal (our own constants, checked: never user input). */
function settingLiteral(name: string, value: unknown): string {
  if (typeof value === "number" || typeof value === "boolean") return String(Number(value));
  if (typeof value === "string" && /^[A-Za-z0-9_]+$/.test(value)) return `'${value}'`;
  throw new Error(`STORE_SETTINGS.${name}: unsupported value ${JSON.stringify(value)}`);
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "<invalid url>";
  }
}
