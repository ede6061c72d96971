// BoC and Merkle-proof plumbing: deserialization with strict checks on exotic cells, opening a MERKLE_PROOF
// against the hash it must have, and pruned-branch detection.
import { type Cell, type Slice, Cell as CellClass, CellType } from "@ton/core";
import { fail, guard } from "./errors.js";

export function hex(b: Buffer): string {
  return b.toString("hex");
}

export function isPruned(cell: Cell): boolean {
  return cell.type === CellType.PrunedBranch;
}

/**
 * Checks every cell of the trees once: pruned branches must have the canonical layout (tag 1, level mask,
 * one hash + depth per level; @ton/core also accepts a 280-bit form without the mask byte, TON does not),
 * library cells theirs (tag 2, a hash).
 */
function checkExoticLayout(roots: Cell[], what: string): void {
  const seen = new Set<Cell>();
  const stack = [...roots];
  while (stack.length > 0) {
    const c = stack.pop()!;
    if (seen.has(c)) continue;
    seen.add(c);
    if (c.type === CellType.PrunedBranch) {
      const bits = c.bits;
      if (bits.length < 16) fail(`${what}: malformed pruned branch cell (${bits.length} bits)`);
      const mask = c.beginParse(true).skip(8).loadUint(8);
      const levels = [1, 2, 4].filter((m) => mask & m).length;
      if (mask < 1 || mask > 7 || bits.length !== 16 + levels * (256 + 16)) {
        fail(`${what}: malformed pruned branch cell (level mask ${mask}, ${bits.length} bits)`);
      }
    } else if (c.type === CellType.Library) {
      // An account's code may be a library cell (mainnet's jetton wallets): proofs of its state carry it.
      // Its layout is library$_ tag:(## 8) {tag = 2} hash:bits256, no refs.
      if (c.bits.length !== 8 + 256 || c.refs.length !== 0) fail(`${what}: malformed library cell (${c.bits.length} bits, ${c.refs.length} refs)`);
    }
    for (const r of c.refs) stack.push(r);
  }
}

/** Deserializes a BoC that must have exactly `roots` roots (any number when omitted). */
export function deserializeBoc(boc: Buffer, what: string, roots?: number): Cell[] {
  if (boc.length === 0) fail(`${what} is empty`);
  const cells = guard(`${what}: cannot deserialize BoC`, () => CellClass.fromBoc(boc));
  if (roots !== undefined && cells.length !== roots) {
    fail(`${what} must have exactly ${roots} root cell${roots === 1 ? "" : "s"}, got ${cells.length}`);
  }
  checkExoticLayout(cells, what);
  return cells;
}

/**
 * The virtual root of a MERKLE_PROOF cell, after checking that its (level-0) hash — the hash of the original
 * tree the proof stands for — is `expectedHash`.
 */
export function openMerkleProof(cell: Cell, expectedHash: Buffer, what: string): Cell {
  if (cell.type !== CellType.MerkleProof) fail(`${what} is not a Merkle proof cell (cell type ${CellType[cell.type]})`);
  const virtualRoot = cell.refs[0];
  const vhash = virtualRoot.hash(0);
  // @ton/core already checked the stored hash against the reference; compare both anyway.
  const stored = cell.beginParse(true).skip(8).loadBuffer(32);
  if (!stored.equals(vhash)) fail(`${what}: Merkle proof stores hash ${hex(stored)} but its root hashes to ${hex(vhash)}`);
  if (!vhash.equals(expectedHash)) fail(`${what}: Merkle proof is for hash ${hex(vhash)}, expected ${hex(expectedHash)}`);
  return virtualRoot;
}

/** The hash of the original tree a MERKLE_PROOF cell stands for (no check). */
export function merkleProofVirtualHash(cell: Cell, what: string): Buffer {
  if (cell.type !== CellType.MerkleProof) fail(`${what} is not a Merkle proof cell (cell type ${CellType[cell.type]})`);
  return cell.refs[0].hash(0);
}

/** A slice of an ordinary cell of the proven tree; a pruned one means the proof lacks data it must have. */
export function openCell(cell: Cell, what: string): Slice {
  if (cell.type === CellType.PrunedBranch) fail(`${what} is pruned in the proof`);
  if (cell.type !== CellType.Ordinary) fail(`${what}: unexpected exotic cell (${CellType[cell.type]})`);
  return cell.beginParse();
}

/** Throws unless the tree under `cell` has no pruned branch (the proof must carry it whole). */
export function assertComplete(cell: Cell, what: string): void {
  const seen = new Set<Cell>();
  const stack = [cell];
  while (stack.length > 0) {
    const c = stack.pop()!;
    if (seen.has(c)) continue;
    seen.add(c);
    if (c.type === CellType.PrunedBranch) fail(`${what} is incomplete: part of it is pruned in the proof`);
    for (const r of c.refs) stack.push(r);
  }
}
