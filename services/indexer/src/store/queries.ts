// Reads over the store (the seed of the v3 endpoints). Values are bound with query_params only;
// every table is read with FINAL (ReplacingMergeTree; see migrations/0001_core.sql).
import type { MessageRow, TransactionRow } from "../rows/types.js";
import { select, type Store } from "./store.js";

/**
 * A transaction as stored: the inserted row, with `description` still JSON text and the
 * statuses as the column's plain strings.
 */
export type StoredTransaction = Omit<TransactionRow, "description" | "orig_status" | "end_status" | "states"> & {
  orig_status: string;
  end_status: string;
  description: string;
  /** its message rows as a JSON array (migrations/0004; '' in rows stored before it) */
  messages?: string;
  /** the states its block determines as a JSON array (TransactionRow.states; '' before migrations/0004) */
  states?: string;
};

/** A message as stored: exactly the inserted row. */
export type StoredMessage = MessageRow;

/** An account's transactions, newest first (lt is unique per account). */
export function transactionsByAccount(
  store: Store,
  account: string,
  opts: { limit?: number; offset?: number; beforeLt?: string } = {},
): Promise<StoredTransaction[]> {
  return select<StoredTransaction>(
    store,
    `SELECT * FROM transactions FINAL
     WHERE account = {account:String} AND ({before_lt:Nullable(UInt64)} IS NULL OR lt < {before_lt:Nullable(UInt64)})
     ORDER BY lt DESC LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { account, before_lt: opts.beforeLt ?? null, limit: opts.limit ?? 10, offset: opts.offset ?? 0 },
  );
}

/** Transactions by hash (normally one; a hash is not a key of the chain, so all matches). */
export function transactionsByHash(store: Store, hash: string): Promise<StoredTransaction[]> {
  return select<StoredTransaction>(
    store,
    `SELECT * FROM transactions FINAL
     WHERE (account, lt) IN (SELECT account, lt FROM transactions_by_hash FINAL WHERE hash = {hash:String})
     ORDER BY lt, account`,
    { hash },
  );
}

/** Messages sent by an account (both stored sides of each message), newest first. */
export function messagesBySource(
  store: Store,
  source: string,
  opts: { limit?: number; offset?: number } = {},
): Promise<StoredMessage[]> {
  return select<StoredMessage>(
    store,
    `SELECT * FROM messages FINAL
     WHERE msg_hash IN (
       SELECT msg_hash FROM messages_by_source FINAL WHERE source = {source:String}
       ORDER BY created_lt DESC, msg_hash DESC LIMIT {limit:UInt32} OFFSET {offset:UInt32})
     ORDER BY created_lt DESC, msg_hash DESC, direction`,
    { source, limit: opts.limit ?? 10, offset: opts.offset ?? 0 },
  );
}
