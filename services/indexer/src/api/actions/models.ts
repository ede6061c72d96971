// A stored trace → the tongate.v3.Trace of /traces (toncenter models/traces.go), with its
// transactions and the tree their messages make (parse/utils.go AssembleTraceTxsFromMap). Shared by
// the ClickHouse read (./traces.ts) and the key index (./key-lookups.ts, whose stored record is
// traceHeader's message: store/key-index/render.ts), so both answer the same.
import { create } from "@bufbuild/protobuf";
import { type Trace, type TraceNode, TraceNodeSchema, TraceSchema } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import type { Transaction } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import type { TraceRecord } from "../../store/traces.js";

/** Traces with more transactions come without them (toncenter's -max-trace-txs). */
export const MAX_TRACE_TRANSACTIONS = 4000;

/** A stored trace: the store's record and the column the decoder stage will set. */
export type StoredTrace = TraceRecord & { classification_state: string };

/** The trace without its transactions: every field of the record the answer shows. */
export function traceHeader(r: StoredTrace): Trace {
  return create(TraceSchema, {
    traceId: r.trace_id,
    externalHash: r.external_hash ?? undefined,
    mcSeqnoStart: BigInt(r.mc_seqno_start),
    mcSeqnoEnd: BigInt(r.mc_seqno_end),
    startLt: BigInt(r.start_lt),
    startUtime: r.start_utime,
    endLt: BigInt(r.end_lt),
    endUtime: r.end_utime,
    traceInfo: {
      traceState: r.state,
      messages: r.edges,
      transactions: r.nodes,
      pendingMessages: r.pending_edges,
      classificationState: r.classification_state,
    },
  });
}

/** Whether the answer carries the trace's transactions (MAX_TRACE_TRANSACTIONS). */
export const withTransactions = (header: Trace): boolean => (header.traceInfo?.transactions ?? 0) <= MAX_TRACE_TRANSACTIONS;

/**
 * The trace with its transactions in (lt, account) order and their tree; none found (a trace too
 * large to list, or not stored) is an incomplete trace with toncenter's warning. Fills `header`.
 */
export function traceOf(header: Trace, txs: readonly Transaction[]): Trace {
  if (!txs.length) {
    header.isIncomplete = true;
    header.warning = "trace is too large";
    return header;
  }
  header.transactionsOrder = txs.map((t) => t.hash);
  for (const t of txs) header.transactions[t.hash] = t;
  const { root, orphan } = traceTree(header.traceId, txs);
  if (root) header.trace = root;
  if (orphan) header.warning = "missing node in trace found";
  return header;
}

/** The tree from the root transaction along out message → receiving transaction, from the transactions' own messages. */
export function traceTree(traceId: string, txs: readonly Transaction[]): { root: TraceNode | undefined; orphan: boolean } {
  const receiver = new Map<string, Transaction>();
  for (const t of txs) if (t.inMsg) receiver.set(t.inMsg.hash, t);
  let placed = 0;
  const node = (t: Transaction): TraceNode => {
    placed++;
    const children = t.outMsgs.flatMap((m) => {
      const c = receiver.get(m.hash);
      return c ? [node(c)] : [];
    });
    return create(TraceNodeSchema, { txHash: t.hash, inMsgHash: t.inMsg?.hash, children });
  };
  const rootTx = txs.find((t) => t.hash === traceId);
  const root = rootTx ? node(rootTx) : undefined;
  return { root, orphan: placed !== txs.length };
}
