// /messages: one object per message (an internal message is stored once per side), with the
// transactions that sent and received it; and the store's plain read of the messages an account sent.
import { create } from "@bufbuild/protobuf";
import { type GetMessagesRequest, type MessagesResponse, MessagesResponseSchema } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import type { MessageRow } from "../../rows/types.js";
import { b64Hash, isAsc, nextCursor, opcodeOf, pageOf, rawAddress } from "../params.js";
import { select, type Store, Where } from "../sql.js";
import { messageOf } from "./models.js";
import { contentsOf, messagesByHash } from "./parts.js";

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
  // messages_by_source also names the transactions of both sides (migrations/0004)
  const sides = from === "messages_by_source" ? ", out_tx_hash, out_tx_lt, in_tx_hash" : "";
  const keys = await select<MessageKey>(
    store,
    `SELECT msg_hash, ${from === "messages" ? `max(${lt})` : lt} AS lt${sides} FROM ${from} FINAL ${w.sql}
     ${from === "messages" ? "GROUP BY msg_hash" : ""}
     ORDER BY lt ${dir}, msg_hash ${dir}
     LIMIT ${w.param("UInt32", p.limit)} OFFSET ${w.param("UInt32", p.offset)}`,
    w.params,
  );
  const sender = sides && req.source !== undefined ? rawAddress(req.source) : undefined;
  const rows = !keys.length ? [] : sender ? await sentRows(store, sender, keys) : await messagesByHash(store, keys.map((k) => k.msg_hash));
  const contents = await contentsOf(store, rows);
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
  return create(MessagesResponseSchema, { messages: list, nextCursor: nextCursor("messages", asc, p, keys, (k) => [k.lt, k.msg_hash]) });
}

/** A page's key: the message, its created_lt, and from messages_by_source its transactions ('' / "0": not stored). */
interface MessageKey {
  msg_hash: string;
  lt: string;
  out_tx_hash?: string;
  out_tx_lt?: string;
  in_tx_hash?: string;
}

/**
 * The rows of messages one account sent, without a lookup by message hash: the out side from the
 * `messages` column of the sending transactions (one key range of the sender in `transactions`),
 * the in side from the receiving transaction's hash that the key carries (the rest of a message is
 * the same on both sides). Messages whose sending transaction is not indexed, or stored before
 * migrations/0004, are read by hash.
 */
async function sentRows(store: Store, sender: string, keys: readonly MessageKey[]): Promise<MessageRow[]> {
  const lts = [...new Set(keys.flatMap((k) => (k.out_tx_lt && k.out_tx_lt !== "0" ? [BigInt(k.out_tx_lt)] : [])))];
  const txs = lts.length
    ? await select<{ messages: string }>(store, "SELECT messages FROM transactions FINAL WHERE account = {a:String} AND lt IN {lt:Array(UInt64)}", { a: sender, lt: lts })
    : [];
  const wanted = new Set(keys.map((k) => k.msg_hash));
  const out = new Map<string, MessageRow>();
  for (const t of txs) {
    if (!t.messages) continue;
    for (const r of JSON.parse(t.messages) as MessageRow[]) if (r.direction === "out" && wanted.has(r.msg_hash)) out.set(r.msg_hash, r);
  }
  const rest = keys.filter((k) => !out.has(k.msg_hash)).map((k) => k.msg_hash);
  const rows = rest.length ? await messagesByHash(store, rest) : [];
  for (const k of keys) {
    const r = out.get(k.msg_hash);
    if (!r) continue;
    rows.push(r);
    if (k.in_tx_hash) rows.push({ ...r, tx_hash: k.in_tx_hash, direction: "in" });
  }
  return rows;
}

/** Messages sent by an account (both stored sides of each message), newest first. */
export function messagesBySource(store: Store, source: string, opts: { limit?: number; offset?: number } = {}): Promise<MessageRow[]> {
  return select<MessageRow>(
    store,
    `SELECT * FROM messages FINAL
     WHERE msg_hash IN (
       SELECT msg_hash FROM messages_by_source FINAL WHERE source = {source:String}
       ORDER BY created_lt DESC, msg_hash DESC LIMIT {limit:UInt32} OFFSET {offset:UInt32})
     ORDER BY created_lt DESC, msg_hash DESC, direction`,
    { source, limit: opts.limit ?? 10, offset: opts.offset ?? 0 },
  );
}
