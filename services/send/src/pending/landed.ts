// Which external messages the indexer has delivered (its `messages` table, read through the store
// this process shares with it): a pending trace whose message landed is final once its block is
// indexed, whether or not a signed shard block showed it first.
import { select, type Store } from "@tongate/store";

/** Of these external message hashes (base64), those an indexed transaction received. */
export async function deliveredExternals(store: Store, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const rows = await select<{ msg_hash: string }>(store, "SELECT DISTINCT msg_hash FROM messages WHERE msg_hash IN {h:Array(String)} AND direction = 'in'", { h: [...new Set(hashes)] });
  return new Set(rows.map((r) => r.msg_hash));
}
