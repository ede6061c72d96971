// Checkpoints by name: how far a writer has got (the last masterchain seqno whose rows are all
// stored). One row per name in `indexer_checkpoints` (a ReplacingMergeTree by version; the table
// kept its first owner's name so that existing stores keep their checkpoints), read with FINAL.
import type { Store } from "./store.js";

/** The last masterchain seqno whose rows are all stored under `name`, or null. */
export async function getCheckpoint(store: Store, name: string): Promise<number | null> {
  const rows = await (
    await store.client.query({
      query: "SELECT mc_seqno FROM indexer_checkpoints FINAL WHERE name = {name:String}",
      query_params: { name },
      format: "JSONEachRow",
    })
  ).json<{ mc_seqno: number }>();
  return rows.length ? Number(rows[0]!.mc_seqno) : null;
}

export async function setCheckpoint(store: Store, name: string, mcSeqno: number): Promise<void> {
  const now = Date.now();
  // version: a later write wins, even one that moves the checkpoint back (a deliberate re-index)
  lastVersion = Math.max(now * 1000, lastVersion + 1);
  await store.client.insert({
    table: "indexer_checkpoints",
    values: [{ name, mc_seqno: mcSeqno, updated_at: (now / 1000).toFixed(3), version: String(lastVersion) }],
    format: "JSONEachRow",
  });
}
let lastVersion = 0;

/** The table of the checkpoints (as the indexer's first migration creates it): made by every owner's registration, so that any owner can keep one. */
export async function createCheckpoints(store: Store): Promise<void> {
  await store.client.command({
    query: `CREATE TABLE IF NOT EXISTS indexer_checkpoints
      (name String, mc_seqno UInt32, updated_at DateTime64(3, 'UTC'), version UInt64)
      ENGINE = ReplacingMergeTree(version) ORDER BY name`,
  });
}
