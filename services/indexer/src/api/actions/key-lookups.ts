// /traces from the key index (store/key-index): by trace ids, by transaction hashes, by message
// hashes (or normalised hashes), or one account's or one masterchain block's traces by (end_lt,
// trace_id) with lt bounds, an offset or a cursor. Returns undefined when the request has a filter
// only ClickHouse applies (no key, several keys at once, an account's or a block's traces by time),
// or the index is not complete yet; the caller then queries ClickHouse (./traces.ts). Both answer the same
// (services/indexer/test/key-index.test.ts compares them on every trace of an indexed chain).
// A plain function of (store, request): no state of its own.
import { create } from "@bufbuild/protobuf";
import { type GetTracesRequest, type Trace, type TracesResponse, TracesResponseSchema } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import { byLtThenHash, type KeyIndex } from "../../store/key-index/key-index.js";
import { type KeySource, usableKeys } from "../blockchain/key-lookups.js";
import { b64Hash, isAsc, nextCursor, pageOf, rawAddress } from "../params.js";
import { traceOf, withTransactions } from "./models.js";

export function tracesFromKeys(store: KeySource, req: GetTracesRequest): TracesResponse | undefined {
  const keys = usableKeys(store);
  if (!keys) return undefined;
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
  return create(TracesResponseSchema, {
    traces: page.map((t) => traceOf(t, withTransactions(t) ? keys.traceTransactions(t.traceId) : [])),
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
