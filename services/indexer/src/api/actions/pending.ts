// /pendingTraces and /pendingActions: the send service's pending traces (tongate.send.v1.Pending)
// rendered as /traces and /actions render the indexed ones (./models.ts), with their finality.
// A trace leaves them once it is finalized: the send service knows it, or the index has it whole
// (then /traces and /actions answer it).
import { create } from "@bufbuild/protobuf";
import { type ActionJson, type ActionRow, actionFromJson, v3Action } from "@tongate/actions";
import type { PendingTrace } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import {
  type Action,
  type ActionsResponse,
  ActionsResponseSchema,
  type GetPendingActionsRequest,
  type GetPendingTracesRequest,
  type Trace,
  TraceSchema,
  type TracesResponse,
  TracesResponseSchema,
} from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import type { Transaction } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { apiError } from "@tongate/runtime";
import { b64, finalityName, traceTransactions } from "../blockchain/pending.js";
import { b64Hash, rawAddress } from "../params.js";
import { openTraces } from "../landed.js";
import type { PendingSource } from "../pending.js";
import type { Store } from "../sql.js";
import { type ActionExtras, traceOf } from "./models.js";
import { visibleIn } from "./request.js";

/** The classifier's rows of the trace (its actions_json), in the classifier's order. */
export function actionRowsOf(trace: PendingTrace): ActionRow[] {
  return trace.actionsJson.map((s) => {
    try {
      return actionFromJson(JSON.parse(s) as ActionJson);
    } catch (e) {
      throw apiError(502, `the send service gave an action that is not @tongate/actions' JSON: ${(e as Error).message}`);
    }
  });
}

const byLt = (a: ActionRow, b: ActionRow): number =>
  a.start_lt < b.start_lt ? -1 : a.start_lt > b.start_lt ? 1 : a.end_lt < b.end_lt ? -1 : a.end_lt > b.end_lt ? 1 : a.action_id < b.action_id ? -1 : a.action_id > b.action_id ? 1 : 0;

/**
 * The trace's actions of the types the client supports, in (start_lt, end_lt, action_id) order as
 * /traces lists them, with their accounts (toncenter's pending actions carry them) and, given the
 * trace's transactions, each action's (include_transactions).
 */
export function pendingActionsOf(trace: PendingTrace, supportedActionTypes: readonly string[], transactions?: readonly Transaction[]): Action[] {
  const visible = visibleIn(supportedActionTypes);
  const extras: ActionExtras = { accounts: true, transactions: transactions && new Map(transactions.map((t) => [t.hash, t])) };
  const finality = finalityName(trace.finality);
  return actionRowsOf(trace)
    .filter(visible)
    .sort(byLt)
    .map((r) => v3Action(r, extras, finality));
}

/** The trace as /traces shows one (trace_state "pending"), its transactions and tree, and its actions. */
export function pendingTraceOf(trace: PendingTrace, transactions: readonly Transaction[], actions: Action[]): Trace {
  const root = transactions[0];
  let endLt = 0n;
  let endUtime = 0;
  let mcEnd = 0;
  let messages = 0;
  let pendingMessages = 0;
  for (const t of transactions) {
    if (t.lt > endLt) endLt = t.lt;
    endUtime = Math.max(endUtime, t.now);
    mcEnd = Math.max(mcEnd, t.mcBlockSeqno);
    // toncenter counts the external message in and every message out
    const count = (t.inMsg && t.inMsg.source === undefined ? 1 : 0) + t.outMsgs.length;
    messages += count;
    if (t.emulated) pendingMessages += count;
  }
  const header = create(TraceSchema, {
    traceId: root?.hash ?? b64(trace.traceId),
    externalHash: trace.externalHash.length ? b64(trace.externalHash) : undefined,
    mcSeqnoStart: BigInt(root?.mcBlockSeqno ?? trace.mcBlockSeqno),
    mcSeqnoEnd: BigInt(Math.max(mcEnd, trace.mcBlockSeqno)),
    startLt: root?.lt ?? 0n,
    startUtime: root?.now ?? 0,
    endLt,
    endUtime,
    traceInfo: {
      traceState: "pending",
      messages,
      transactions: transactions.length,
      pendingMessages,
      classificationState: trace.classificationState || "unclassified",
    },
    isIncomplete: trace.isIncomplete,
  });
  const rendered = traceOf(header, transactions);
  rendered.actions = actions;
  return rendered;
}

const filterOf = (req: { account?: string; extMsgHash: string[] }) => ({
  accounts: req.account === undefined ? [] : [rawAddress(req.account)],
  extMsgHashes: req.extMsgHash.map((h) => Buffer.from(b64Hash(h), "base64")),
});

/** /pendingTraces: the pending traces of the account or of the external messages, newest first. */
export async function pendingTracesOf(store: Store, pending: PendingSource, req: GetPendingTracesRequest, signal?: AbortSignal): Promise<TracesResponse> {
  const traces = await openTraces(store, pending, filterOf(req), signal);
  return create(TracesResponseSchema, {
    traces: traces.map((t) => pendingTraceOf(t, traceTransactions(t), pendingActionsOf(t, req.supportedActionTypes))),
  });
}

/** /pendingActions: the actions of the pending traces of the account or of the external messages. */
export async function pendingActions(store: Store, pending: PendingSource, req: GetPendingActionsRequest, signal?: AbortSignal): Promise<ActionsResponse> {
  const traces = await openTraces(store, pending, filterOf(req), signal);
  return create(ActionsResponseSchema, {
    actions: traces.flatMap((t) => pendingActionsOf(t, req.supportedActionTypes, req.includeTransactions ? traceTransactions(t) : undefined)),
  });
}
