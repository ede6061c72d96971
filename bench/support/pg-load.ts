// The chDB set's rows into the PostgreSQL cluster: a schema (pg-schema.ts's by default), each table exported
// from chDB as TabSeparated text (in parts that fit in memory) and COPY'd in through psql, then the
// indexes, ANALYZE and VACUUM (the visibility map, so index-only scans stay index-only). A marker
// file says the load finished; a cluster without it is emptied and loaded again.
import type { Store } from "@tongate/store";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type { PgCluster } from "./pg-cluster.js";
import { EXPORTS, INDEXES, TABLES, type TableExport } from "./pg-schema.js";

/** Rows per exported part: ~100–150 MB of text for transactions. */
const ROWS_PER_PART = 100_000;

export interface Loaded {
  rows: Record<string, number>;
  seconds: number;
}

/** What to load: the tables' DDL, the indexes built after the rows, each table's export from chDB. */
export interface PgSchema {
  tables: string;
  indexes: string;
  exports: TableExport[];
  /** SQL run after the rows are in and before the indexes (e.g. moving rows from a staging table) */
  after?: string;
}

/** bench:v3-reads' schema (pg-schema.ts): the transaction page's tables. */
export const TRANSACTIONS_SCHEMA: PgSchema = { tables: TABLES, indexes: INDEXES, exports: EXPORTS };

/** Loads the set into the cluster unless a finished load is recorded in `dir`; returns what is there. */
export async function loadOnce(cluster: PgCluster, store: Store, dir: string, schema: PgSchema = TRANSACTIONS_SCHEMA): Promise<Loaded> {
  const marker = join(dir, "loaded.json");
  if (existsSync(marker)) {
    const loaded = JSON.parse(readFileSync(marker, "utf8")) as Loaded;
    console.log(`reusing the loaded PostgreSQL cluster in ${dir} (${Object.entries(loaded.rows).map(([t, n]) => `${t} ${n}`).join(", ")}; delete it to load again)`);
    return loaded;
  }
  const started = performance.now();
  await cluster.psql("drop schema if exists public cascade; create schema public;");
  await cluster.psql(schema.tables);
  const rows: Record<string, number> = {};
  for (const x of schema.exports) {
    const t0 = performance.now();
    const count = await store.client.query({ query: `SELECT count() AS n FROM ${x.from ?? `${x.table} FINAL`}`, format: "JSONEachRow" });
    const n = Number((await count.json<{ n: string }>())[0]!.n);
    const parts = Math.max(1, Math.ceil(n / ROWS_PER_PART));
    const input = new PassThrough();
    const copy = cluster.psql(`COPY ${x.table} (${x.columns.join(", ")}) FROM STDIN`, input);
    for (let part = 0; part < parts; part++) {
      const rs = await store.client.query({ query: x.select, query_params: { parts, part }, format: "TabSeparated" });
      if (!input.write(await rs.text())) await new Promise((r) => input.once("drain", r));
    }
    input.end();
    await copy;
    rows[x.table] = n;
    console.log(`  ${x.table}: ${n} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const t0 = performance.now();
  if (schema.after) await cluster.psql(schema.after);
  await cluster.psql(schema.indexes);
  await cluster.psql("VACUUM ANALYZE");
  console.log(`  indexes, VACUUM ANALYZE: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const loaded = { rows, seconds: Math.round((performance.now() - started) / 1000) };
  writeFileSync(marker, JSON.stringify(loaded));
  console.log(`loaded the set into PostgreSQL in ${loaded.seconds} s`);
  return loaded;
}
