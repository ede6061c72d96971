// Filling the key index from ClickHouse: an index created beside a store that already holds
// transactions (an upgrade, a deleted index, a format change) is rebuilt from the rows before reads
// use it. Writes of the indexer running meanwhile go to both; a rebuild's puts of the same keys
// write the same bytes, so the order does not matter.
import { toBinary } from "@bufbuild/protobuf";
import { TransactionSchema } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { transactionOf } from "../../api/blockchain/models.js";
import { transactionParts } from "../../api/blockchain/parts.js";
import { select, type StoredTransaction } from "../../api/sql.js";
import type { Store } from "../store.js";
import type { KeyIndex, KeyIndexState, KeyIndexTransaction } from "./key-index.js";
import type { AccountStateRow, MessageRow } from "../../rows/types.js";

const CHUNK = 5_000;

export interface RebuildProgress {
  transactions: number;
  total: number;
}

/**
 * Makes the key index complete: at once when ClickHouse has no transactions, else by a rebuild.
 * `onProgress` is called after each chunk. Resolves false when `signal` stopped it first.
 */
export async function prepareKeyIndex(store: Store, keys: KeyIndex, onProgress?: (p: RebuildProgress) => void, signal?: AbortSignal): Promise<boolean> {
  if (keys.complete) return true;
  const [count] = await select<{ n: string }>(store, "SELECT count() AS n FROM transactions", {});
  const total = Number(count?.n ?? 0);
  if (total > 0 && !(await rebuild(store, keys, total, onProgress, signal))) return false;
  await keys.markComplete();
  return true;
}

/** false when stopped by `signal` (the index stays incomplete; the next start rebuilds it). */
async function rebuild(store: Store, keys: KeyIndex, total: number, onProgress?: (p: RebuildProgress) => void, signal?: AbortSignal): Promise<boolean> {
  let after: { account: string; lt: string } = { account: "", lt: "0" };
  let done = 0;
  for (;;) {
    if (signal?.aborted) return false;
    const txs = await select<StoredTransaction>(
      store,
      // the key condition as a range the primary key prunes (a tuple comparison is not one)
      `SELECT * FROM transactions FINAL WHERE account >= {a:String} AND NOT (account = {a:String} AND lt <= {l:UInt64}) ORDER BY account, lt LIMIT {n:UInt32}`,
      { a: after.account, l: after.lt, n: CHUNK },
    );
    if (!txs.length) break;
    const parts = await transactionParts(store, txs);
    const messagesOf = new Map<string, MessageRow[]>();
    for (const m of parts.messages.values()) {
      const list = messagesOf.get(m.tx_hash);
      if (list) list.push(m);
      else messagesOf.set(m.tx_hash, [m]);
    }
    const entries = txs.map(
      (t): KeyIndexTransaction => ({
        account: t.account,
        lt: t.lt,
        hash: t.hash,
        mcSeqno: t.mc_seqno,
        value: toBinary(TransactionSchema, transactionOf(t, parts)),
        messages: (messagesOf.get(t.hash) ?? []).map((m) => ({ hash: m.msg_hash, hashNorm: m.hash_norm, direction: m.direction, source: m.source, destination: m.destination, createdLt: m.created_lt })),
      }),
    );
    await keys.write(entries, []);
    const last = txs[txs.length - 1]!;
    after = { account: last.account, lt: last.lt };
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
  return !signal?.aborted;
}
