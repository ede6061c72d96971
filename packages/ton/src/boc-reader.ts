// The one reader of bags of cells that come from clients: it refuses a BoC past its bounds
// before building a single cell. The header gives the number of cells and roots, so a
// million-cell BoC is refused after reading 30 bytes; the depth is computed from the cell
// records (references point forward, so one backward pass suffices, no recursion) before any
// cell is hashed. Only then are the cells built, each from its already built references.
//
// The format is TON's (crypto/tl/boc.tlb): serialized_boc#b5ee9c72 and the two older
// single-root magics @ton/core also reads (serialized_boc_idx#68ff65f3,
// serialized_boc_idx_crc32c#acc3a728). Absent cells are not accepted.
import { BitString, Cell } from "@ton/core";
import { crc32c } from "./boc.js";
import { formatCount as count } from "./format-error.js";
import { MAX_CELL_DEPTH, MAX_EXT_MSG_DEPTH, MAX_EXT_MSG_SIZE, MAX_MSG_CELLS } from "./limits.js";

/** One bound: the largest accepted value and where it comes from ("config param 43 max_msg_cells"). */
export interface BocBound {
  max: number;
  why?: string;
}

/** The bounds of one kind of BoC input; `depth` defaults to a cell's maximum depth (1024). */
export interface BocLimits {
  /** Bytes of the serialized BoC. */
  bytes?: BocBound;
  /** Cells in the bag, as its header counts them. */
  cells?: BocBound;
  /** Root cells; default exactly one. */
  roots?: BocBound;
  /** The depth of the deepest cell (a cell without references is 0 deep). */
  depth?: BocBound;
}

/** An inbound external message, as validators and liteservers take one (config param 43). */
export const EXTERNAL_MESSAGE_LIMITS: BocLimits = {
  bytes: { max: MAX_EXT_MSG_SIZE, why: "config param 43 max_ext_msg_size" },
  cells: { max: MAX_MSG_CELLS, why: "config param 43 max_msg_cells" },
  depth: { max: MAX_EXT_MSG_DEPTH, why: "config param 43 max_ext_msg_depth" },
};

/**
 * A BoC this reader does not accept. `bound` names the bound it is past, or is undefined when
 * the bytes are not a well-formed BoC. The message is a sentence fragment for "`param`: …".
 */
export class BocError extends Error {
  override readonly name = "BocError";
  constructor(
    message: string,
    readonly bound?: keyof BocLimits,
  ) {
    super(message);
  }
}

const MAGIC_GENERIC = 0xb5ee9c72;
const MAGIC_IDX = 0x68ff65f3;
const MAGIC_IDX_CRC32C = 0xacc3a728;

const ONE_ROOT: BocBound = { max: 1 };
const CELL_DEPTH: BocBound = { max: MAX_CELL_DEPTH, why: "the depth of a TON cell" };

function past(bound: keyof BocLimits, value: number, unit: string, b: BocBound): BocError {
  if (bound === "roots" && b.max === 1) return new BocError(`a BoC with one root cell is expected, it has ${value}`, bound);
  const why = b.why ? ` (${b.why})` : "";
  return new BocError(`${count(value)} ${unit}; at most ${count(b.max)} ${b.max === 1 ? "is" : "are"} accepted${why}`, bound);
}

const malformed = (what: string) => new BocError(`not a valid bag of cells: ${what}`);

interface Header {
  hasIdx: boolean;
  hasCrc: boolean;
  size: number;
  offBytes: number;
  cells: number;
  roots: number;
  absent: number;
  totalCellsSize: number;
  /** Where the root list begins (absent for the single-root magics, whose root is cell 0). */
  rootList: number | undefined;
  /** Where the cell records begin. */
  data: number;
}

/** The header, or undefined when `bytes` ends inside it. Throws on a wrong magic or field. */
function readHeader(bytes: Uint8Array): Header | undefined {
  if (bytes.length < 6) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = view.getUint32(0);
  let hasIdx: boolean, hasCrc: boolean, size: number;
  if (magic === MAGIC_GENERIC) {
    const b = bytes[4]!;
    hasIdx = (b & 0x80) !== 0;
    hasCrc = (b & 0x40) !== 0;
    if ((b & 0x18) !== 0) throw malformed("its flags are not zero");
    size = b & 7;
  } else if (magic === MAGIC_IDX || magic === MAGIC_IDX_CRC32C) {
    hasIdx = true;
    hasCrc = magic === MAGIC_IDX_CRC32C;
    size = bytes[4]!;
  } else {
    throw malformed(`it does not start with a BoC magic (b5ee9c72), it starts with ${Buffer.from(bytes.subarray(0, 4)).toString("hex")}`);
  }
  const offBytes = bytes[5]!;
  if (size < 1 || size > 4) throw malformed(`its size field is ${size}, 1 to 4 bytes are allowed`);
  if (offBytes < 1 || offBytes > 8) throw malformed(`its off_bytes field is ${offBytes}, 1 to 8 are allowed`);
  let p = 6;
  if (bytes.length < p + 3 * size + offBytes) return undefined;
  const uint = (n: number) => {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 256 + bytes[p++]!;
    return v;
  };
  const cells = uint(size);
  const roots = uint(size);
  const absent = uint(size);
  const totalCellsSize = uint(offBytes);
  const rootList = magic === MAGIC_GENERIC ? p : undefined;
  const data = p + (rootList !== undefined ? roots * size : 0) + (hasIdx ? cells * offBytes : 0);
  return { hasIdx, hasCrc, size, offBytes, cells, roots, absent, totalCellsSize, rootList, data };
}

/** The header's counts against the bounds: the check that costs nothing whatever the BoC's size. */
function checkCounts(h: Header, limits: BocLimits): void {
  const roots = limits.roots ?? ONE_ROOT;
  if (h.roots > roots.max) throw past("roots", h.roots, "root cells", roots);
  if (limits.cells && h.cells > limits.cells.max) throw past("cells", h.cells, "cells", limits.cells);
}

/** The header's counts against each other. */
function checkHeader(h: Header): void {
  if (h.roots < 1) throw malformed("it has no root cell");
  if (h.absent !== 0) throw malformed(`it has ${count(h.absent)} absent cells`);
  if (h.roots > h.cells) throw malformed(`it has ${count(h.roots)} roots but ${count(h.cells)} cells`);
}

/** The header if it is one, else undefined: a malformed header is reported after the bounds. */
function headerIfAny(bytes: Uint8Array): Header | undefined {
  try {
    return readHeader(bytes);
  } catch (e) {
    if (e instanceof BocError) return undefined;
    throw e;
  }
}

/** The size a BoC in base64 (or base64url) decodes to. */
function decodedSize(text: string): number {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x3d) end--; // '='
  return Math.floor((end * 3) / 4);
}

/** Enough base64 characters for the longest header (26 bytes). */
const HEADER_CHARS = 36;

/** The first HEADER_CHARS characters are base64 or base64url digits (no whitespace shifting the bytes). */
function plainBase64Prefix(text: string): boolean {
  if (text.length < HEADER_CHARS) return false;
  for (let i = 0; i < HEADER_CHARS; i++) {
    const c = text.charCodeAt(i);
    const digit = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f || c === 0x2d || c === 0x5f;
    if (!digit) return false;
  }
  return true;
}

/**
 * The root cells of a BoC given in base64 (or base64url), refused past `limits`: the counts from
 * its first 36 characters and the size from the text's length, before the rest is decoded.
 */
export function readBocBase64(text: string, limits: BocLimits): Cell[] {
  if (plainBase64Prefix(text)) {
    const h = headerIfAny(Buffer.from(text.slice(0, HEADER_CHARS), "base64"));
    if (h) checkCounts(h, limits);
  }
  if (limits.bytes) {
    const size = decodedSize(text);
    if (size > limits.bytes.max) throw past("bytes", size, "bytes", limits.bytes);
  }
  return readBoc(Buffer.from(text, "base64"), limits);
}

/**
 * The root cells of a BoC, refused past `limits` (one root and a depth of 1024 unless they say
 * otherwise) or when malformed, with a BocError whose message says which.
 */
export function readBoc(bytes: Uint8Array, limits: BocLimits): Cell[] {
  const early = headerIfAny(bytes);
  if (early) checkCounts(early, limits);
  if (limits.bytes && bytes.length > limits.bytes.max) throw past("bytes", bytes.length, "bytes", limits.bytes);
  const h = readHeader(bytes);
  if (!h) throw malformed(`its ${bytes.length} bytes end inside the header`);
  checkHeader(h);
  const end = h.data + h.totalCellsSize;
  if (bytes.length < end + (h.hasCrc ? 4 : 0)) throw malformed(`its header announces ${count(end + (h.hasCrc ? 4 : 0))} bytes, it has ${count(bytes.length)}`);
  if (h.hasCrc) {
    const stored = new DataView(bytes.buffer, bytes.byteOffset + end, 4).getUint32(0, true);
    if (crc32c(bytes.subarray(0, end)) !== stored) throw malformed("its CRC32-C does not match");
  }

  // The cell records: where each one's data is, its references, its depth.
  const n = h.cells;
  const dataStart = new Int32Array(n);
  const bitLength = new Int32Array(n);
  const refStart = new Int32Array(n + 1);
  const refs: number[] = [];
  const exotic = new Uint8Array(n);
  let p = h.data;
  const readIndex = () => {
    let v = 0;
    for (let i = 0; i < h.size; i++) v = v * 256 + bytes[p++]!;
    return v;
  };
  for (let i = 0; i < n; i++) {
    if (p + 2 > end) throw malformed(`its cell data ends in cell ${i} of ${count(n)}`);
    const d1 = bytes[p++]!;
    const d2 = bytes[p++]!;
    const refCount = d1 & 7;
    if (refCount > 4) throw malformed(`cell ${i} has ${refCount} references, at most 4 are allowed`);
    exotic[i] = (d1 & 8) !== 0 ? 1 : 0;
    if ((d1 & 16) !== 0) {
      // with_hashes: the stored hashes and depths (one of each per level, plus one) are skipped.
      const levels = 1 + ((d1 >> 5) & 1) + ((d1 >> 6) & 1) + ((d1 >> 7) & 1);
      p += levels * (32 + 2);
    }
    const dataBytes = (d2 + 1) >> 1;
    if (p + dataBytes + refCount * h.size > end) throw malformed(`its cell data ends in cell ${i} of ${count(n)}`);
    dataStart[i] = p;
    let bits = dataBytes * 8;
    if (d2 & 1) {
      // the last byte is completed with a 1 bit, then 0 bits
      const last = bytes[p + dataBytes - 1]!;
      if (last === 0) throw malformed(`cell ${i} has a padded last byte without its completion bit`);
      bits -= 1 + Math.log2(last & -last);
    }
    if (bits > 1023) throw malformed(`cell ${i} has ${bits} bits, at most 1023 are allowed`);
    bitLength[i] = bits;
    p += dataBytes;
    refStart[i] = refs.length;
    for (let r = 0; r < refCount; r++) {
      const to = readIndex();
      // references point forward (TON's order): this also rules out cycles
      if (to <= i || to >= n) throw malformed(`cell ${i} refers to cell ${to}, only cells ${i + 1} to ${n - 1} may follow it`);
      refs.push(to);
    }
  }
  refStart[n] = refs.length;

  // Depths, children first.
  const depthBound = limits.depth ?? CELL_DEPTH;
  const depth = new Int32Array(n);
  let deepest = 0;
  for (let i = n - 1; i >= 0; i--) {
    let d = 0;
    for (let r = refStart[i]!; r < refStart[i + 1]!; r++) d = Math.max(d, depth[refs[r]!]! + 1);
    depth[i] = d;
    if (d > deepest) deepest = d;
  }
  if (deepest > depthBound.max) throw past("depth", deepest, "cells deep", depthBound);

  const rootIndex: number[] = [];
  if (h.rootList === undefined) rootIndex.push(0);
  else {
    p = h.rootList;
    for (let i = 0; i < h.roots; i++) {
      const r = readIndex();
      if (r >= n) throw malformed(`root ${i} is cell ${r}, it has ${count(n)} cells`);
      rootIndex.push(r);
    }
  }

  // The cells, children first; @ton/core checks exotic cells as it builds them.
  const built: Cell[] = new Array<Cell>(n);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = n - 1; i >= 0; i--) {
    const start = dataStart[i]!;
    const bits = new BitString(Buffer.from(buffer.subarray(start, start + ((bitLength[i]! + 7) >> 3))), 0, bitLength[i]!);
    const cellRefs: Cell[] = [];
    for (let r = refStart[i]!; r < refStart[i + 1]!; r++) cellRefs.push(built[refs[r]!]!);
    try {
      built[i] = new Cell({ exotic: exotic[i] === 1, bits, refs: cellRefs });
    } catch (e) {
      throw malformed(`cell ${i}: ${(e as Error).message}`);
    }
  }
  return rootIndex.map((i) => built[i]!);
}
