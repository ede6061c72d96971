// Reading message bodies the way toncenter's Python reads them (pytoniq): raw upper-case addresses,
// snake bytes, payload BoCs with CRC32, UTF-8 with backslash escapes for bad bytes.
import { Address, Cell, type Slice } from "@ton/core";

const cellCache = new WeakMap<object, Cell>();

/** The body cell of a base64 BoC (throws on an empty or invalid BoC). */
export function parseBoc(boc: string): Cell {
  return Cell.fromBase64(boc);
}

/** A body's slice, parsed once per message object. */
export function bodyCell(msg: { body: string }): Cell {
  let c = cellCache.get(msg);
  if (!c) {
    c = parseBoc(msg.body);
    cellCache.set(msg, c);
  }
  return c;
}

export function bodySlice(msg: { body: string }): Slice {
  return bodyCell(msg).beginParse();
}

/** "<wc>:<HEX>" of an address; null for none. */
export function rawAddress(a: Address | null | undefined): string | null {
  if (!a) return null;
  return `${a.workChain}:${a.hash.toString("hex").toUpperCase()}`;
}

/** Parses "<wc>:<hex>" or a friendly address into the raw upper-case form. */
export function normalizeAddress(s: string): string {
  return rawAddress(Address.parse(s))!;
}

/**
 * MsgAddress as pytoniq's load_address reads it: addr_none → null, addr_std → the address,
 * addr_extern → null (its bits skipped), addr_var → an error.
 */
export function loadAnyAddress(s: Slice): string | null {
  const a = s.loadAddressAny();
  if (a === null) return null;
  if (Address.isAddress(a)) return rawAddress(a);
  return null;
}

/** Snake bytes: the slice's remaining bytes, then its first reference's, and so on. */
export function loadSnakeBytes(s: Slice): Buffer {
  const parts: Buffer[] = [];
  let cur: Slice | null = s;
  while (cur) {
    const bits = cur.remainingBits;
    if (bits % 8 !== 0) throw new Error("snake data is not whole bytes");
    parts.push(cur.loadBuffer(bits / 8));
    cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : null;
  }
  return Buffer.concat(parts);
}

/** A cell as a BoC with CRC32 and no index, base64: how toncenter stores payloads. */
export function cellToBoc(c: Cell): string {
  return c.toBoc({ idx: false, crc32: true }).toString("base64");
}

/** The rest of a slice as a cell. */
export function sliceToCell(s: Slice): Cell {
  return s.asCell();
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** UTF-8 text; bytes that are not UTF-8 become "\xNN" (Python's errors="backslashreplace"). */
export function decodeUtf8Lenient(b: Uint8Array): string {
  try {
    return strictUtf8.decode(b);
  } catch {
    let out = "";
    let i = 0;
    while (i < b.length) {
      const len = validSequenceLength(b, i);
      if (len > 0) {
        out += strictUtf8.decode(b.subarray(i, i + len));
        i += len;
      } else {
        out += "\\x" + b[i].toString(16).padStart(2, "0");
        i++;
      }
    }
    return out;
  }
}

function validSequenceLength(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c < 0x80) return 1;
  let n: number;
  let min: number;
  if (c >= 0xc2 && c <= 0xdf) {
    n = 2;
    min = 0x80;
  } else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    min = 0x800;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    min = 0x10000;
  } else return 0;
  if (i + n > b.length) return 0;
  let cp = c & (0xff >> (n + 1));
  for (let k = 1; k < n; k++) {
    const x = b[i + k];
    if ((x & 0xc0) !== 0x80) return 0;
    cp = (cp << 6) | (x & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return n;
}

/** A comment's text as toncenter stores it: lenient UTF-8 without NUL characters. */
export function commentText(b: Uint8Array): string {
  return decodeUtf8Lenient(b).replaceAll("\u0000", "");
}
