// /messages: one object per message (an internal message is stored once per side), with the
// transactions that sent and received it.
import { create } from "@bufbuild/protobuf";
import { type GetMessagesRequest, type MessagesResponse, MessagesResponseSchema } from "@tongate/proto/gen/tongate/v3/transactions_pb.js";
import type { MessageRow } from "../../rows/types.js";
import { select, type Store } from "../../store/store.js";
import { messageOf } from "../models.js";
import { b64Hash, isAsc, nextCursor, opcodeOf, pageOf, rawAddress } from "../params.js";
import { bookOf, codeHashes, contentsOf, ONCE_BY, Where } from "./common.js";

/**
 * Messages in (created_lt, msg_hash) order (created_lt {sort}, then the hash the same way).
 * External inbound messages have no created_lt and sort as 0. With `source` or `destination` the
 * page is read from the lookup table ordered by that address and created_lt.
 */
export async function messages(store: Store, req: GetMessagesRequest): Promise<MessagesResponse> {
  const asc = isAsc(req.sort);
  const dir = asc ? "ASC" : "DESC";
  const p = pageOf("messages", asc, req, ["string", "string"]);
  const w = new Where();
  // every filter on other columns of `messages`: through a subquery when paging a lookup table
  const inner = new Where("q");
  // the table the page is read from: one row per message in the lookup tables, per side in `messages`
  let from = "messages";
  let lt = "ifNull(created_lt, 0)";
  const side = (col: "source" | "destination", value: string) => {
    if (value === "null") {
      inner.add(`${col} IS NULL`);
    } else if (from === "messages") {
      from = col === "source" ? "messages_by_source" : "messages_by_destination";
      lt = "created_lt";
      w.add(`${col} = {}`, ["String", rawAddress(value)]);
    } else {
      w.add(`msg_hash IN (SELECT msg_hash FROM messages FINAL WHERE ${col} = {})`, ["String", rawAddress(value)]);
    }
  };
  if (req.source !== undefined) side("source", req.source);
  if (req.destination !== undefined) side("destination", req.destination);
  if (req.msgHash.length) inner.add("msg_hash IN {}", ["Array(String)", req.msgHash.map(b64Hash)]);
  if (req.bodyHash !== undefined) inner.add("body_hash = {}", ["String", b64Hash(req.bodyHash)]);
  if (req.opcode !== undefined) w.add("opcode = {}", ["Int32", opcodeOf("opcode", req.opcode)]);
  if (req.startUtime !== undefined) inner.add("created_at >= {}", ["UInt32", req.startUtime]);
  if (req.endUtime !== undefined) inner.add("created_at <= {}", ["UInt32", req.endUtime]);
  if (req.direction !== undefined) inner.add("direction = {}", ["String", req.direction]);
  if (req.excludeExternals) inner.add("created_lt IS NOT NULL AND source IS NOT NULL AND destination IS NOT NULL");
  if (req.onlyExternals) inner.add("(source IS NULL OR destination IS NULL)");
  if (req.startLt !== undefined) w.add(`${lt} >= {}`, ["UInt64", String(req.startLt)]);
  if (req.endLt !== undefined) w.add(`${lt} <= {}`, ["UInt64", String(req.endLt)]);
  if (inner.conds.length) {
    Object.assign(w.params, inner.params);
    w.conds.push(from === "messages" ? inner.conds.join(" AND ") : `msg_hash IN (SELECT msg_hash FROM messages FINAL WHERE ${inner.conds.join(" AND ")})`);
  }
  if (p.after) {
    const [afterLt, afterHash] = p.after;
    w.add(`(${lt}, msg_hash) ${asc ? ">" : "<"} ({}, {})`, ["UInt64", afterLt], ["String", afterHash]);
  }
  const keys = await select<{ msg_hash: string; lt: string }>(
    store,
    `SELECT msg_hash, ${from === "messages" ? `max(${lt})` : lt} AS lt FROM ${from} FINAL ${w.sql}
     ${from === "messages" ? "GROUP BY msg_hash" : ""}
     ORDER BY lt ${dir}, msg_hash ${dir}
     LIMIT ${w.param("UInt32", p.limit)} OFFSET ${w.param("UInt32", p.offset)}`,
    w.params,
  );
  const sender = from === "messages_by_source" && req.source !== undefined ? rawAddress(req.source) : undefined;
  const rows = keys.length ? await (sender ? sentRows(store, sender, keys) : select<MessageRow>(store, `SELECT * FROM messages WHERE msg_hash IN {h:Array(String)} ${ONCE_BY.messages}`, { h: keys.map((k) => k.msg_hash) })) : [];
  const addresses = rows.flatMap((r) => [r.source, r.destination]).filter((a): a is string => a !== null);
  const [contents, codes] = await Promise.all([contentsOf(store, rows), codeHashes(store, [...new Set(addresses)])]);
  const bySide = new Map<string, { in?: MessageRow; out?: MessageRow }>();
  for (const r of rows) {
    const e = bySide.get(r.msg_hash) ?? {};
    e[r.direction] = r;
    bySide.set(r.msg_hash, e);
  }
  const list = keys.flatMap((k) => {
    const e = bySide.get(k.msg_hash);
    const r = e?.out ?? e?.in;
    if (!r) return [];
    const m = messageOf(r, contents);
    m.inMsgTxHash = e?.in?.tx_hash;
    m.outMsgTxHash = e?.out?.tx_hash;
    return [m];
  });
  return create(MessagesResponseSchema, {
    messages: list,
    addressBook: bookOf(addresses, codes),
    nextCursor: nextCursor("messages", asc, p, keys, (k) => [k.lt, k.msg_hash]),
  });
}

/** Out messages have created_lt = the sending transaction's lt + 1…255 (at most 255 actions). */
const MAX_OUT_LT_OFFSET = 256n;

/**
 * The rows of messages one account sent: the out side as one key range of `transaction_messages`
 * (the sender's transactions, bounded by the messages' created_lt), the in side (which transaction
 * received each) by hash with the few columns it needs.
 */
async function sentRows(store: Store, sender: string, keys: readonly { msg_hash: string; lt: string }[]): Promise<MessageRow[]> {
  const lts = keys.map((k) => BigInt(k.lt));
  const hi = lts.reduce((a, b) => (a > b ? a : b));
  const lo = lts.reduce((a, b) => (a < b ? a : b)) - MAX_OUT_LT_OFFSET;
  const h = keys.map((k) => k.msg_hash);
  const [out, received] = await Promise.all([
    select<MessageRow>(
      store,
      `SELECT * EXCEPT tx_account FROM transaction_messages
       WHERE tx_account = {a:String} AND tx_lt BETWEEN {lo:UInt64} AND {hi:UInt64} AND direction = 'out' AND msg_hash IN {h:Array(String)} ${ONCE_BY.messages}`,
      { a: sender, lo: lo < 0n ? 0n : lo, hi, h },
    ),
    select<Pick<MessageRow, "msg_hash" | "tx_hash" | "direction">>(
      store,
      `SELECT msg_hash, tx_hash, direction FROM messages WHERE msg_hash IN {h:Array(String)} AND direction = 'in' ${ONCE_BY.messages}`,
      { h },
    ),
  ]);
  const bySender = new Map(out.map((r) => [r.msg_hash, r]));
  // the in side needs only its transaction hash; the rest of a message is the same on both sides
  return [...out, ...received.flatMap((r) => (bySender.has(r.msg_hash) ? [{ ...bySender.get(r.msg_hash)!, tx_hash: r.tx_hash, direction: "in" as const }] : []))];
}
