// Bag-of-cells serialization with any number of roots, in TON's standard
// format (serialized_boc#b5ee9c72, crypto/tl/boc.tlb):
//
//   serialized_boc#b5ee9c72 has_idx:(## 1) has_crc32c:(## 1)
//     has_cache_bits:(## 1) flags:(## 2) { flags = 0 }
//     size:(## 3) { size <= 4 } off_bytes:(## 8) { off_bytes <= 8 }
//     cells:(##(size * 8)) roots:(##(size * 8)) { roots >= 1 }
//     absent:(##(size * 8)) { roots + absent <= cells }
//     tot_cells_size:(##(off_bytes * 8))
//     root_list:(roots * ##(size * 8))
//     index:has_idx?(cells * ##(off_bytes * 8))
//     cell_data:(tot_cells_size * [ uint8 ])
//     crc32c:has_crc32c?uint32
//
// @ton/core's `serializeBoc` / `Cell.toBoc()` writes exactly one root, while
// liteservers answer multi-root BoCs (liteServer.accountState.proof: 2 roots;
// liteServer.transactionList.transactions: N roots) that clients read with
// `Cell.fromBoc(buf)`. For one root the output here is byte-identical to
// `cell.toBoc({ idx, crc32 })` (same cell order, descriptors, size bytes,
// offsets and checksum); for several roots it extends the same order (see
// `orderCells`).
import type { Cell } from "@ton/core";

/** Flags of the standard header (defaults as in @ton/core's `Cell.toBoc`). */
export interface SerializeBocOptions {
  /** Write the offset index (has_idx). Default false. */
  idx?: boolean;
  /** Append the CRC32-C of everything before it (has_crc32c). Default true. */
  crc32?: boolean;
}

const BOC_MAGIC = 0xb5ee9c72;

/**
 * Serializes `roots` (in this order, repeats allowed) as one bag of cells.
 *
 * - Cells are stored once each, keyed by their representation hash (the hash
 *   at the cell's own level, `cell.hash(3)`): a pruned branch and the cell it
 *   stands for share their level-0 hash but are different cells.
 * - Parents come before children. The roots that are not descendants of
 *   another root come first (indices 0..k-1, in the order given); the rest
 *   follows @ton/core's order (reverse post-order of a depth-first walk),
 *   so a single root gives exactly `root.toBoc({ idx, crc32 })`.
 * - Exotic cells (pruned branch, library, Merkle proof/update) carry the
 *   exotic flag and the level mask in d1, as in @ton/core and the TON node.
 * - size_bytes and off_bytes are the fewest bytes that hold the cell count
 *   (and the root count) and tot_cells_size. No cache bits, no absent cells.
 */
export function serializeBoc(roots: readonly Cell[], opts: SerializeBocOptions = {}): Buffer {
  if (roots.length === 0) throw new RangeError("serializeBoc: a bag of cells needs at least one root");
  const hasIdx = opts.idx ?? false;
  const hasCrc = opts.crc32 ?? true;

  const { cells, indexOf } = orderCells(roots);
  const cellsNum = cells.length;
  const sizeBytes = bytesFor(Math.max(cellsNum, roots.length));

  let totalCellSize = 0;
  const ends: number[] = new Array<number>(cellsNum);
  for (let i = 0; i < cellsNum; i++) {
    const c = cells[i];
    totalCellSize += 2 + Math.ceil(c.bits.length / 8) + c.refs.length * sizeBytes;
    ends[i] = totalCellSize;
  }
  const offBytes = bytesFor(totalCellSize);

  const totalSize =
    4 + // magic
    1 + // has_idx, has_crc32c, has_cache_bits, flags, size
    1 + // off_bytes
    3 * sizeBytes + // cells, roots, absent
    offBytes + // tot_cells_size
    roots.length * sizeBytes + // root_list
    (hasIdx ? cellsNum * offBytes : 0) +
    totalCellSize +
    (hasCrc ? 4 : 0);

  const out = Buffer.alloc(totalSize);
  let p = out.writeUInt32BE(BOC_MAGIC, 0);
  out[p++] = (hasIdx ? 0x80 : 0) | (hasCrc ? 0x40 : 0) | sizeBytes; // has_cache_bits = 0, flags = 0
  out[p++] = offBytes;
  p = out.writeUIntBE(cellsNum, p, sizeBytes);
  p = out.writeUIntBE(roots.length, p, sizeBytes);
  p = out.writeUIntBE(0, p, sizeBytes); // absent
  p = out.writeUIntBE(totalCellSize, p, offBytes);
  for (const r of roots) p = out.writeUIntBE(indexOf(r), p, sizeBytes);
  if (hasIdx) for (const end of ends) p = out.writeUIntBE(end, p, offBytes);
  for (const c of cells) {
    out[p++] = refsDescriptor(c);
    out[p++] = bitsDescriptor(c.bits.length);
    p = writePaddedBits(c, out, p);
    for (const r of c.refs) p = out.writeUIntBE(indexOf(r), p, sizeBytes);
  }
  if (hasCrc) {
    out.writeUInt32LE(crc32c(out.subarray(0, p)), p);
    p += 4;
  }
  if (p !== totalSize) throw new Error(`serializeBoc: internal error, wrote ${p} of ${totalSize} bytes`);
  return out;
}

/** The identity of a cell in a bag: its representation hash (hash at its own level). */
function cellKey(c: Cell): string {
  return c.hash(3).toString("latin1");
}

/**
 * The cells reachable from `roots`, each once, parents first.
 *
 * @ton/core (topologicalSort) numbers the cells of one root in reverse
 * post-order of a depth-first walk that enters the references last-to-first.
 * Several roots are walked as the references of a virtual parent (so the last
 * root is entered first and the first root's cells come first); then the
 * roots that no cell of the bag references are moved to the front, in root
 * order, which keeps every parent before its children (nothing points at
 * them). With one root this is @ton/core's order unchanged.
 */
function orderCells(roots: readonly Cell[]): { cells: Cell[]; indexOf: (c: Cell) => number } {
  const seen = new Set<string>();
  const referenced = new Set<string>();
  const post: Cell[] = [];
  // Iterative walk: a frame is a cell and the next reference to enter (counting down).
  const stackCells: Cell[] = [];
  const stackNext: number[] = [];
  for (let ri = roots.length - 1; ri >= 0; ri--) {
    const root = roots[ri];
    const rk = cellKey(root);
    if (seen.has(rk)) continue;
    seen.add(rk);
    stackCells.push(root);
    stackNext.push(root.refs.length - 1);
    while (stackCells.length > 0) {
      const top = stackCells.length - 1;
      const next = stackNext[top];
      if (next >= 0) {
        stackNext[top] = next - 1;
        const child = stackCells[top].refs[next];
        const ck = cellKey(child);
        referenced.add(ck);
        if (!seen.has(ck)) {
          seen.add(ck);
          stackCells.push(child);
          stackNext.push(child.refs.length - 1);
        }
      } else {
        post.push(stackCells[top]);
        stackCells.pop();
        stackNext.pop();
      }
    }
  }

  const cells: Cell[] = [];
  const placed = new Set<string>();
  for (const r of roots) {
    const k = cellKey(r);
    if (!referenced.has(k) && !placed.has(k)) {
      placed.add(k);
      cells.push(r);
    }
  }
  for (let i = post.length - 1; i >= 0; i--) {
    const c = post[i];
    if (!placed.has(cellKey(c))) cells.push(c);
  }

  const index = new Map<string, number>();
  for (let i = 0; i < cells.length; i++) index.set(cellKey(cells[i]), i);
  const indexOf = (c: Cell): number => {
    const i = index.get(cellKey(c));
    if (i === undefined) throw new Error("serializeBoc: internal error, cell not in the bag");
    return i;
  };
  return { cells, indexOf };
}

/** Fewest bytes (at least 1) holding the unsigned number n. */
function bytesFor(n: number): number {
  let bytes = 1;
  while (n >= 2 ** (8 * bytes)) bytes++;
  return bytes;
}

/** d1 = refs + 8 * exotic + 32 * level mask (no stored hashes). */
function refsDescriptor(c: Cell): number {
  return c.refs.length + (c.isExotic ? 8 : 0) + c.mask.value * 32;
}

/** d2 = ceil(bits / 8) + floor(bits / 8): odd when the last byte is padded. */
function bitsDescriptor(bitLength: number): number {
  return Math.ceil(bitLength / 8) + Math.floor(bitLength / 8);
}

/** The cell's data, completed to whole bytes with a 1 bit then 0 bits. */
function writePaddedBits(c: Cell, out: Buffer, at: number): number {
  const len = c.bits.length;
  const full = len >> 3;
  let p = at;
  const aligned = full > 0 ? c.bits.subbuffer(0, full * 8) : null;
  if (aligned) {
    aligned.copy(out, p);
    p += full;
  } else {
    for (let b = 0; b < full; b++) {
      let v = 0;
      for (let i = 0; i < 8; i++) v = (v << 1) | (c.bits.at(b * 8 + i) ? 1 : 0);
      out[p++] = v;
    }
  }
  const rest = len & 7;
  if (rest > 0) {
    let v = 0;
    for (let i = 0; i < rest; i++) v = (v << 1) | (c.bits.at(full * 8 + i) ? 1 : 0);
    v = (v << 1) | 1; // completion tag
    out[p++] = v << (7 - rest);
  }
  return p;
}

const CRC32C_TABLE: Uint32Array = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
    t[i] = crc >>> 0;
  }
  return t;
})();

/** CRC32-C (Castagnoli, reflected, init and final XOR 0xffffffff); the BoC stores it little-endian. */
export function crc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = (crc >>> 8) ^ CRC32C_TABLE[(crc ^ bytes[i]) & 0xff];
  return (crc ^ 0xffffffff) >>> 0;
}
