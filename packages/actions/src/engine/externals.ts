// The messages a wallet's external-in asked it to send, read back from the external's body
// (wallet v3, v4, v5r1 layouts, tried in that order). A failed external sent nothing, so these
// "ghost" messages are all there is to say what the user tried to do.
import { beginCell, type Cell, type Slice } from "@ton/core";
import { loadAnyAddress, parseBoc } from "./cells.js";

export interface WalletPayload {
  /** base64 hash of the whole relaxed message cell */
  hash: string;
  bounce: boolean;
  bounced: boolean;
  destination: string | null;
  value: bigint;
  ihrFee: bigint;
  fwdFee: bigint;
  body: Cell;
  /** the body's first 32 bits, unsigned; null when shorter */
  opcode: number | null;
}

function skipCurrencyCollection(s: Slice, withExtra: boolean): bigint {
  const grams = s.loadCoins();
  if (withExtra) s.loadMaybeRef();
  return grams;
}

function skipStateInit(s: Slice): void {
  // split_depth:(Maybe (## 5)) special:(Maybe TickTock) code:(Maybe ^Cell) data:(Maybe ^Cell) library:(Maybe ^Cell)
  if (s.loadBit()) s.loadUint(5);
  if (s.loadBit()) s.loadUint(2);
  s.loadMaybeRef();
  s.loadMaybeRef();
  s.loadMaybeRef();
}

function readInfo(s: Slice, withExtra: boolean) {
  if (s.loadBit()) throw new Error("not an internal message");
  const ihrDisabled = s.loadBit();
  void ihrDisabled;
  const bounce = s.loadBit();
  const bounced = s.loadBit();
  loadAnyAddress(s);
  const destination = loadAnyAddress(s);
  const value = skipCurrencyCollection(s, withExtra);
  const ihrFee = s.loadCoins();
  const fwdFee = s.loadCoins();
  s.loadUintBig(64);
  s.loadUint(32);
  return { bounce, bounced, destination, value, ihrFee, fwdFee };
}

/** A MessageRelaxed with an internal info; null when the info is not internal. */
function readPayload(cell: Cell): WalletPayload | null {
  let s = cell.beginParse();
  if (s.preloadBit()) return null;
  let info;
  try {
    info = readInfo(s, true);
  } catch {
    s = cell.beginParse();
    info = readInfo(s, false);
  }
  if (s.loadBit()) {
    if (s.loadBit()) skipStateInit(s.loadRef().beginParse());
    else skipStateInit(s);
  }
  const body = s.loadBit() ? s.loadRef() : beginCell().storeSlice(s).endCell();
  let opcode: number | null = null;
  const bs = body.beginParse();
  if (bs.remainingBits >= 32) opcode = bs.loadUint(32) >>> 0;
  return { hash: cell.hash().toString("base64"), ...info, body, opcode };
}

function v3(s: Slice): (WalletPayload | null)[] {
  s.skip(512 + 32 + 32 + 32);
  const out: (WalletPayload | null)[] = [];
  while (s.remainingRefs > 0) out.push(readPayload(s.loadRef()));
  return out;
}

function v4(s: Slice): (WalletPayload | null)[] {
  s.skip(512 + 32 + 32 + 32 + 8);
  const out: (WalletPayload | null)[] = [];
  while (s.remainingRefs > 0) out.push(readPayload(s.loadRef()));
  return out;
}

function v5r1(s: Slice): (WalletPayload | null)[] {
  s.skip(32 + 32 + 32 + 32);
  const out: (WalletPayload | null)[] = [];
  let cur = s.loadMaybeRef();
  while (cur) {
    const a = cur.beginParse();
    if (a.remainingBits === 0) break;
    cur = a.loadRef();
    out.push(readPayload(a.loadRef()));
  }
  return out;
}

/** The payloads of a wallet external-in body (base64 BoC); [] when it is no wallet's. */
export function walletPayloads(bodyBoc: string): (WalletPayload | null)[] {
  let cell: Cell;
  try {
    cell = parseBoc(bodyBoc);
  } catch {
    return [];
  }
  for (const layout of [v3, v4, v5r1]) {
    try {
      return layout(cell.beginParse());
    } catch {
      // not this layout
    }
  }
  return [];
}
