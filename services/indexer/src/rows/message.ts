// Messages of a transaction → MessageRow + MessageContentRow (bodies and StateInits stored once by hash).
import { type Cell, type Message, type StateInit, beginCell, loadCommonMessageInfo, loadStateInit } from "@ton/core";
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
 * TEP-467 normalised hash of an external-in message: ext_in_msg_info$10 src:addr_none
 * dest import_fee:0, init:nothing, body always as a reference.
 */
export function normalizedExternalHash(msg: Message): string | null {
  if (msg.info.type !== "external-in") return null;
  const c = beginCell()
    .storeUint(0b10, 2)
    .storeUint(0, 2)
    .storeAddress(msg.info.dest)
    .storeCoins(0)
    .storeBit(false)
    .storeBit(true)
    .storeRef(msg.body)
    .endCell();
  return b64(c.hash());
}

export function messageRow(p: ParsedMessage, tx: { hash: string; lt: string }, direction: "in" | "out"): MessageRow {
  const { msg, cell, initCell } = p;
  const info = msg.info;
  const base = {
    msg_hash: cellHash(cell),
    tx_hash: tx.hash,
    tx_lt: tx.lt,
    direction,
    opcode: bodyOpcode(msg.body),
    body_hash: cellHash(msg.body),
    init_state_hash: initCell ? cellHash(initCell) : null,
  };
  if (info.type === "internal") {
    return {
      ...base,
      source: rawOf(info.src),
      destination: rawOf(info.dest),
      value: info.value.coins.toString(),
      value_extra_currencies: extraCurrencies(info.value),
      fwd_fee: info.forwardFee.toString(),
      ihr_fee: info.ihrFee.toString(),
      extra_flags: info.ihrFee.toString(),
      created_lt: info.createdLt.toString(),
      created_at: info.createdAt,
      ihr_disabled: info.ihrDisabled,
      bounce: info.bounce,
      bounced: info.bounced,
      import_fee: null,
      hash_norm: null,
    };
  }
  if (info.type === "external-in") {
    return {
      ...base,
      source: null,
      destination: rawOf(info.dest),
      value: null,
      value_extra_currencies: {},
      fwd_fee: null,
      ihr_fee: null,
      extra_flags: null,
      created_lt: null,
      created_at: null,
      ihr_disabled: null,
      bounce: null,
      bounced: null,
      import_fee: info.importFee.toString(),
      hash_norm: normalizedExternalHash(msg),
    };
  }
  return {
    ...base,
    source: rawOf(info.src),
    destination: null,
    value: null,
    value_extra_currencies: {},
    fwd_fee: null,
    ihr_fee: null,
    extra_flags: null,
    created_lt: info.createdLt.toString(),
    created_at: info.createdAt,
    ihr_disabled: null,
    bounce: null,
    bounced: null,
    import_fee: null,
    hash_norm: null,
  };
}

export function messageContents(p: ParsedMessage): MessageContentRow[] {
  const out: MessageContentRow[] = [{ hash: cellHash(p.msg.body), boc: bocB64(p.msg.body) }];
  if (p.initCell) out.push({ hash: cellHash(p.initCell), boc: bocB64(p.initCell) });
  return out;
}
