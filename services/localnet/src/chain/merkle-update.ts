// state_update of a block: a MerkleUpdate between the old and new shard state
// in which every subtree the two states share is pruned on both sides, as TON's
// MerkleUpdate::generate does, so a block carries only what changed.
import { beginCell, Cell } from "@ton/core";
import type { MerkleUpdate } from "@tongate/block";

/** A level-1 pruned branch standing for the ordinary (level-0) cell `c`. */
export function prunedBranch(c: Cell): Cell {
  return beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(c.hash(0)).storeUint(c.depth(0), 16).endCell({ exotic: true });
}

function hashesOf(root: Cell, out = new Set<string>()): Set<string> {
  const stack = [root];
  while (stack.length) {
    const c = stack.pop()!;
    const h = c.hash(0).toString("hex");
    if (out.has(h)) continue;
    out.add(h);
    for (const r of c.refs) stack.push(r);
  }
  return out;
}

/** `root` with every subtree whose hash is in `shared` replaced by a pruned branch. */
function pruneShared(root: Cell, shared: Set<string>, memo = new Map<string, Cell>()): Cell {
  const h = root.hash(0).toString("hex");
  const done = memo.get(h);
  if (done) return done;
  let out: Cell;
  if (shared.has(h)) out = prunedBranch(root);
  else if (root.refs.length === 0) out = root;
  else {
    const b = beginCell().storeBits(root.bits);
    for (const r of root.refs) b.storeRef(pruneShared(r, shared, memo));
    out = b.endCell({ exotic: root.isExotic });
  }
  memo.set(h, out);
  return out;
}

export function stateUpdate(oldState: Cell, newState: Cell): MerkleUpdate {
  const inOld = hashesOf(oldState);
  const inNew = hashesOf(newState);
  const shared = new Set([...inOld].filter((h) => inNew.has(h)));
  return {
    oldHash: oldState.hash(0),
    newHash: newState.hash(0),
    oldDepth: oldState.depth(0),
    newDepth: newState.depth(0),
    old: oldState.hash(0).equals(newState.hash(0)) ? prunedBranch(oldState) : pruneShared(oldState, shared),
    new: oldState.hash(0).equals(newState.hash(0)) ? prunedBranch(newState) : pruneShared(newState, shared),
  };
}
