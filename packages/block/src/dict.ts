// Hashmap / HashmapE / HashmapAug / HashmapAugE (hashmap.tlb) on top of @ton/core's Dictionary.
//
// Loading goes through @ton/core's parser with a value codec that reads `extra` then `value` for the
// augmented kinds (the parser ignores the extras stored in fork nodes). Storing goes through our own
// builder: @ton/core's serializer writes no fork extras, and a HashmapAug fork node carries
// `extra:Y` = eval_fork(left.extra, right.extra), which has to be computed bottom-up. The label
// encoding (hml_short / hml_long / hml_same) follows the validator's choice (crypto/vm/dict.cpp
// append_dict_label), so a dictionary rebuilt from its entries has the same cell hashes as the
// one produced by the node.
import { type Builder, type Cell, type DictionaryKey, type DictionaryKeyTypes, type DictionaryValue, type Slice, Dictionary, beginCell } from "@ton/core";

/** A HashmapAug leaf: the augmentation `extra` and the value (ahmn_leaf#_ extra:Y value:X). */
export interface AugValue<V, E> {
  extra: E;
  value: V;
}

/** The augmentation type Y of a HashmapAug: how it is (de)serialized and combined at fork nodes. */
export interface Augmentation<E> {
  load(slice: Slice): E;
  store(extra: E): (builder: Builder) => void;
  /** eval_fork: the extra of a fork node from the extras of its two children. */
  fork(left: E, right: E): E;
  /** eval_empty: the extra stored by ahme_empty. */
  empty(): E;
}

export type Loader<V> = (slice: Slice) => V;
export type Storer<V> = (value: V) => (builder: Builder) => void;

/** A @ton/core value codec from a loader/storer pair (the value sits inline in the leaf). */
export function valueCodec<V>(load: Loader<V>, store: Storer<V>): DictionaryValue<V> {
  return { parse: (s) => load(s), serialize: (v, b) => void b.store(store(v)) };
}

/** A value codec for `^X`: the leaf holds a reference to a cell with X. */
export function refValueCodec<V>(load: Loader<V>, store: Storer<V>): DictionaryValue<V> {
  return {
    parse: (s) => load(s.loadRef().beginParse()),
    serialize: (v, b) => void b.storeRef(beginCell().store(store(v)).endCell()),
  };
}

/**
 * A value codec for HashmapAug leaves (extra then value). Its `serialize` is only correct for a
 * leaf: never `Dictionary.store` an augmented dictionary, use storeHashmapAug / storeHashmapAugE.
 */
export function augValueCodec<V, E>(aug: Augmentation<E>, value: DictionaryValue<V>): DictionaryValue<AugValue<V, E>> {
  return {
    parse: (s) => {
      const extra = aug.load(s);
      return { extra, value: value.parse(s) };
    },
    serialize: (v, b) => {
      b.store(aug.store(v.extra));
      value.serialize(v.value, b);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Loading

function emptyDict<K extends DictionaryKeyTypes, V>(key: DictionaryKey<K>, value: DictionaryValue<V>): Dictionary<K, V> {
  return Dictionary.empty(key, value);
}

/** Hashmap n X (non-empty, root edge in `cell`). */
export function loadHashmap<K extends DictionaryKeyTypes, V>(cell: Cell, key: DictionaryKey<K>, value: DictionaryValue<V>): Dictionary<K, V> {
  return Dictionary.loadDirect(key, value, cell);
}

/** HashmapE n X (hme_empty$0 / hme_root$1 root:^(Hashmap n X)). */
export function loadHashmapE<K extends DictionaryKeyTypes, V>(slice: Slice, key: DictionaryKey<K>, value: DictionaryValue<V>): Dictionary<K, V> {
  const root = slice.loadMaybeRef();
  return root ? loadHashmap(root, key, value) : emptyDict(key, value);
}

/** HashmapAug n X Y whose root edge is `cell`. */
export function loadHashmapAug<K extends DictionaryKeyTypes, V, E>(
  cell: Cell,
  key: DictionaryKey<K>,
  value: DictionaryValue<V>,
  aug: Augmentation<E>,
): Dictionary<K, AugValue<V, E>> {
  return Dictionary.loadDirect(key, augValueCodec(aug, value), cell);
}

/** HashmapAugE n X Y (ahme_empty$0 extra:Y / ahme_root$1 root:^(HashmapAug n X Y) extra:Y). */
export function loadHashmapAugE<K extends DictionaryKeyTypes, V, E>(
  slice: Slice,
  key: DictionaryKey<K>,
  value: DictionaryValue<V>,
  aug: Augmentation<E>,
): { dict: Dictionary<K, AugValue<V, E>>; extra: E } {
  const root = slice.loadMaybeRef();
  const extra = aug.load(slice);
  const dict = root ? loadHashmapAug(root, key, value, aug) : emptyDict(key, augValueCodec(aug, value));
  return { dict, extra };
}

// ---------------------------------------------------------------------------------------------
// Building

interface Entry<V> {
  key: bigint; // unsigned, `bits` wide
  value: V;
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** Bits needed for a label length up to maxLen: 32 - clz32(maxLen) = ceil(log2(maxLen + 1)). */
function lenBits(maxLen: number): number {
  return 32 - Math.clz32(maxLen);
}

/**
 * Stores the label `label` (len bits) of an edge whose remaining key length is maxLen, choosing the
 * constructor like the validator does (crypto/vm/dict.cpp append_dict_label):
 * hml_same when all bits are equal, len > 1 and k < 2*len - 1; else hml_long when k < len; else hml_short.
 */
export function storeHmLabel(label: bigint, len: number, maxLen: number, b: Builder): void {
  if (len === 0) {
    b.storeUint(0, 2);
    return;
  }
  const k = lenBits(maxLen);
  const allOnes = (1n << BigInt(len)) - 1n;
  const same = label === 0n || label === allOnes;
  if (len > 1 && same && k < 2 * len - 1) {
    b.storeUint(label === 0n ? 0b110 : 0b111, 3);
    b.storeUint(len, k);
    return;
  }
  if (k < len) {
    b.storeUint(0b10, 2);
    b.storeUint(len, k);
  } else {
    b.storeBit(0);
    for (let i = 0; i < len; i++) b.storeBit(1);
    b.storeBit(0);
  }
  b.storeUint(label, len);
}

function build<V, E>(
  entries: Entry<V>[],
  from: number,
  to: number,
  n: number,
  storeLeaf: (value: V, b: Builder) => void,
  aug: Augmentation<E> | undefined,
  leafExtra: ((value: V) => E) | undefined,
): { cell: Cell; extra: E | undefined } {
  const first = entries[from].key;
  const last = entries[to - 1].key;
  const mask = n === 0 ? 0n : (1n << BigInt(n)) - 1n;
  const a = first & mask;
  const diff = a ^ (last & mask);
  // common prefix length of the remaining n bits of all keys (sorted, so first vs last suffices)
  const l = diff === 0n ? n : n - bitLength(diff);
  const b = beginCell();
  storeHmLabel(n === l ? a : a >> BigInt(n - l), l, n, b);
  if (l === n) {
    if (to - from !== 1) throw new Error("dictionary has duplicate keys");
    storeLeaf(entries[from].value, b);
    return { cell: b.endCell(), extra: leafExtra?.(entries[from].value) };
  }
  const m = n - l - 1; // bits left below the fork
  const splitBit = 1n << BigInt(m);
  let mid = from;
  while (mid < to && (entries[mid].key & splitBit) === 0n) mid++;
  if (mid === from || mid === to) throw new Error("internal: unbalanced fork");
  const left = build(entries, from, mid, m, storeLeaf, aug, leafExtra);
  const right = build(entries, mid, to, m, storeLeaf, aug, leafExtra);
  b.storeRef(left.cell);
  b.storeRef(right.cell);
  let extra: E | undefined;
  if (aug) {
    extra = aug.fork(left.extra as E, right.extra as E);
    b.store(aug.store(extra));
  }
  return { cell: b.endCell(), extra };
}

function sortedEntries<K extends DictionaryKeyTypes, V>(dict: Dictionary<K, V>, key: DictionaryKey<K>): Entry<V>[] {
  const bits = key.bits;
  const limit = 1n << BigInt(bits);
  const out: Entry<V>[] = [];
  for (const [k, v] of dict) {
    const kb = key.serialize(k);
    if (kb < 0n || kb >= limit) throw new Error(`dictionary key out of range for ${bits} bits`);
    out.push({ key: kb, value: v });
  }
  out.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  return out;
}

/** Builds the root cell of a non-empty `Hashmap n X`. */
export function buildHashmap<K extends DictionaryKeyTypes, V>(dict: Dictionary<K, V>, key: DictionaryKey<K>, value: DictionaryValue<V>): Cell {
  const entries = sortedEntries(dict, key);
  if (entries.length === 0) throw new Error("Hashmap (non-E) cannot be empty");
  return build(entries, 0, entries.length, key.bits, (v, b) => value.serialize(v, b), undefined, undefined).cell;
}

/** Stores `HashmapE n X`. */
export function storeHashmapE<K extends DictionaryKeyTypes, V>(dict: Dictionary<K, V>, key: DictionaryKey<K>, value: DictionaryValue<V>) {
  return (b: Builder): void => {
    if (dict.size === 0) {
      b.storeBit(0);
    } else {
      b.storeBit(1);
      b.storeRef(buildHashmap(dict, key, value));
    }
  };
}

/**
 * Builds the root cell of a non-empty `HashmapAug n X Y` and returns it with the root extra (the
 * extra of the root node: the leaf's extra, or the fork extra computed from all leaves).
 */
export function buildHashmapAug<K extends DictionaryKeyTypes, V, E>(
  dict: Dictionary<K, AugValue<V, E>>,
  key: DictionaryKey<K>,
  value: DictionaryValue<V>,
  aug: Augmentation<E>,
): { root: Cell; extra: E } {
  const entries = sortedEntries(dict, key);
  if (entries.length === 0) throw new Error("HashmapAug (non-E) cannot be empty");
  const r = build(
    entries,
    0,
    entries.length,
    key.bits,
    (v, b) => {
      b.store(aug.store(v.extra));
      value.serialize(v.value, b);
    },
    aug,
    (v) => v.extra,
  );
  return { root: r.cell, extra: r.extra as E };
}

/**
 * The aggregate extra of an augmented dictionary (what ahme_root / ahme_empty store). Folds the
 * leaves in iteration order, so it assumes an associative and commutative `fork` (true for every
 * augmentation of block.tlb: sums, max/or); storeHashmapAugE always folds in tree order.
 */
export function hashmapAugExtra<K extends DictionaryKeyTypes, V, E>(dict: Dictionary<K, AugValue<V, E>>, aug: Augmentation<E>): E {
  let acc: E | undefined;
  for (const [, v] of dict) acc = acc === undefined ? v.extra : aug.fork(acc, v.extra);
  return acc ?? aug.empty();
}

/** Stores `HashmapAugE n X Y`, computing every fork extra and the root extra. */
export function storeHashmapAugE<K extends DictionaryKeyTypes, V, E>(
  dict: Dictionary<K, AugValue<V, E>>,
  key: DictionaryKey<K>,
  value: DictionaryValue<V>,
  aug: Augmentation<E>,
) {
  return (b: Builder): void => {
    if (dict.size === 0) {
      b.storeBit(0);
      b.store(aug.store(aug.empty()));
    } else {
      const { root, extra } = buildHashmapAug(dict, key, value, aug);
      b.storeBit(1);
      b.storeRef(root);
      b.store(aug.store(extra));
    }
  };
}

/** An empty augmented dictionary with the right codecs attached. */
export function emptyAugDict<K extends DictionaryKeyTypes, V, E>(key: DictionaryKey<K>, value: DictionaryValue<V>, aug: Augmentation<E>): Dictionary<K, AugValue<V, E>> {
  return Dictionary.empty(key, augValueCodec(aug, value));
}
