// A block's rows → what the key index stores: each transaction in its API form (as the v3 read of
// ClickHouse renders it, api/blockchain/models.ts) with the keys it is found by, each account's
// latest state, and each trace's record (api/actions/models.ts traceHeader). Transactions are
// rendered where the block is parsed (a parse worker, or inline) without their trace_id, known only
// once the main thread assembles traces; the store appends it. The rebuild (./rebuild.ts) renders
// ClickHouse's rows with the same functions.
import { toBinary } from "@bufbuild/protobuf";
import type { Cell } from "@ton/core";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { TraceSchema } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import { TransactionSchema } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { type StoredTrace, traceHeader } from "../../api/actions/models.js";
import { messageKey, type TransactionParts, transactionOf } from "../../api/blockchain/models.js";
import type { StoredTransaction } from "../../api/sql.js";
import { messagesByTransaction } from "../../rows/message.js";
import type { BlockRows, MessageRow, RenderedTransaction, TransactionRow, TransactionStateRow } from "../../rows/types.js";
import type { KeyIndexState, KeyIndexTrace } from "./key-index.js";

/** One transaction in its API form with the keys of its messages (`own`: its message rows). */
export function renderTransaction(t: TransactionRow | StoredTransaction, parts: TransactionParts, own: readonly MessageRow[], opts: { traceId?: boolean } = {}): RenderedTransaction {
  return {
    account: t.account,
    lt: t.lt,
    hash: t.hash,
    mcSeqno: t.mc_seqno,
    value: toBinary(TransactionSchema, transactionOf(t, parts, opts)),
    traceId: opts.traceId === false ? undefined : (t.trace_id ?? undefined),
    messages: own.map((m) => ({ hash: m.msg_hash, hashNorm: m.hash_norm, direction: m.direction, source: m.source, destination: m.destination, createdLt: m.created_lt })),
  };
}

/** The block's transactions in their API form, without trace ids (`bodyCells`: the bodies' cells by hash, when the caller parsed them). */
export function renderTransactions(rows: Pick<BlockRows, "transactions" | "messages" | "contents">, bodyCells?: ReadonlyMap<string, Cell>): RenderedTransaction[] {
  const contents = new Map(rows.contents.map((c) => [c.hash, c.boc]));
  const byTx = messagesByTransaction(rows.messages);
  return rows.transactions.map((t): RenderedTransaction => {
    const own = byTx.get(t.hash) ?? [];
    const states = new Map<string, TransactionStateRow>(t.states.map((s) => [s.hash, s]));
    return renderTransaction(t, { messages: new Map(own.map((m) => [messageKey(m.msg_hash, m.direction, m.tx_hash), m])), contents, states, bodyCells }, own, { traceId: false });
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
    return { ...r, value, traceId: id };
  });
}

/** Each account's state after the block, as latest_account_states_mv keeps it (lt 0 without a transaction). */
export function keyIndexStates(rows: Pick<BlockRows, "accountStates">): KeyIndexState[] {
  return rows.accountStates.map((s): KeyIndexState => {
    const lt = s.last_trans_lt ?? "0";
    return { account: s.account, lt, codeHash: s.code_hash, row: { ...s, last_trans_lt: lt } };
  });
}

/** A trace record as the key index stores it: the Trace message without transactions, versioned by mc_seqno_end as the traces table. */
export function renderTrace(r: StoredTrace): KeyIndexTrace {
  return { traceId: r.trace_id, mcSeqnoEnd: Number(r.mc_seqno_end), endLt: r.end_lt, complete: r.state === "complete", value: toBinary(TraceSchema, traceHeader(r)) };
}
