// Merkle proofs the way the node cuts them: a liteserver query reads cells through a
// vm::MerkleProofBuilder, and the proof keeps exactly the cells it loaded (their children that
// were not loaded become pruned branches). `Usage` records the cells a handler reads from a real
// block or state tree; the dictionary walks below read only the edges TON's vm::Dictionary reads
// (exact lookups, lookup_nearest_key), and the unpack helpers load what the TL-B records of
// block.tlb load (a nested ^[ … ] record is loaded with its parent).
import { type Cell, CellType, type Slice } from "@ton/core";
import { makeMerkleProof } from "@tongate/block";

/** The cells read from one tree (the root is always read); `proof()` is the MERKLE_PROOF of what was read. */
export class Usage {
  private readonly kept = new Set<string>();

  constructor(readonly root: Cell) {
    this.kept.add(root.hash().toString("hex"));
  }

  /** Marks `cell` as read and returns a slice of it. */
  load(cell: Cell): Slice {
    if (cell.type === CellType.PrunedBranch) throw new Error("the tree is pruned where the query reads it");
    this.kept.add(cell.hash().toString("hex"));
    return cell.beginParse(cell.isExotic);
  }

  /** Marks `cell` and everything under it as read (TON's `visit`). */
  loadTree(cell: Cell): void {
    const seen = new Set<string>();
    const stack = [cell];
    while (stack.length > 0) {
      const c = stack.pop()!;
      const h = c.hash().toString("hex");
      if (seen.has(h)) continue;
      seen.add(h);
      this.kept.add(h);
      for (const r of c.refs) stack.push(r);
    }
  }

  /** The MERKLE_PROOF of the root keeping the cells read; its virtual hash is `root.hash(0)`. */
  proof(): Cell {
    return makeMerkleProof(this.root, this.kept);
  }
}

// ---------------------------------------------------------------------------------------------
// Hashmap (hashmap.tlb) edges: the root edge is either a cell of its own (HashmapE: ^(Hashmap n X))
// or inline in a larger cell (an AccountBlock's transactions); `Edge` makes a fresh slice positioned
// at the label on each call, as every vm::Dictionary operation starts from the root again.

export type Edge = () => Slice;

/** The root edge of a dictionary stored in its own cell. */
export const cellEdge = (u: Usage, cell: Cell): Edge => () => u.load(cell);

/** A root edge inline in a slice (`s` positioned at the label; it is not consumed). */
export const inlineEdge = (s: Slice): Edge => {
  const start = s.clone();
  return () => start.clone();
};

const lenBits = (m: number) => 32 - Math.clz32(m);
const mask = (n: number) => (1n << BigInt(n)) - 1n;

function readLabel(s: Slice, m: number): { len: number; bits: bigint } {
  if (!s.loadBit()) {
    let len = 0; // hml_short$0 len:(Unary ~n) s:(n * Bit)
    while (s.loadBit()) len++;
    if (len > m) throw new Error("Hashmap: label longer than the remaining key");
    return { len, bits: len > 0 ? s.loadUintBig(len) : 0n };
  }
  const k = lenBits(m);
  if (!s.loadBit()) {
    const len = k > 0 ? s.loadUint(k) : 0; // hml_long$10 n:(#<= m) s:(n * Bit)
    if (len > m) throw new Error("Hashmap: label longer than the remaining key");
    return { len, bits: len > 0 ? s.loadUintBig(len) : 0n };
  }
  const v = s.loadBit(); // hml_same$11 v:Bit n:(#<= m)
  const len = k > 0 ? s.loadUint(k) : 0;
  if (len > m) throw new Error("Hashmap: label longer than the remaining key");
  return { len, bits: v ? mask(len) : 0n };
}

/** The value of `key` (n bits) in the Hashmap whose root edge is `edge`: the leaf slice after the label, or null. */
export function dictGet(u: Usage, edge: Edge, n: number, key: bigint): Slice | null {
  let s = edge();
  let m = n;
  let rest = key & mask(n);
  for (;;) {
    const label = readLabel(s, m);
    if (label.bits !== rest >> BigInt(m - label.len)) return null;
    m -= label.len;
    rest &= mask(m);
    if (m === 0) return s;
    const left = s.loadRef();
    const right = s.loadRef();
    m -= 1;
    const bit = (rest >> BigInt(m)) & 1n;
    rest &= mask(m);
    s = u.load(bit ? right : left);
  }
}

export interface DictEntry {
  key: bigint;
  /** The leaf after its label: the augmentation extra (HashmapAug) then the value. */
  value: Slice;
}

function extreme(u: Usage, s: Slice, m: number, min: boolean): DictEntry {
  const label = readLabel(s, m);
  if (label.len === m) return { key: label.bits, value: s };
  const left = s.loadRef();
  const right = s.loadRef();
  const rest = m - label.len - 1;
  const sub = extreme(u, u.load(min ? left : right), rest, min);
  return { key: (label.bits << BigInt(rest + 1)) | ((min ? 0n : 1n) << BigInt(rest)) | sub.key, value: sub.value };
}

function nearest(u: Usage, s: Slice, m: number, key: bigint, next: boolean, allowEq: boolean): DictEntry | null {
  const label = readLabel(s, m);
  const l = label.len;
  const prefix = key >> BigInt(m - l);
  if (label.bits !== prefix) {
    // The whole sub-tree is on one side of the key.
    if (label.bits > prefix !== next) return null;
    if (l === m) return { key: label.bits, value: s };
    const left = s.loadRef();
    const right = s.loadRef();
    const rest = m - l - 1;
    const sub = extreme(u, u.load(next ? left : right), rest, next);
    return { key: (label.bits << BigInt(rest + 1)) | ((next ? 0n : 1n) << BigInt(rest)) | sub.key, value: sub.value };
  }
  if (l === m) return allowEq ? { key: label.bits, value: s } : null;
  const left = s.loadRef();
  const right = s.loadRef();
  const rest = m - l - 1;
  const bit = (key >> BigInt(rest)) & 1n;
  const head = (b: bigint) => (label.bits << BigInt(rest + 1)) | (b << BigInt(rest));
  const sub = nearest(u, u.load(bit ? right : left), rest, key & mask(rest), next, allowEq);
  if (sub) return { key: head(bit) | sub.key, value: sub.value };
  // Nothing on the key's side: the nearest is the extreme of the sibling, if it lies the right way.
  if (next && bit === 0n) {
    const e = extreme(u, u.load(right), rest, true);
    return { key: head(1n) | e.key, value: e.value };
  }
  if (!next && bit === 1n) {
    const e = extreme(u, u.load(left), rest, false);
    return { key: head(0n) | e.key, value: e.value };
  }
  return null;
}

/**
 * TON's DictionaryFixed::lookup_nearest_key: the first key after `key` (`next`) or before it, or `key`
 * itself when `allowEq` and present. Keys are unsigned n-bit integers.
 */
export function dictNearest(u: Usage, edge: Edge, n: number, key: bigint, next: boolean, allowEq: boolean): DictEntry | null {
  return nearest(u, edge(), n, key & mask(n), next, allowEq);
}

/** The least (`min`) or greatest key of a non-empty Hashmap. */
export function dictExtreme(u: Usage, edge: Edge, n: number, min: boolean): DictEntry {
  return extreme(u, edge(), n, min);
}

/** Skips a CurrencyCollection (grams, then the extra currencies HashmapE). */
export function skipCurrencyCollection(s: Slice): void {
  s.loadCoins();
  s.loadMaybeRef();
}

// ---------------------------------------------------------------------------------------------
// Records of block.tlb as TON's tlb::unpack_cell reads them

export interface BlockParts {
  info: Cell;
  valueFlow: Cell;
  stateUpdate: Cell;
  extra: Cell;
}

/** block#11ef55aa global_id info:^BlockInfo value_flow:^ValueFlow state_update:^(MERKLE_UPDATE ShardState) extra:^BlockExtra. */
export function unpackBlock(u: Usage, root: Cell): BlockParts {
  const s = u.load(root);
  if (s.loadUint(32) !== 0x11ef55aa) throw new Error("not a Block");
  return { info: s.loadRef(), valueFlow: s.loadRef(), stateUpdate: s.loadRef(), extra: s.loadRef() };
}

export interface BlockExtraParts {
  inMsgDescr: Cell;
  outMsgDescr: Cell;
  accountBlocks: Cell;
  /** McBlockExtra (masterchain blocks). */
  custom: Cell | null;
}

/** block_extra in_msg_descr:^ out_msg_descr:^ account_blocks:^ rand_seed created_by custom:(Maybe ^McBlockExtra). */
export function unpackBlockExtra(u: Usage, extra: Cell): BlockExtraParts {
  const s = u.load(extra);
  if (s.loadUint(32) !== 0x4a33f6fd) throw new Error("not a BlockExtra");
  const inMsgDescr = s.loadRef();
  const outMsgDescr = s.loadRef();
  const accountBlocks = s.loadRef();
  s.skip(512);
  return { inMsgDescr, outMsgDescr, accountBlocks, custom: s.loadMaybeRef() };
}

export interface McBlockExtraParts {
  keyBlock: boolean;
  /** Root of ShardHashes (HashmapE 32 ^(BinTree ShardDescr)), null if empty. */
  shardHashes: Cell | null;
  /** Key blocks: the config dictionary (Hashmap 32 ^Cell). */
  config: Cell | null;
}

/** masterchain_block_extra#cca5 key_block shard_hashes shard_fees ^[ prev_blk_signatures … ] config:key_block?ConfigParams (the ^[…] is loaded too). */
export function unpackMcBlockExtra(u: Usage, cell: Cell): McBlockExtraParts {
  const s = u.load(cell);
  if (s.loadUint(16) !== 0xcca5) throw new Error("not a McBlockExtra");
  const keyBlock = s.loadBit();
  const shardHashes = s.loadMaybeRef();
  s.loadMaybeRef(); // shard_fees root
  skipCurrencyCollection(s); // shard_fees extra: fees, create
  skipCurrencyCollection(s);
  u.load(s.loadRef());
  let config: Cell | null = null;
  if (keyBlock) {
    s.skip(256);
    config = s.loadRef();
  }
  return { keyBlock, shardHashes, config };
}

export interface StateParts {
  outMsgQueueInfo: Cell;
  accounts: Cell;
  /** The ^[ overload_history … libraries master_ref ] cell. */
  other: Cell;
  /** McStateExtra (masterchain states). */
  custom: Cell | null;
}

/** shard_state#9023afe2 … (the ^[…] part is loaded with the root, as ShardStateUnsplit::Record does). */
export function unpackState(u: Usage, root: Cell): StateParts {
  const s = u.load(root);
  if (s.loadUint(32) !== 0x9023afe2) throw new Error("not a ShardStateUnsplit");
  s.skip(32 + 104 + 32 + 32 + 32 + 64 + 32);
  const outMsgQueueInfo = s.loadRef();
  s.skip(1);
  const accounts = s.loadRef();
  const other = s.loadRef();
  u.load(other);
  return { outMsgQueueInfo, accounts, other, custom: s.loadMaybeRef() };
}

/** The libraries dictionary root of a state (in its ^[…] part). */
export function stateLibraries(u: Usage, other: Cell): Cell | null {
  const s = u.load(other);
  s.skip(128);
  skipCurrencyCollection(s);
  skipCurrencyCollection(s);
  return s.loadMaybeRef();
}

export interface McStateExtraParts {
  shardHashes: Cell | null;
  configAddr: Buffer;
  /** The config dictionary (Hashmap 32 ^Cell). */
  config: Cell;
  /** The ^[ flags validator_info prev_blocks … ] cell (loaded). */
  other: Cell;
}

/** masterchain_state_extra#cc26 shard_hashes config:ConfigParams ^[ … ] global_balance (the ^[…] is loaded too). */
export function unpackMcStateExtra(u: Usage, cell: Cell): McStateExtraParts {
  const s = u.load(cell);
  if (s.loadUint(16) !== 0xcc26) throw new Error("not a McStateExtra");
  const shardHashes = s.loadMaybeRef();
  const configAddr = s.loadBuffer(32);
  const config = s.loadRef();
  const other = s.loadRef();
  u.load(other);
  return { shardHashes, configAddr, config, other };
}

export interface McStateOther {
  flags: number;
  /** Root of prev_blocks (OldMcBlocksInfo: HashmapAugE 32 KeyExtBlkRef KeyMaxLt), null if empty. */
  prevBlocks: Cell | null;
  /** block_create_stats: its counters dictionary root and whether it is augmented (block_create_stats_ext). */
  createStats: { root: Cell | null; augmented: boolean } | null;
}

export function readMcStateOther(u: Usage, other: Cell): McStateOther {
  const s = u.load(other);
  const flags = s.loadUint(16);
  s.skip(65); // validator_info
  const prevBlocks = s.loadMaybeRef();
  s.skip(65); // prev_blocks extra: KeyMaxLt
  s.skip(1); // after_key_block
  if (s.loadBit()) s.skip(64 + 32 + 256 + 256); // last_key_block
  let createStats: McStateOther["createStats"] = null;
  if (flags & 1) {
    const tag = s.loadUint(8);
    if (tag === 0x17) createStats = { root: s.loadMaybeRef(), augmented: false };
    else if (tag === 0x34) createStats = { root: s.loadMaybeRef(), augmented: true };
    else throw new Error(`BlockCreateStats: bad tag 0x${tag.toString(16)}`);
  }
  return { flags, prevBlocks, createStats };
}

/** A config parameter's value cell (config keys are int32), marking the lookup path; `visit` reads the whole value. */
export function configParam(u: Usage, config: Cell, id: number, visit: boolean): Cell | null {
  const leaf = dictGet(u, cellEdge(u, config), 32, BigInt.asUintN(32, BigInt(id)));
  if (!leaf) return null;
  const value = leaf.loadRef();
  if (visit) u.loadTree(value);
  return value;
}

export interface OldMcBlock {
  seqno: number;
  key: boolean;
  endLt: bigint;
  rootHash: Buffer;
  fileHash: Buffer;
}

/** An entry of prev_blocks (key:Bool then ExtBlkRef after the KeyMaxLt extra). */
export function prevBlock(u: Usage, prevBlocks: Cell | null, seqno: number): OldMcBlock | null {
  if (!prevBlocks) return null;
  const leaf = dictGet(u, cellEdge(u, prevBlocks), 32, BigInt(seqno));
  if (!leaf) return null;
  leaf.skip(65); // KeyMaxLt
  const key = leaf.loadBit();
  const endLt = leaf.loadUintBig(64);
  const seq = leaf.loadUint(32);
  return { seqno: seq, key, endLt, rootHash: leaf.loadBuffer(32), fileHash: leaf.loadBuffer(32) };
}
