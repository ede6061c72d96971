// Cutting liteserver-style proofs out of whole trees (what the liteserver's MerkleProofBuilder keeps for each
// answer), for the synthetic chain and for real full blocks.
import type { Cell } from "@ton/core";
import { key, merkleProof, pathsTo, subtree } from "./helpers.js";

export const same = (a: Cell) => (c: Cell) => c.hash().equals(a.hash());

function union(...sets: Set<string>[]): Set<string> {
  const out = new Set<string>();
  for (const s of sets) for (const x of s) out.add(x);
  return out;
}

/** Block root, BlockInfo (whole), and with `state` the MERKLE_UPDATE cell (its two states pruned). */
export function headerKeep(root: Cell, state = true): Set<string> {
  const k = union(subtree(root.refs[0]), new Set([key(root)]));
  if (state) k.add(key(root.refs[2]));
  return k;
}

export function headerProof(root: Cell, state = true): Cell {
  return merkleProof(root, headerKeep(root, state));
}

/** Paths from root to every target, the targets' whole subtrees, and (optionally) extra cells. */
export function keepPaths(root: Cell, targets: Cell[], whole = true, extra: Set<string> = new Set()): Set<string> {
  const hashes = new Set(targets.map(key));
  const k = pathsTo(root, (c) => hashes.has(key(c)));
  if (whole) for (const t of targets) for (const x of subtree(t)) k.add(x);
  else for (const t of targets) k.delete(key(t));
  return union(k, extra);
}
