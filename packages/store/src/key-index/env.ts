// The key index: one LMDB environment per process, beside ClickHouse, in which each owner (the
// indexer, the decoder) keeps the tables of its key lookups.
//
// ClickHouse stays the store of the history and of every filter; it cannot answer a point read in
// less than a few milliseconds (each query pays ~2 ms before it reads a row, and embedded chDB runs
// one query at a time). A key lookup in LMDB is a range scan: microseconds, synchronous, and any
// number of readers at once (LMDB readers never block each other or the writer). An owner writes
// its tables in the step that writes its ClickHouse rows, before its checkpoint, and can rebuild
// them from those rows: until its tables are complete, its reads go to ClickHouse.
//
// Each owner has:
// - its tables, `<owner>/<name>` (an owner whose tables predate owners keeps them unprefixed, so that
//   an index written then is not rebuilt: the indexer's `transactions`, `traces`, …);
// - its format and "complete" flag, under `<prefix>meta` in the `meta` table: tables of another
//   format are emptied when the owner opens them, and rebuilt from its ClickHouse tables.
//
// The environment is opened once per process (the store); a thread of the same process (a key
// reader) opens it again by directory with the same options, and LMDB shares it between them.
import { type Database, open, type RootDatabase } from "lmdb";

/** Options of one table. */
export interface KeyTableOptions {
  /** values of at least this many bytes are stored LZ4-compressed (microseconds; worth it for rendered records) */
  compressAbove?: number;
}

/** Where and how an owner's tables are laid out: what its writer and its readers open. */
export interface KeyTablesLayout {
  /** Bumped when the stored form changes: tables of another format are emptied and rebuilt. */
  format: number;
  /** The owner's tables by name (a-z, 0-9, _; not `meta`). */
  tables: Readonly<Record<string, KeyTableOptions>>;
  /**
   * What the table names are prefixed with: `<owner>/` unless given. `""` only for tables written
   * before the key index had owners (the indexer's), so that such an index stays readable.
   */
  prefix?: string;
}

/** An owner's format and whether its tables hold everything its ClickHouse tables do. */
export interface KeyTablesMeta {
  format: number;
  complete: boolean;
}

/** Tables per environment at most (the indexer has 11, each owner adds its own). */
const MAX_DBS = 128;
const NAME_RE = /^[a-z][a-z0-9_]*$/;

/** The environment of a directory; every thread opens it with these same options. */
export function openKeyIndexEnv(dir: string): KeyIndexEnv {
  return new KeyIndexEnv(open({ path: dir, maxDbs: MAX_DBS, compression: false }), dir);
}

export class KeyIndexEnv {
  private readonly meta: Database<KeyTablesMeta, string>;
  /** the owner of each prefix opened here: two owners never share a table */
  private readonly prefixes = new Map<string, string>();
  private closed = false;

  constructor(
    private readonly root: RootDatabase,
    /** the directory: a thread of this process opens it again by it (openKeyIndexEnv) */
    readonly dir: string,
  ) {
    this.meta = root.openDB<KeyTablesMeta, string>({ name: "meta", encoding: "json" });
  }

  /**
   * An owner's tables as they are (no format check, no write): a reader's view, in this thread or
   * another one. Their `complete` is false unless they were completed in the layout's format.
   */
  tables(owner: string, layout: KeyTablesLayout): KeyTables {
    if (!NAME_RE.test(owner)) throw new Error(`key index: owner "${owner}": expected a-z, 0-9 and _`);
    const prefix = layout.prefix ?? `${owner}/`;
    const holder = this.prefixes.get(prefix);
    if (holder !== undefined && holder !== owner) throw new Error(`key index: the tables of "${owner}" and "${holder}" would share the prefix "${prefix}"`);
    this.prefixes.set(prefix, owner);
    const tables = new Map<string, Database<Buffer, Buffer>>();
    for (const [name, o] of Object.entries(layout.tables)) {
      if (!NAME_RE.test(name) || name === "meta") throw new Error(`key index: table "${name}" of "${owner}": expected a-z, 0-9 and _, not "meta"`);
      const compression = o.compressAbove === undefined ? {} : { compression: { threshold: o.compressAbove } };
      tables.set(name, this.root.openDB<Buffer, Buffer>({ name: prefix + name, keyEncoding: "binary", encoding: "binary", ...compression }));
    }
    return new KeyTables(this, owner, layout.format, tables, this.meta, `${prefix}meta`);
  }

  /**
   * An owner's tables for writing: emptied when they are of another format (they must be rebuilt),
   * marked incomplete when new.
   */
  async open(owner: string, layout: KeyTablesLayout): Promise<KeyTables> {
    const keys = this.tables(owner, layout);
    const meta = keys.meta();
    if (meta && meta.format !== layout.format) await keys.clear();
    else if (!meta) await keys.setMeta({ format: layout.format, complete: false });
    return keys;
  }

  /** Runs `fn` in one write transaction of the environment (all or nothing; one writer at a time, whatever the owner). */
  transaction<T>(fn: () => T): Promise<T> {
    return this.root.transaction(fn);
  }

  /**
   * Reads after this see every write committed before it. lmdb-js keeps one read snapshot per
   * event-loop turn of its thread; a thread that serves several requests in one turn (a key reader
   * taking queued messages) calls this before each, so no answer is older than the request.
   */
  refresh(): void {
    this.root.resetReadTxn();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.root.close();
  }
}

/** One owner's tables in the environment, with its format and complete flag. */
export class KeyTables {
  constructor(
    readonly env: KeyIndexEnv,
    readonly owner: string,
    readonly format: number,
    private readonly byName: ReadonlyMap<string, Database<Buffer, Buffer>>,
    private readonly metaTable: Database<KeyTablesMeta, string>,
    /** the owner's key in the `meta` table */
    readonly metaKey: string,
  ) {}

  /** the environment's directory (a key reader opens it again by it) */
  get dir(): string {
    return this.env.dir;
  }

  /** One of the owner's tables (binary keys and values), by the name its layout gives. */
  table(name: string): Database<Buffer, Buffer> {
    const db = this.byName.get(name);
    if (!db) throw new Error(`key index: "${this.owner}" has no table "${name}"`);
    return db;
  }

  /** The owner's format and complete flag as stored; undefined before it first opened its tables. */
  meta(): KeyTablesMeta | undefined {
    return this.metaTable.get(this.metaKey);
  }

  /** Every row of the owner's ClickHouse tables is here too: reads may use the tables. */
  get complete(): boolean {
    const meta = this.meta();
    return meta?.complete === true && meta.format === this.format;
  }

  async markComplete(): Promise<void> {
    await this.setMeta({ format: this.format, complete: true });
  }

  async setMeta(meta: KeyTablesMeta): Promise<void> {
    await this.metaTable.put(this.metaKey, meta);
  }

  /** Empties the owner's tables, incomplete in its format (a format change; a rebuild from scratch). */
  async clear(): Promise<void> {
    await this.env.transaction(() => {
      for (const db of this.byName.values()) db.clearSync();
      this.metaTable.putSync(this.metaKey, { format: this.format, complete: false });
    });
  }

  transaction<T>(fn: () => T): Promise<T> {
    return this.env.transaction(fn);
  }

  refresh(): void {
    this.env.refresh();
  }

  /** Every entry of every table of the owner in key order, then its meta (to compare two indexes whole). */
  *contents(): Generator<{ table: string; key: string; value: string }> {
    for (const [table, db] of this.byName) {
      for (const { key, value } of db.getRange({})) yield { table, key: key.toString("hex"), value: value.toString("base64") };
    }
    yield { table: "meta", key: this.metaKey, value: JSON.stringify(this.meta()) };
  }
}
