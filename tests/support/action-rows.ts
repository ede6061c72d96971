// The decoder's actions tables (services/decoder's migrations/0004_actions.sql), filled by a test as
// the decoder fills them: one classification of a trace at a version (the masterchain block whose
// step classified it) writes every action row, one action_accounts row per account of each, deleted
// rows for what an earlier classification had and this one has not, and the trace's record last.
import type { ActionRow } from "@tongate/actions";
import type { Store } from "@tongate/store";
import { insert } from "./decoded-rows.js";

/**
 * Holds ClickHouse's merges of the actions tables: a test keeps rows of a classification past the
 * checkpoint for as long as it likes, which the decoder never does (it writes them, then moves its
 * checkpoint), and only a merge in between can replace the row an answer at the checkpoint shows.
 */
export async function holdActionMerges(store: Store): Promise<void> {
  for (const table of ["actions", "action_accounts", "trace_classifications"]) await store.client.command({ query: `SYSTEM STOP MERGES ${table}` });
}

/** What an action row needs from its trace. */
export interface TraceEnd {
  trace_id: string;
  trace_end_lt: bigint;
  trace_end_utime: number;
  trace_mc_seqno_end: number;
  trace_external_hash?: string | null;
}

/** An ActionRow of `trace` with the classifier's defaults for what `o` does not give. */
export function actionOf(trace: TraceEnd, o: Partial<ActionRow> & Pick<ActionRow, "action_id" | "type" | "tx_hashes" | "accounts" | "start_lt" | "end_lt">): ActionRow {
  return {
    trace_id: trace.trace_id,
    success: true,
    start_utime: trace.trace_end_utime,
    end_utime: trace.trace_end_utime,
    mc_seqno_end: trace.trace_mc_seqno_end,
    trace_end_lt: trace.trace_end_lt,
    trace_end_utime: trace.trace_end_utime,
    trace_external_hash: trace.trace_external_hash ?? null,
    trace_external_hash_norm: null,
    trace_mc_seqno_end: trace.trace_mc_seqno_end,
    source: null,
    source_secondary: null,
    destination: null,
    destination_secondary: null,
    asset: null,
    asset_secondary: null,
    asset2: null,
    asset2_secondary: null,
    amount: null,
    value: null,
    opcode: null,
    value_extra_currencies: null,
    parent_action_id: null,
    ancestor_type: [],
    extra: null,
    ...o,
  };
}

/** The lossless JSON text of a row (bigints as decimal strings), as the decoder stores it in `row`. */
export const rowJson = (a: ActionRow): string => JSON.stringify(a, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));

const actionColumns = (a: ActionRow, version: number, deleted: boolean) => ({
  trace_id: a.trace_id,
  action_id: a.action_id,
  version,
  deleted,
  type: a.type,
  tx_hashes: a.tx_hashes,
  accounts: a.accounts,
  success: a.success,
  start_lt: String(a.start_lt),
  end_lt: String(a.end_lt),
  start_utime: a.start_utime,
  end_utime: a.end_utime,
  mc_seqno_end: a.mc_seqno_end,
  trace_end_lt: String(a.trace_end_lt),
  trace_end_utime: a.trace_end_utime,
  trace_mc_seqno_end: a.trace_mc_seqno_end,
  trace_external_hash: a.trace_external_hash,
  trace_external_hash_norm: a.trace_external_hash_norm,
  parent_action_id: a.parent_action_id,
  ancestor_type: a.ancestor_type,
  row: rowJson(a),
});

const accountRows = (a: ActionRow, version: number, deleted: boolean) =>
  [...new Set(a.accounts)].map((account) => ({
    account,
    trace_end_lt: String(a.trace_end_lt),
    trace_id: a.trace_id,
    end_lt: String(a.end_lt),
    action_id: a.action_id,
    version,
    deleted,
    type: a.type,
    ancestor_type: a.ancestor_type,
    trace_end_utime: a.trace_end_utime,
    trace_mc_seqno_end: a.trace_mc_seqno_end,
  }));

/**
 * One classification of a trace at `version`: its actions, deleted rows for those of `replaces` (an
 * earlier classification) it no longer has, and the trace's record.
 */
export async function writeClassification(
  store: Store,
  o: { trace: TraceEnd; version: number; state: "ok" | "failed" | "broken"; actions: ActionRow[]; replaces?: ActionRow[] },
): Promise<void> {
  const kept = new Set(o.actions.map((a) => a.action_id));
  const keptAccounts = new Set(o.actions.flatMap((a) => a.accounts.map((acc) => `${acc}/${a.action_id}`)));
  const dropped = (o.replaces ?? []).filter((a) => !kept.has(a.action_id));
  const droppedAccounts = (o.replaces ?? []).flatMap((a) => accountRows(a, o.version, true)).filter((r) => !keptAccounts.has(`${r.account}/${r.action_id}`));
  await insert(store, "actions", [...o.actions.map((a) => actionColumns(a, o.version, false)), ...dropped.map((a) => actionColumns(a, o.version, true))]);
  await insert(store, "action_accounts", [...o.actions.flatMap((a) => accountRows(a, o.version, false)), ...droppedAccounts]);
  await insert(store, "trace_classifications", [
    {
      trace_id: o.trace.trace_id,
      version: o.version,
      classification_state: o.state,
      action_ids: o.actions.map((a) => a.action_id),
      trace_end_lt: String(o.trace.trace_end_lt),
      trace_end_utime: o.trace.trace_end_utime,
      trace_mc_seqno_end: o.trace.trace_mc_seqno_end,
    },
  ]);
}
