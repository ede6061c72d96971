// /traces from the key index (store/key-index), with the classification and actions of the decoder's
// key-index tables, and /actions from those tables (actionsFromKeys, below). /traces by trace ids, by transaction hashes, by message
// hashes (or normalised hashes), or one account's or one masterchain block's traces by (end_lt,
// trace_id) with lt bounds, an offset or a cursor. Returns undefined when the request has a filter
// only ClickHouse applies (no key, several keys at once, an account's or a block's traces by time),
// or the index is not complete yet; the caller then queries ClickHouse (./traces.ts). Both answer the same
// (services/indexer/test/key-index.test.ts compares them on every trace of an indexed chain).
// A plain function of (store, request): no state of its own.
import { create } from "@bufbuild/protobuf";
import {
  type ActionsResponse,
  ActionsResponseSchema,
  type GetActionsRequest,
  type GetTracesRequest,
  type Trace,
  type TracesResponse,
  TracesResponseSchema,
} from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import type { KeyActionRow, KeyClassificationRow } from "@tongate/store";
import { byLtThenHash, type KeyIndex } from "../../store/key-index/key-index.js";
import { type KeySource, usableDecoded, usableKeys } from "../blockchain/key-lookups.js";
import { keyOf, validCursor } from "../decoded.js";
import { b64Hash, isAsc, nextCursor, pageOf, rawAddress } from "../params.js";
import { actionOf, traceActions, traceOf, withClassification, withTransactions } from "./models.js";
import { actionFilters, actionOrder, listedType, visibleIn } from "./request.js";
import { supportedTypes } from "./types.js";

export function tracesFromKeys(store: KeySource, req: GetTracesRequest): TracesResponse | undefined {
  const keys = usableKeys(store);
  if (!keys) return undefined;
  // classification states and actions are the decoder's: its tables, unless it never classified anything
  const decoded = usableDecoded(store);
  if (!decoded && store.decoded?.decoded() !== undefined) return undefined;
  const byAccount = req.account !== undefined;
  const byBlock = req.mcSeqno !== undefined;
  const lookups = Number(byAccount) + Number(byBlock) + Number(req.traceId.length > 0) + Number(req.txHash.length > 0) + Number(req.msgHash.length > 0);
  if (lookups !== 1) return undefined;
  const asc = isAsc(req.sort);
  const p = pageOf("traces", asc, req, ["string", "string"]);
  const after: [bigint, string] | undefined = p.after ? [BigInt(p.after[0]!), String(p.after[1])] : undefined;
  let page: Trace[];
  if (byAccount || byBlock) {
    // end_utime is not in these keys: a time range is ClickHouse's
    if (req.startUtime !== undefined || req.endUtime !== undefined) return undefined;
    const o = { asc, limit: p.limit, offset: p.offset, startLt: req.startLt, endLt: req.endLt, after };
    // a masterchain block's traces are the complete ones it completed (toncenter's rule; ./traces.ts)
    const ids = byAccount ? keys.accountTraces(rawAddress(req.account!), o) : keys.mcBlockTraces(req.mcSeqno!, o);
    page = ids.flatMap((k) => keys.trace(k.hash) ?? []);
  } else {
    const records = [...traceIdsOf(keys, req)].flatMap((id) => keys.trace(id) ?? []).filter((t) => inBounds(t, req, asc, after));
    page = records.sort((a, b) => byLtThenHash(asc)({ lt: a.endLt, hash: a.traceId }, { lt: b.endLt, hash: b.traceId })).slice(p.offset, p.offset + p.limit);
  }
  const ids = page.map((t) => t.traceId);
  const states = decoded?.classificationRows(ids) ?? new Map<string, KeyClassificationRow>();
  const actions = req.includeActions ? (decoded?.actionsOfTraces(ids) ?? new Map<string, KeyActionRow[]>()) : undefined;
  const visible = visibleIn(supportedTypes(req.supportedActionTypes));
  return create(TracesResponseSchema, {
    traces: page.map((t) =>
      withClassification(traceOf(t, withTransactions(t) ? keys.traceTransactions(t.traceId) : []), states.get(t.traceId), actions && traceActions(actions.get(t.traceId) ?? [], visible)),
    ),
    nextCursor: nextCursor("traces", asc, p, page, (t) => [String(t.endLt), t.traceId]),
  });
}

/** The trace ids the request names, or those of the transactions it names by hash or by message. */
function traceIdsOf(keys: KeyIndex, req: GetTracesRequest): Set<string> {
  const ids = new Set<string>();
  for (const id of req.traceId) ids.add(b64Hash(id));
  for (const h of req.txHash) {
    const id = keys.byTransactionHash(b64Hash(h))?.traceId;
    if (id) ids.add(id);
  }
  for (const h of req.msgHash) {
    for (const t of keys.byMessageHash(b64Hash(h), undefined)) if (t.traceId) ids.add(t.traceId);
  }
  return ids;
}

/** The request's end_utime and end_lt bounds (inclusive) and its cursor. */
function inBounds(t: Trace, req: GetTracesRequest, asc: boolean, after: [bigint, string] | undefined): boolean {
  if (req.startUtime !== undefined && t.endUtime < req.startUtime) return false;
  if (req.endUtime !== undefined && t.endUtime > req.endUtime) return false;
  if (req.startLt !== undefined && t.endLt < req.startLt) return false;
  if (req.endLt !== undefined && t.endLt > req.endLt) return false;
  return !after || byLtThenHash(asc)({ lt: t.endLt, hash: t.traceId }, { lt: after[0], hash: after[1] }) > 0;
}

/** A stored action's place in toncenter's order: (trace_end_lt, trace_id, end_lt, action_id). */
const byActionOrder = (sign: number) => (a: KeyActionRow, b: KeyActionRow): number =>
  sign * (compareLt(a.trace_end_lt, b.trace_end_lt) || compareText(a.trace_id, b.trace_id) || compareLt(a.end_lt, b.end_lt) || compareText(a.action_id, b.action_id));

const compareLt = (a: string, b: string): number => {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** ClickHouse's String order (bytes; ids are ASCII). */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * /actions from the decoder's key-index tables: by action ids, by trace ids (without account), by
 * transaction hashes, or one account's actions by (trace_end_lt, trace_id, end_lt, action_id) with lt
 * bounds — the type filters applied as they are read. Undefined when the request has a filter only
 * ClickHouse applies (a time range, a block, message hashes, transactions in full, several keys), or
 * the tables are not usable; the caller then queries ClickHouse (./queries.ts), which answers the same.
 */
export function actionsFromKeys(source: KeySource, req: GetActionsRequest): ActionsResponse | undefined {
  const keys = usableDecoded(source);
  if (!keys || req.includeTransactions) return undefined;
  const f = actionFilters(req);
  const order = actionOrder(f);
  if (order.byTime || f.mcSeqno !== undefined || f.msgHashes.length) return undefined;
  const lookups = Number(f.account !== undefined) + Number(f.actionIds.length > 0) + Number(f.traceIds.length > 0) + Number(f.txHashes.length > 0);
  if (lookups !== 1) return undefined;
  const asc = isAsc(req.sort);
  const page = pageOf("actions", asc, req, order.kinds.map(() => "string"));
  if (page.after && !validCursor(page.after, order.kinds)) return undefined;
  const cmp = byActionOrder(asc ? 1 : -1);
  const after = page.after && { trace_end_lt: String(page.after[0]), trace_id: String(page.after[1]), end_lt: String(page.after[2]), action_id: String(page.after[3]) };
  const listed = (r: KeyActionRow): boolean =>
    listedType(f, r) &&
    (f.startLt === undefined || BigInt(r.trace_end_lt) >= f.startLt) &&
    (f.endLt === undefined || BigInt(r.trace_end_lt) <= f.endLt) &&
    (!after || cmp(r, { ...r, ...after }) > 0);
  let rows: KeyActionRow[] = [];
  if (f.account !== undefined) {
    let skip = page.offset;
    const position = after && { traceEndLt: BigInt(after.trace_end_lt), traceId: after.trace_id, endLt: BigInt(after.end_lt), actionId: after.action_id };
    for (const e of keys.actionsOfAccount(f.account, { reverse: !asc, after: position, startLt: f.startLt, endLt: f.endLt })) {
      if (!listed(e.action)) continue;
      if (skip > 0) skip--;
      else if (rows.push(e.action) >= page.limit) break;
    }
  } else {
    const found = f.actionIds.length ? keys.actionsById(f.actionIds) : f.traceIds.length ? [...keys.actionsOfTraces(f.traceIds).values()].flat() : keys.actionsOfTransactions(f.txHashes);
    rows = found.filter(listed).sort(cmp).slice(page.offset, page.offset + page.limit);
  }
  const accounts = req.includeAccounts === true;
  return create(ActionsResponseSchema, {
    actions: rows.map((r) => actionOf(r, { accounts })),
    nextCursor: nextCursor("actions", asc, page, rows, (r) => keyOf(r, order.columns)),
  });
}
