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

// ---------------------------------------------------------------------------------------------
// Pruning: Merkle proofs and updates from complete (or partial) trees

function isMerkleCell(c: Cell): boolean {
  return c.type === CellType.MerkleProof || c.type === CellType.MerkleUpdate;
}

/**
 * The pruned branch standing for `cell` at Merkle depth `merkleDepth` (0: in the tree directly
 * under a MERKLE_PROOF / MERKLE_UPDATE; +1 below each nested Merkle cell), as the node builds it
 * (DataCell::create_pruned_branch): level mask = the cell's mask seen at that depth | 1 <<
 * merkleDepth, then the cell's hashes and depths at level 0 and at each level of that mask. For a
 * cell at depth 0 (also one that itself contains pruned branches: it is seen virtualized, as the
 * original cell) this is the usual `01 01 hash(0) depth(0)` cell; its hash(0) is the cell's hash(0).
 */
export function prunedBranchCell(cell: Cell, merkleDepth = 0): Cell {
  if (merkleDepth < 0 || merkleDepth > 2) throw new Error(`bad Merkle depth ${merkleDepth}`);
  const mask = cell.mask.apply(merkleDepth).value;
  const levels = [0];
  for (let i = 0; i < merkleDepth; i++) if (mask & (1 << i)) levels.push(i + 1);
  const b = beginCell().storeUint(1, 8).storeUint(mask | (1 << merkleDepth), 8);
  for (const l of levels) b.storeBuffer(cell.hash(l));
  for (const l of levels) b.storeUint(cell.depth(l), 16);
  return b.endCell({ exotic: true });
}

/**
 * `root` with every cell that `keep` rejects replaced by its pruned branch (the root itself is
 * always kept). `keep` sees each child of a kept cell (its decision covers the whole sub-tree);
 * pruned branches already in the tree stay as they are, and cells under a nested MERKLE_PROOF /
 * MERKLE_UPDATE are pruned one Merkle level deeper. Shared sub-trees are rebuilt once.
 */
export function pruneCells(root: Cell, keep: (cell: Cell) => boolean, merkleDepth = 0): Cell {
  const memo = new Map<string, Cell>();
  const visit = (cell: Cell, depth: number): Cell => {
    if (cell.refs.length === 0) return cell;
    const id = `${depth}:${cell.hash().toString("hex")}`;
    const done = memo.get(id);
    if (done) return done;
    const childDepth = isMerkleCell(cell) ? depth + 1 : depth;
    let changed = false;
    const refs = cell.refs.map((r) => {
      const out = r.type === CellType.PrunedBranch ? r : keep(r) ? visit(r, childDepth) : prunedBranchCell(r, childDepth);
      if (out !== r) changed = true;
      return out;
    });
    let res = cell;
    if (changed) {
      const b = beginCell().storeBits(cell.bits);
      for (const r of refs) b.storeRef(r);
      res = b.endCell({ exotic: cell.isExotic });
    }
    memo.set(id, res);
    return res;
  };
  return visit(root, merkleDepth);
}

/**
 * A MERKLE_PROOF cell of `root` keeping the cells in `keep` — a set of representation hashes
 * (`cell.hash().toString("hex")`: the cells a reader visits, like the node's usage tree) or a
 * predicate — and pruning every other child of a kept cell. The root is always kept. The proof's
 * virtual hash (and `proof.refs[0].hash(0)`) is `root.hash(0)`.
 */
export function makeMerkleProof(root: Cell, keep: Set<string> | ((cell: Cell) => boolean)): Cell {
  const pred = typeof keep === "function" ? keep : (c: Cell) => keep.has(c.hash().toString("hex"));
  const pruned = pruneCells(root, pred, 0);
  return merkleProofCell({ virtualHash: pruned.hash(0), depth: pruned.depth(0), virtualRoot: pruned });
}

function level0Hashes(root: Cell): Set<string> {
  const out = new Set<string>();
  const seen = new Set<string>();
  const stack = [root];
  while (stack.length > 0) {
    const c = stack.pop()!;
    const id = c.hash().toString("hex");
    if (seen.has(id)) continue;
    seen.add(id);
    out.add(c.hash(0).toString("hex"));
    for (const r of c.refs) stack.push(r);
  }
  return out;
}

/**
 * The cells two trees share, found without walking what they share: both trees are walked a level
 * at a time, and a cell seen on both sides is not entered (its sub-tree is the same cells on both
 * sides); a cell under one that turned out shared is not entered either. The cost is the size of
 * the difference (and its fringe), not of the trees: what a new state costs when one state follows
 * another with a few changed paths.
 */
function sharedCells(oldRoot: Cell, newRoot: Cell): { seenOld: Set<string>; seenNew: Set<string> } {
  interface Node {
    cell: Cell;
    hash: string;
    parent: Node | undefined;
    shared: boolean;
  }
  const seen = [new Map<string, Node>(), new Map<string, Node>()];
  let level: Node[][] = [[{ cell: oldRoot, hash: oldRoot.hash().toString("hex"), parent: undefined, shared: false }], [{ cell: newRoot, hash: newRoot.hash().toString("hex"), parent: undefined, shared: false }]];
  const underShared = (n: Node | undefined): boolean => {
    for (let x = n; x; x = x.parent) if (x.shared) return true;
    return false;
  };
  while (level[0]!.length + level[1]!.length > 0) {
    for (const side of [0, 1]) for (const n of level[side]!) if (!seen[side]!.has(n.hash)) seen[side]!.set(n.hash, n);
    // a cell seen on both sides is shared, wherever each side has it
    for (const side of [0, 1]) for (const n of level[side]!) if (seen[1 - side]!.has(n.hash)) n.shared = seen[1 - side]!.get(n.hash)!.shared = true;
    const next: Node[][] = [[], []];
    for (const side of [0, 1]) {
      for (const n of level[side]!) {
        if (seen[side]!.get(n.hash) !== n || underShared(n)) continue; // entered elsewhere, or the same on both sides
        for (const r of n.cell.refs) next[side]!.push({ cell: r, hash: r.hash().toString("hex"), parent: n, shared: false });
      }
    }
    level = next;
  }
  return { seenOld: new Set(seen[0]!.keys()), seenNew: new Set(seen[1]!.keys()) };
}

/**
 * A MerkleUpdate from `oldRoot` to `newRoot` carrying only what changed: the old tree keeps the
 * cells that are not in the new one, and the new tree prunes every cell present in that pruned
 * old tree (MerkleUpdate::generate's rule: every pruned branch of `new` must be a cell of `old`,
 * visible or pruned, so a sub-tree of `old` that moved under a new parent is carried in full).
 * Only the differing parts of the trees are walked (sharedCells). Wrap it with merkleUpdateCell to
 * put it in a block.
 */
export function diffMerkleUpdate(oldRoot: Cell, newRoot: Cell): MerkleUpdate {
  const { seenNew } = sharedCells(oldRoot, newRoot);
  // an old cell the walk did not meet on the new side is kept: never a wrong update, at worst a larger one
  const oldPart = pruneCells(oldRoot, (c) => !seenNew.has(c.hash().toString("hex")));
  const known = level0Hashes(oldPart);
  const newPart = pruneCells(newRoot, (c) => !known.has(c.hash(0).toString("hex")));
  return makeMerkleUpdate(oldPart, newPart);
}

/**
 * Applies a MerkleUpdate to the old state it was made from: checks old_hash, replaces each pruned
 * branch of `new` by the cell of `oldRoot` it stands for, and checks new_hash. Returns the new root.
 */
export function applyMerkleUpdate(oldRoot: Cell, update: MerkleUpdate): Cell {
  if (!oldRoot.hash(0).equals(update.oldHash)) throw new Error("MerkleUpdate: old_hash differs from the given state");
  const byHash = new Map<string, Cell>();
  const stack = [oldRoot];
  while (stack.length > 0) {
    const c = stack.pop()!;
    const h = c.hash(0).toString("hex");
    const prev = byHash.get(h);
    if (prev && (prev.type !== CellType.PrunedBranch || c.type === CellType.PrunedBranch)) continue;
    byHash.set(h, c);
    for (const r of c.refs) stack.push(r);
  }
  const memo = new Map<string, Cell>();
  const visit = (cell: Cell): Cell => {
    if (cell.type === CellType.PrunedBranch) {
      const full = byHash.get(cell.hash(0).toString("hex"));
      if (!full) throw new Error("MerkleUpdate: a pruned branch of the new state is not in the old state");
      return full;
    }
    if (cell.refs.length === 0) return cell;
    const id = cell.hash().toString("hex");
    const done = memo.get(id);
    if (done) return done;
    const b = beginCell().storeBits(cell.bits);
    for (const r of cell.refs) b.storeRef(visit(r));
    const res = b.endCell({ exotic: cell.isExotic });
    memo.set(id, res);
    return res;
  };
  const out = visit(update.new);
  if (!out.hash(0).equals(update.newHash)) throw new Error("MerkleUpdate: the result does not have new_hash");
  return out;
}

/**
 * Checks a MerkleUpdate the way the node does (vm::MerkleUpdate::validate): hashes and depths
 * match the trees, and every pruned branch of `new` stands for a cell of `old` (a visible cell or
 * a pruned branch there). Throws on the first problem.
 */
export function checkMerkleUpdate(update: MerkleUpdate): void {
  if (!update.old.hash(0).equals(update.oldHash) || update.old.depth(0) !== update.oldDepth) throw new Error("MerkleUpdate: old hash/depth mismatch");
  if (!update.new.hash(0).equals(update.newHash) || update.new.depth(0) !== update.newDepth) throw new Error("MerkleUpdate: new hash/depth mismatch");
  const known = level0Hashes(update.old);
  const seen = new Set<string>();
  const stack = [update.new];
  while (stack.length > 0) {
    const c = stack.pop()!;
    const id = c.hash().toString("hex");
    if (seen.has(id)) continue;
    seen.add(id);
    if (c.type === CellType.PrunedBranch && !known.has(c.hash(0).toString("hex"))) {
      throw new Error(`MerkleUpdate: pruned branch ${c.hash(0).toString("hex")} of the new state is not in the old state`);
    }
    for (const r of c.refs) stack.push(r);
  }
}

/** Adds the hash (hex) of every cell of the tree under `root` to `into`: what a Merkle proof keeps whole. */
export function collectCellHashes(root: Cell, into: Set<string>): void {
  const stack = [root];
  while (stack.length > 0) {
    const c = stack.pop()!;
    const h = c.hash().toString("hex");
    if (into.has(h)) continue;
    into.add(h);
    for (const r of c.refs) stack.push(r);
  }
}
