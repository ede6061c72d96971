// /traces: traces by account, id, transaction or message, with their transactions and the tree
// the messages make of them (./models.ts), their classification state and, with include_actions,
// their actions (the decoder's, ./queries.ts). The key lookups (one account, ids, transaction or
// message hashes) are answered from the key index (./key-lookups.ts); the rest reads ClickHouse.
import { create } from "@bufbuild/protobuf";
import { type GetTracesRequest, type TracesResponse, TracesResponseSchema } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import type { Transaction } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { transactionOf } from "../blockchain/models.js";
import { transactionParts } from "../blockchain/parts.js";
import { b64Hash, isAsc, nextCursor, pageOf, rawAddress } from "../params.js";
import { select, type Store, type StoredTransaction, Where } from "../sql.js";
import type { KeyActionRow, KeyClassificationRow } from "@tongate/store";
import { decodedUpTo } from "../decoded.js";
import { tracesFromKeys } from "./key-lookups.js";
import { type StoredTrace, traceActions, traceHeader, traceOf, withClassification, withTransactions } from "./models.js";
import { actionsOfTraces, classifications } from "./queries.js";
import { visibleIn } from "./request.js";
import { supportedTypes } from "./types.js";

const TX_OF_HASHES = "SELECT trace_id FROM transactions FINAL WHERE trace_id IS NOT NULL AND (account, lt) IN (SELECT account, lt FROM transactions_by_hash FINAL WHERE hash IN {})";

export async function traces(store: Store, req: GetTracesRequest): Promise<TracesResponse> {
  const fromKeys = tracesFromKeys(store, req);
  if (fromKeys) return fromKeys;
  const asc = isAsc(req.sort);
  const dir = asc ? "ASC" : "DESC";
  const p = pageOf("traces", asc, req, ["string", "string"]);
  const w = new Where();
  if (req.account !== undefined) w.add("trace_id IN (SELECT trace_id FROM transactions FINAL WHERE account = {} AND trace_id IS NOT NULL)", ["String", rawAddress(req.account)]);
  if (req.traceId.length) w.add("trace_id IN {}", ["Array(String)", req.traceId.map(b64Hash)]);
  if (req.txHash.length) w.add(`trace_id IN (${TX_OF_HASHES})`, ["Array(String)", req.txHash.map(b64Hash)]);
  if (req.msgHash.length) {
    const h = req.msgHash.map(b64Hash);
    w.add(`trace_id IN (${TX_OF_HASHES.replace("{}", "(SELECT tx_hash FROM messages FINAL WHERE msg_hash IN {} OR hash_norm IN {})")})`, ["Array(String)", h], ["Array(String)", h]);
  }
  // a masterchain block's traces are those it completed (toncenter's rule)
  if (req.mcSeqno !== undefined) w.add("mc_seqno_end = {} AND state = 'complete'", ["UInt32", req.mcSeqno]);
  if (req.startUtime !== undefined) w.add("end_utime >= {}", ["UInt32", req.startUtime]);
  if (req.endUtime !== undefined) w.add("end_utime <= {}", ["UInt32", req.endUtime]);
  if (req.startLt !== undefined) w.add("end_lt >= {}", ["UInt64", String(req.startLt)]);
  if (req.endLt !== undefined) w.add("end_lt <= {}", ["UInt64", String(req.endLt)]);
  if (p.after) w.add(`(end_lt, trace_id) ${asc ? ">" : "<"} ({}, {})`, ["UInt64", p.after[0]], ["String", p.after[1]]);
  const records = await select<StoredTrace>(
    store,
    `SELECT * FROM traces FINAL ${w.sql} ORDER BY end_lt ${dir}, trace_id ${dir}
     LIMIT ${w.param("UInt32", p.limit)} OFFSET ${w.param("UInt32", p.offset)}`,
    w.params,
  );
  const headers = records.map(traceHeader);
  const small = headers.filter(withTransactions).map((h) => h.traceId);
  const txs = small.length
    ? await select<StoredTransaction>(
        store,
        `SELECT * FROM transactions FINAL
         WHERE (account, lt) IN (SELECT account, lt FROM transactions_by_trace FINAL WHERE trace_id IN {t:Array(String)})
         ORDER BY lt, account`,
        { t: small },
      )
    : [];
  const parts = await transactionParts(store, txs);
  const byTrace = new Map<string, Transaction[]>();
  for (const t of txs) {
    const list = byTrace.get(t.trace_id!) ?? [];
    list.push(transactionOf(t, parts));
    byTrace.set(t.trace_id!, list);
  }
  const ids = headers.map((h) => h.traceId);
  const upTo = await decodedUpTo(store);
  const [states, actions] =
    upTo === null
      ? [new Map<string, KeyClassificationRow>(), new Map<string, KeyActionRow[]>()]
      : await Promise.all([classifications(store, ids, upTo), req.includeActions ? actionsOfTraces(store, ids, upTo) : new Map<string, KeyActionRow[]>()]);
  const visible = visibleIn(supportedTypes(req.supportedActionTypes));
  return create(TracesResponseSchema, {
    traces: headers.map((h) =>
      withClassification(traceOf(h, byTrace.get(h.traceId) ?? []), states.get(h.traceId), req.includeActions ? traceActions(actions.get(h.traceId) ?? [], visible) : undefined),
    ),
    nextCursor: nextCursor("traces", asc, p, records, (r) => [r.end_lt, r.trace_id]),
  });
}
