// Test helpers: fixture loading, TL round trips, a Merkle-proof builder (what a liteserver's
// MerkleProofBuilder yields: kept cells whole, everything else pruned) and tampering tools.
import { readFileSync } from "node:fs";
import { type Cell, CellType, beginCell } from "@ton/core";
import { liteApi } from "@tongate/tl";

export const FIXTURES = new URL("../../../../shared/fixtures/", import.meta.url);

export function fixtureBytes(rel: string): Buffer {
  return readFileSync(new URL(rel, FIXTURES));
}

/** Encodes a lite_api object and decodes it back: the verifiers see exactly what @tongate/tl produces. */
export function viaTl<T>(obj: Record<string, unknown> & { kind: string }): T {
  return liteApi.decode(liteApi.encode(obj)) as unknown as T;
}

export const key = (c: Cell) => c.hash().toString("hex");

/**
 * A pruned branch for `c` at Merkle depth `depth` (1 under a MERKLE_PROOF, 2 under a MERKLE_UPDATE inside
 * it): level mask = c's mask | bit depth-1, storing c's hash and depth for every significant level below.
 */
export function prunedBranch(c: Cell, depth: number): Cell {
  const mask = c.mask.value | (1 << (depth - 1));
  const levels: number[] = [0];
  for (let i = 1; i <= 3; i++) if (mask & (1 << (i - 1)) && i < 32 - Math.clz32(mask)) levels.push(i);
  const b = beginCell().storeUint(1, 8).storeUint(mask, 8);
  for (const l of levels) b.storeBuffer(c.hash(l));
  for (const l of levels) b.storeUint(c.depth(l), 16);
  return b.endCell({ exotic: true });
}

/** `root` with every cell not in `keep` (by hash()) replaced by a pruned branch. */
export function pruneTree(root: Cell, keep: Set<string>, depth = 1): Cell {
  if (!keep.has(key(root))) return prunedBranch(root, depth);
  if (root.refs.length === 0) return root;
  const inner = root.type === CellType.MerkleUpdate || root.type === CellType.MerkleProof ? depth + 1 : depth;
  const b = beginCell().storeBits(root.bits);
  for (const r of root.refs) b.storeRef(pruneTree(r, keep, inner));
  return b.endCell({ exotic: root.isExotic });
}

/** A MERKLE_PROOF of `root` keeping the cells in `keep`. */
export function merkleProof(root: Cell, keep: Set<string>): Cell {
  const virt = pruneTree(root, keep);
  return beginCell().storeUint(3, 8).storeBuffer(virt.hash(0)).storeUint(virt.depth(0), 16).storeRef(virt).endCell({ exotic: true });
}

/** Hashes of every cell on a path from `root` to a cell matching `isTarget` (targets included). */
export function pathsTo(root: Cell, isTarget: (c: Cell) => boolean, out = new Set<string>()): Set<string> {
  const memo = new Map<string, boolean>();
  const walk = (c: Cell): boolean => {
    const k = key(c);
    const m = memo.get(k);
    if (m !== undefined) return m;
    let hit = isTarget(c);
    for (const r of c.refs) if (walk(r)) hit = true;
    memo.set(k, hit);
    if (hit) out.add(k);
    return hit;
  };
  walk(root);
  return out;
}

/** Every cell of the subtree. */
export function subtree(root: Cell, out = new Set<string>()): Set<string> {
  const stack = [root];
  while (stack.length) {
    const c = stack.pop()!;
    if (out.has(key(c))) continue;
    out.add(key(c));
    stack.push(...c.refs);
  }
  return out;
}

/** The pruned branches under `root`, depth-first. */
export function prunedCells(root: Cell): Cell[] {
  const out: Cell[] = [];
  const seen = new Set<string>();
  const walk = (c: Cell) => {
    if (seen.has(key(c))) return;
    seen.add(key(c));
    if (c.type === CellType.PrunedBranch) out.push(c);
    c.refs.forEach(walk);
  };
  walk(root);
  return out;
}

/**
 * Flips one byte of the stored hash of the `nth` pruned branch under a MERKLE_PROOF cell and rebuilds the
 * tree above it, with a consistent MERKLE_PROOF (as a forger would): the proof now stands for another hash.
 */
export function tamperPrunedHash(proof: Cell, nth = 0): Cell {
  const target = key(prunedCells(proof)[nth]);
  const rebuild = (c: Cell): Cell => {
    if (key(c) === target) {
      const bits = c.beginParse(true);
      const buf = Buffer.from(bits.loadBuffer(c.bits.length / 8));
      buf[2 + 5] ^= 0x40;
      return beginCell().storeBuffer(buf).endCell({ exotic: true });
    }
    if (c.refs.length === 0) return c;
    const refs = c.refs.map(rebuild);
    if (c.type === CellType.MerkleProof) {
      return beginCell().storeUint(3, 8).storeBuffer(refs[0].hash(0)).storeUint(refs[0].depth(0), 16).storeRef(refs[0]).endCell({ exotic: true });
    }
    if (c.type === CellType.MerkleUpdate) {
      return beginCell()
        .storeUint(4, 8)
        .storeBuffer(refs[0].hash(0))
        .storeBuffer(refs[1].hash(0))
        .storeUint(refs[0].depth(0), 16)
        .storeUint(refs[1].depth(0), 16)
        .storeRef(refs[0])
        .storeRef(refs[1])
        .endCell({ exotic: true });
    }
    const b = beginCell().storeBits(c.bits);
    for (const r of refs) b.storeRef(r);
    return b.endCell({ exotic: c.isExotic });
  };
  return rebuild(proof);
}

/** A copy of `boc` with one byte flipped inside the first occurrence of `needle` (e.g. a pruned hash). */
export function flipInBoc(boc: Buffer, needle: Buffer, offset = 5): Buffer {
  const at = boc.indexOf(needle);
  if (at < 0) throw new Error("needle not in BoC");
  const out = Buffer.from(boc);
  out[at + offset] ^= 0x01;
  return out;
}

/** The stored (level-0) hash of a pruned branch. */
export function prunedHash(c: Cell): Buffer {
  return c.beginParse(true).skip(16).loadBuffer(32);
}

/** A multi-root BoC (std_boc_serialize_multi) — @ton/core only writes single-root BoCs. */
export function multiRootBoc(roots: Cell[]): Buffer {
  // Parents before children: reversed post-order.
  const order: Cell[] = [];
  const seen = new Set<string>();
  const visit = (c: Cell) => {
    if (seen.has(key(c))) return;
    seen.add(key(c));
    c.refs.forEach(visit);
    order.push(c);
  };
  [...roots].reverse().forEach(visit);
  order.reverse();
  const index = new Map(order.map((c, i) => [key(c), i]));
  const size = Math.max(1, Math.ceil((32 - Math.clz32(order.length)) / 8));
  const cells = order.map((c) => {
    const n = c.bits.length;
    const data = Buffer.alloc(Math.ceil(n / 8));
    const s = c.beginParse(true);
    for (let i = 0; i < n; i++) if (s.loadBit()) data[i >> 3] |= 0x80 >> (i & 7);
    if (n % 8) data[n >> 3] |= 0x80 >> (n % 8);
    const refs = Buffer.alloc(c.refs.length * size);
    c.refs.forEach((r, j) => refs.writeUIntBE(index.get(key(r))!, j * size, size));
    const d1 = c.refs.length + (c.isExotic ? 8 : 0) + c.mask.value * 32;
    const d2 = Math.ceil(n / 8) + Math.floor(n / 8);
    return Buffer.concat([Buffer.from([d1, d2]), data, refs]);
  });
  const body = Buffer.concat(cells);
  const offBytes = Math.max(1, Math.ceil((32 - Math.clz32(body.length)) / 8));
  const uint = (v: number, bytes: number) => {
    const b = Buffer.alloc(bytes);
    b.writeUIntBE(v, 0, bytes);
    return b;
  };
  return Buffer.concat([
    Buffer.from("b5ee9c72", "hex"),
    Buffer.from([size, offBytes]),
    uint(order.length, size),
    uint(roots.length, size),
    uint(0, size),
    uint(body.length, offBytes),
    ...roots.map((r) => uint(index.get(key(r))!, size)),
    body,
  ]);
}
