// Messages of a transaction → MessageRow + MessageContentRow (bodies and StateInits stored once by hash).
import { type Cell, type Message, type StateInit, beginCell, loadCommonMessageInfo, loadStateInit } from "@ton/core";
import { normalizedHash } from "@tongate/ton";
import { restCell } from "./boc.js";
import { forEachLeaf } from "./hashmap.js";
import type { MessageContentRow, MessageRow } from "./types.js";
import { bocB64, b64, cellHash, extraCurrencies, rawOf } from "./util.js";

/** The message cells of a raw transaction cell: `^[ in_msg:(Maybe ^Message) out_msgs:(HashmapE 15 ^Message) ]`. */
export function transactionMessageCells(txCell: Cell): { inMsg: Cell | null; outMsgs: Cell[] } {
  // transaction$0111 ... orig_status end_status ^[in_msg out_msgs] ...: the first reference of the tx cell.
  const s = txCell.refs[0].beginParse();
  const inMsg = s.loadMaybeRef();
  const outMsgs: Cell[] = [];
  if (s.loadBit()) forEachLeaf(s.loadRef().beginParse(), 15, (leaf) => void outMsgs.push(leaf.loadRef()));
  return { inMsg, outMsgs };
}

/** The body and StateInit cells of a message cell as @ton/core reads them (body inline → a cell of the remaining bits/refs). */
export interface ParsedMessage {
  cell: Cell;
  msg: Message;
  initCell: Cell | null;
}

/** A message cell as @ton/core's loadMessage reads it, and the exact cell of its StateInit. */
export function parseMessageCell(cell: Cell): ParsedMessage {
  const s = cell.beginParse();
  const info = loadCommonMessageInfo(s);
  // init:(Maybe (Either StateInit ^StateInit)): inline → the cell of its bits/refs
  let init: StateInit | null = null;
  let initCell: Cell | null = null;
  if (s.loadBit()) {
    if (s.loadBit()) {
      initCell = s.loadRef();
      init = loadStateInit(initCell.beginParse());
    } else {
      const start = s.clone();
      const [bits, refs] = [s.remainingBits, s.remainingRefs];
      init = loadStateInit(s);
      const b = beginCell().storeBits(start.loadBits(bits - s.remainingBits));
      for (let i = 0; i < refs - s.remainingRefs; i++) b.storeRef(start.loadRef());
      initCell = b.endCell();
    }
  }
  // body:(Either X ^X)
  const body = s.loadBit() ? s.loadRef() : restCell(s);
  return { cell, msg: { info, init, body }, initCell };
}

/** Signed int32 of the first 32 bits of a body (toncenter's `opcode` column), null if shorter. */
export function bodyOpcode(body: Cell): number | null {
  const s = body.beginParse(true);
  if (s.remainingBits < 32) return null;
  return s.loadInt(32);
}

/**
 * One object literal for every message type, never `{ ...base, ... }`: V8 copies a spread of this
 * size through a slow path (~30 µs a row, most of the parse time) and leaves an object that is
 * slower to clone and to serialise.
 */
export function messageRow(p: ParsedMessage, tx: { hash: string; lt: string }, direction: "in" | "out"): MessageRow {
  const { msg, cell, initCell } = p;
  const info = msg.info;
  const int = info.type === "internal" ? info : null;
  return {
    msg_hash: cellHash(cell),
    tx_hash: tx.hash,
    tx_lt: tx.lt,
    direction,
    opcode: bodyOpcode(msg.body),
    body_hash: cellHash(msg.body),
    init_state_hash: initCell ? cellHash(initCell) : null,
    source: info.type === "external-in" ? null : rawOf(info.src),
    destination: info.type === "external-out" ? null : rawOf(info.dest),
    value: int ? int.value.coins.toString() : null,
    value_extra_currencies: int ? extraCurrencies(int.value) : {},
    fwd_fee: int ? int.forwardFee.toString() : null,
    ihr_fee: int ? int.ihrFee.toString() : null,
    extra_flags: int ? int.ihrFee.toString() : null,
    created_lt: info.type === "external-in" ? null : info.createdLt.toString(),
    created_at: info.type === "external-in" ? null : info.createdAt,
    ihr_disabled: int ? int.ihrDisabled : null,
    bounce: int ? int.bounce : null,
    bounced: int ? int.bounced : null,
    import_fee: info.type === "external-in" ? info.importFee.toString() : null,
    hash_norm: info.type === "external-in" ? b64(normalizedHash(msg)) : null,
  };
}

export function messageContents(p: ParsedMessage): MessageContentRow[] {
  const out: MessageContentRow[] = [{ hash: cellHash(p.msg.body), boc: bocB64(p.msg.body) }];
  if (p.initCell) out.push({ hash: cellHash(p.initCell), boc: bocB64(p.initCell) });
  return out;
}

/** Message rows by the hash of their transaction, each list in the rows' order. */
export function messagesByTransaction(messages: Iterable<MessageRow>): Map<string, MessageRow[]> {
  const byTx = new Map<string, MessageRow[]>();
  for (const m of messages) {
    const list = byTx.get(m.tx_hash);
    if (list) list.push(m);
    else byTx.set(m.tx_hash, [m]);
  }
  return byTx;
}
