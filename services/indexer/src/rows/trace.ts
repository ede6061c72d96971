// Traces: trace_id = hash of the root transaction, carried from a transaction to the transactions
// its internal out messages start, across blocks, shards and masterchain blocks.
//
// The assembler is fed one batch at a time in chain order (the rows of a masterchain block and
// the shard blocks it commits). Inside a batch transactions are taken in lt order: a message's
// created_lt is above its sender's lt and below its receiver's, so a sender always comes first.
// State between batches: the undelivered internal messages (msg hash → trace) and the traces that
// still have some; a complete trace is dropped from memory after its last row is emitted.
// On a restart (or after a failed round) that state is rebuilt from the store by feeding the
// in-flight traces' stored transactions to a new assembler (store/traces.ts restoreTraceAssembler),
// so the trace_ids and states are those of an uninterrupted run. A backfill that starts mid-chain
// (nothing stored before it) roots a broken trace at each transaction whose sender is before it.
import type { MessageRow, TraceRow, TransactionRow } from "./types.js";

export interface TraceBatch {
  mcSeqno: number;
  transactions: TransactionRow[];
  messages: MessageRow[];
}

interface Live {
  row: TraceRow;
  msgs: Set<string>;
}

export class TraceAssembler {
  /** undelivered internal message hash → trace id */
  private readonly inflight = new Map<string, string>();
  private readonly live = new Map<string, Live>();

  /** Sets `trace_id` on the batch's transactions; returns the rows of every trace the batch touched. */
  add(batch: TraceBatch): TraceRow[] {
    const byHash = new Map<string, MessageRow>();
    for (const m of batch.messages) if (!byHash.has(m.msg_hash) || m.direction === "out") byHash.set(m.msg_hash, m);
    const txs = [...batch.transactions].sort((a, b) => cmp(BigInt(a.lt), BigInt(b.lt)) || (a.hash < b.hash ? -1 : 1));
    const touched = new Set<string>();
    for (const tx of txs) {
      const inMsg = tx.in_msg_hash ? byHash.get(tx.in_msg_hash) : undefined;
      const internal = inMsg !== undefined && inMsg.source !== null;
      let id: string;
      let live: Live;
      if (!internal) {
        id = tx.hash;
        live = this.start(tx, inMsg ?? null, batch.mcSeqno, "complete");
      } else {
        const from = this.inflight.get(tx.in_msg_hash!);
        if (from !== undefined) {
          this.inflight.delete(tx.in_msg_hash!);
          id = from;
          live = this.live.get(id)!;
          live.row.pending_messages--;
        } else {
          // the sender is not indexed (before the backfill's start): a broken trace rooted here
          id = tx.hash;
          live = this.start(tx, null, batch.mcSeqno, "broken");
        }
      }
      tx.trace_id = id;
      touched.add(id);
      const r = live.row;
      r.transactions++;
      if (tx.in_msg_hash && !live.msgs.has(tx.in_msg_hash)) {
        live.msgs.add(tx.in_msg_hash);
        r.messages++;
      }
      if (BigInt(tx.lt) > BigInt(r.end_lt)) {
        r.end_lt = tx.lt;
        r.end_utime = tx.now;
      }
      r.mc_seqno_end = Math.max(r.mc_seqno_end, batch.mcSeqno);
      for (const h of tx.out_msg_hashes) {
        if (!live.msgs.has(h)) {
          live.msgs.add(h);
          r.messages++;
        }
        const m = byHash.get(h);
        if (m && m.destination !== null) {
          this.inflight.set(h, id);
          r.pending_messages++;
        }
      }
    }
    const out: TraceRow[] = [];
    for (const id of touched) {
      const live = this.live.get(id)!;
      const r = live.row;
      if (r.state !== "broken") r.state = r.pending_messages > 0 ? "pending" : "complete";
      out.push(Object.assign({}, r));
      if (r.pending_messages === 0) this.live.delete(id);
    }
    return out;
  }

  /** Internal messages sent and not yet delivered (e.g. to check a backfill end or to persist). */
  inflightMessages(): ReadonlyMap<string, string> {
    return this.inflight;
  }

  private start(tx: TransactionRow, inMsg: MessageRow | null, mcSeqno: number, state: TraceRow["state"]): Live {
    const row: TraceRow = {
      trace_id: tx.hash,
      external_hash: inMsg ? inMsg.msg_hash : null,
      external_hash_norm: inMsg ? inMsg.hash_norm : null,
      mc_seqno_start: mcSeqno,
      mc_seqno_end: mcSeqno,
      start_lt: tx.lt,
      start_utime: tx.now,
      end_lt: tx.lt,
      end_utime: tx.now,
      state,
      pending_messages: 0,
      transactions: 0,
      messages: 0,
    };
    const live = { row, msgs: new Set<string>() };
    this.live.set(tx.hash, live);
    return live;
  }
}

function cmp(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
