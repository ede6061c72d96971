// A faster BoC reader for whole blocks, producing @ton/core Cells.
//
// @ton/core's Cell.fromBoc costs ~40 µs per cell (bit-by-bit copies of every cell's data into its
// representation, per-cell closures and freezes, garbage): 83 % of the block → rows time
// (bench/indexer-rows.ts). Here ordinary cells (any level: most of a block is its state update,
// above pruned branches) are built without the constructor: their data stays a view of the BoC
// buffer (a BoC stores exactly the padded bytes a cell's representation hashes) and each hash is
// one native SHA-256 of d1 d2 data-or-previous-hash depths hashes. Exotic cells (pruned branches,
// the Merkle update) go through @ton/core's constructor as before. The objects are real Cells
// (Cell.prototype, the same instance members @ton/core 0.63 sets); test/boc.test.ts checks every
// cell of the fixture blocks against Cell.fromBoc.
import * as nodeCrypto from "node:crypto";
import { createRequire } from "node:module";
import { BitReader, BitString, Cell, CellType, Slice } from "@ton/core";

const require = createRequire(import.meta.url);

// One-shot SHA-256 (crypto.hash, node ≥ 20.12) allocates no Hash object per call: with ~30,000
// hashes per block, the Hash objects' finalisation was most of the garbage collection time.
type OneShot = (alg: string, data: Buffer, enc: "buffer") => Buffer;
const oneShot = (nodeCrypto as unknown as { hash?: OneShot }).hash;
const sha256: (data: Buffer) => Buffer = oneShot
  ? (data) => oneShot("sha256", data, "buffer")
  : (data) => nodeCrypto.createHash("sha256").update(data).digest();
const { crc32c } = require("@ton/core/dist/utils/crc32c.js") as { crc32c: (src: Buffer) => Buffer };

interface LevelMaskLike {
  value: number;
  level: number;
  hashCount: number;
  apply(level: number): LevelMaskLike;
  isSignificant(level: number): boolean;
}
const { LevelMask } = require("@ton/core/dist/boc/cell/LevelMask.js") as { LevelMask: new (mask: number) => LevelMaskLike };
const MASKS = Array.from({ length: 8 }, (_, m) => Object.freeze(new LevelMask(m)));
const INSPECT = Symbol.for("nodejs.util.inspect.custom");

function readUint(buf: Buffer, at: number, bytes: number): number {
  let v = 0;
  for (let i = 0; i < bytes; i++) v = v * 256 + buf[at + i];
  return v;
}

function ordinaryCell(bits: BitString, refs: Cell[], mask: LevelMaskLike, hashes: Buffer[], depths: number[]): Cell {
  const cell = Object.create(Cell.prototype) as Cell & Record<string | symbol, unknown>;
  const last = hashes.length - 1;
  const level = mask.level;
  Object.assign(cell, {
    _hashes: hashes,
    _depths: depths,
    beginParse: (allowExotic = false) => {
      void allowExotic;
      return new Slice(new BitReader(bits), refs);
    },
    // as @ton/core: indexed by level, clamped to the last hash
    hash: (l = 3) => hashes[Math.min(last, l)],
    depth: (l = 3) => depths[Math.min(last, l)],
    level: () => level,
    equals: (other: Cell) => hashes[last].equals(other.hash()),
    [INSPECT]: () => cell.toString(),
    type: CellType.Ordinary,
    bits,
    refs,
    mask,
  });
  Object.freeze(hashes);
  Object.freeze(depths);
  Object.freeze(refs);
  Object.freeze(cell);
  return cell;
}

/**
 * Hashes and depths of an ordinary cell, as @ton/core's wonderCalculator (TON's DataCell): one per
 * significant level; level 0 hashes the data, a higher level the previous level's hash instead.
 */
function ordinaryHashes(src: Buffer, at: number, bytes: number, bitLen: number, refs: Cell[], mask: LevelMaskLike): { hashes: Buffer[]; depths: number[] } {
  const hashes: Buffer[] = [];
  const depths: number[] = [];
  const d2 = (bitLen >> 3) + ((bitLen + 7) >> 3);
  for (let level = 0; level <= mask.level; level++) {
    if (!mask.isSignificant(level)) continue;
    const dataLen = hashes.length === 0 ? bytes : 32;
    const repr = Buffer.allocUnsafe(2 + dataLen + refs.length * 34);
    repr[0] = refs.length + mask.apply(level).value * 32;
    repr[1] = d2;
    if (hashes.length === 0) src.copy(repr, 2, at, at + bytes);
    else hashes[hashes.length - 1].copy(repr, 2);
    let p = 2 + dataLen;
    let depth = 0;
    for (const r of refs) {
      const d = r.depth(level);
      repr[p++] = d >> 8;
      repr[p++] = d & 0xff;
      if (d + 1 > depth) depth = d + 1;
    }
    for (const r of refs) {
      r.hash(level).copy(repr, p);
      p += 32;
    }
    hashes.push(sha256(repr));
    depths.push(depth);
  }
  return { hashes, depths };
}

/** Cell.fromBoc for standard (b5ee9c72) BoCs, falling back to it for the other formats. */
export function cellsFromBoc(src: Buffer): Cell[] {
  if (src.length < 6 || src.readUInt32BE(0) !== 0xb5ee9c72) return Cell.fromBoc(src);
  const flags = src[4];
  const hasIdx = (flags & 0x80) !== 0;
  const hasCrc = (flags & 0x40) !== 0;
  const size = flags & 7;
  const offBytes = src[5];
  let at = 6;
  const count = readUint(src, at, size);
  const rootCount = readUint(src, (at += size), size);
  const absent = readUint(src, (at += size), size);
  const total = readUint(src, (at += size), offBytes);
  at += offBytes;
  if (absent !== 0) return Cell.fromBoc(src);
  const roots: number[] = [];
  for (let i = 0; i < rootCount; i++, at += size) roots.push(readUint(src, at, size));
  if (hasIdx) at += count * offBytes;
  const dataEnd = at + total;
  if (dataEnd + (hasCrc ? 4 : 0) !== src.length) throw new Error("BoC: bad size");
  if (hasCrc && !crc32c(src.subarray(0, dataEnd)).equals(src.subarray(dataEnd))) throw new Error("Invalid CRC32C");

  // Pass 1: cell layout.
  const d1s = new Uint8Array(count);
  const dataAt = new Uint32Array(count);
  const dataLen = new Uint16Array(count); // bytes
  const bitLen = new Uint16Array(count);
  const refIdx: number[][] = new Array(count);
  for (let i = 0; i < count; i++) {
    if (at + 2 > dataEnd) throw new Error("BoC: truncated");
    const d1 = src[at];
    const d2 = src[at + 1];
    at += 2;
    const refsCount = d1 & 7;
    if (refsCount > 4) throw new Error("BoC: bad refs count");
    if (d1 & 16) {
      const levelMask = d1 >> 5;
      const n = 1 + ((levelMask & 1) + ((levelMask >> 1) & 1) + ((levelMask >> 2) & 1));
      at += n * 34;
    }
    const bytes = (d2 + 1) >> 1;
    let bits = bytes * 8;
    if (d2 & 1) {
      const last = src[at + bytes - 1];
      if (last === 0) throw new Error("BoC: bad padding");
      bits -= 1 + Math.log2(last & -last);
    }
    if (bits > 1023) throw new Error(`Bits overflow: ${bits} > 1023`);
    d1s[i] = d1;
    dataAt[i] = at;
    dataLen[i] = bytes;
    bitLen[i] = bits;
    at += bytes;
    const refs: number[] = [];
    for (let r = 0; r < refsCount; r++, at += size) {
      const k = readUint(src, at, size);
      if (k <= i || k >= count) throw new Error("Invalid BOC file");
      refs.push(k);
    }
    refIdx[i] = refs;
  }
  if (at !== dataEnd) throw new Error("BoC: trailing data");

  // Pass 2: build from the last cell (children come after parents).
  const cells: Cell[] = new Array(count);
  for (let i = count - 1; i >= 0; i--) {
    const refs = refIdx[i].map((k) => cells[k]);
    const bits = new BitString(src, dataAt[i] * 8, bitLen[i]);
    const exotic = (d1s[i] & 8) !== 0;
    if (exotic) {
      cells[i] = new Cell({ bits, refs, exotic });
      continue;
    }
    let m = 0;
    for (const r of refs) m |= r.mask.value;
    const mask = MASKS[m];
    const { hashes, depths } = ordinaryHashes(src, dataAt[i], dataLen[i], bitLen[i], refs, mask);
    cells[i] = ordinaryCell(bits, refs, mask, hashes, depths);
  }
  return roots.map((r) => cells[r]);
}
