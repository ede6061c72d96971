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

/**
 * The current rows of `actions` whose trace passes `traces` (conditions on trace columns or the key),
 * as a subquery of `columns`.
 */
function currentActions(traces: Where, upTo: number, columns: string = KEY_COLUMNS.actions): string {
  const where = [`version <= ${traces.param("UInt32", upTo)}`, ...traces.conds].join(" AND ");
  return `(SELECT ${columns} FROM (
     SELECT ${columns}, deleted FROM actions WHERE ${where}
     ORDER BY trace_id, action_id, version DESC LIMIT 1 BY trace_id, action_id)
   WHERE NOT deleted)`;
}

/** What a page of actions is chosen and ordered by: every column but the stored row, which is read for the page only. */
const PAGE_COLUMNS = "trace_id, action_id, version, type, tx_hashes, ancestor_type, trace_end_lt, trace_end_utime, end_lt, end_utime";

/** The whole rows of these (trace_id, action_id, version) keys, in their order. */
async function rowsOf(store: Store, keys: readonly { trace_id: string; action_id: string; version: number }[]): Promise<KeyActionRow[]> {
  if (!keys.length) return [];
  const rows = await select<Record<string, unknown>>(
    store,
    `SELECT ${KEY_COLUMNS.actions} FROM actions
     WHERE trace_id IN {t:Array(String)} AND action_id IN {a:Array(String)} AND version IN {v:Array(UInt32)} AND NOT deleted
     LIMIT 1 BY trace_id, action_id, version`,
    { t: [...new Set(keys.map((k) => k.trace_id))], a: [...new Set(keys.map((k) => k.action_id))], v: [...new Set(keys.map((k) => k.version))] },
  );
  const byKey = new Map(rows.map(actionRow).map((r) => [`${r.trace_id}/${r.action_id}/${r.version}`, r]));
  return keys.flatMap((k) => byKey.get(`${k.trace_id}/${k.action_id}/${k.version}`) ?? []);
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
  const keys = await select<{ trace_id: string; action_id: string; version: number }>(
    store,
    `SELECT trace_id, action_id, version FROM ${currentActions(traces, upTo, PAGE_COLUMNS)} ${w.sql} ${orderBy(order.columns, asc)} ${limitOf(w, page)}`,
    { ...traces.params, ...w.params },
  );
  return rowsOf(store, keys.map((k) => ({ ...k, version: Number(k.version) })));
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
