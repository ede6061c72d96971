// Which messages the indexer has delivered (its `messages` table): what the send service's pending
// traces and API v3's pending endpoints ask to tell a message that landed from one still pending.
import { select, type Store } from "./store.js";

/** Of these message hashes (base64), those an indexed transaction received, each with that transaction's hash. */
export async function deliveredMessages(store: Store, hashes: readonly string[]): Promise<Map<string, string>> {
  if (!hashes.length) return new Map();
  const rows = await select<{ msg_hash: string; tx_hash: string }>(
    store,
    "SELECT msg_hash, tx_hash FROM messages FINAL WHERE msg_hash IN {h:Array(String)} AND direction = 'in' LIMIT 1 BY msg_hash",
    { h: [...new Set(hashes)] },
  );
  return new Map(rows.map((r) => [r.msg_hash, r.tx_hash]));
}
