// A block's rows → what the key index stores: each transaction in its API form (as the v3 read of
// ClickHouse renders it, api/models.ts) with the keys it is found by, and each account's latest
// code hash.
import { messageKey, transactionOf } from "../../api/blockchain/models.js";
import type { BlockRows, MessageRow, TransactionStateRow } from "../../rows/types.js";
import type { KeyIndexState, KeyIndexTransaction } from "./key-index.js";

export function keyIndexRows(rows: Pick<BlockRows, "transactions" | "messages" | "contents" | "accountStates">): { transactions: KeyIndexTransaction[]; states: KeyIndexState[] } {
  const contents = new Map(rows.contents.map((c) => [c.hash, c.boc]));
  const byTx = new Map<string, MessageRow[]>();
  for (const m of rows.messages) {
    const list = byTx.get(m.tx_hash);
    if (list) list.push(m);
    else byTx.set(m.tx_hash, [m]);
  }
  const transactions = rows.transactions.map((t): KeyIndexTransaction => {
    const own = byTx.get(t.hash) ?? [];
    const states = new Map<string, TransactionStateRow>(t.states.map((s) => [s.hash, s]));
    return {
      tx: transactionOf(t, { messages: new Map(own.map((m) => [messageKey(m.msg_hash, m.direction, m.tx_hash), m])), contents, states }),
      mcSeqno: t.mc_seqno,
      messages: own.map((m) => ({ hash: m.msg_hash, hashNorm: m.hash_norm, direction: m.direction, source: m.source, destination: m.destination, createdLt: m.created_lt })),
    };
  });
  // as latest_account_states_mv: a state without a transaction has lt 0
  const states = rows.accountStates.map((s): KeyIndexState => {
    const lt = s.last_trans_lt ?? "0";
    return { account: s.account, lt, codeHash: s.code_hash, row: { ...s, last_trans_lt: lt } };
  });
  return { transactions, states };
}
