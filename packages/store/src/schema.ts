// What a service registers with the store on start: the schema of the tables it owns. Its
// ClickHouse tables come from its migrations; its key-index tables (when the store keeps a key
// index) are opened in the process's one LMDB environment, emptied when of another format, and
// rebuilt from its ClickHouse tables by its own rebuild.
import { createCheckpoints } from "./checkpoints.js";
import type { KeyIndexEnv, KeyTables, KeyTablesLayout } from "./key-index/env.js";
import { loadMigrations, migrate, migrationsTable, type MigrateResult, type Migration } from "./migrate.js";
import type { Store } from "./store.js";

export interface RebuildProgress {
  /** rows (of the owner's choosing: the indexer counts transactions) written so far */
  done: number;
  total: number;
}

/** What an owner's rebuild gets: the store to read, its tables to write. */
export interface RebuildContext {
  store: Store;
  keys: KeyTables;
  /** stops the rebuild: it then resolves false and the tables stay incomplete (the next start rebuilds them) */
  signal?: AbortSignal;
  progress(p: RebuildProgress): void;
}

/**
 * Fills an owner's empty tables from its ClickHouse tables; writes of the owner running meanwhile
 * go to both, so each put must be one a block determines (the same bytes whichever comes first).
 * Resolves false when stopped by `signal`.
 */
export type KeyTablesRebuild = (o: RebuildContext) => Promise<boolean>;

export interface KeyIndexSchema extends KeyTablesLayout {
  rebuild: KeyTablesRebuild;
}

export interface StoreSchema {
  /** The service that owns these tables (a-z, 0-9, _), once per store. */
  owner: string;
  /** Its migrations: a directory of NNNN_name.sql, or those loaded from one. */
  migrations?: string | readonly Migration[];
  /**
   * The table its applied migrations are recorded in: `<owner>_schema_migrations` unless given
   * (the indexer's are in `schema_migrations`, where they were recorded before the store had owners).
   */
  migrationsTable?: string;
  /** Its key-index tables, opened when the store keeps a key index. */
  keyIndex?: KeyIndexSchema;
}

export interface PrepareOptions {
  signal?: AbortSignal;
  onProgress?: (p: RebuildProgress) => void;
}

/** A registered owner's part of the store. */
export interface Registration {
  /** the migrations applied by this registration, and those applied before */
  migrations: MigrateResult;
  /** its key-index tables: undefined when the store keeps no key index or the schema has none */
  keys?: KeyTables;
  /**
   * Makes its key-index tables complete: at once when they are, else by its rebuild. Resolves false
   * when `signal` stopped it first; true without a key index.
   */
  prepareKeys(o?: PrepareOptions): Promise<boolean>;
}

/** Runs `rebuild` unless the tables are complete, then marks them complete. */
export async function prepareKeyTables(store: Store, keys: KeyTables, rebuild: KeyTablesRebuild, o: PrepareOptions = {}): Promise<boolean> {
  if (keys.complete) return true;
  if (!(await rebuild({ store, keys, signal: o.signal, progress: (p) => o.onProgress?.(p) }))) return false;
  await keys.markComplete();
  return true;
}

/** The owners registered with one store, so that two never take the same name or bookkeeping table. */
export class Owners {
  private readonly owners = new Map<string, string>();

  async register(store: Store, env: KeyIndexEnv | undefined, schema: StoreSchema): Promise<Registration> {
    const table = migrationsTable({ owner: schema.owner, table: schema.migrationsTable });
    if (this.owners.has(schema.owner)) throw new Error(`store: "${schema.owner}" registered twice`);
    for (const [owner, taken] of this.owners) if (taken === table) throw new Error(`store: "${schema.owner}" and "${owner}" would record their migrations in one table (${table})`);
    this.owners.set(schema.owner, table);
    let applied: MigrateResult;
    let keys: KeyTables | undefined;
    const keyIndex = schema.keyIndex;
    try {
      const migrations = typeof schema.migrations === "string" ? loadMigrations(schema.migrations) : (schema.migrations ?? []);
      applied = await migrate(store, { owner: schema.owner, table }, migrations);
      await createCheckpoints(store);
      keys = env && keyIndex ? await env.open(schema.owner, keyIndex) : undefined;
    } catch (e) {
      this.owners.delete(schema.owner);
      throw e;
    }
    return {
      migrations: applied,
      keys,
      prepareKeys: (o) => (keys && keyIndex ? prepareKeyTables(store, keys, keyIndex.rebuild, o) : Promise.resolve(true)),
    };
  }
}
