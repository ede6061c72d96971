// Bags of cells written byte by byte (TON's boc serialization, `serialized_boc#b5ee9c72`), for the
// inputs @ton/core refuses to build or would build too slowly: chains 100,000 cells deep, headers
// that declare a million cells, cells that reference an earlier cell (a cycle), exotic cells with
// hashes that do not match, sizes and offsets that point past the end.
import { crc32c } from "@ton/core";

/** One cell as serialized: its data bits, its refs (indices into the bag) and its descriptor flags. */
export interface RawCell {
  /** Data, `bitLength` bits of it (default: all of `data`'s bytes). */
  data?: Buffer;
  bitLength?: number;
  refs?: number[];
  exotic?: boolean;
  levelMask?: number;
}

export interface RawBocOptions {
  roots?: number[];
  /** Bytes of a cell index (1–4; default: the fewest that hold the count). */
  refSize?: number;
  /** Bytes of an offset (1–8; default: the fewest that hold the data size). */
  offSize?: number;
  /** Header fields written as given, whatever the bag holds. */
  declaredCells?: number;
  declaredRoots?: number;
  declaredAbsent?: number;
  declaredTotalSize?: bigint;
  /** Write the index of cell offsets (has_idx). */
  index?: boolean;
  /** Append the CRC32-C (has_crc32c); "wrong" appends one that does not match. */
  crc?: boolean | "wrong";
  /** Cut the bag to this many bytes. */
  truncateTo?: number;
}

const bytesFor = (n: number | bigint) => {
  let b = 1;
  while (BigInt(n) >= 1n << BigInt(8 * b)) b++;
  return b;
};

/** The bytes of one serialized cell: its descriptors, its data (with the completion tag when its bits do not fill a byte), its refs. */
function cellSize(c: RawCell, refSize: number): number {
  return 2 + Math.ceil((c.bitLength ?? (c.data?.length ?? 0) * 8) / 8) + (c.refs?.length ?? 0) * refSize;
}

const EMPTY = Buffer.alloc(0);

function writeCell(out: Buffer, at: number, c: RawCell, refSize: number): number {
  const data = c.data ?? EMPTY;
  const bits = c.bitLength ?? data.length * 8;
  const refs = c.refs ?? [];
  out[at++] = (refs.length + (c.exotic ? 8 : 0) + 32 * (c.levelMask ?? 0)) & 0xff;
  out[at++] = (Math.ceil(bits / 8) + Math.floor(bits / 8)) & 0xff;
  const n = Math.ceil(bits / 8);
  data.copy(out, at, 0, n);
  if (bits % 8) {
    const keep = bits % 8;
    out[at + n - 1] = (out[at + n - 1]! & (0xff << (8 - keep))) | (1 << (7 - keep));
  }
  at += n;
  for (const r of refs) at = writeUint(out, at, r, refSize);
  return at;
}

function writeUint(out: Buffer, at: number, n: number | bigint, size: number): number {
  if (size === 0) return at;
  if (typeof n === "number" && size <= 6 && n < 2 ** (8 * size)) return out.writeUIntBE(n, at, size);
  let v = BigInt(n);
  for (let i = size - 1; i >= 0; i--) {
    out[at + i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return at + size;
}

/** The bag of `cells` (cell 0 the root unless `roots` says otherwise), its header as `o` says. */
export function rawBoc(cells: RawCell[], o: RawBocOptions = {}): Buffer {
  const roots = o.roots ?? [0];
  const refSize = o.refSize ?? bytesFor(Math.max(cells.length, 1));
  const sizes = cells.map((c) => cellSize(c, refSize));
  const total = sizes.reduce((n, s) => n + s, 0);
  const offSize = o.offSize ?? bytesFor(Math.max(total, 1));
  const head = 6 + 3 * refSize + offSize + roots.length * refSize + (o.index ? cells.length * offSize : 0);
  const out = Buffer.alloc(head + total + (o.crc ? 4 : 0));
  out.set([0xb5, 0xee, 0x9c, 0x72, (o.index ? 0x80 : 0) | (o.crc ? 0x40 : 0) | (refSize & 7), offSize]);
  let at = 6;
  at = writeUint(out, at, o.declaredCells ?? cells.length, refSize);
  at = writeUint(out, at, o.declaredRoots ?? roots.length, refSize);
  at = writeUint(out, at, o.declaredAbsent ?? 0, refSize);
  at = writeUint(out, at, o.declaredTotalSize ?? BigInt(total), offSize);
  for (const r of roots) at = writeUint(out, at, r, refSize);
  if (o.index) {
    let end = 0;
    for (const s of sizes) at = writeUint(out, at, (end += s), offSize);
  }
  for (const c of cells) at = writeCell(out, at, c, refSize);
  if (o.crc) {
    const crc = crc32c(out.subarray(0, at));
    if (o.crc === "wrong") crc[0]! ^= 0xff;
    crc.copy(out, at);
  }
  return o.truncateTo === undefined ? out : out.subarray(0, o.truncateTo);
}

/** A chain of `n` cells (n − 1 deep), each referencing the next; the last is empty. */
export function chainCells(n: number): RawCell[] {
  return Array.from({ length: n }, (_, i) => (i < n - 1 ? { refs: [i + 1] } : {}));
}

/** `levels` cells each referencing the next `width` times, then an empty one: width^levels paths. */
export function sharedCells(levels: number, width = 4): RawCell[] {
  return Array.from({ length: levels + 1 }, (_, i) => (i < levels ? { refs: Array(width).fill(i + 1) } : {}));
}

/** A full tree of `n` cells in breadth-first order, each with up to four refs and `bits` bits of data (≤ 1023). */
export function treeCells(n: number, bits = 0, fill = 0xa5): RawCell[] {
  const data = Buffer.alloc(Math.ceil(bits / 8), fill);
  return Array.from({ length: n }, (_, i) => ({
    data,
    bitLength: bits,
    refs: [1, 2, 3, 4].map((k) => 4 * i + k).filter((c) => c < n),
  }));
}
