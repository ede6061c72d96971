// MERKLE_UPDATE / MERKLE_PROOF exotic cells.
import { type Builder, Cell, CellType, beginCell } from "@ton/core";

/**
 * !merkle_update#04 {X:Type} old_hash:bits256 new_hash:bits256 old_depth:uint16 new_depth:uint16
 *   old:^X new:^X = MERKLE_UPDATE X;
 * `old` / `new` are kept as cells: in a block they are ShardState trees with pruned branches.
 */
export interface MerkleUpdate {
  oldHash: Buffer;
  newHash: Buffer;
  oldDepth: number;
  newDepth: number;
  old: Cell;
  new: Cell;
}

export function loadMerkleUpdate(cell: Cell): MerkleUpdate {
  if (cell.type !== CellType.MerkleUpdate) throw new Error(`MERKLE_UPDATE: expected a Merkle update cell, got type ${cell.type}`);
  const s = cell.beginParse(true);
  const tag = s.loadUint(8);
  if (tag !== 4) throw new Error(`MERKLE_UPDATE: bad tag ${tag}`);
  const oldHash = s.loadBuffer(32);
  const newHash = s.loadBuffer(32);
  const oldDepth = s.loadUint(16);
  const newDepth = s.loadUint(16);
  const old = s.loadRef();
  const nw = s.loadRef();
  s.endParse();
  return { oldHash, newHash, oldDepth, newDepth, old, new: nw };
}

/** Writes the Merkle update's content; end the builder with `endCell({ exotic: true })`. */
export function storeMerkleUpdate(src: MerkleUpdate) {
  return (b: Builder): void => {
    b.storeUint(4, 8);
    b.storeBuffer(src.oldHash, 32);
    b.storeBuffer(src.newHash, 32);
    b.storeUint(src.oldDepth, 16);
    b.storeUint(src.newDepth, 16);
    b.storeRef(src.old);
    b.storeRef(src.new);
  };
}

/** The exotic MERKLE_UPDATE cell (@ton/core checks hashes and depths against the refs). */
export function merkleUpdateCell(src: MerkleUpdate): Cell {
  return beginCell().store(storeMerkleUpdate(src)).endCell({ exotic: true });
}

/** A MerkleUpdate of `oldRoot` → `newRoot` with hashes/depths taken from the (possibly pruned) cells. */
export function makeMerkleUpdate(oldRoot: Cell, newRoot: Cell): MerkleUpdate {
  return {
    oldHash: oldRoot.hash(0),
    newHash: newRoot.hash(0),
    oldDepth: oldRoot.depth(0),
    newDepth: newRoot.depth(0),
    old: oldRoot,
    new: newRoot,
  };
}

/** !merkle_proof#03 {X:Type} virtual_hash:bits256 depth:uint16 virtual_root:^X = MERKLE_PROOF X. */
export interface MerkleProof {
  virtualHash: Buffer;
  depth: number;
  virtualRoot: Cell;
}

export function loadMerkleProof(cell: Cell): MerkleProof {
  if (cell.type !== CellType.MerkleProof) throw new Error(`MERKLE_PROOF: expected a Merkle proof cell, got type ${cell.type}`);
  const s = cell.beginParse(true);
  const tag = s.loadUint(8);
  if (tag !== 3) throw new Error(`MERKLE_PROOF: bad tag ${tag}`);
  const virtualHash = s.loadBuffer(32);
  const depth = s.loadUint(16);
  const virtualRoot = s.loadRef();
  s.endParse();
  return { virtualHash, depth, virtualRoot };
}

export function storeMerkleProof(src: MerkleProof) {
  return (b: Builder): void => {
    b.storeUint(3, 8);
    b.storeBuffer(src.virtualHash, 32);
    b.storeUint(src.depth, 16);
    b.storeRef(src.virtualRoot);
  };
}

export function merkleProofCell(src: MerkleProof): Cell {
  return beginCell().store(storeMerkleProof(src)).endCell({ exotic: true });
}

/**
 * Root hash of a block: the representation hash of its root cell. Works for a full block cell, for
 * the virtual root of a Merkle proof (a tree with pruned branches: its level-0 hash is the hash of
 * the original block), and for the MERKLE_PROOF cell itself.
 */
export function blockRootHash(cell: Cell): Buffer {
  if (cell.type === CellType.MerkleProof) return loadMerkleProof(cell).virtualRoot.hash(0);
  return cell.hash(0);
}
