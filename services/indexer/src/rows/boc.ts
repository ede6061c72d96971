// A faster BoC reader for whole blocks, producing @ton/core Cells lazily.
//
// @ton/core's Cell.fromBoc costs ~40 µs per cell (bit-by-bit copies of every cell's data into its
// representation, per-cell closures and freezes, garbage): 83 % of the block → rows time
// (bench/indexer-rows.ts). Here the cell table is read once into typed arrays and a cell object is
// made only when reached from its parent, hashed only when asked (LazyBoc below): most of a block is
// its state update, of which the rows need only the changed accounts. Ordinary cells (any level)
// share one prototype: their data stays a view of the BoC buffer (a BoC stores exactly the padded
// bytes a cell's representation hashes) and each hash is one native SHA-256 of d1 d2
// data-or-previous-hash depths hashes. Exotic cells go through @ton/core's constructor when hashed
// (a pruned branch on the way to a changed account is made, never hashed). The objects are Cells
// (Cell.prototype, the members @ton/core 0.63 gives a cell); test/boc.test.ts checks every cell of
// the fixture blocks against Cell.fromBoc.
import * as nodeCrypto from "node:crypto";
import { createRequire } from "node:module";
import { BitReader, BitString, Cell, CellType, Slice } from "@ton/core";
import { crc32c } from "@tongate/ton";

const require = createRequire(import.meta.url);

// One-shot SHA-256 (crypto.hash, node ≥ 20.12) allocates no Hash object per call: with ~30,000
// hashes per block, the Hash objects' finalisation was most of the garbage collection time.
type OneShot = (alg: string, data: Buffer, enc: "buffer") => Buffer;
const oneShot = (nodeCrypto as unknown as { hash?: OneShot }).hash;
const sha256: (data: Buffer) => Buffer = oneShot
  ? (data) => oneShot("sha256", data, "buffer")
  : (data) => nodeCrypto.createHash("sha256").update(data).digest();

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

/** A cell of a LazyBoc: a Cell (Cell.prototype) whose refs are made on first access and hashes on first use. */
interface LazyCell {
  /** the BoC the refs come from (null: a cell made by restCell, refs given) */
  boc: LazyBoc | null;
  index: number;
  /** the padded data bytes (d2 of them rounded up): src[at, at + bytes) */
  _src: Buffer;
  _at: number;
  _bytes: number;
  type: CellType;
  bits: BitString;
  mask: LevelMaskLike;
  _refs: Cell[] | undefined;
  _hashes: Buffer[] | undefined;
  _depths: number[] | undefined;
  readonly refs: Cell[];
}

function hashesOf(c: LazyCell): { hashes: Buffer[]; depths: number[] } {
  if (c._hashes === undefined) {
    const { hashes, depths } = c.type === CellType.Ordinary ? ordinaryHashes(c) : exoticHashes(c);
    c._hashes = hashes;
    c._depths = depths;
  }
  return { hashes: c._hashes, depths: c._depths! };
}

// One prototype for every lazy cell (no per-cell closures: tsx wraps each in a naming helper).
const LAZY_CELL: object = Object.create(Cell.prototype, {
  refs: {
    get(this: LazyCell): Cell[] {
      return (this._refs ??= this.boc!.refsOf(this.index));
    },
  },
  beginParse: {
    value(this: LazyCell, allowExotic = false): Slice {
      if (this.type !== CellType.Ordinary && !allowExotic) throw new Error("Exotic cells cannot be parsed");
      return new Slice(new BitReader(this.bits), this.refs);
    },
  },
  // as @ton/core: indexed by level, clamped to the last hash
  hash: {
    value(this: LazyCell, level = 3): Buffer {
      const { hashes } = hashesOf(this);
      return hashes[Math.min(hashes.length - 1, level)];
    },
  },
  depth: {
    value(this: LazyCell, level = 3): number {
      const { depths } = hashesOf(this);
      return depths[Math.min(depths.length - 1, level)];
    },
  },
  level: {
    value(this: LazyCell): number {
      return this.mask.level;
    },
  },
  equals: {
    value(this: Cell, other: Cell): boolean {
      return this.hash().equals(other.hash());
    },
  },
  [INSPECT]: {
    value(this: Cell): string {
      return this.toString();
    },
  },
});

/**
 * Hashes and depths of an ordinary cell, as @ton/core's wonderCalculator (TON's DataCell): one per
 * significant level; level 0 hashes the data, a higher level the previous level's hash instead.
 */
function ordinaryHashes(c: LazyCell): { hashes: Buffer[]; depths: number[] } {
  const { _src: src, _at: at, _bytes: bytes } = c;
  const bitLen = c.bits.length;
  const refs = c.refs;
  const mask = c.mask;
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

/** An exotic cell: @ton/core's constructor checks it and computes its hashes (from its data, or its sub-tree's for a Merkle proof/update). */
function exoticHashes(c: LazyCell): { hashes: Buffer[]; depths: number[] } {
  const real = new Cell({ bits: c.bits, refs: c.refs, exotic: true }) as unknown as { type: CellType; _hashes: Buffer[]; _depths: number[] };
  if (real.type !== c.type) throw new Error("BoC: exotic cell type differs from its data");
  return { hashes: real._hashes, depths: real._depths };
}

/**
 * The cells of one BoC (its cell table read once). A cell object is made when its parent's refs are
 * first reached, and hashed when its hash is first asked for: reading a block touches its
 * transactions and the changed accounts of its state update, not the rest of the update (most of
 * the cells of a block). Ordinary cells keep their data as a view of the BoC buffer; the level mask
 * is the one the BoC stores in each cell's descriptor (d1).
 */
class LazyBoc {
  private readonly cells: (Cell | undefined)[];

  constructor(
    readonly src: Buffer,
    readonly d1s: Uint8Array,
    readonly dataAt: Uint32Array,
    readonly dataLen: Uint16Array,
    readonly bitLen: Uint16Array,
    /** cell i's refs: refList[4i .. 4i + (d1 & 7)) */
    readonly refList: Uint32Array,
  ) {
    this.cells = new Array<Cell | undefined>(d1s.length);
  }

  refsOf(i: number): Cell[] {
    const n = this.d1s[i] & 7;
    const refs = new Array<Cell>(n);
    for (let r = 0; r < n; r++) refs[r] = this.cell(this.refList[i * 4 + r]);
    return refs;
  }

  cell(i: number): Cell {
    return (this.cells[i] ??= this.make(i));
  }

  private make(i: number): Cell {
    const d1 = this.d1s[i];
    const bits = new BitString(this.src, this.dataAt[i] * 8, this.bitLen[i]);
    const exotic = (d1 & 8) !== 0;
    let type = CellType.Ordinary;
    if (exotic) {
      // the type is the first byte: pruned branch 1, library 2, Merkle proof 3, Merkle update 4
      type = this.bitLen[i] >= 8 ? (this.src[this.dataAt[i]] as CellType) : CellType.Ordinary;
      if (type !== CellType.PrunedBranch && type !== CellType.Library && type !== CellType.MerkleProof && type !== CellType.MerkleUpdate) throw new Error("BoC: bad exotic cell");
    }
    const c = Object.create(LAZY_CELL) as LazyCell;
    c.boc = this;
    c.index = i;
    c._src = this.src;
    c._at = this.dataAt[i];
    c._bytes = this.dataLen[i];
    c.type = type;
    c.bits = bits;
    c.mask = MASKS[d1 >> 5];
    c._refs = undefined;
    c._hashes = undefined;
    c._depths = undefined;
    return c as unknown as Cell;
  }
}

/**
 * Cell.fromBoc for standard (b5ee9c72) BoCs, falling back to it for the other formats. `checkCrc:
 * false` skips the CRC32-C of a BoC whose bytes the caller has already checked (a block file whose
 * SHA-256 is the block id's file hash).
 */
export function cellsFromBoc(src: Buffer, options: { checkCrc?: boolean } = {}): Cell[] {
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
  if (hasCrc && options.checkCrc !== false && crc32c(src.subarray(0, dataEnd)) !== src.readUInt32LE(dataEnd)) throw new Error("Invalid CRC32C");

  // Pass 1: cell layout.
  const d1s = new Uint8Array(count);
  const dataAt = new Uint32Array(count);
  const dataLen = new Uint16Array(count); // bytes
  const bitLen = new Uint16Array(count);
  const refList = new Uint32Array(count * 4);
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
    for (let r = 0; r < refsCount; r++, at += size) {
      const k = readUint(src, at, size);
      if (k <= i || k >= count) throw new Error("Invalid BOC file");
      refList[i * 4 + r] = k;
    }
  }
  if (at !== dataEnd) throw new Error("BoC: trailing data");

  const boc = new LazyBoc(src, d1s, dataAt, dataLen, bitLen, refList);
  return roots.map((r) => boc.cell(r));
}

/** A BitString's bytes with the completion tag (a 1 bit, then zeros) when not whole bytes: a cell's data as hashed and serialised. */
function paddedBytes(bits: BitString): Buffer {
  // @ton/core 0.63 BitString internals: a view of `_data` from bit `_offset`
  const { _data: data, _offset: off } = bits as unknown as { _data: Buffer; _offset: number };
  const len = bits.length;
  const bytes = (len + 7) >> 3;
  const out = Buffer.allocUnsafe(bytes);
  const first = off >> 3;
  const sh = off & 7;
  if (sh === 0) data.copy(out, 0, first, first + bytes);
  else for (let i = 0; i < bytes; i++) out[i] = ((data[first + i]! << sh) | ((data[first + i + 1] ?? 0) >> (8 - sh))) & 0xff;
  const r = len & 7;
  if (r !== 0) out[bytes - 1] = (out[bytes - 1]! & (0xff << (8 - r))) | (1 << (7 - r));
  return out;
}

/**
 * The cell of a slice's remaining bits and refs (as Slice.asCell, which copies bit by bit through a
 * Builder): e.g. a message body stored inline. Consumes the slice.
 */
export function restCell(s: Slice): Cell {
  const bits = s.loadBits(s.remainingBits);
  const refs: Cell[] = [];
  while (s.remainingRefs > 0) refs.push(s.loadRef());
  let m = 0;
  for (const r of refs) m |= r.mask.value;
  const data = paddedBytes(bits);
  const c = Object.create(LAZY_CELL) as LazyCell;
  c.boc = null;
  c.index = -1;
  c._src = data;
  c._at = 0;
  c._bytes = data.length;
  c.type = CellType.Ordinary;
  c.bits = new BitString(data, 0, bits.length);
  c.mask = MASKS[m];
  c._refs = refs;
  c._hashes = undefined;
  c._depths = undefined;
  return c as unknown as Cell;
}
