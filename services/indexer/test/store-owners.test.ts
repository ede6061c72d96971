// The indexer's part of the shared store (@tongate/store): a data directory written before the store
// had owners — the indexer's migrations recorded in schema_migrations, its key index with its tables
// unprefixed and one `meta` entry — opens with nothing re-applied and its key index complete and
// read as it is; the process's store takes another owner beside the indexer.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountKey, getCheckpoint, hashKey, ltBytes, openStore, setCheckpoint } from "@tongate/store";
import { open } from "lmdb";
import { afterAll, describe, expect, it } from "vitest";
import { INDEXER_KEY_TABLES, KEY_INDEX_FORMAT, loadMigrations, registerIndexer } from "../src/index.js";

const tmp = mkdtempSync(join(tmpdir(), "tongate-indexer-owners-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const ACCOUNT = "0:" + "5A".repeat(32);
const CODE_HASH = Buffer.alloc(32, 7).toString("base64");

describe("the indexer on the shared store", () => {
  it("a data directory written before owners opens as it is: nothing re-applied, the key index complete and readable", async () => {
    const data = join(tmp, "before-owners");
    const migrations = loadMigrations();
    // the shape the indexer wrote before: schema_migrations by version, then its tables
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
    // its key index as KeyIndex wrote it: every table by its name, an account's code hash, the meta
    const root = open({ path: join(data, "key-index"), maxDbs: 16, compression: false });
    for (const name of Object.keys(INDEXER_KEY_TABLES.tables)) root.openDB({ name, keyEncoding: "binary", encoding: "binary" });
    await root.openDB<Buffer, Buffer>({ name: "code_hashes", keyEncoding: "binary", encoding: "binary" }).put(accountKey(ACCOUNT), Buffer.concat([ltBytes(5n), hashKey(CODE_HASH)]));
    await root.openDB<{ format: number; complete: boolean }, string>({ name: "meta", encoding: "json" }).put("meta", { format: KEY_INDEX_FORMAT, complete: true });
    await root.close();

    store = await openStore({ path: data, keyIndex: true });
    try {
      const indexStore = await registerIndexer(store);
      expect(indexStore.keys?.complete).toBe(true);
      expect([...indexStore.keys!.codeHashes([ACCOUNT])]).toEqual([[ACCOUNT, CODE_HASH]]);
      const recorded = await store.client.query({ query: "SELECT count() AS n FROM schema_migrations FINAL", format: "JSONEachRow" });
      expect(Number((await recorded.json<{ n: string }>())[0]!.n)).toBe(migrations.length);
      expect(await getCheckpoint(store, "follower")).toBe(42);
      // another owner beside it, in the same ClickHouse and the same LMDB environment
      const other = await store.register({ owner: "decoder_test", keyIndex: { format: 1, tables: { by_owner: {} }, rebuild: async () => true } });
      expect(await other.prepareKeys()).toBe(true);
      expect(other.keys!.complete).toBe(true);
      expect(indexStore.keys?.complete).toBe(true);
      await expect(registerIndexer(store)).rejects.toThrow(/registered twice/);
    } finally {
      await store.close();
    }
  });
});
