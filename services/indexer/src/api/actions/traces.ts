// /traces: traces by account, id, transaction or message, with their transactions and the tree
// the messages make of them (toncenter models/traces.go, parse/utils.go AssembleTraceTxsFromMap).
import { create } from "@bufbuild/protobuf";
import {
  type GetTracesRequest,
  type Trace,
  type TraceNode,
  TraceNodeSchema,
  TraceSchema,
  type TracesResponse,
  TracesResponseSchema,
} from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import type { Transaction } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import type { TraceRecord } from "../../store/traces.js";
import { transactionOf } from "../blockchain/models.js";
import { transactionParts } from "../blockchain/parts.js";
import { b64Hash, isAsc, nextCursor, pageOf, rawAddress } from "../params.js";
import { select, type Store, type StoredTransaction, Where } from "../sql.js";

/** Traces with more transactions come without them (toncenter's -max-trace-txs). */
export const MAX_TRACE_TRANSACTIONS = 4000;

/** A stored trace: the store's record and the column the decoder stage will set. */
type StoredTrace = TraceRecord & { classification_state: string };

const TX_OF_HASHES = "SELECT trace_id FROM transactions FINAL WHERE trace_id IS NOT NULL AND (account, lt) IN (SELECT account, lt FROM transactions_by_hash FINAL WHERE hash IN {})";

export async function traces(store: Store, req: GetTracesRequest): Promise<TracesResponse> {
  const asc = isAsc(req.sort);
  const dir = asc ? "ASC" : "DESC";
  const p = pageOf("traces", asc, req, ["string", "string"]);
  const w = new Where();
  if (req.account !== undefined) w.add("trace_id IN (SELECT trace_id FROM transactions FINAL WHERE account = {} AND trace_id IS NOT NULL)", ["String", rawAddress(req.account)]);
  if (req.traceId.length) w.add("trace_id IN {}", ["Array(String)", req.traceId.map(b64Hash)]);
  if (req.txHash.length) w.add(`trace_id IN (${TX_OF_HASHES})`, ["Array(String)", req.txHash.map(b64Hash)]);
  if (req.msgHash.length) {
    const h = req.msgHash.map(b64Hash);
    w.add(`trace_id IN (${TX_OF_HASHES.replace("{}", "(SELECT tx_hash FROM messages FINAL WHERE msg_hash IN {} OR hash_norm IN {})")})`, ["Array(String)", h], ["Array(String)", h]);
  }
  // a masterchain block's traces are those it completed (toncenter's rule)
  if (req.mcSeqno !== undefined) w.add("mc_seqno_end = {} AND state = 'complete'", ["UInt32", req.mcSeqno]);
  if (req.startUtime !== undefined) w.add("end_utime >= {}", ["UInt32", req.startUtime]);
  if (req.endUtime !== undefined) w.add("end_utime <= {}", ["UInt32", req.endUtime]);
  if (req.startLt !== undefined) w.add("end_lt >= {}", ["UInt64", String(req.startLt)]);
  if (req.endLt !== undefined) w.add("end_lt <= {}", ["UInt64", String(req.endLt)]);
  if (p.after) w.add(`(end_lt, trace_id) ${asc ? ">" : "<"} ({}, {})`, ["UInt64", p.after[0]], ["String", p.after[1]]);
  const records = await select<StoredTrace>(
    store,
    `SELECT * FROM traces FINAL ${w.sql} ORDER BY end_lt ${dir}, trace_id ${dir}
     LIMIT ${w.param("UInt32", p.limit)} OFFSET ${w.param("UInt32", p.offset)}`,
    w.params,
  );
  const small = records.filter((r) => r.nodes <= MAX_TRACE_TRANSACTIONS).map((r) => r.trace_id);
  const txs = small.length
    ? await select<StoredTransaction>(
        store,
        `SELECT * FROM transactions FINAL
         WHERE (account, lt) IN (SELECT account, lt FROM transactions_by_trace FINAL WHERE trace_id IN {t:Array(String)})
         ORDER BY lt, account`,
        { t: small },
      )
    : [];
  const parts = await transactionParts(store, txs);
  const byTrace = new Map<string, StoredTransaction[]>();
  for (const t of txs) {
    const list = byTrace.get(t.trace_id!) ?? [];
    list.push(t);
    byTrace.set(t.trace_id!, list);
  }
  return create(TracesResponseSchema, {
    traces: records.map((r) => traceOf(r, byTrace.get(r.trace_id), (t) => transactionOf(t, parts))),
    nextCursor: nextCursor("traces", asc, p, records, (r) => [r.end_lt, r.trace_id]),
  });
}

function traceOf(r: StoredTrace, txs: StoredTransaction[] | undefined, render: (t: StoredTransaction) => Transaction): Trace {
  const trace = create(TraceSchema, {
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
  if (!txs) {
    trace.isIncomplete = true;
    trace.warning = "trace is too large";
    return trace;
  }
  trace.transactionsOrder = txs.map((t) => t.hash);
  for (const t of txs) trace.transactions[t.hash] = render(t);
  const { root, orphan } = traceTree(r.trace_id, txs);
  if (root) trace.trace = root;
  if (orphan) trace.warning = "missing node in trace found";
  return trace;
}

/** The tree from the root transaction along out message → receiving transaction. */
export function traceTree(traceId: string, txs: readonly StoredTransaction[]): { root: TraceNode | undefined; orphan: boolean } {
  const receiver = new Map<string, StoredTransaction>();
  for (const t of txs) if (t.in_msg_hash !== null) receiver.set(t.in_msg_hash, t);
  let placed = 0;
  const node = (t: StoredTransaction): TraceNode => {
    placed++;
    const children = t.out_msg_hashes.flatMap((h) => {
      const c = receiver.get(h);
      return c ? [node(c)] : [];
    });
    return create(TraceNodeSchema, { txHash: t.hash, inMsgHash: t.in_msg_hash ?? undefined, children });
  };
  const rootTx = txs.find((t) => t.hash === traceId);
  const root = rootTx ? node(rootTx) : undefined;
  return { root, orphan: placed !== txs.length };
}
