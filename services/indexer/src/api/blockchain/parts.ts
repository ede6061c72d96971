// What a transaction object needs besides its row: its messages, their bodies and StateInits, and
// the account states before and after (shared by the transaction endpoints and the traces).
import { LruMap } from "@tongate/runtime";
import type { MessageRow, TransactionStateRow } from "../../rows/types.js";
import { ONCE_BY, select, type Store, type StoredTransaction } from "../sql.js";
import { messageKey, type TransactionParts } from "./models.js";

/**
 * Everything the transaction objects of these rows need: their messages (stored with each row,
 * migrations/0004), the bodies/StateInits of those, and the before/after account states (stored
 * with each row too; rows stored before migrations/0004 look theirs up). Each lookup is by key
 * (embedded chDB runs one query at a time, so a subquery that re-reads a table costs more than
 * waiting for it).
 */
export async function transactionParts(store: Store, txs: readonly StoredTransaction[]): Promise<TransactionParts> {
  if (!txs.length) return { messages: new Map(), contents: new Map(), states: new Map() };
  const states = new Map<string, TransactionStateRow>();
  const stateHashes = new Set<string>();
  for (const t of txs) {
    if (t.states) {
      for (const s of JSON.parse(t.states) as TransactionStateRow[]) states.set(s.hash, s);
    } else {
      stateHashes.add(t.account_state_hash_before);
      stateHashes.add(t.account_state_hash_after);
    }
  }
  const messages = await messagesOf(store, txs);
  const [looked, contents] = await Promise.all([statesByHash(store, txs.map((t) => t.account), [...stateHashes]), contentsOf(store, messages)]);
  for (const s of looked) states.set(s.hash, s);
  return { messages: new Map(messages.map((x) => [messageKey(x.msg_hash, x.direction, x.tx_hash), x])), contents, states };
}

/**
 * The message rows of these transactions: from each row's `messages` column, and for rows stored
 * before migrations/0004 (the column is '') from `messages` by hash.
 */
async function messagesOf(store: Store, txs: readonly StoredTransaction[]): Promise<MessageRow[]> {
  const messages: MessageRow[] = [];
  const older = new Set<string>();
  for (const t of txs) {
    if (t.messages) {
      messages.push(...(JSON.parse(t.messages) as MessageRow[]));
    } else {
      if (t.in_msg_hash !== null) older.add(t.in_msg_hash);
      for (const h of t.out_msg_hashes) older.add(h);
    }
  }
  if (older.size) {
    const own = new Set(txs.map((t) => t.hash));
    for (const r of await messagesByHash(store, [...older])) if (own.has(r.tx_hash)) messages.push(r);
  }
  return messages;
}

/** Both stored sides (the rows in `messages`) of these messages. */
export function messagesByHash(store: Store, hashes: readonly string[]): Promise<MessageRow[]> {
  return select<MessageRow>(store, `SELECT * FROM messages WHERE msg_hash IN {h:Array(String)} ${ONCE_BY.messages}`, { h: hashes });
}

/** The fields a transaction shows of these states (TransactionStateRow), for rows stored before migrations/0004. */
async function statesByHash(store: Store, accounts: readonly string[], hashes: readonly string[]): Promise<TransactionStateRow[]> {
  // no query without keys: one with an empty IN list still costs chDB its table read
  if (!hashes.length) return [];
  return select<TransactionStateRow>(
    store,
    `SELECT hash, account, toString(balance) AS balance, balance_extra_currencies, toString(account_status) AS account_status, frozen_hash, code_hash, data_hash
     FROM (SELECT * FROM account_states WHERE account IN {a:Array(String)} AND hash IN {h:Array(String)} ${ONCE_BY.account_states})`,
    { a: [...new Set(accounts)], h: hashes },
  );
}

/**
 * Bodies and StateInits by hash, kept in memory: a content is addressed by its own hash, so an
 * entry never goes stale, and the common ones (empty bodies, comments, wallet code) repeat.
 */
const contentCache = new LruMap<string, string>(20_000);
const CONTENT_CACHE_MAX_BYTES = 16 * 1024;

/** Bodies and StateInits of these messages by hash (base64 BoC). */
export async function contentsOf(store: Store, messages: readonly MessageRow[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const missing = new Set<string>();
  for (const m of messages) {
    for (const h of [m.body_hash, m.init_state_hash]) {
      if (h === null || out.has(h)) continue;
      const boc = contentCache.get(h);
      if (boc !== undefined) out.set(h, boc);
      else missing.add(h);
    }
  }
  if (!missing.size) return out;
  const rows = await select<{ hash: string; boc: string }>(store, `SELECT hash, boc FROM message_contents WHERE hash IN {h:Array(String)} ${ONCE_BY.message_contents}`, {
    h: [...missing],
  });
  for (const r of rows) {
    out.set(r.hash, r.boc);
    if (r.boc.length <= CONTENT_CACHE_MAX_BYTES) contentCache.set(r.hash, r.boc);
  }
  return out;
}
