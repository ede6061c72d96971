// TL-B building blocks shared by the message bodies and storages of every standard: the opcode
// check, bodies of one query_id, (Either Cell ^Cell) payloads kept as they were sent, the rest of a
// slice as a cell, and snake data (bytes spread over a cell and a chain of single refs).
import { Address, beginCell, Dictionary, type Builder, type Cell, type DictionaryValue, type Slice } from "@ton/core";
import { ContractDataError } from "./errors.js";

/** Reads the 32-bit opcode of constructor `name` (e.g. "jetton_transfer"), throwing if it is another. */
export function loadOpcode(s: Slice, opcode: number, name: string): void {
  if (s.remainingBits < 32) throw new ContractDataError(`${name}: the body is shorter than an opcode`);
  const got = s.loadUint(32);
  if (got !== opcode) throw new ContractDataError(`${name}: opcode 0x${hex32(got)} is not 0x${hex32(opcode)}`);
}

export const hex32 = (n: number) => n.toString(16).padStart(8, "0");

/** The body `name#opcode query_id:uint64`: its query_id. */
export function loadQueryIdOnly(s: Slice, opcode: number, name: string): bigint {
  loadOpcode(s, opcode, name);
  return s.loadUintBig(64);
}

export function storeQueryIdOnly(opcode: number, queryId: bigint): (b: Builder) => void {
  return (b) => b.storeUint(opcode, 32).storeUint(queryId, 64);
}

/** The rest of the slice (bits and refs) as a cell; the slice is left empty. */
export function loadRest(s: Slice): Cell {
  const rest = s.asCell();
  s.skip(s.remainingBits);
  while (s.remainingRefs > 0) s.loadRef();
  return rest;
}

/**
 * The rest of the slice (bits and refs) as a slice of its own; the slice is left empty. Cheaper
 * than loadRest where a body is read on every classification: no new cell, so no hash.
 */
export function loadRestSlice(s: Slice): Slice {
  const rest = s.clone();
  s.skip(s.remainingBits);
  while (s.remainingRefs > 0) s.loadRef();
  return rest;
}

/**
 * (Either Cell ^Cell) as it was sent: `cell` is the payload, `inRef` says whether it sat in a ref
 * (right) or was the rest of the cell (left). Keeping the side makes storing a loaded body give
 * the same cell.
 */
export interface EitherCell {
  cell: Cell;
  inRef: boolean;
  /** The sender left the Either bit out: `cell` is the rest of the body (refs only; toncenter's forward_payload:Any). */
  bitless?: true;
}

export function loadEitherCell(s: Slice): EitherCell {
  return s.loadBit() ? { cell: s.loadRef(), inRef: true } : { cell: loadRest(s), inRef: false };
}

export function storeEitherCell(src: EitherCell): (b: Builder) => void {
  return (b) => {
    if (src.bitless) b.storeSlice(src.cell.beginParse());
    else if (src.inRef) b.storeBit(1).storeRef(src.cell);
    else b.storeBit(0).storeSlice(src.cell.beginParse());
  };
}

/**
 * A trailing (Either Cell ^Cell) that senders may leave out: null when the body ends before its bit
 * (the standard contracts read that as an empty payload); a bitless payload when only refs are left.
 */
export function loadOptionalEitherCell(s: Slice): EitherCell | null {
  if (s.remainingBits > 0) return loadEitherCell(s);
  return s.remainingRefs === 0 ? null : { cell: loadRest(s), inRef: false, bitless: true };
}

export function storeOptionalEitherCell(src: EitherCell | null): (b: Builder) => void {
  return (b) => {
    if (src) b.store(storeEitherCell(src));
  };
}

/**
 * Snake data: the whole bytes of the cell, then of its only ref, and so on. Throws when a cell
 * holds a partial byte or more than one ref (then it is not snake data, as tonlib decides).
 */
export function loadSnakeBytes(s: Slice): Buffer {
  const parts: Buffer[] = [];
  for (let cur: Slice | null = s; cur; ) {
    if (cur.remainingBits % 8 !== 0 || cur.remainingRefs > 1) throw new ContractDataError("not snake data: a cell holds a partial byte or more than one ref");
    parts.push(cur.loadBuffer(cur.remainingBits / 8));
    cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : null;
  }
  return Buffer.concat(parts);
}

/** Snake data as the common SDKs write it: as many bytes as fit in the builder, then 127 per ref. */
export function storeSnakeBytes(bytes: Buffer): (b: Builder) => void {
  return (b) => {
    const here = Math.min(bytes.length, Math.floor(b.availableBits / 8));
    b.storeBuffer(bytes.subarray(0, here));
    if (here < bytes.length) b.storeRef(beginCell().store(storeSnakeBytes(bytes.subarray(here))).endCell());
  };
}

/** An int1 -1 value: dictionaries used as sets (v5 extensions, vesting whitelist). */
export const TRUE_BIT: DictionaryValue<true> = {
  serialize: (_, b) => {
    b.storeInt(-1, 1);
  },
  parse: () => true,
};

/** workchain:int8 ++ hash:bits256 keys (v4 plugins, the vesting whitelist) as addresses. */
export const ADDRESS_KEY = {
  bits: 264,
  serialize: (a: Address) => BigInt(`0x${Buffer.concat([Buffer.from([a.workChain & 0xff]), a.hash]).toString("hex")}`),
  parse: (k: bigint) => {
    const raw = Buffer.from(k.toString(16).padStart(66, "0"), "hex");
    return new Address(raw.readInt8(0), raw.subarray(1));
  },
};

/** A HashmapE keyed by ADDRESS_KEY, as the list of its addresses in key order. */
export function loadAddressSet(s: Slice, value: DictionaryValue<true>): Address[] {
  return [...s.loadDict(Dictionary.Keys.BigUint(ADDRESS_KEY.bits), value).keys()].map(ADDRESS_KEY.parse);
}

export function storeAddressSet(addresses: Address[], value: DictionaryValue<true>): (b: Builder) => void {
  const dict = Dictionary.empty(Dictionary.Keys.BigUint(ADDRESS_KEY.bits), value);
  for (const a of addresses) dict.set(ADDRESS_KEY.serialize(a), true);
  return (b) => b.storeDict(dict);
}
