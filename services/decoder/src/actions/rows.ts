// A trace's classification as the decoder's actions tables take it (store/migrations/0004_actions.sql):
// its actions, their accounts, its record, all of one version; and, against the classification
// before it, the `deleted` rows that retire the keys it no longer has.
import type { ActionRow, ClassificationState } from "@tongate/actions";
import type { KeyActionRow, KeyClassificationRow } from "@tongate/store";
import { storedAction } from "./stored.js";

/** An `actions` row (JSONEachRow: 64-bit integers as strings). */
export type ActionDbRow = KeyActionRow & { deleted: boolean };

export interface ActionAccountDbRow {
  account: string;
  trace_end_lt: string;
  trace_id: string;
  end_lt: string;
  action_id: string;
  version: number;
  deleted: boolean;
  type: string;
  ancestor_type: string[];
  trace_end_utime: number;
  trace_mc_seqno_end: number;
}

export type ClassificationDbRow = KeyClassificationRow;

/** What a block's classifications write. */
export interface ActionsRows {
  actions: ActionDbRow[];
  action_accounts: ActionAccountDbRow[];
  trace_classifications: ClassificationDbRow[];
}

export const emptyActionsRows = (): ActionsRows => ({ actions: [], action_accounts: [], trace_classifications: [] });

/** An action as its `actions` row at `version`. */
export function actionDbRow(a: ActionRow, version: number): ActionDbRow {
  return {
    trace_id: a.trace_id,
    action_id: a.action_id,
    version,
    deleted: false,
    type: a.type,
    tx_hashes: a.tx_hashes,
    accounts: a.accounts,
    success: a.success,
    start_lt: a.start_lt.toString(),
    end_lt: a.end_lt.toString(),
    start_utime: a.start_utime,
    end_utime: a.end_utime,
    mc_seqno_end: a.mc_seqno_end,
    trace_end_lt: a.trace_end_lt.toString(),
    trace_end_utime: a.trace_end_utime,
    trace_mc_seqno_end: a.trace_mc_seqno_end,
    trace_external_hash: a.trace_external_hash,
    trace_external_hash_norm: a.trace_external_hash_norm,
    parent_action_id: a.parent_action_id,
    ancestor_type: a.ancestor_type,
    row: storedAction(a),
  };
}

/** The action_accounts rows of an action: one per account, each once. */
export function actionAccountRows(a: Pick<ActionDbRow, "accounts" | "trace_end_lt" | "trace_id" | "end_lt" | "action_id" | "version" | "deleted" | "type" | "ancestor_type" | "trace_end_utime" | "trace_mc_seqno_end">): ActionAccountDbRow[] {
  return [...new Set(a.accounts)].map((account) => ({
    account,
    trace_end_lt: a.trace_end_lt,
    trace_id: a.trace_id,
    end_lt: a.end_lt,
    action_id: a.action_id,
    version: a.version,
    deleted: a.deleted,
    type: a.type,
    ancestor_type: a.ancestor_type,
    trace_end_utime: a.trace_end_utime,
    trace_mc_seqno_end: a.trace_mc_seqno_end,
  }));
}

const accountKeyOf = (r: ActionAccountDbRow): string => `${r.account}|${r.trace_end_lt}|${r.trace_id}|${r.end_lt}|${r.action_id}`;

/** The trace the record is of, with its bounds (for a trace the classifier did not run on). */
export interface TraceBounds {
  traceId: string;
  endLt: bigint;
  endUtime: number;
  mcSeqnoEnd: number;
}

/**
 * One trace's rows at `version`: its actions, their accounts, its record, and `deleted` rows for
 * the keys of `previous` (its current actions before this version) that the new ones lack.
 */
export function classificationRows(trace: TraceBounds, state: ClassificationState, actions: readonly ActionRow[], version: number, previous: readonly ActionDbRow[]): ActionsRows {
  const rows = emptyActionsRows();
  rows.actions = actions.map((a) => actionDbRow(a, version));
  rows.action_accounts = rows.actions.flatMap(actionAccountRows);
  const kept = new Set(rows.actions.map((a) => a.action_id));
  const keptAccounts = new Set(rows.action_accounts.map(accountKeyOf));
  for (const old of previous) {
    const retired = { ...old, version, deleted: true, row: "" };
    if (!kept.has(old.action_id)) rows.actions.push(retired);
    for (const r of actionAccountRows(retired)) if (!keptAccounts.has(accountKeyOf(r))) rows.action_accounts.push(r);
  }
  rows.trace_classifications.push({
    trace_id: trace.traceId,
    version,
    classification_state: state,
    action_ids: actions.map((a) => a.action_id),
    trace_end_lt: trace.endLt.toString(),
    trace_end_utime: trace.endUtime,
    trace_mc_seqno_end: trace.mcSeqnoEnd,
  });
  return rows;
}
