// A classifier's action as API v3's tongate.v3.Action: what /actions, /traces and the pending
// endpoints answer and what the Streaming API pushes, rendered by renderAction for one finality.
import { create } from "@bufbuild/protobuf";
import { type Action, ActionSchema } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import type { Transaction } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import type { ActionRow } from "./action.js";
import { type ApiAction, renderAction } from "./render.js";

/** What an action shows besides its row: its accounts (include_accounts), its transactions (include_transactions). */
export interface V3ActionExtras {
  accounts: boolean;
  transactions?: ReadonlyMap<string, Transaction>;
}

/** A classifier's action row as API v3 gives it (a stored one, a pending trace's, a streamed one). */
export function v3Action(row: ActionRow, extras: V3ActionExtras, finality: ApiAction["finality"]): Action {
  const a = renderAction(row, { includeAccounts: extras.accounts, finality });
  return create(ActionSchema, {
    traceId: a.trace_id,
    actionId: a.action_id,
    startLt: BigInt(a.start_lt),
    endLt: BigInt(a.end_lt),
    startUtime: a.start_utime,
    endUtime: a.end_utime,
    traceEndLt: BigInt(a.trace_end_lt),
    traceEndUtime: a.trace_end_utime,
    traceMcSeqnoEnd: a.trace_mc_seqno_end,
    transactions: a.transactions,
    success: a.success,
    type: a.type,
    details: a.details,
    traceExternalHash: a.trace_external_hash,
    traceExternalHashNorm: a.trace_external_hash_norm,
    accounts: a.accounts ?? [],
    transactionsFull: extras.transactions ? a.transactions.flatMap((h) => extras.transactions!.get(h) ?? []) : [],
    finality: a.finality,
  });
}
