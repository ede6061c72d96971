// Versioned schema migrations: a directory of NNNN_name.sql, applied in version order.
// The applied versions are recorded in `schema_migrations`; a run applies only the missing ones,
// so running it again is a no-op. Statements use IF NOT EXISTS, so a run that stopped half-way
// through a migration (before its version was recorded) simply repeats it. An applied migration
// whose file changed since is an error: add a new migration instead of editing an applied one.
// One migrating process at a time (the indexer migrates at startup, before it writes).
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

export async function migrate(store: Store, migrations: Migration[]): Promise<MigrateResult> {
  const { client } = store;
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS schema_migrations
      (version UInt32, name String, checksum String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3))
      ENGINE = ReplacingMergeTree ORDER BY version`,
  });
  const rows = await (
    await client.query({ query: "SELECT version, name, checksum FROM schema_migrations FINAL ORDER BY version", format: "JSONEachRow" })
  ).json<{ version: number; name: string; checksum: string }>();
  const done = new Map(rows.map((r) => [Number(r.version), r]));
  const result: MigrateResult = { applied: [], alreadyApplied: [] };
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    const prev = done.get(m.version);
    if (prev) {
      if (prev.checksum !== m.checksum) {
        throw new Error(`migration ${m.version}_${m.name} changed after it was applied (checksum ${prev.checksum} → ${m.checksum})`);
      }
      result.alreadyApplied.push(m.version);
      continue;
    }
    for (const query of m.statements) await client.command({ query });
    await client.insert({
      table: "schema_migrations",
      values: [{ version: m.version, name: m.name, checksum: m.checksum }],
      format: "JSONEachRow",
    });
    result.applied.push(m.version);
  }
  return result;
}
