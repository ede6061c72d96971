// What the classifier reads of a trace, from the indexer's tables: its record (`traces`), its
// transactions (with their messages, stored beside them as JSON) and the bodies and StateInits of
// those messages (`message_contents`), as TraceInput. Nothing here classifies.
import type { TraceInput, TraceMessage, TraceTransaction, TransactionKind } from "@tongate/actions";
import { select, type Store } from "@tongate/store";

/** A trace as the indexer's `traces` stores it (the columns the classifier's input takes). */
export interface TraceRecordRow {
  trace_id: string;
  external_hash: string | null;
  external_hash_norm: string | null;
  mc_seqno_start: number;
  mc_seqno_end: number;
  start_lt: string;
  start_utime: number;
  end_lt: string;
  end_utime: number;
  nodes: number;
}

const TRACE_COLUMNS = "trace_id, external_hash, external_hash_norm, mc_seqno_start, mc_seqno_end, start_lt, start_utime, end_lt, end_utime, nodes";

/** A message as the indexer stores it in `transactions.messages` (and `messages`). */
interface StoredMessage {
  msg_hash: string;
  direction: "in" | "out";
  source: string | null;
  destination: string | null;
  value: string | null;
  value_extra_currencies: Record<string, string> | null;
  fwd_fee: string | null;
  ihr_fee: string | null;
  created_lt: string | null;
  created_at: number | null;
  opcode: number | null;
  bounce: boolean | null;
  bounced: boolean | null;
  import_fee: string | null;
  body_hash: string;
  init_state_hash: string | null;
  hash_norm: string | null;
}

interface StoredTransaction {
  trace_id: string;
  account: string;
  hash: string;
  lt: string;
  now: number;
  mc_seqno: number;
  orig_status: string;
  end_status: string;
  total_fees: string;
  description: string;
  in_msg_hash: string | null;
  out_msg_hashes: string[];
  messages: string;
}

/** The transaction description's fields the classifier reads (the v3 description object). */
interface Description {
  type?: string;
  aborted?: boolean;
  destroyed?: boolean;
  is_tock?: boolean;
  compute_ph?: { skipped?: boolean; exit_code?: number; reason?: string };
  action?: { result_code?: number };
  bounce?: { type?: string };
}

/**
 * A trace with nothing in flight: complete, or broken (its root's sender is before the index's start)
 * with every message it sent delivered.
 */
const DONE = "(state = 'complete' OR (state = 'broken' AND pending_edges = 0))";

/** The traces that a masterchain block completed (the indexer's row of that block says so). */
export async function tracesCompletedIn(store: Store, mcSeqno: number): Promise<TraceRecordRow[]> {
  return select<TraceRecordRow>(
    store,
    `SELECT ${TRACE_COLUMNS} FROM traces WHERE mc_seqno_end = {mc:UInt32} AND ${DONE}
      ORDER BY trace_id LIMIT 1 BY trace_id`,
    { mc: mcSeqno },
  );
}

/** The records of these traces as of block `mcSeqno`, those complete then (a re-classification's traces). */
export async function completeTraces(store: Store, traceIds: readonly string[], mcSeqno: number): Promise<TraceRecordRow[]> {
  if (traceIds.length === 0) return [];
  return select<TraceRecordRow>(
    store,
    `SELECT ${TRACE_COLUMNS} FROM (
       SELECT ${TRACE_COLUMNS}, state, pending_edges FROM traces WHERE trace_id IN {ids:Array(String)} AND mc_seqno_end <= {mc:UInt32}
       ORDER BY trace_id, mc_seqno_end DESC LIMIT 1 BY trace_id)
     WHERE ${DONE}`,
    { ids: traceIds, mc: mcSeqno },
  );
}

const big = (v: string | number | null | undefined): bigint | null => (v === null || v === undefined ? null : BigInt(v));
const status = (s: string): TraceTransaction["origStatus"] => (s === "active" || s === "uninit" || s === "frozen" ? s : "nonexist");
const KINDS: Record<string, TransactionKind> = {
  ord: "ord",
  tick_tock: "tick_tock",
  split_prepare: "split_prepare",
  split_install: "split_install",
  merge_prepare: "merge_prepare",
  merge_install: "merge_install",
  storage: "storage",
  trans_ord: "trans_ord",
};
const kind = (s: string | undefined): TransactionKind => (s !== undefined && KINDS[s]) || "ord";

function descriptionOf(text: string): Description {
  try {
    const d: unknown = JSON.parse(text);
    return d && typeof d === "object" ? (d as Description) : {};
  } catch {
    return {};
  }
}

/** Rows per IN list. */
const CHUNK = 5_000;

async function chunked<T>(ids: readonly string[], read: (part: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(...(await read(ids.slice(i, i + CHUNK))));
  return out;
}

/**
 * The classifier's input of each trace (in the order given) as of block `mcSeqno` (a decoder behind
 * the indexer does not see what later blocks added), its transactions in lt order. Traces
 * of more than `maxTransactions` transactions are not read (their record only tells how many): the
 * caller does not classify them.
 */
export async function readTraceInputs(store: Store, traces: readonly TraceRecordRow[], maxTransactions: number, mcSeqno: number): Promise<Map<string, TraceInput>> {
  const wanted = traces.filter((t) => Number(t.nodes) <= maxTransactions);
  const out = new Map<string, TraceInput>();
  if (wanted.length === 0) return out;
  const txs = await chunked(
    wanted.map((t) => t.trace_id),
    (ids) =>
      select<StoredTransaction>(
        store,
        `SELECT assumeNotNull(trace_id) AS trace_id, account, hash, lt, now, mc_seqno, orig_status, end_status, total_fees, description, in_msg_hash, out_msg_hashes, messages
           FROM transactions
          WHERE (account, lt) IN (SELECT account, lt FROM transactions_by_trace WHERE trace_id IN {ids:Array(String)}) AND mc_seqno <= {mc:UInt32}
          ORDER BY lt, account LIMIT 1 BY account, lt`,
        { ids, mc: mcSeqno },
      ),
  );
  const messages = await messagesOf(store, txs);
  const contentHashes = [...new Set([...messages.values()].flatMap((m) => [m.body_hash, m.init_state_hash ?? ""]).filter((h) => h !== ""))];
  const contents = new Map<string, string>();
  for (const c of await chunked(contentHashes, (hashes) => select<{ hash: string; boc: string }>(store, "SELECT hash, boc FROM message_contents WHERE hash IN {hashes:Array(String)} LIMIT 1 BY hash", { hashes }))) {
    contents.set(c.hash, c.boc);
  }
  const message = (hash: string | null, direction: "in" | "out", tx: string): TraceMessage | null => {
    const m = hash ? messages.get(`${direction}:${tx}:${hash}`) : undefined;
    if (!m) return null;
    return {
      hash: m.msg_hash,
      hashNorm: m.hash_norm,
      source: m.source,
      destination: m.destination,
      value: big(m.value),
      valueExtraCurrencies: m.value_extra_currencies && Object.keys(m.value_extra_currencies).length ? Object.fromEntries(Object.entries(m.value_extra_currencies).map(([k, v]) => [k, String(v)])) : null,
      fwdFee: big(m.fwd_fee),
      ihrFee: big(m.ihr_fee),
      importFee: big(m.import_fee),
      createdLt: big(m.created_lt),
      createdAt: m.created_at === null ? null : Number(m.created_at),
      opcode: m.opcode === null ? null : Number(m.opcode),
      bounce: m.bounce,
      bounced: m.bounced,
      body: contents.get(m.body_hash) ?? "",
      bodyHash: m.body_hash,
      initState: m.init_state_hash ? (contents.get(m.init_state_hash) ?? null) : null,
      initStateHash: m.init_state_hash,
    };
  };
  const byTrace = new Map<string, TraceTransaction[]>();
  for (const t of txs) {
    const d = descriptionOf(t.description);
    const list = byTrace.get(t.trace_id) ?? [];
    list.push({
      hash: t.hash,
      lt: BigInt(t.lt),
      account: t.account,
      now: Number(t.now),
      mcBlockSeqno: Number(t.mc_seqno),
      origStatus: status(t.orig_status),
      endStatus: status(t.end_status),
      totalFees: BigInt(t.total_fees),
      descr: kind(d.type),
      aborted: d.aborted ?? false,
      destroyed: d.destroyed ?? false,
      isTock: d.is_tock ?? null,
      computeExitCode: d.compute_ph?.exit_code ?? null,
      computeSkipped: d.compute_ph?.skipped ?? true,
      computeSkipReason: d.compute_ph?.skipped ? (d.compute_ph.reason ?? null) : null,
      actionResultCode: d.action?.result_code ?? null,
      bounce: d.bounce?.type ?? null,
      inMsg: message(t.in_msg_hash, "in", t.hash),
      outMsgs: t.out_msg_hashes.map((h) => message(h, "out", t.hash)).filter((m): m is TraceMessage => m !== null),
    });
    byTrace.set(t.trace_id, list);
  }
  for (const r of wanted) {
    const transactions = byTrace.get(r.trace_id) ?? [];
    transactions.sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
    out.set(r.trace_id, {
      traceId: r.trace_id,
      externalHash: r.external_hash,
      externalHashNorm: r.external_hash_norm,
      mcSeqnoStart: Number(r.mc_seqno_start),
      mcSeqnoEnd: Number(r.mc_seqno_end),
      startLt: BigInt(r.start_lt),
      endLt: BigInt(r.end_lt),
      startUtime: Number(r.start_utime),
      endUtime: Number(r.end_utime),
      transactions,
    });
  }
  return out;
}

/** A transaction's own copy of its messages; undefined when it has none (or none that reads: a block must not stop on it). */
function storedMessages(text: string): StoredMessage[] | undefined {
  if (!text) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? (v as StoredMessage[]) : undefined;
  } catch {
    return undefined;
  }
}

/** The messages of these transactions by direction, transaction and hash: from the transactions' own copy, else (rows stored before it) from `messages`. */
async function messagesOf(store: Store, txs: readonly StoredTransaction[]): Promise<Map<string, StoredMessage>> {
  const out = new Map<string, StoredMessage>();
  const missing: string[] = [];
  const missingTxs: string[] = [];
  for (const t of txs) {
    const stored = storedMessages(t.messages);
    if (!stored) {
      missing.push(...(t.in_msg_hash ? [t.in_msg_hash] : []), ...t.out_msg_hashes);
      missingTxs.push(t.hash);
      continue;
    }
    for (const m of stored) out.set(`${m.direction}:${t.hash}:${m.msg_hash}`, m);
  }
  const rows = await chunked(missing, (hashes) =>
    select<StoredMessage & { tx_hash: string }>(
      store,
      "SELECT * FROM messages WHERE msg_hash IN {hashes:Array(String)} AND tx_hash IN {txs:Array(String)} LIMIT 1 BY msg_hash, direction, tx_hash",
      { hashes, txs: missingTxs },
    ),
  );
  for (const m of rows) out.set(`${m.direction}:${m.tx_hash}:${m.msg_hash}`, m);
  return out;
}
