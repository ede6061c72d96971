// Hashmap walking over Merkle proofs (hashmap.tlb): lookups and in-order listings that tell "proven absent"
// apart from "pruned, unknown". Works for Hashmap / HashmapE / HashmapAug / HashmapAugE (a HashmapAug fork
// carries its extra after the two references, which a walk does not need) and for root edges stored inline
// in a bigger cell (AccountBlock.transactions).
import { type Slice, Cell, CellType } from "@ton/core";
import { fail } from "./errors.js";

/** Bits used to store a label length up to m: ceil(log2(m + 1)). */
function lenBits(m: number): number {
  return 32 - Math.clz32(m);
}

function loadBits(s: Slice, n: number): bigint {
  return n === 0 ? 0n : s.loadUintBig(n);
}

/** HmLabel ~l m: hml_short$0 / hml_long$10 / hml_same$11. Returns the label's length and bits. */
export function loadHmLabel(s: Slice, m: number, what: string): { len: number; bits: bigint } {
  if (!s.loadBit()) {
    let len = 0;
    while (s.loadBit()) len++;
    if (len > m) fail(`${what}: dictionary label of ${len} bits where at most ${m} remain`);
    return { len, bits: loadBits(s, len) };
  }
  if (!s.loadBit()) {
    const len = s.loadUint(lenBits(m));
    if (len > m) fail(`${what}: dictionary label of ${len} bits where at most ${m} remain`);
    return { len, bits: loadBits(s, len) };
  }
  const v = s.loadBit();
  const len = s.loadUint(lenBits(m));
  if (len > m) fail(`${what}: dictionary label of ${len} bits where at most ${m} remain`);
  return { len, bits: v ? (1n << BigInt(len)) - 1n : 0n };
}

export type DictLookup = { type: "found"; value: Slice } | { type: "absent" } | { type: "pruned" };

function nodeSlice(node: Cell | Slice): Slice | null {
  if (node instanceof Cell) {
    if (node.type === CellType.PrunedBranch) return null;
    if (node.type !== CellType.Ordinary) fail(`unexpected exotic cell (${CellType[node.type]}) in a dictionary`);
    return node.beginParse();
  }
  return node;
}

/**
 * Looks `key` (keyBits wide, unsigned) up in the Hashmap whose root edge is `root` (a cell, or a slice
 * positioned at an inline root edge). The value slice is positioned after the label (for a HashmapAug leaf:
 * at its extra).
 */
export function dictLookup(root: Cell | Slice, keyBits: number, key: bigint, what: string): DictLookup {
  let node: Cell | Slice = root;
  let remaining = keyBits;
  for (;;) {
    const s = nodeSlice(node);
    if (!s) return { type: "pruned" };
    const label = loadHmLabel(s, remaining, what);
    remaining -= label.len;
    const want = (key >> BigInt(remaining)) & ((1n << BigInt(label.len)) - 1n);
    if (want !== label.bits) return { type: "absent" };
    if (remaining === 0) return { type: "found", value: s };
    const left = s.loadRef();
    const right = s.loadRef();
    remaining -= 1;
    node = (key >> BigInt(remaining)) & 1n ? right : left;
  }
}

/** HashmapE / HashmapAugE root: hme_empty$0 or hme_root$1 root:^(Hashmap n X). Reads the bit and the ref. */
export function loadHashmapERoot(s: Slice): Cell | null {
  return s.loadBit() ? s.loadRef() : null;
}

/** Lookup in a HashmapE given its root (null = empty dictionary: every key is proven absent). */
export function dictELookup(root: Cell | null, keyBits: number, key: bigint, what: string): DictLookup {
  return root ? dictLookup(root, keyBits, key, what) : { type: "absent" };
}

/**
 * One entry of an in-order listing: a leaf (key and value slice) or a pruned subtree standing for every key
 * with the given prefix (prefixLen bits), about which the proof says nothing.
 */
export type DictItem = { type: "leaf"; key: bigint; value: Slice } | { type: "pruned"; prefix: bigint; prefixLen: number };

/** Every leaf and pruned subtree of the Hashmap at `root`, in ascending key order. */
export function dictItems(root: Cell | Slice, keyBits: number, what: string): DictItem[] {
  const out: DictItem[] = [];
  const walk = (node: Cell | Slice, prefix: bigint, prefixLen: number): void => {
    const s = nodeSlice(node);
    if (!s) {
      out.push({ type: "pruned", prefix, prefixLen });
      return;
    }
    const remaining = keyBits - prefixLen;
    const label = loadHmLabel(s, remaining, what);
    const p = (prefix << BigInt(label.len)) | label.bits;
    const len = prefixLen + label.len;
    if (len === keyBits) {
      out.push({ type: "leaf", key: p, value: s });
      return;
    }
    const left = s.loadRef();
    const right = s.loadRef();
    walk(left, p << 1n, len + 1);
    walk(right, (p << 1n) | 1n, len + 1);
  };
  walk(root, 0n, 0);
  return out;
}

/** Smallest and largest key a listing item stands for. */
export function itemRange(item: DictItem, keyBits: number): [bigint, bigint] {
  if (item.type === "leaf") return [item.key, item.key];
  const free = BigInt(keyBits - item.prefixLen);
  return [item.prefix << free, ((item.prefix + 1n) << free) - 1n];
}
