// @ton/core's BitReader reads every integer bit by bit into a BigInt (`_preloadUint`, `_preloadInt`,
// and an unaligned `_preloadBuffer` byte by byte through it): the largest item of the block → rows
// profile after the indexer's lazy BoC reader. These replacements read whole bytes; results and errors are
// the same (test/fast-bits.test.ts compares them with the originals on every length and offset).
import { BitReader } from "@ton/core";

interface BitStringInternals {
  _data: Buffer;
  _offset: number;
  _length: number;
}
interface ReaderInternals {
  _bits: BitStringInternals;
  _preloadUint(bits: number, offset: number): bigint;
}

/** `bits` (≤ 32) from absolute bit position `pos` of `data`, as a number. */
function readSmall(data: Buffer, pos: number, bits: number): number {
  let v = 0;
  while (bits > 0) {
    const shift = pos & 7;
    const take = Math.min(bits, 8 - shift);
    v = v * (1 << take) + ((data[pos >> 3]! >> (8 - shift - take)) & ((1 << take) - 1));
    pos += take;
    bits -= take;
  }
  return v;
}

// the errors BitString.at (integers) and BitString.subbuffer (buffers) throw
function checkBits(s: BitStringInternals, offset: number, bits: number): void {
  if (offset < 0) throw new Error(`Index ${offset} < 0 is out of bounds`);
  if (offset + bits > s._length) throw new Error(`Index ${Math.max(offset, s._length)} > ${s._length} is out of bounds`);
}

function checkBytes(s: BitStringInternals, offset: number, bits: number): void {
  if (offset > s._length || offset < 0) throw new Error(`Offset ${offset} is out of bounds`);
  if (offset + bits > s._length) throw new Error(`Offset + Length = ${offset + bits} is out of bounds`);
}

function preloadUint(this: ReaderInternals, bits: number, offset: number): bigint {
  if (bits === 0) return 0n;
  const s = this._bits;
  checkBits(s, offset, bits);
  let pos = s._offset + offset;
  if (bits <= 32) return BigInt(readSmall(s._data, pos, bits));
  let v = 0n;
  let left = bits;
  while (left > 0) {
    const take = Math.min(32, left);
    v = (v << BigInt(take)) | BigInt(readSmall(s._data, pos, take));
    pos += take;
    left -= take;
  }
  return v;
}

function preloadInt(this: ReaderInternals, bits: number, offset: number): bigint {
  if (bits === 0) return 0n;
  const u = this._preloadUint(bits, offset);
  return u >= 1n << BigInt(bits - 1) ? u - (1n << BigInt(bits)) : u;
}

function preloadBuffer(this: ReaderInternals, bytes: number, offset: number): Buffer {
  const s = this._bits;
  checkBytes(s, offset, bytes * 8);
  const pos = s._offset + offset;
  if ((pos & 7) === 0) return s._data.subarray(pos >> 3, (pos >> 3) + bytes); // a view, as the original
  const out = Buffer.allocUnsafe(bytes);
  for (let i = 0; i < bytes; i++) out[i] = readSmall(s._data, pos + i * 8, 8);
  return out;
}

let installed = false;

const proto = BitReader.prototype as unknown as Record<string, unknown>;
/** @ton/core's own reads, as they were when this module was loaded (tests compare against them). */
export const originalBitReads = { uint: proto._preloadUint, int: proto._preloadInt, buffer: proto._preloadBuffer } as {
  uint: (bits: number, offset: number) => bigint;
  int: (bits: number, offset: number) => bigint;
  buffer: (bytes: number, offset: number) => Buffer;
};

/** Replaces BitReader's integer and buffer reads with byte-wise ones (process-wide, idempotent). */
export function installFastBitReader(): void {
  if (installed) return;
  proto._preloadUint = preloadUint;
  proto._preloadInt = preloadInt;
  proto._preloadBuffer = preloadBuffer;
  installed = true;
}
