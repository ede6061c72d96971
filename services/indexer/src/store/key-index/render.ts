// A block's rows → what the key index stores: each transaction in its API form (as the v3 read of
// ClickHouse renders it, api/models.ts) with the keys it is found by, and each account's latest
// code hash.
import { messageKey, transactionOf } from "../../api/models.js";
import type { BlockRows, MessageRow, TransactionStateRow } from "../../rows/types.js";
import type { KeyIndexCode, KeyIndexTransaction } from "./key-index.js";

export function keyIndexRows(rows: Pick<BlockRows, "transactions" | "messages" | "contents" | "accountStates">): { transactions: KeyIndexTransaction[]; codes: KeyIndexCode[] } {
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
      messages: own.map((m) => ({ hash: m.msg_hash, hashNorm: m.hash_norm, direction: m.direction })),
    };
  });
  const codes: KeyIndexCode[] = [];
  for (const s of rows.accountStates) {
    if (s.last_trans_lt !== null) codes.push({ account: s.account, lt: s.last_trans_lt, codeHash: s.code_hash });
  }
  return { transactions, codes };
}
