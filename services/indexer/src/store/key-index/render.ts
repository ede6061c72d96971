// A block's rows → what the key index stores: each transaction in its API form (as the v3 read of
// ClickHouse renders it, api/blockchain/models.ts) with the keys it is found by, and each account's
// latest state. Transactions are rendered where the block is parsed (a parse worker, or inline)
// without their trace_id, known only once the main thread assembles traces; the store appends it.
import { toBinary } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { TransactionSchema } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { messageKey, transactionOf } from "../../api/blockchain/models.js";
import type { BlockRows, MessageRow, RenderedTransaction, TransactionRow, TransactionStateRow } from "../../rows/types.js";
import type { KeyIndexState } from "./key-index.js";

/** The block's transactions in their API form, without trace ids. */
export function renderTransactions(rows: Pick<BlockRows, "transactions" | "messages" | "contents">): RenderedTransaction[] {
  const contents = new Map(rows.contents.map((c) => [c.hash, c.boc]));
  const byTx = new Map<string, MessageRow[]>();
  for (const m of rows.messages) {
    const list = byTx.get(m.tx_hash);
    if (list) list.push(m);
    else byTx.set(m.tx_hash, [m]);
  }
  return rows.transactions.map((t): RenderedTransaction => {
    const own = byTx.get(t.hash) ?? [];
    const states = new Map<string, TransactionStateRow>(t.states.map((s) => [s.hash, s]));
    const tx = transactionOf(t, { messages: new Map(own.map((m) => [messageKey(m.msg_hash, m.direction, m.tx_hash), m])), contents, states }, { traceId: false });
    return {
      account: t.account,
      lt: t.lt,
      hash: t.hash,
      mcSeqno: t.mc_seqno,
      value: toBinary(TransactionSchema, tx),
      messages: own.map((m) => ({ hash: m.msg_hash, hashNorm: m.hash_norm, direction: m.direction, source: m.source, destination: m.destination, createdLt: m.created_lt })),
    };
  });
}

const TRACE_ID_FIELD = TransactionSchema.field.traceId!.number;

/**
 * The rendered transactions with their trace ids: the field appended to the encoding (a field may
 * come anywhere in a message; decoding gives the same message as rendering it with the id).
 */
export function withTraceIds(rendered: readonly RenderedTransaction[], transactions: readonly TransactionRow[]): RenderedTransaction[] {
  const traceOf = new Map(transactions.map((t) => [t.hash, t.trace_id]));
  return rendered.map((r) => {
    const id = traceOf.get(r.hash);
    if (!id) return r;
    const field = new BinaryWriter().tag(TRACE_ID_FIELD, WireType.LengthDelimited).string(id).finish();
    const value = new Uint8Array(r.value.length + field.length);
    value.set(r.value);
    value.set(field, r.value.length);
    return { ...r, value };
  });
}

/** Each account's state after the block, as latest_account_states_mv keeps it (lt 0 without a transaction). */
export function keyIndexStates(rows: Pick<BlockRows, "accountStates">): KeyIndexState[] {
  return rows.accountStates.map((s): KeyIndexState => {
    const lt = s.last_trans_lt ?? "0";
    return { account: s.account, lt, codeHash: s.code_hash, row: { ...s, last_trans_lt: lt } };
  });
}
