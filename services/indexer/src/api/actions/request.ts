// The /actions request as filters in the store's forms (raw addresses, base64 hashes), with
// toncenter's rules across parameters (crud_actions_v2.go): action_id, or trace_id without account,
// replaces every other filter but the types; a time range orders by time. The gateway has already
// checked each parameter on its own (formats, bounds, the type pattern).
import type { GetActionsRequest } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import type { KeyKind } from "../decoded.js";
import { b64Hash, rawAddress } from "../params.js";
import { supportedTypes } from "./types.js";

export interface ActionFilters {
  account: string | undefined;
  txHashes: string[];
  msgHashes: string[];
  actionIds: string[];
  traceIds: string[];
  mcSeqno: number | undefined;
  /** trace_end_utime range, inclusive */
  startUtime: number | undefined;
  endUtime: number | undefined;
  /** trace_end_lt range, inclusive */
  startLt: bigint | undefined;
  endLt: bigint | undefined;
  /** only these types (action_type), instead of the supported ones */
  types: string[];
  excluded: string[];
  /** the supported types, shortcuts expanded: an action inside one of them is not listed on its own */
  supported: Set<string>;
}

export function actionFilters(req: GetActionsRequest): ActionFilters {
  const f: ActionFilters = {
    account: req.account === undefined ? undefined : rawAddress(req.account),
    txHashes: req.txHash.map(b64Hash),
    msgHashes: req.msgHash.map(b64Hash),
    actionIds: req.actionId.map(b64Hash),
    traceIds: req.traceId.map(b64Hash),
    mcSeqno: req.mcSeqno,
    startUtime: req.startUtime,
    endUtime: req.endUtime,
    startLt: req.startLt,
    endLt: req.endLt,
    types: [...req.actionType],
    excluded: [...req.excludeActionType],
    supported: supportedTypes(req.supportedActionTypes),
  };
  // toncenter's precedence: these name the actions; the other filters would only drop some of them
  if (f.actionIds.length || (f.traceIds.length && f.account === undefined)) {
    const keep = f.actionIds.length ? { actionIds: f.actionIds, traceIds: [] } : { actionIds: [], traceIds: f.traceIds };
    return { ...f, ...keep, account: undefined, txHashes: [], msgHashes: [], mcSeqno: undefined, startUtime: undefined, endUtime: undefined, startLt: undefined, endLt: undefined };
  }
  return f;
}

/** Whether an action is listed under the type filters: of the types asked (else supported), not excluded, not inside a supported one. */
export function listedType(f: ActionFilters, a: { type: string; ancestor_type: readonly string[] }): boolean {
  if (f.types.length ? !f.types.includes(a.type) : !f.supported.has(a.type)) return false;
  if (f.excluded.includes(a.type)) return false;
  return !a.ancestor_type.some((t) => f.supported.has(t));
}

/** toncenter's visibility rule for the actions of a trace: of a supported type, not inside a supported one. */
export function visibleIn(supported: ReadonlySet<string>): (a: { type: string; ancestor_type: readonly string[] }) => boolean {
  return (a) => supported.has(a.type) && !a.ancestor_type.some((t) => supported.has(t));
}

/** The order of an actions page (toncenter's): by the trace's end, then the action's, each with its id; by time when a time range is given. */
export interface ActionOrder {
  columns: string[];
  kinds: KeyKind[];
  byTime: boolean;
}

export function actionOrder(f: ActionFilters): ActionOrder {
  const byTime = f.startUtime !== undefined || f.endUtime !== undefined;
  return byTime
    ? { columns: ["trace_end_utime", "trace_id", "end_utime", "action_id"], kinds: ["uint64", "hash", "uint64", "hash"], byTime }
    : { columns: ["trace_end_lt", "trace_id", "end_lt", "action_id"], kinds: ["uint64", "hash", "uint64", "hash"], byTime };
}
