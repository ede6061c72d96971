// Messages as wallets and multisigs carry them, ^(MessageRelaxed Any), and the OutList of send
// actions (wallet v5, highload v3). @ton/core reads them, but when storing it chooses by itself
// whether the StateInit and the body go inline or in a ref; the sender may have chosen otherwise.
// RelaxedMessage keeps those two choices, so a loaded message (and a body holding it) stores back
// to the same cell.
import {
  beginCell,
  loadCommonMessageInfoRelaxed,
  loadOutAction as loadCoreOutAction,
  loadStateInit,
  storeCommonMessageInfoRelaxed,
  storeOutAction as storeCoreOutAction,
  storeStateInit,
  type Builder,
  type Cell,
  type MessageRelaxed,
  type OutAction as CoreOutAction,
  type OutActionSendMsg,
  type Slice,
} from "@ton/core";
import { loadRest } from "./tlb.js";

export interface RelaxedMessage extends MessageRelaxed {
  /** The StateInit was in a ref; undefined: let the storer choose (@ton/core's rule). */
  initInRef?: boolean;
  /** The body was in a ref; undefined: let the storer choose. */
  bodyInRef?: boolean;
}

export function loadRelaxedMessage(s: Slice): RelaxedMessage {
  const info = loadCommonMessageInfoRelaxed(s);
  let init: MessageRelaxed["init"] = null;
  let initInRef: boolean | undefined;
  if (s.loadBit()) {
    initInRef = s.loadBit();
    init = loadStateInit(initInRef ? s.loadRef().beginParse() : s);
  }
  const bodyInRef = s.loadBit();
  const body = bodyInRef ? s.loadRef() : loadRest(s);
  return { info, init, body, ...(initInRef !== undefined && { initInRef }), bodyInRef };
}

export function storeRelaxedMessage(m: RelaxedMessage): (b: Builder) => void {
  return (b) => {
    b.store(storeCommonMessageInfoRelaxed(m.info));
    if (m.init) {
      const init = beginCell().store(storeStateInit(m.init));
      const inRef = m.initInRef ?? b.availableBits - 2 < init.bits;
      b.storeBit(1).storeBit(inRef);
      if (inRef) b.storeRef(init.endCell());
      else b.storeBuilder(init);
    } else b.storeBit(0);
    const body = m.body;
    const inRef = m.bodyInRef ?? (b.availableBits - 1 < body.bits.length || b.refs + body.refs.length > 4 || body.isExotic);
    if (inRef) b.storeBit(1).storeRef(body);
    else b.storeBit(0).storeSlice(body.beginParse());
  };
}

/** A message cell (^(MessageRelaxed Any)) read as a RelaxedMessage. */
export const relaxedMessageOf = (cell: Cell): RelaxedMessage => loadRelaxedMessage(cell.beginParse());
export const relaxedMessageCell = (m: RelaxedMessage): Cell => beginCell().store(storeRelaxedMessage(m)).endCell();

/** An RelaxedOutAction whose send_msg carries a RelaxedMessage. */
export type RelaxedOutAction = Exclude<CoreOutAction, OutActionSendMsg> | { type: "sendMsg"; mode: number; outMsg: RelaxedMessage };

const ACTION_SEND_MSG = 0x0ec3c86d;

export function loadRelaxedOutAction(s: Slice): RelaxedOutAction {
  if (s.remainingBits < 32 || s.preloadUint(32) !== ACTION_SEND_MSG) return loadCoreOutAction(s);
  s.skip(32);
  const mode = s.loadUint(8);
  return { type: "sendMsg", mode, outMsg: relaxedMessageOf(s.loadRef()) };
}

export function storeRelaxedOutAction(a: RelaxedOutAction): (b: Builder) => void {
  if (a.type !== "sendMsg") return storeCoreOutAction(a);
  return (b) => b.storeUint(ACTION_SEND_MSG, 32).storeUint(a.mode, 8).storeRef(relaxedMessageCell(a.outMsg));
}

/** out_list$_ prev:^(OutList n) action:RelaxedOutAction: the actions, first sent first. */
export function loadRelaxedOutList(s: Slice): RelaxedOutAction[] {
  const actions: RelaxedOutAction[] = [];
  for (let cur = s; cur.remainingRefs > 0; ) {
    const prev = cur.loadRef();
    actions.push(loadRelaxedOutAction(cur));
    cur = prev.beginParse();
  }
  return actions.reverse();
}

export function storeRelaxedOutList(actions: RelaxedOutAction[]): (b: Builder) => void {
  const list = actions.reduce((prev, a) => beginCell().storeRef(prev).store(storeRelaxedOutAction(a)).endCell(), beginCell().endCell());
  return (b) => b.storeSlice(list.beginParse());
}

export const relaxedOutListCell = (actions: RelaxedOutAction[]): Cell => beginCell().store(storeRelaxedOutList(actions)).endCell();
