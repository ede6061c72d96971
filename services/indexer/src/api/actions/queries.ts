// The Actions queries over the decoder's tables (services/decoder's migrations/0004_actions.sql),
// bounded by the decoder's checkpoint (`upTo`), with its version rule: per key, the row of the
// highest version at or before the checkpoint is current, unless it is a deleted one. Filters on
// what a trace has (its id, end lt/utime, block) are applied before that choice, as every version of
// a trace's rows carries the same; filters on what an action has (type, transactions, accounts)
// after it. Values travel as query parameters only.
import { actionRow, classificationRow, KEY_COLUMNS, type KeyActionRow, type KeyClassificationRow } from "@tongate/store";
import { afterCursor, limitOf, orderBy } from "../decoded.js";
import type { Page } from "../params.js";
import { select, type Store, type StoredTransaction, Where } from "../sql.js";
import type { ActionFilters, ActionOrder } from "./request.js";

/** The current rows of `actions` whose trace passes `traces` (conditions on trace columns), as a subquery. */
function currentActions(traces: Where, upTo: number): string {
  const where = [`version <= ${traces.param("UInt32", upTo)}`, ...traces.conds].join(" AND ");
  return `(SELECT ${KEY_COLUMNS.actions} FROM (
     SELECT ${KEY_COLUMNS.actions}, deleted FROM actions WHERE ${where}
     ORDER BY trace_id, action_id, version DESC LIMIT 1 BY trace_id, action_id)
   WHERE NOT deleted)`;
}

/** The transactions the indexer has of these hashes, as (account, lt) pairs: a subquery. */
const TRACES_OF_TRANSACTIONS =
  "trace_id IN (SELECT trace_id FROM transactions FINAL WHERE trace_id IS NOT NULL AND (account, lt) IN (SELECT account, lt FROM transactions_by_hash FINAL WHERE hash IN {}))";

/** The hashes of the transactions that sent or received these messages (by hash or normalised hash). */
async function transactionsOfMessages(store: Store, hashes: readonly string[]): Promise<string[]> {
  const rows = await select<{ tx_hash: string }>(
    store,
    "SELECT DISTINCT tx_hash FROM messages WHERE msg_hash IN {h:Array(String)} OR hash_norm IN {h:Array(String)}",
    { h: hashes },
  );
  return rows.map((r) => r.tx_hash);
}

/** One page of actions (a checkpoint `upTo` of the decoder), filtered and ordered as the request says. */
export async function actions(store: Store, f: ActionFilters, order: ActionOrder, asc: boolean, page: Page, upTo: number): Promise<KeyActionRow[]> {
  const traces = new Where("t");
  const w = new Where("w");
  if (f.account !== undefined) {
    // every trace the account ever had an action in (a superset), then its current actions exactly
    traces.add("trace_id IN (SELECT trace_id FROM action_accounts WHERE account = {} AND version <= {})", ["String", f.account], ["UInt32", upTo]);
    w.add(
      `(trace_id, action_id) IN (SELECT trace_id, action_id FROM (
         SELECT trace_id, action_id, deleted FROM action_accounts WHERE account = {} AND version <= {}
         ORDER BY account, trace_end_lt, trace_id, end_lt, action_id, version DESC LIMIT 1 BY account, trace_end_lt, trace_id, end_lt, action_id)
       WHERE NOT deleted)`,
      ["String", f.account],
      ["UInt32", upTo],
    );
  }
  if (f.traceIds.length) traces.add("trace_id IN {}", ["Array(String)", f.traceIds]);
  if (f.actionIds.length) {
    traces.add("action_id IN {}", ["Array(String)", f.actionIds]);
  }
  if (f.txHashes.length) {
    traces.add(TRACES_OF_TRANSACTIONS, ["Array(String)", f.txHashes]);
    w.add("hasAny(tx_hashes, {})", ["Array(String)", f.txHashes]);
  }
  if (f.msgHashes.length) {
    const txs = await transactionsOfMessages(store, f.msgHashes);
    if (!txs.length) return [];
    traces.add(TRACES_OF_TRANSACTIONS, ["Array(String)", txs]);
    w.add("hasAny(tx_hashes, {})", ["Array(String)", txs]);
  }
  if (f.mcSeqno !== undefined) traces.add("trace_mc_seqno_end = {}", ["UInt32", f.mcSeqno]);
  if (f.startUtime !== undefined) traces.add("trace_end_utime >= {}", ["UInt32", f.startUtime]);
  if (f.endUtime !== undefined) traces.add("trace_end_utime <= {}", ["UInt32", f.endUtime]);
  if (f.startLt !== undefined) traces.add("trace_end_lt >= {}", ["UInt64", String(f.startLt)]);
  if (f.endLt !== undefined) traces.add("trace_end_lt <= {}", ["UInt64", String(f.endLt)]);
  typeFilters(w, f);
  afterCursor(w, "actions", page, order.columns, order.kinds, asc);
  const rows = await select<Record<string, unknown>>(
    store,
    `SELECT * FROM ${currentActions(traces, upTo)} ${w.sql} ${orderBy(order.columns, asc)} ${limitOf(w, page)}`,
    { ...traces.params, ...w.params },
  );
  return rows.map(actionRow);
}

/** The type rules (./request.ts listedType) as conditions. */
function typeFilters(w: Where, f: ActionFilters): void {
  const supported = [...f.supported];
  if (f.types.length) w.add("type IN {}", ["Array(String)", f.types]);
  else w.add("type IN {}", ["Array(String)", supported]);
  if (f.excluded.length) w.add("type NOT IN {}", ["Array(String)", f.excluded]);
  w.add("NOT hasAny(ancestor_type, {})", ["Array(String)", supported]);
}

/** The current actions of these traces (all types: the caller applies the visibility rule), by trace. */
export async function actionsOfTraces(store: Store, traceIds: readonly string[], upTo: number): Promise<Map<string, KeyActionRow[]>> {
  const out = new Map<string, KeyActionRow[]>();
  if (!traceIds.length) return out;
  const traces = new Where("t");
  traces.add("trace_id IN {}", ["Array(String)", [...new Set(traceIds)]]);
  const rows = await select<Record<string, unknown>>(store, `SELECT * FROM ${currentActions(traces, upTo)}`, traces.params);
  for (const r of rows.map(actionRow)) {
    const list = out.get(r.trace_id);
    if (list) list.push(r);
    else out.set(r.trace_id, [r]);
  }
  return out;
}

/** The current classification of each of these traces that has one at the checkpoint. */
export async function classifications(store: Store, traceIds: readonly string[], upTo: number): Promise<Map<string, KeyClassificationRow>> {
  if (!traceIds.length) return new Map();
  const rows = await select<Record<string, unknown>>(
    store,
    `SELECT ${KEY_COLUMNS.trace_classifications} FROM trace_classifications
     WHERE trace_id IN {ids:Array(String)} AND version <= {upTo:UInt32}
     ORDER BY trace_id, version DESC LIMIT 1 BY trace_id`,
    { ids: [...new Set(traceIds)], upTo },
  );
  return new Map(rows.map(classificationRow).map((r) => [r.trace_id, r]));
}

/** The indexer's transactions of these hashes, in (lt, account) order. */
export function transactionsOf(store: Store, hashes: readonly string[]): Promise<StoredTransaction[]> {
  if (!hashes.length) return Promise.resolve([]);
  return select<StoredTransaction>(
    store,
    `SELECT * FROM transactions FINAL
     WHERE (account, lt) IN (SELECT account, lt FROM transactions_by_hash FINAL WHERE hash IN {h:Array(String)})
     ORDER BY lt, account`,
    { h: [...new Set(hashes)] },
  );
}

/** The current actions of these ids (of any type). */
export async function actionsById(store: Store, actionIds: readonly string[], upTo: number): Promise<KeyActionRow[]> {
  if (!actionIds.length) return [];
  const keys = new Where("t");
  keys.add("action_id IN {}", ["Array(String)", [...new Set(actionIds)]]);
  const rows = await select<Record<string, unknown>>(store, `SELECT * FROM ${currentActions(keys, upTo)} ORDER BY trace_id, action_id`, keys.params);
  return rows.map(actionRow);
}
