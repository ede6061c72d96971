// Walking TON dictionaries (Hashmap / HashmapAug, hashmap.tlb) in place, without building a value
// cell per leaf as the general readers do: the leaves in key order, or one leaf by its key.
import { CellType, type Slice } from "@ton/core";

/** Bits of `#<= m` (ceil(log2(m + 1))). */
const lenBits = (m: number): number => 32 - Math.clz32(m);

/** Reads an edge's label (hml_short / hml_long / hml_same) with `m` key bits left; returns its length. */
function skipLabel(s: Slice, m: number): number {
  if (!s.loadBit()) {
    let len = 0;
    while (s.loadBit()) len++;
    s.skip(len);
    return len;
  }
  const long = !s.loadBit();
  if (!long) s.skip(1);
  const len = lenBits(m) === 0 ? 0 : s.loadUint(lenBits(m));
  if (long) s.skip(len);
  return len;
}

/**
 * Calls `leaf` with each leaf's slice (positioned after the label: HashmapAug's extra, then the
 * value), in ascending key order. `edge` is positioned at the root edge's label (an inline root, as
 * AccountBlock's transactions, is consumed from it: fork extras too, through `skipForkExtra`).
 */
export function forEachLeaf(edge: Slice, n: number, leaf: (s: Slice) => void, skipForkExtra?: (s: Slice) => void): void {
  const m = n - skipLabel(edge, n);
  if (m === 0) return leaf(edge);
  const left = edge.loadRef();
  const right = edge.loadRef();
  skipForkExtra?.(edge);
  forEachLeaf(left.beginParse(), m - 1, leaf);
  forEachLeaf(right.beginParse(), m - 1, leaf);
}

const keyBit = (key: Buffer, i: number): number => (key[i >> 3]! >> (7 - (i & 7))) & 1;

/** The leaf of `key` (n bits, big-endian in `key`), or null when absent or behind a pruned branch. */
export function findLeaf(edge: Slice, n: number, key: Buffer): Slice | null {
  let s = edge;
  let pos = 0;
  for (;;) {
    const m = n - pos;
    // the label must equal the key's next bits
    if (!s.loadBit()) {
      let len = 0;
      while (s.loadBit()) len++;
      for (let i = 0; i < len; i++) if (s.loadBit() !== (keyBit(key, pos + i) === 1)) return null;
      pos += len;
    } else if (!s.loadBit()) {
      const len = lenBits(m) === 0 ? 0 : s.loadUint(lenBits(m));
      for (let i = 0; i < len; i++) if (s.loadBit() !== (keyBit(key, pos + i) === 1)) return null;
      pos += len;
    } else {
      const v = s.loadBit() ? 1 : 0;
      const len = lenBits(m) === 0 ? 0 : s.loadUint(lenBits(m));
      for (let i = 0; i < len; i++) if (keyBit(key, pos + i) !== v) return null;
      pos += len;
    }
    if (pos === n) return s;
    const left = s.loadRef();
    const right = s.loadRef();
    const next = keyBit(key, pos) === 1 ? right : left;
    pos++;
    if (next.type !== CellType.Ordinary) return null;
    s = next.beginParse();
  }
}

/** Skips a CurrencyCollection (grams, then extra currencies: HashmapE 32 as Maybe ^). */
export function skipCurrencyCollection(s: Slice): void {
  s.loadCoins();
  if (s.loadBit()) s.loadRef();
}
