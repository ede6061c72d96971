// The traces table (migrations/0002_traces.sql): inserting a batch's trace rows, and rebuilding the
// trace assembler's in-flight state as it was after a masterchain block, so that indexing resumed
// there (a restart, a failed round) assigns the same trace_ids and states as an uninterrupted run.
import { TraceAssembler, type TraceBatch } from "../rows/trace.js";
import type { MessageRow, TraceRow, TransactionRow } from "../rows/types.js";
import type { KeyIndexTrace } from "./key-index/key-index.js";
import { renderTrace } from "./key-index/render.js";
import { select, type Store } from "@tongate/store";

/** A trace as the table stores it: the TraceRow with toncenter's column names for the counters. */
export type TraceRecord = Omit<TraceRow, "pending_messages" | "messages" | "transactions"> & {
  pending_edges: number;
  edges: number;
  nodes: number;
};

export function traceRecord(r: TraceRow): TraceRecord {
  // explicit fields, not a rest/spread copy (rows/message.ts messageRow says why)
  return {
    trace_id: r.trace_id,
    external_hash: r.external_hash,
    external_hash_norm: r.external_hash_norm,
    mc_seqno_start: r.mc_seqno_start,
    mc_seqno_end: r.mc_seqno_end,
    start_lt: r.start_lt,
    start_utime: r.start_utime,
    end_lt: r.end_lt,
    end_utime: r.end_utime,
    state: r.state,
    pending_edges: r.pending_messages,
    edges: r.messages,
    nodes: r.transactions,
  };
}

/**
 * The indexer's trace rows as the key index stores them: unclassified, as the traces table's
 * default (the decoder classifies a trace later, by a put of the whole record: key-index.ts).
 */
export const keyIndexTraces = (rows: readonly TraceRow[]): KeyIndexTrace[] => rows.map((r) => renderTrace({ ...traceRecord(r), classification_state: "unclassified" }));

export async function insertTraceRows(store: Store, rows: readonly TraceRow[]): Promise<void> {
  if (rows.length === 0) return;
  await store.client.insert({ table: "traces", values: rows.map(traceRecord), format: "JSONEachRow" });
}

/** Hashes per query (IN lists). */
const CHUNK = 10_000;

/**
 * The trace assembler as it stood after masterchain block `mcSeqno` was indexed, from the store.
 *
 * The traces in flight then are those stored as pending, plus those a later block already touched
 * (rows of a block after the checkpoint may be stored — a crash between its insert and the
 * checkpoint — and their versions hide the state at `mcSeqno`), started at or before `mcSeqno`.
 * Their transactions up to `mcSeqno`, with their messages, are fed again to a new assembler in
 * masterchain order: each trace's transactions depend only on each other, so this reproduces the
 * state exactly; the traces complete by `mcSeqno` drop out as they did the first time.
 */
export async function restoreTraceAssembler(store: Store, mcSeqno: number): Promise<TraceAssembler> {
  const assembler = new TraceAssembler();
  if (mcSeqno < 1) return assembler;
  const ids = (
    await select<{ trace_id: string }>(
      store,
      `SELECT trace_id FROM traces FINAL
       WHERE mc_seqno_start <= {n:UInt32} AND (state = 'pending' OR mc_seqno_end > {n:UInt32})`,
      { n: mcSeqno },
    )
  ).map((r) => r.trace_id);
  if (ids.length === 0) return assembler;

  const txs: (TransactionRow & { mc_seqno: number })[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    txs.push(
      ...(await select<TransactionRow>(
        store,
        `SELECT account, hash, lt, now, mc_seqno, in_msg_hash, out_msg_hashes, trace_id FROM transactions FINAL
         WHERE (account, lt) IN (SELECT account, lt FROM transactions_by_trace FINAL WHERE trace_id IN {ids:Array(String)})
           AND mc_seqno <= {n:UInt32}`,
        { ids: ids.slice(i, i + CHUNK), n: mcSeqno },
      )),
    );
  }
  const hashes = [...new Set(txs.flatMap((t) => [...(t.in_msg_hash ? [t.in_msg_hash] : []), ...t.out_msg_hashes]))];
  const txHashes = new Set(txs.map((t) => t.hash));
  const messages: MessageRow[] = [];
  for (let i = 0; i < hashes.length; i += CHUNK) {
    const got = await select<MessageRow>(store, "SELECT * FROM messages FINAL WHERE msg_hash IN {h:Array(String)}", { h: hashes.slice(i, i + CHUNK) });
    messages.push(...got.filter((m) => txHashes.has(m.tx_hash)));
  }

  const batches = new Map<number, TraceBatch>();
  const txMc = new Map<string, number>();
  for (const t of txs) {
    const mc = Number(t.mc_seqno);
    txMc.set(t.hash, mc);
    let b = batches.get(mc);
    if (!b) batches.set(mc, (b = { mcSeqno: mc, transactions: [], messages: [] }));
    b.transactions.push(t);
  }
  for (const m of messages) batches.get(txMc.get(m.tx_hash)!)!.messages.push(m);
  for (const mc of [...batches.keys()].sort((a, b) => a - b)) assembler.add(batches.get(mc)!);
  return assembler;
}
