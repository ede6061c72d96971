// The store as the indexer uses it: ClickHouse (@tongate/store) with the indexer's schema, and the
// indexer's key index beside it.
import { fileURLToPath } from "node:url";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadMigrations as loadMigrationsIn, migrate as migrateIn, openStore, type Migration, type MigrateResult, type Store, type StoreOptions } from "@tongate/store";
import { KeyIndex } from "./key-index/key-index.js";

/** The indexer's migrations (NNNN_name.sql). */
export const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations/", import.meta.url));

export const loadMigrations = (dir: string = MIGRATIONS_DIR): Migration[] => loadMigrationsIn(dir);

/** Brings the indexer's tables up to date. */
export const migrate = (store: Store, migrations: Migration[] = loadMigrations()): Promise<MigrateResult> => migrateIn(store, migrations);

export interface IndexStoreOptions extends StoreOptions {
  /**
   * The key index of API v3's key lookups (./key-index): true keeps it beside the embedded data
   * (`<path>/key-index`, a temporary directory without a path); a string is its directory (needed
   * with a server `url`). Off when absent: only the indexer service and `tongate index` open it.
   */
  keyIndex?: boolean | string;
}

/** The store with the indexer's key index, when opened; reads use it once it is complete. */
export interface IndexStore extends Store {
  readonly keys?: KeyIndex;
}

/** The store, its schema brought up to date: what the indexer's hosts (`tongate index`, the service) read and write. */
export async function openIndexStore(options: IndexStoreOptions = {}): Promise<IndexStore> {
  if (options.keyIndex === true && options.url !== undefined) {
    throw new Error("openStore: a key index beside a ClickHouse server needs its own directory (keyIndex: DIR)");
  }
  const store = await openStore({ url: options.url, path: options.path });
  // without a data directory both live only as long as this process
  const temporary = options.keyIndex === true && options.path === undefined ? mkdtempSync(join(tmpdir(), "tongate-key-index-")) : undefined;
  let keys: KeyIndex | undefined;
  try {
    await migrate(store);
    if (options.keyIndex) keys = await KeyIndex.open(typeof options.keyIndex === "string" ? options.keyIndex : (temporary ?? join(options.path!, "key-index")));
  } catch (e) {
    await store.close();
    throw e;
  }
  return {
    client: store.client,
    embedded: store.embedded,
    path: store.path,
    keys,
    async close() {
      await keys?.close();
      await store.close();
      if (temporary) rmSync(temporary, { recursive: true, force: true });
    },
  };
}
