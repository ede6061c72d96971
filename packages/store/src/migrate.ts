// Versioned schema migrations, per owner: each service owns its tables and their migrations (a
// directory of NNNN_name.sql), applied in version order. An owner's applied versions are recorded in
// a table of its own (`<owner>_schema_migrations`; the indexer's in `schema_migrations`, where they
// were recorded before the store had owners), so that two owners' version numbers never meet. A
// run applies only the missing ones, so running it again is a no-op. Statements use IF NOT EXISTS,
// so a run that stopped half-way through a migration (before its version was recorded) simply
// repeats it. An applied migration whose file changed since is an error: add a new migration
// instead of editing an applied one. One migrating process at a time (each service migrates its
// tables at startup, before it writes).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import type { Store } from "./store.js";

export interface Migration {
  version: number;
  name: string;
  statements: string[];
  checksum: string;
}

const FILE_RE = /^(\d{4})_([a-z0-9_]+)\.sql$/;

/** The migrations in a directory, by version (duplicated versions are an error). */
export function loadMigrations(dir: string): Migration[] {
  const out: Migration[] = [];
  for (const file of readdirSync(dir).sort()) {
    const m = FILE_RE.exec(file);
    if (!m) continue;
    const text = readFileSync(`${dir}/${file}`, "utf8");
    const version = Number(m[1]);
    if (out.some((x) => x.version === version)) throw new Error(`migration version ${version} appears twice in ${dir}`);
    out.push({
      version,
      name: m[2]!,
      statements: splitStatements(text),
      checksum: createHash("sha256").update(text).digest("hex"),
    });
  }
  return out;
}

/** Splits a migration into statements: whole-line `--` comments dropped, `;` at a line end ends one. */
export function splitStatements(sql: string): string[] {
  const lines = sql.split("\n").filter((l) => !/^\s*--/.test(l));
  const out: string[] = [];
  let cur: string[] = [];
  for (const line of lines) {
    cur.push(line);
    if (/;\s*$/.test(line)) {
      const stmt = cur.join("\n").trim().replace(/;\s*$/, "").trim();
      if (stmt) out.push(stmt);
      cur = [];
    }
  }
  const rest = cur.join("\n").trim();
  if (rest) out.push(rest);
  return out;
}

export interface MigrateResult {
  applied: number[];
  alreadyApplied: number[];
}

/** Whose migrations, and where they are recorded. */
export interface MigrationsOwner {
  /** the owner of the tables (a-z, 0-9, _) */
  owner: string;
  /** the table its applied versions are recorded in (default: `<owner>_schema_migrations`) */
  table?: string;
}

const NAME_RE = /^[a-z][a-z0-9_]*$/;

/** The table an owner's applied migrations are recorded in. */
export function migrationsTable(o: MigrationsOwner): string {
  if (!NAME_RE.test(o.owner)) throw new Error(`store owner "${o.owner}": expected a-z, 0-9 and _`);
  const table = o.table ?? `${o.owner}_schema_migrations`;
  if (!NAME_RE.test(table)) throw new Error(`migrations table "${table}": expected a-z, 0-9 and _`);
  return table;
}

export async function migrate(store: Store, owner: MigrationsOwner, migrations: readonly Migration[]): Promise<MigrateResult> {
  const { client } = store;
  const table = migrationsTable(owner);
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS ${table}
      (version UInt32, name String, checksum String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3))
      ENGINE = ReplacingMergeTree ORDER BY version`,
  });
  const rows = await (
    await client.query({ query: `SELECT version, name, checksum FROM ${table} FINAL ORDER BY version`, format: "JSONEachRow" })
  ).json<{ version: number; name: string; checksum: string }>();
  const done = new Map(rows.map((r) => [Number(r.version), r]));
  const result: MigrateResult = { applied: [], alreadyApplied: [] };
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    const prev = done.get(m.version);
    if (prev) {
      if (prev.checksum !== m.checksum) {
        throw new Error(`migration ${m.version}_${m.name} of ${owner.owner} changed after it was applied (checksum ${prev.checksum} → ${m.checksum})`);
      }
      result.alreadyApplied.push(m.version);
      continue;
    }
    for (const query of m.statements) await client.command({ query });
    await client.insert({
      table,
      values: [{ version: m.version, name: m.name, checksum: m.checksum }],
      format: "JSONEachRow",
    });
    result.applied.push(m.version);
  }
  return result;
}
