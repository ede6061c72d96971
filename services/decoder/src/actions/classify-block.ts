// The decoder's classification step of one masterchain block: the traces the block completed, and
// the traces of the jetton wallets, NFT items and DeDust pools the block confirmed late (an
// interface learned after their traces were classified), classified with the decoder's facts as of the block. Pure
// reads and a deterministic classifier: the same block gives the same rows, so a block decoded
// again after a crash writes what it wrote before.
import { type Classification, classifyTrace, type ContractFacts, MapInterfaceLookup, type TraceInput, unknownAction } from "@tongate/actions";
import type { Logger } from "@tongate/runtime";
import { actionRow, classificationRow, factsForTraces, KEY_COLUMNS, type KeyTraceActions, select, type Store } from "@tongate/store";
import type { Decided } from "../pending.js";
import { type ActionDbRow, type ActionsRows, classificationRows, emptyActionsRows, type TraceBounds } from "./rows.js";
import { completeTraces, readTraceInputs, tracesCompletedIn, type TraceRecordRow } from "./trace-input.js";

/** toncenter does not classify traces of more transactions than this: they are recorded `broken`, without actions. */
export const MAX_TRACE_TRANSACTIONS = 4_000;
/** Traces classified again per block for the wallets and items it confirmed; the rest keep their actions (a log line says so). */
export const RECLASSIFIED_PER_BLOCK = 1_000;

export interface BlockClassification {
  rows: ActionsRows;
  /** the key-index form of each classification */
  keys: KeyTraceActions[];
  classified: number;
  reclassified: number;
  failed: number;
  broken: number;
}


/** The traces with a transaction on these accounts at or before block `mcSeqno`, newest first, at most `limit`. */
async function tracesOfAccounts(store: Store, accounts: readonly string[], mcSeqno: number, limit: number): Promise<string[]> {
  if (accounts.length === 0) return [];
  const rows = await select<{ trace_id: string }>(
    store,
    `SELECT trace_id FROM (
       SELECT assumeNotNull(trace_id) AS trace_id, max(lt) AS last FROM transactions
        WHERE account IN {accounts:Array(String)} AND mc_seqno <= {mc:UInt32} AND trace_id IS NOT NULL
        GROUP BY trace_id)
     ORDER BY last DESC, trace_id LIMIT {n:UInt32}`,
    { accounts, mc: mcSeqno, n: limit },
  );
  return rows.map((r) => r.trace_id);
}

/** Each trace's current actions before `version` (latest row per key below it, not deleted). */
export async function actionsBefore(store: Store, traceIds: readonly string[], version: number): Promise<Map<string, ActionDbRow[]>> {
  const out = new Map<string, ActionDbRow[]>();
  if (traceIds.length === 0) return out;
  const rows = await select<Record<string, unknown>>(
    store,
    `SELECT ${KEY_COLUMNS.actions} FROM (
       SELECT ${KEY_COLUMNS.actions}, deleted FROM actions WHERE trace_id IN {ids:Array(String)} AND version < {v:UInt32}
       ORDER BY trace_id, action_id, version DESC LIMIT 1 BY trace_id, action_id)
     WHERE NOT deleted`,
    { ids: traceIds, v: version },
  );
  for (const r of rows) {
    const a = { ...actionRow(r), deleted: false };
    out.set(a.trace_id, [...(out.get(a.trace_id) ?? []), a]);
  }
  return out;
}

/** A trace of one tick-tock transaction: the chain's housekeeping, no one's action (the classifier gives none). */
const loneTickTock = (t: TraceInput): boolean => t.transactions.length === 1 && t.transactions[0]!.descr === "tick_tock";

const boundsOf = (r: TraceRecordRow): TraceBounds => ({ traceId: r.trace_id, endLt: BigInt(r.end_lt), endUtime: Number(r.end_utime), mcSeqnoEnd: Number(r.mc_seqno_end) });

/** Classifies a trace; never throws (a classifier that throws counts as failed). */
function classified(t: TraceInput, facts: MapInterfaceLookup): Classification {
  try {
    const c = classifyTrace(t, facts);
    if (c.state === "failed" && c.actions.length === 0) return { ...c, actions: [unknownAction(t)] };
    return c;
  } catch (e) {
    return { state: "failed", actions: [unknownAction(t)], error: e instanceof Error ? e.message : String(e) };
  }
}

/** The classifications of block `mcSeqno` (after its decoded rows are written; `decided`: what the block confirmed late). */
export async function classifyBlock(store: Store, mcSeqno: number, decided: Decided, log: Logger): Promise<BlockClassification> {
  const out: BlockClassification = { rows: emptyActionsRows(), keys: [], classified: 0, reclassified: 0, failed: 0, broken: 0 };
  const completed = await tracesCompletedIn(store, mcSeqno);
  const confirmed = [...decided.jettonWallets.flatMap((w) => w.addresses), ...decided.nftItems.flatMap((i) => i.addresses), ...(decided.dedustPools ?? [])];
  const touched = await tracesOfAccounts(store, confirmed, mcSeqno, RECLASSIFIED_PER_BLOCK + 1);
  if (touched.length > RECLASSIFIED_PER_BLOCK) {
    log.warn({ mcSeqno, accounts: confirmed.length, limit: RECLASSIFIED_PER_BLOCK }, "decoder: more traces touch the wallets and items this block confirmed than are classified again per block; the older ones keep their actions");
  }
  const completedIds = new Set(completed.map((t) => t.trace_id));
  const again = await completeTraces(store, touched.slice(0, RECLASSIFIED_PER_BLOCK).filter((id) => !completedIds.has(id)), mcSeqno);
  const traces = [...completed, ...again];
  if (traces.length === 0) return out;
  const inputs = await readTraceInputs(store, traces, MAX_TRACE_TRANSACTIONS, mcSeqno);
  // most blocks complete only the masterchain's tick-tock traces, which consult no facts; the others'
  // facts, and what those name outside the traces (a sale's item, a JVault stake wallet's pool)
  const consulting = [...inputs.values()].filter((i) => !loneTickTock(i));
  const facts = new MapInterfaceLookup(consulting.length ? await factsForTraces(store, consulting, mcSeqno) : new Map<string, ContractFacts>());
  // a trace that started in this block was never classified before it; the others may have been
  // (classified again, or complete once and extended since)
  const previous = await actionsBefore(store, traces.filter((t) => Number(t.mc_seqno_start) < mcSeqno || !completedIds.has(t.trace_id)).map((t) => t.trace_id), mcSeqno);
  for (const record of traces) {
    const input = inputs.get(record.trace_id);
    let c: Classification;
    if (!input) {
      c = { state: "broken", actions: [] };
      out.broken++;
    } else {
      c = classified(input, facts);
      if (c.state === "failed") {
        out.failed++;
        log.warn({ traceId: record.trace_id, mcSeqno, error: c.error }, "decoder: the classifier failed on a trace; one unknown action stands for it");
      }
    }
    const rows = classificationRows(boundsOf(record), c.state, c.actions, mcSeqno, previous.get(record.trace_id) ?? []);
    out.rows.actions.push(...rows.actions);
    out.rows.action_accounts.push(...rows.action_accounts);
    out.rows.trace_classifications.push(...rows.trace_classifications);
    // in the form a rebuild reads back from ClickHouse, so that both write the same bytes
    out.keys.push({ classification: classificationRow(rows.trace_classifications[0]!), actions: rows.actions.filter((a) => !a.deleted).map((a) => actionRow(a)) });
  }
  out.classified = completed.length;
  out.reclassified = again.length;
  return out;
}
