// Filling the key index from ClickHouse: an index created beside a store that already holds
// transactions (an upgrade, a deleted index, a format change) is rebuilt from the rows before reads
// use it: the transactions (with their trace ids), the latest account states, then the trace
// records (`traces FINAL`: the indexer's rows and any later writer's, e.g. the decoder's). Writes of
// the indexer running meanwhile go to both; a rebuild's puts of the same keys write the same bytes,
// and versioned records (states, traces) are replaced only by the same or a later version, so the
// order does not matter.
import { prepareKeyTables, type RebuildContext, type Store } from "@tongate/store";
import type { StoredTrace } from "../../api/actions/models.js";
import { transactionParts } from "../../api/blockchain/parts.js";
import { select, type StoredTransaction } from "../../api/sql.js";
import { messagesByTransaction } from "../../rows/message.js";
import type { AccountStateRow } from "../../rows/types.js";
import { KeyIndex, type KeyIndexState } from "./key-index.js";
import { renderTrace, renderTransaction } from "./render.js";

const CHUNK = 5_000;

export interface RebuildProgress {
  transactions: number;
  total: number;
}

/**
 * The indexer's rebuild (its KeyIndexSchema.rebuild): nothing to do when ClickHouse has no
 * transactions, else every transaction, latest state and trace record rendered from ClickHouse.
 */
export async function rebuildKeyIndex({ store, keys, signal, progress }: RebuildContext): Promise<boolean> {
  const [count] = await select<{ n: string }>(store, "SELECT count() AS n FROM transactions", {});
  const total = Number(count?.n ?? 0);
  return total === 0 || rebuild(store, KeyIndex.of(keys), total, (p) => progress({ done: p.transactions, total: p.total }), signal);
}

/**
 * Makes the key index complete: at once when ClickHouse has no transactions, else by a rebuild.
 * `onProgress` is called after each chunk. Resolves false when `signal` stopped it first.
 */
export function prepareKeyIndex(store: Store, keys: KeyIndex, onProgress?: (p: RebuildProgress) => void, signal?: AbortSignal): Promise<boolean> {
  return prepareKeyTables(store, keys.tables, rebuildKeyIndex, { signal, onProgress: onProgress && ((p) => onProgress({ transactions: p.done, total: p.total })) });
}

/** One chunk of transactions in (account, lt) order after `after`, with their messages and states. */
async function transactionChunk(store: Store, after: { account: string; lt: string }) {
  const txs = await select<StoredTransaction>(
    store,
    // the key condition as a range the primary key prunes (a tuple comparison is not one)
    `SELECT * FROM transactions FINAL WHERE account >= {a:String} AND NOT (account = {a:String} AND lt <= {l:UInt64}) ORDER BY account, lt LIMIT {n:UInt32}`,
    { a: after.account, l: after.lt, n: CHUNK },
  );
  return { txs, parts: txs.length ? await transactionParts(store, txs) : undefined };
}

/** false when stopped by `signal` (the index stays incomplete; the next start rebuilds it). */
async function rebuild(store: Store, keys: KeyIndex, total: number, onProgress?: (p: RebuildProgress) => void, signal?: AbortSignal): Promise<boolean> {
  let done = 0;
  // the next chunk is read from ClickHouse while this one is rendered and written (chDB reads on
  // threads of its own; the renderer and LMDB's writer on this one and LMDB's)
  let next = transactionChunk(store, { account: "", lt: "0" });
  for (;;) {
    const { txs, parts } = await next;
    if (signal?.aborted) return false;
    if (!txs.length || !parts) break;
    const last = txs[txs.length - 1]!;
    next = transactionChunk(store, { account: last.account, lt: last.lt });
    // a failed read of the next chunk is seen when it is awaited; not an unhandled rejection meanwhile
    next.catch(() => {});
    const messagesOf = messagesByTransaction(parts.messages.values());
    const entries = txs.map((t) => renderTransaction(t, parts, messagesOf.get(t.hash) ?? []));
    await keys.write(entries, []);
    done += txs.length;
    onProgress?.({ transactions: done, total });
  }
  let account = "";
  for (;;) {
    const rows = await select<AccountStateRow & { last_trans_lt: string }>(
      store,
      "SELECT * FROM latest_account_states FINAL WHERE account > {a:String} ORDER BY account LIMIT {n:UInt32}",
      { a: account, n: CHUNK },
    );
    if (!rows.length) break;
    await keys.write([], rows.map((r): KeyIndexState => ({ account: r.account, lt: r.last_trans_lt, codeHash: r.code_hash, row: r })));
    account = rows[rows.length - 1]!.account;
  }
  // after the transactions: a record files each of its transactions' accounts by its end_lt
  let traceId = "";
  for (;;) {
    if (signal?.aborted) return false;
    const rows = await select<StoredTrace>(store, "SELECT * FROM traces FINAL WHERE trace_id > {t:String} ORDER BY trace_id LIMIT {n:UInt32}", { t: traceId, n: CHUNK });
    if (!rows.length) break;
    await keys.write([], [], rows.map(renderTrace));
    traceId = rows[rows.length - 1]!.trace_id;
  }
  return !signal?.aborted;
}
