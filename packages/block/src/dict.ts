// Hashmap / HashmapE / HashmapAug / HashmapAugE (hashmap.tlb) on top of @ton/core's Dictionary.
//
// Loading goes through @ton/core's parser with a value codec that reads `extra` then `value` for the
// augmented kinds (the parser ignores the extras stored in fork nodes). Storing goes through our own
// builder: @ton/core's serializer writes no fork extras, and a HashmapAug fork node carries
// `extra:Y` = eval_fork(left.extra, right.extra), which has to be computed bottom-up. The label
// encoding (hml_short / hml_long / hml_same) follows the validator's choice (crypto/vm/dict.cpp
// append_dict_label), so a dictionary rebuilt from its entries has the same cell hashes as the
// one produced by the node.
import { type Builder, type DictionaryKey, type DictionaryKeyTypes, type DictionaryValue, type Slice, Cell, CellType, Dictionary, beginCell } from "@ton/core";

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
// Partial dictionaries (Merkle proofs / updates)
//
// A dictionary inside a Merkle proof or a Merkle update has pruned branches. It is loaded as the
// leaves that are present plus `AugPrunedParts`: the sub-trees that are kept verbatim (pruned
// branches, and leaves that cannot be parsed or re-serialized because they contain pruned cells),
// and the stored extras of the fork nodes above them (those cannot be recomputed: the pruned
// children's extras are hidden). Storing the leaves with their AugPrunedParts rebuilds every
// unpruned node (labels and fork extras of fully present sub-trees recomputed) and gives the
// original hashes. A partial dictionary is a view to re-serialize, not to modify: fork extras
// above pruned branches are re-stored as loaded.

/** Sub-trees and extras of a partially present (augmented) dictionary; see loadHashmapAugPartial. */
export interface AugPrunedParts {
  /** Edge cells kept verbatim, each with the key bits leading to it (prefixLen bits, the edge starts there). */
  subtrees: { prefix: bigint; prefixLen: number; cell: Cell }[];
  /** The stored extra (bits and refs) of each fork node that contains pruned cells, by forkPosition. */
  forkExtras: Map<string, Cell>;
  /** HashmapAugE only: the root extra stored next to the root reference, when the root contains pruned cells. */
  rootExtra?: Cell;
}

/** Key of a fork node in AugPrunedParts.forkExtras: the key bits above its branching bit. */
export function forkPosition(prefix: bigint, prefixLen: number): string {
  return `${prefixLen}:${prefix.toString(16)}`;
}

/** One node of a Hashmap tree, as visited by walkHashmap. */
export interface HashmapNode {
  type: "leaf" | "fork" | "pruned";
  /** The edge cell. */
  cell: Cell;
  /** The key bits above this edge (prefixLen bits from the root). */
  prefix: bigint;
  prefixLen: number;
  /** prefix + label: the whole key for a leaf, the bits above the branching bit for a fork (not for pruned). */
  path: bigint;
  pathLen: number;
  /** What follows the label: extra and value (leaf), extra after the two refs (fork of a HashmapAug). */
  rest?: Slice;
  left?: Cell;
  right?: Cell;
}

function readHmLabel(s: Slice, maxLen: number): { len: number; bits: bigint } {
  if (!s.loadBit()) {
    // hml_short$0 len:(Unary ~n) s:(n * Bit)
    let len = 0;
    while (s.loadBit()) len++;
    if (len > maxLen) throw new Error("Hashmap: label longer than the remaining key");
    return { len, bits: len > 0 ? s.loadUintBig(len) : 0n };
  }
  const k = lenBits(maxLen);
  if (!s.loadBit()) {
    // hml_long$10 n:(#<= m) s:(n * Bit)
    const len = k > 0 ? s.loadUint(k) : 0;
    if (len > maxLen) throw new Error("Hashmap: label longer than the remaining key");
    return { len, bits: len > 0 ? s.loadUintBig(len) : 0n };
  }
  // hml_same$11 v:Bit n:(#<= m)
  const v = s.loadBit();
  const len = k > 0 ? s.loadUint(k) : 0;
  if (len > maxLen) throw new Error("Hashmap: label longer than the remaining key");
  return { len, bits: v ? (1n << BigInt(len)) - 1n : 0n };
}

/**
 * Visits the nodes of a (possibly partial) `Hashmap n X` / `HashmapAug n X Y` whose root edge is
 * `root`, depth first, left before right. Pruned branches are reported and not entered.
 */
export function* walkHashmap(root: Cell, n: number): Generator<HashmapNode> {
  const stack: { cell: Cell; prefix: bigint; prefixLen: number }[] = [{ cell: root, prefix: 0n, prefixLen: 0 }];
  while (stack.length > 0) {
    const { cell, prefix, prefixLen } = stack.pop()!;
    if (cell.isExotic) {
      if (cell.type !== CellType.PrunedBranch) throw new Error(`Hashmap: unexpected exotic cell (type ${cell.type}) as an edge`);
      yield { type: "pruned", cell, prefix, prefixLen, path: prefix, pathLen: prefixLen };
      continue;
    }
    const s = cell.beginParse();
    const m = n - prefixLen;
    const label = readHmLabel(s, m);
    const path = (prefix << BigInt(label.len)) | label.bits;
    const pathLen = prefixLen + label.len;
    if (pathLen === n) {
      yield { type: "leaf", cell, prefix, prefixLen, path, pathLen, rest: s };
      continue;
    }
    const left = s.loadRef();
    const right = s.loadRef();
    yield { type: "fork", cell, prefix, prefixLen, path, pathLen, rest: s, left, right };
    stack.push({ cell: right, prefix: (path << 1n) | 1n, prefixLen: pathLen + 1 });
    stack.push({ cell: left, prefix: path << 1n, prefixLen: pathLen + 1 });
  }
}

function sliceCell(s: Slice): Cell {
  return beginCell().storeSlice(s.clone()).endCell();
}

/**
 * Loads a `HashmapAug n X Y` that may contain pruned branches (Merkle proof / update view). Returns
 * the leaves that could be parsed and, if anything is missing, the AugPrunedParts needed to
 * re-serialize it (`pruned` is undefined for a complete dictionary). A leaf containing pruned cells
 * is parsed only if it re-serializes to the same cell; otherwise it is kept verbatim.
 */
export function loadHashmapAugPartial<K extends DictionaryKeyTypes, V, E>(
  root: Cell,
  key: DictionaryKey<K>,
  value: DictionaryValue<V>,
  aug: Augmentation<E>,
): { dict: Dictionary<K, AugValue<V, E>>; pruned?: AugPrunedParts } {
  const codec = augValueCodec(aug, value);
  const dict = Dictionary.empty(key, codec);
  const parts: AugPrunedParts = { subtrees: [], forkExtras: new Map() };
  for (const node of walkHashmap(root, key.bits)) {
    if (node.type === "pruned") {
      parts.subtrees.push({ prefix: node.prefix, prefixLen: node.prefixLen, cell: node.cell });
    } else if (node.type === "fork") {
      if (node.cell.level() > 0) parts.forkExtras.set(forkPosition(node.path, node.pathLen), sliceCell(node.rest!));
    } else {
      const rest = node.rest!;
      if (node.cell.level() === 0) {
        dict.set(key.parse(node.path), codec.parse(rest));
        continue;
      }
      let leaf: AugValue<V, E> | undefined;
      try {
        const original = sliceCell(rest);
        leaf = codec.parse(rest);
        const b = beginCell();
        codec.serialize(leaf, b);
        if (!b.endCell().hash().equals(original.hash())) leaf = undefined;
      } catch {
        leaf = undefined;
      }
      if (leaf) dict.set(key.parse(node.path), leaf);
      else parts.subtrees.push({ prefix: node.prefix, prefixLen: node.prefixLen, cell: node.cell });
    }
  }
  const complete = parts.subtrees.length === 0 && parts.forkExtras.size === 0;
  return complete ? { dict } : { dict, pruned: parts };
}

/**
 * Loads a `HashmapAugE n X Y` that may contain pruned branches. `extra` is the root extra when it
 * could be parsed; for a partial dictionary its raw bits are also kept in `pruned.rootExtra`.
 */
export function loadHashmapAugEPartial<K extends DictionaryKeyTypes, V, E>(
  slice: Slice,
  key: DictionaryKey<K>,
  value: DictionaryValue<V>,
  aug: Augmentation<E>,
): { dict: Dictionary<K, AugValue<V, E>>; extra?: E; pruned?: AugPrunedParts } {
  const root = slice.loadMaybeRef();
  if (!root) return { dict: emptyDict(key, augValueCodec(aug, value)), extra: aug.load(slice) };
  const { dict, pruned } = loadHashmapAugPartial(root, key, value, aug);
  // the extra's raw bits and refs; its size is found by parsing a copy (@ton/core reads a pruned
  // extra-currency dictionary as an empty one, so a parsed extra is only trusted if it re-serializes)
  const probe = slice.clone();
  aug.load(probe);
  const bits = slice.remainingBits - probe.remainingBits;
  const refs = slice.remainingRefs - probe.remainingRefs;
  const rb = beginCell().storeBits(slice.loadBits(bits));
  for (let i = 0; i < refs; i++) rb.storeRef(slice.loadRef());
  const raw = rb.endCell();
  let extra: E | undefined;
  try {
    const e = aug.load(raw.beginParse());
    if (beginCell().store(aug.store(e)).endCell().hash().equals(raw.hash())) extra = e;
  } catch {
    extra = undefined;
  }
  if (!pruned && extra !== undefined) return { dict, extra };
  const parts = pruned ?? { subtrees: [], forkExtras: new Map<string, Cell>() };
  parts.rootExtra = raw;
  return extra === undefined ? { dict, pruned: parts } : { dict, extra, pruned: parts };
}

// ---------------------------------------------------------------------------------------------
// Building

interface Entry<V> {
  /** Unsigned, `bits` wide; for a verbatim sub-tree its lowest key. */
  key: bigint;
  value: V;
  /** A sub-tree kept verbatim (partial dictionaries): its edge cell, where it starts, its highest key. */
  opaque?: { cell: Cell; prefixLen: number; last: bigint };
}

interface BuildCtx<V, E> {
  bits: number;
  storeLeaf: (value: V, b: Builder) => void;
  aug?: Augmentation<E>;
  leafExtra?: (value: V) => E;
  forkExtras?: Map<string, Cell>;
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

/** Builds the edge for entries[from, to) with n key bits left; `extra` is undefined when unknown (pruned below). */
function build<V, E>(entries: Entry<V>[], from: number, to: number, n: number, ctx: BuildCtx<V, E>): { cell: Cell; extra: E | undefined } {
  const consumed = ctx.bits - n;
  const firstEntry = entries[from];
  const lastEntry = entries[to - 1];
  if (to - from === 1 && firstEntry.opaque) {
    if (firstEntry.opaque.prefixLen !== consumed) throw new Error("partial dictionary: a pruned sub-tree does not hang off a fork");
    return { cell: firstEntry.opaque.cell, extra: undefined };
  }
  const first = firstEntry.key;
  const last = lastEntry.opaque ? lastEntry.opaque.last : lastEntry.key;
  const mask = n === 0 ? 0n : (1n << BigInt(n)) - 1n;
  const a = first & mask;
  const diff = a ^ (last & mask);
  // common prefix length of the remaining n bits of all keys (sorted, so first vs last suffices)
  const l = diff === 0n ? n : n - bitLength(diff);
  const b = beginCell();
  storeHmLabel(n === l ? a : a >> BigInt(n - l), l, n, b);
  if (l === n) {
    if (to - from !== 1) throw new Error("dictionary has duplicate keys");
    ctx.storeLeaf(firstEntry.value, b);
    return { cell: b.endCell(), extra: ctx.leafExtra?.(firstEntry.value) };
  }
  const m = n - l - 1; // bits left below the fork
  const splitBit = 1n << BigInt(m);
  let mid = from;
  while (mid < to && (entries[mid].key & splitBit) === 0n) mid++;
  if (mid === from || mid === to) throw new Error("internal: unbalanced fork");
  const left = build(entries, from, mid, m, ctx);
  const right = build(entries, mid, to, m, ctx);
  b.storeRef(left.cell);
  b.storeRef(right.cell);
  let extra: E | undefined;
  if (ctx.aug) {
    const kept = ctx.forkExtras?.get(forkPosition(first >> BigInt(m + 1), consumed + l));
    if (kept) {
      b.storeSlice(kept.beginParse());
    } else {
      if (left.extra === undefined || right.extra === undefined) {
        throw new Error("partial dictionary: no stored extra for a fork above a pruned branch");
      }
      extra = ctx.aug.fork(left.extra, right.extra);
      b.store(ctx.aug.store(extra));
    }
  }
  return { cell: b.endCell(), extra };
}

function sortedEntries<K extends DictionaryKeyTypes, V>(dict: Dictionary<K, V>, key: DictionaryKey<K>, pruned?: AugPrunedParts): Entry<V>[] {
  const bits = key.bits;
  const limit = 1n << BigInt(bits);
  const out: Entry<V>[] = [];
  for (const [k, v] of dict) {
    const kb = key.serialize(k);
    if (kb < 0n || kb >= limit) throw new Error(`dictionary key out of range for ${bits} bits`);
    out.push({ key: kb, value: v });
  }
  for (const t of pruned?.subtrees ?? []) {
    const free = BigInt(bits - t.prefixLen);
    const low = t.prefix << free;
    out.push({ key: low, value: undefined as V, opaque: { cell: t.cell, prefixLen: t.prefixLen, last: low | ((1n << free) - 1n) } });
  }
  out.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  for (let i = 1; i < out.length; i++) {
    const p = out[i - 1];
    if ((p.opaque ? p.opaque.last : p.key) >= out[i].key) throw new Error("dictionary has duplicate keys or overlaps a pruned sub-tree");
  }
  return out;
}

/** Builds the root cell of a non-empty `Hashmap n X`. */
export function buildHashmap<K extends DictionaryKeyTypes, V>(dict: Dictionary<K, V>, key: DictionaryKey<K>, value: DictionaryValue<V>): Cell {
  const entries = sortedEntries(dict, key);
  if (entries.length === 0) throw new Error("Hashmap (non-E) cannot be empty");
  return build<V, never>(entries, 0, entries.length, key.bits, { bits: key.bits, storeLeaf: (v, b) => value.serialize(v, b) }).cell;
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

function buildAug<K extends DictionaryKeyTypes, V, E>(
  dict: Dictionary<K, AugValue<V, E>>,
  key: DictionaryKey<K>,
  value: DictionaryValue<V>,
  aug: Augmentation<E>,
  pruned: AugPrunedParts | undefined,
): { root: Cell; extra: E | undefined } {
  const entries = sortedEntries(dict, key, pruned);
  if (entries.length === 0) throw new Error("HashmapAug (non-E) cannot be empty");
  const r = build(entries, 0, entries.length, key.bits, {
    bits: key.bits,
    storeLeaf: (v, b) => {
      b.store(aug.store(v.extra));
      value.serialize(v.value, b);
    },
    aug,
    leafExtra: (v) => v.extra,
    forkExtras: pruned?.forkExtras,
  });
  return { root: r.cell, extra: r.extra };
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
  const r = buildAug(dict, key, value, aug, undefined);
  return { root: r.root, extra: r.extra as E };
}

/**
 * Builds the root cell of a `HashmapAug n X Y` from the leaves and AugPrunedParts of a partial
 * dictionary (loadHashmapAugPartial). `extra` is undefined when the root contains pruned cells.
 */
export function buildHashmapAugPartial<K extends DictionaryKeyTypes, V, E>(
  dict: Dictionary<K, AugValue<V, E>>,
  key: DictionaryKey<K>,
  value: DictionaryValue<V>,
  aug: Augmentation<E>,
  pruned: AugPrunedParts | undefined,
): { root: Cell; extra: E | undefined } {
  return buildAug(dict, key, value, aug, pruned);
}

/**
 * The aggregate extra of an augmented dictionary (what ahme_root / ahme_empty store). Folds the
 * leaves in iteration order, so it assumes an associative and commutative `fork` (true for every
 * augmentation of block.tlb: sums, max/or/min); storeHashmapAugE always folds in tree order.
 */
export function hashmapAugExtra<K extends DictionaryKeyTypes, V, E>(dict: Dictionary<K, AugValue<V, E>>, aug: Augmentation<E>): E {
  let acc: E | undefined;
  for (const [, v] of dict) acc = acc === undefined ? v.extra : aug.fork(acc, v.extra);
  return acc ?? aug.empty();
}

/**
 * Stores `HashmapAugE n X Y`, computing every fork extra and the root extra. With `pruned` (from
 * loadHashmapAugEPartial) it re-stores a partial dictionary: pruned sub-trees and the extras above
 * them as loaded.
 */
export function storeHashmapAugE<K extends DictionaryKeyTypes, V, E>(
  dict: Dictionary<K, AugValue<V, E>>,
  key: DictionaryKey<K>,
  value: DictionaryValue<V>,
  aug: Augmentation<E>,
  pruned?: AugPrunedParts,
) {
  return (b: Builder): void => {
    if (dict.size === 0 && (pruned?.subtrees.length ?? 0) === 0) {
      b.storeBit(0);
      b.store(aug.store(aug.empty()));
    } else {
      const { root, extra } = buildAug(dict, key, value, aug, pruned);
      b.storeBit(1);
      b.storeRef(root);
      if (pruned?.rootExtra) b.storeSlice(pruned.rootExtra.beginParse());
      else if (extra !== undefined) b.store(aug.store(extra));
      else throw new Error("partial dictionary: the root extra is not known (pruned.rootExtra missing)");
    }
  };
}

/** An empty augmented dictionary with the right codecs attached. */
export function emptyAugDict<K extends DictionaryKeyTypes, V, E>(key: DictionaryKey<K>, value: DictionaryValue<V>, aug: Augmentation<E>): Dictionary<K, AugValue<V, E>> {
  return Dictionary.empty(key, augValueCodec(aug, value));
}

// ---------------------------------------------------------------------------------------------
// Incremental update of a HashmapAug kept as cells

/** A `HashmapAugE n X Y` as its root edge cell (null: empty) and root extra. */
export interface HashmapAugECell<E> {
  root: Cell | null;
  extra: E;
}

/** The extra of an augmented edge: it follows the label (leaf: before the value; fork: after the refs). */
function edgeExtra<E>(edge: Cell, n: number, aug: Augmentation<E>): E {
  const s = edge.beginParse();
  readHmLabel(s, n);
  return aug.load(s);
}

/** The edge `edge` (n key bits left) with its label cut by `drop` leading bits (n - drop bits left then). */
function relabel(edge: Cell, n: number, drop: number): Cell {
  const s = edge.beginParse();
  const label = readHmLabel(s, n);
  const len = label.len - drop;
  const b = beginCell();
  storeHmLabel(label.bits & ((1n << BigInt(len)) - 1n), len, n - drop, b);
  b.storeSlice(s);
  return b.endCell();
}

/**
 * Sets `key` of a `HashmapAug n X Y` given as its root edge cell, rebuilding only the cells on the
 * key's path: every other sub-tree is the same Cell object, so a dictionary that grows by one entry
 * per block costs O(depth) per block instead of a rebuild of every entry (McStateExtra.prev_blocks
 * gains one entry per masterchain block, forever). Labels are chosen as the validator does
 * (storeHmLabel), so the hashes equal those of a dictionary built from all its entries.
 */
export function hashmapAugSet<E>(
  root: Cell | null,
  n: number,
  key: bigint,
  leaf: { extra: E; store: (b: Builder) => void },
  aug: Augmentation<E>,
): { root: Cell; extra: E } {
  const newLeaf = (bits: number): Cell => {
    const b = beginCell();
    storeHmLabel(bits === 0 ? 0n : key & ((1n << BigInt(bits)) - 1n), bits, bits, b);
    b.store(aug.store(leaf.extra));
    leaf.store(b);
    return b.endCell();
  };
  const set = (edge: Cell | null, m: number): { cell: Cell; extra: E } => {
    if (!edge) return { cell: newLeaf(m), extra: leaf.extra };
    const s = edge.beginParse();
    const label = readHmLabel(s, m);
    const mine = m === 0 ? 0n : (key >> BigInt(m - label.len)) & ((1n << BigInt(label.len)) - 1n);
    const diff = mine ^ label.bits;
    if (diff === 0n) {
      if (label.len === m) return { cell: newLeaf(m), extra: leaf.extra }; // replace a leaf
      // descend through the fork below the label
      const below = m - label.len - 1;
      const bit = Number((key >> BigInt(below)) & 1n);
      const left = s.loadRef();
      const right = s.loadRef();
      const child = set(bit ? right : left, below);
      const other = bit ? left : right;
      const extra = bit ? aug.fork(edgeExtra(other, below, aug), child.extra) : aug.fork(child.extra, edgeExtra(other, below, aug));
      const b = beginCell();
      storeHmLabel(label.bits, label.len, m, b);
      b.storeRef(bit ? left : child.cell).storeRef(bit ? child.cell : right);
      b.store(aug.store(extra));
      return { cell: b.endCell(), extra };
    }
    // the key leaves the label after `common` bits: a fork there, the old edge relabelled below it
    const common = label.len - bitLength(diff);
    const below = m - common - 1;
    const oldEdge = relabel(edge, m, common + 1);
    const oldExtra = edgeExtra(oldEdge, below, aug);
    const fresh = newLeaf(below);
    const bit = Number((key >> BigInt(below)) & 1n);
    const extra = bit ? aug.fork(oldExtra, leaf.extra) : aug.fork(leaf.extra, oldExtra);
    const b = beginCell();
    storeHmLabel(common === 0 ? 0n : label.bits >> BigInt(label.len - common), common, m, b);
    b.storeRef(bit ? oldEdge : fresh).storeRef(bit ? fresh : oldEdge);
    b.store(aug.store(extra));
    return { cell: b.endCell(), extra };
  };
  const r = set(root, n);
  return { root: r.cell, extra: r.extra };
}

/** Stores a HashmapAugE kept as cells (hashmapAugSet): ahme_empty / ahme_root with its extra. */
export function storeHashmapAugECell<E>(src: HashmapAugECell<E>, aug: Augmentation<E>) {
  return (b: Builder): void => {
    if (!src.root) b.storeBit(0);
    else b.storeBit(1).storeRef(src.root);
    b.store(aug.store(src.root ? src.extra : aug.empty()));
  };
}
