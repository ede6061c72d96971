// The indexer's part of the store (@tongate/store): its schema — the ClickHouse tables of its
// migrations, its key-index tables and their rebuild from ClickHouse — registered with the store
// the host opened, and the store as the indexer reads and writes it (with its key index).
import { fileURLToPath } from "node:url";
import {
  DECODED_KEYS,
  DecodedKeys,
  DECODER_OWNER,
  loadMigrations as loadMigrationsIn,
  migrate as migrateIn,
  openStore,
  type Migration,
  type MigrateResult,
  type Store,
  type StoreOptions,
  type StoreSchema,
} from "@tongate/store";
import { INDEXER_KEY_TABLES, INDEXER_OWNER, KeyIndex } from "./key-index/key-index.js";
import { rebuildKeyIndex } from "./key-index/rebuild.js";

/** The indexer's migrations (NNNN_name.sql). */
export const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations/", import.meta.url));

/** Where the indexer's applied migrations are recorded: where they were before the store had owners. */
const MIGRATIONS_TABLE = "schema_migrations";

export const loadMigrations = (dir: string = MIGRATIONS_DIR): Migration[] => loadMigrationsIn(dir);

/** Brings the indexer's ClickHouse tables up to date (what `store.register(INDEXER_SCHEMA)` does first). */
export const migrate = (store: Store, migrations: readonly Migration[] = loadMigrations()): Promise<MigrateResult> =>
  migrateIn(store, { owner: INDEXER_OWNER, table: MIGRATIONS_TABLE }, migrations);

/** The schema of the indexer's tables. */
export const INDEXER_SCHEMA: StoreSchema = {
  owner: INDEXER_OWNER,
  migrations: MIGRATIONS_DIR,
  migrationsTable: MIGRATIONS_TABLE,
  keyIndex: { ...INDEXER_KEY_TABLES, rebuild: rebuildKeyIndex },
};

/** The store with the indexer's key index, when the store keeps one; reads use it once it is complete. */
export interface IndexStore extends Store {
  readonly keys?: KeyIndex;
  /** the decoder's key-index tables (a reader's view): API v3's token lookups use them while a decoder keeps them */
  readonly decoded?: DecodedKeys;
}

/** Registers the indexer's tables with `store` (once per store): the store as the indexer uses it. */
export async function registerIndexer(store: Store): Promise<IndexStore> {
  const { keys } = await store.register(INDEXER_SCHEMA);
  return withKeys(store, keys && KeyIndex.of(keys));
}

/**
 * A store of its own with the indexer's tables (tests, benches): closing it closes the store. The
 * hosts (the indexer service, `tongate index`) open the store through @tongate/store and register.
 */
export async function openIndexStore(options: StoreOptions = {}): Promise<IndexStore> {
  const store = await openStore(options);
  try {
    return await registerIndexer(store);
  } catch (e) {
    await store.close();
    throw e;
  }
}

/** The store's own members and the indexer's key index beside them. */
function withKeys(store: Store, keys: KeyIndex | undefined): IndexStore {
  return {
    client: store.client,
    embedded: store.embedded,
    path: store.path,
    keyIndex: store.keyIndex,
    register: (schema) => store.register(schema),
    close: () => store.close(),
    keys,
    decoded: store.keyIndex && DecodedKeys.of(store.keyIndex.tables(DECODER_OWNER, DECODED_KEYS)),
  };
}
