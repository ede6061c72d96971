// Owners on one store, on real chDB and LMDB: the indexer's schema (its migration files, its
// bookkeeping table and the unprefixed tables of its key index) beside a test owner with one
// migration and one key-index table rebuilt from its ClickHouse table; a format bump that rebuilds
// one owner's tables only; a data directory written before the store had owners, reopened.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { open } from "lmdb";
import { afterAll, describe, expect, it } from "vitest";
import {
  accountKey,
  getCheckpoint,
  type KeyTables,
  loadMigrations,
  ltBytes,
  openStore,
  prefixEnd,
  type RebuildContext,
  select,
  setCheckpoint,
  type Store,
  type StoreSchema,
} from "../src/index.js";

/** The indexer's migration files (read as data: a package imports no service). */
const INDEXER_MIGRATIONS = fileURLToPath(new URL("../../../services/indexer/src/store/migrations/", import.meta.url));

const tmp = mkdtempSync(join(tmpdir(), "tongate-store-owners-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Which owners' rebuilds ran. */
const rebuilds: string[] = [];

/**
 * The indexer as it registers (services/indexer/src/store/index-store.ts): its migrations recorded
 * in schema_migrations, its key-index tables unprefixed, format 5. Its rebuild is a stand-in here.
 */
const indexer: StoreSchema = {
  owner: "indexer",
  migrations: INDEXER_MIGRATIONS,
  migrationsTable: "schema_migrations",
  keyIndex: {
    format: 5,
    prefix: "",
    tables: { transactions: { compressAbove: 256 }, code_hashes: {} },
    rebuild: async () => {
      rebuilds.push("indexer");
      return true;
    },
  },
};

/** A test owner: a ClickHouse table of payments and their key-index table by account, in lt order. */
const ledgerMigrations = join(tmp, "ledger-migrations");
mkdirSync(ledgerMigrations);
writeFileSync(
  join(ledgerMigrations, "0001_payments.sql"),
  "-- one row per payment\nCREATE TABLE IF NOT EXISTS ledger_payments (account String, lt UInt64, amount UInt64)\nENGINE = ReplacingMergeTree ORDER BY (account, lt);\n",
);

const paymentKey = (account: string, lt: string) => Buffer.concat([accountKey(account), ltBytes(lt)]);

async function rebuildLedger({ store, keys, progress }: RebuildContext): Promise<boolean> {
  rebuilds.push("ledger");
  const rows = await select<{ account: string; lt: string; amount: string }>(store, "SELECT account, lt, amount FROM ledger_payments FINAL ORDER BY account, lt", {});
  const table = keys.table("payments_by_account");
  await keys.transaction(() => {
    for (const r of rows) table.put(paymentKey(r.account, r.lt), Buffer.from(r.amount));
  });
  progress({ done: rows.length, total: rows.length });
  return true;
}

const ledger = (format = 1): StoreSchema => ({
  owner: "ledger",
  migrations: ledgerMigrations,
  keyIndex: { format, tables: { payments_by_account: {} }, rebuild: rebuildLedger },
});

const A = "0:" + "AB".repeat(32);
const B = "-1:" + "01".repeat(32);

/** An account's payments from the key index, in lt order. */
function payments(keys: KeyTables, account: string): string[] {
  const prefix = accountKey(account);
  return [...keys.table("payments_by_account").getRange({ start: prefix, end: prefixEnd(prefix) })].map(({ value }) => value.toString());
}

const count = async (store: Store, table: string) => Number((await select<{ n: string }>(store, "SELECT count() AS n FROM {t:Identifier} FINAL", { t: table }))[0]!.n);

/** The named tables of an LMDB environment (its main database's keys). */
async function lmdbTables(dir: string): Promise<string[]> {
  const root = open({ path: dir, maxDbs: 128, compression: false });
  try {
    return [...root.getKeys()].map(String);
  } finally {
    await root.close();
  }
}

describe("owners on one store", () => {
  const data = join(tmp, "two-owners");

  it("each owner its migrations, their bookkeeping and its key-index tables; the rebuild fills them from its ClickHouse table", async () => {
    const store = await openStore({ path: data, keyIndex: true });
    try {
      const ix = await store.register(indexer);
      expect(ix.migrations).toEqual({ applied: loadMigrations(INDEXER_MIGRATIONS).map((m) => m.version), alreadyApplied: [] });
      // nothing stored yet: the stand-in rebuild runs once and the tables are complete
      expect(await ix.prepareKeys()).toBe(true);

      const lg = await store.register(ledger());
      // version 1 of both owners, each in its own bookkeeping table
      expect(lg.migrations).toEqual({ applied: [1], alreadyApplied: [] });
      await store.client.insert({ table: "ledger_payments", values: [{ account: A, lt: "7", amount: "70" }, { account: A, lt: "3", amount: "30" }, { account: B, lt: "5", amount: "50" }], format: "JSONEachRow" });
      expect(await count(store, "schema_migrations")).toBe(ix.migrations.applied.length);
      expect(await count(store, "ledger_schema_migrations")).toBe(1);

      expect(lg.keys!.complete).toBe(false);
      const progress: number[] = [];
      expect(await lg.prepareKeys({ onProgress: (p) => progress.push(p.done) })).toBe(true);
      expect(progress).toEqual([3]);
      expect(lg.keys!.complete).toBe(true);
      expect(payments(lg.keys!, A)).toEqual(["30", "70"]);
      expect(payments(lg.keys!, B)).toEqual(["50"]);
      // complete: a second prepare does not rebuild
      expect(await lg.prepareKeys()).toBe(true);
      expect(rebuilds).toEqual(["indexer", "ledger"]);

      // checkpoints by name, any owner's
      await setCheckpoint(store, "ledger", 7);
      expect(await getCheckpoint(store, "ledger")).toBe(7);

      await expect(store.register(ledger())).rejects.toThrow(/"ledger" registered twice/);
      await expect(store.register({ owner: "other", migrationsTable: "ledger_schema_migrations" })).rejects.toThrow(/one table \(ledger_schema_migrations\)/);
      await expect(store.register({ owner: "legacy", keyIndex: { format: 1, prefix: "", tables: { x: {} }, rebuild: async () => true } })).rejects.toThrow(/share the prefix/);
    } finally {
      await store.close();
    }
    // the indexer's tables unprefixed, the ledger's under its name; one meta entry each
    expect((await lmdbTables(join(data, "key-index"))).sort()).toEqual(["code_hashes", "ledger/payments_by_account", "meta", "transactions"]);
  });

  it("a format bump empties and rebuilds that owner's tables only; a reopen applies nothing", async () => {
    rebuilds.length = 0;
    const store = await openStore({ path: data, keyIndex: true });
    try {
      const ix = await store.register(indexer);
      expect(ix.migrations.applied).toEqual([]);
      expect(ix.keys!.complete).toBe(true);
      await store.client.insert({ table: "ledger_payments", values: [{ account: B, lt: "9", amount: "90" }], format: "JSONEachRow" });
      const lg = await store.register(ledger(2));
      expect(lg.migrations).toEqual({ applied: [], alreadyApplied: [1] });
      // of format 1: emptied, incomplete until rebuilt
      expect(lg.keys!.complete).toBe(false);
      expect(payments(lg.keys!, A)).toEqual([]);
      expect(await lg.prepareKeys()).toBe(true);
      expect(payments(lg.keys!, B)).toEqual(["50", "90"]);
      expect(lg.keys!.meta()).toEqual({ format: 2, complete: true });
      expect(rebuilds).toEqual(["ledger"]);
      expect(await getCheckpoint(store, "ledger")).toBe(7);
    } finally {
      await store.close();
    }
  });

  it("a store without a key index: migrations only, and prepareKeys has nothing to do", async () => {
    const store = await openStore({ path: data });
    try {
      const lg = await store.register(ledger(2));
      expect(lg.keys).toBeUndefined();
      expect(await lg.prepareKeys()).toBe(true);
    } finally {
      await store.close();
    }
  });
});

describe("a data directory written before the store had owners", () => {
  it("opens with nothing re-applied, its checkpoints kept and its key index complete (not rebuilt)", async () => {
    const data = join(tmp, "before-owners");
    const migrations = loadMigrations(INDEXER_MIGRATIONS);
    // what the indexer's migrate wrote: schema_migrations (version, name, checksum, applied_at) by version
    let store = await openStore({ path: data });
    try {
      await store.client.command({
        query: `CREATE TABLE IF NOT EXISTS schema_migrations
          (version UInt32, name String, checksum String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3))
          ENGINE = ReplacingMergeTree ORDER BY version`,
      });
      for (const m of migrations) {
        for (const query of m.statements) await store.client.command({ query });
        await store.client.insert({ table: "schema_migrations", values: [{ version: m.version, name: m.name, checksum: m.checksum }], format: "JSONEachRow" });
      }
      await setCheckpoint(store, "follower", 42);
    } finally {
      await store.close();
    }
    // and its key index: the tables by their own names, one `meta` entry {format, complete}
    const root = open({ path: join(data, "key-index"), maxDbs: 16, compression: false });
    await root.openDB<Buffer, Buffer>({ name: "transactions", keyEncoding: "binary", encoding: "binary", compression: { threshold: 256 } }).put(Buffer.from("0102", "hex"), Buffer.from("a transaction"));
    await root.openDB<{ format: number; complete: boolean }, string>({ name: "meta", encoding: "json" }).put("meta", { format: 5, complete: true });
    await root.close();

    rebuilds.length = 0;
    store = await openStore({ path: data, keyIndex: true });
    try {
      const ix = await store.register(indexer);
      expect(ix.migrations).toEqual({ applied: [], alreadyApplied: migrations.map((m) => m.version) });
      expect(ix.keys!.complete).toBe(true);
      expect(await ix.prepareKeys()).toBe(true);
      expect(rebuilds).toEqual([]);
      expect(ix.keys!.table("transactions").get(Buffer.from("0102", "hex"))?.toString()).toBe("a transaction");
      expect(await getCheckpoint(store, "follower")).toBe(42);
      // no second bookkeeping table for the indexer
      const tables = await select<{ name: string }>(store, "SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE '%schema_migrations' ORDER BY name", {});
      expect(tables.map((t) => t.name)).toEqual(["schema_migrations"]);
    } finally {
      await store.close();
    }
  });
});
