import { readFileSync, readdirSync } from "node:fs";
import { BitString, Cell, Dictionary, beginCell, crc32c, generateMerkleProof, generateMerkleUpdate } from "@ton/core";
import { describe, expect, it } from "vitest";
import { serializeBoc } from "../src/index.js";

// /work/shared/fixtures (see its README.md)
const FIXTURES = new URL("../../../../shared/fixtures/", import.meta.url);
const fixtureBytes = (rel: string): Buffer => readFileSync(new URL(rel, FIXTURES));
const fixtureDir = (dir: string): string[] =>
  readdirSync(new URL(dir, FIXTURES))
    .filter((f) => f.endsWith(".boc"))
    .sort()
    .map((f) => `${dir}${f}`);
const ACCOUNT_PROOF = "proofs/mainnet_account_proof_wc0_31618192.boc";

const FLAGS = [
  { idx: false, crc32: false },
  { idx: false, crc32: true },
  { idx: true, crc32: false },
  { idx: true, crc32: true },
];

interface ParsedCell {
  d1: number;
  d2: number;
  data: string;
  refs: number[];
}

/** An independent reader of the standard header, index and cell records. */
function parseBag(buf: Buffer) {
  expect(buf.readUInt32BE(0)).toBe(0xb5ee9c72);
  const hasIdx = (buf[4] & 0x80) !== 0;
  const hasCrc = (buf[4] & 0x40) !== 0;
  const hasCacheBits = (buf[4] & 0x20) !== 0;
  const flags = (buf[4] >> 3) & 3;
  const sizeBytes = buf[4] & 7;
  const offBytes = buf[5];
  let p = 6;
  const read = (n: number): number => {
    const v = buf.readUIntBE(p, n);
    p += n;
    return v;
  };
  const cellsNum = read(sizeBytes);
  const rootsNum = read(sizeBytes);
  const absent = read(sizeBytes);
  const totalCellSize = read(offBytes);
  const rootList: number[] = [];
  for (let i = 0; i < rootsNum; i++) rootList.push(read(sizeBytes));
  const index: number[] = [];
  if (hasIdx) for (let i = 0; i < cellsNum; i++) index.push(read(offBytes));
  const dataStart = p;
  const ends: number[] = [];
  const cells: ParsedCell[] = [];
  for (let i = 0; i < cellsNum; i++) {
    const d1 = read(1);
    const d2 = read(1);
    const data = buf.subarray(p, p + Math.ceil(d2 / 2)).toString("hex");
    p += Math.ceil(d2 / 2);
    const refs: number[] = [];
    for (let j = 0; j < (d1 & 7); j++) refs.push(read(sizeBytes));
    cells.push({ d1, d2, data, refs });
    ends.push(p - dataStart);
  }
  expect(p - dataStart).toBe(totalCellSize);
  expect(buf.length).toBe(p + (hasCrc ? 4 : 0));
  return { hasIdx, hasCrc, hasCacheBits, flags, sizeBytes, offBytes, cellsNum, rootsNum, absent, totalCellSize, rootList, index, ends, cells };
}

/** Distinct cells under `roots`, keyed by the hash at `level` (3 = representation hash). */
function distinctCells(roots: Cell[], level = 3): number {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const c = stack.pop()!;
    const k = c.hash(level).toString("hex");
    if (seen.has(k)) continue;
    seen.add(k);
    stack.push(...c.refs);
  }
  return seen.size;
}

const hashes = (cells: Cell[], level = 3): string[] => cells.map((c) => c.hash(level).toString("hex"));

/** Serializes, checks the structure, reads it back with @ton/core and compares the roots. */
function roundTrip(roots: Cell[], opts = { idx: false, crc32: true }) {
  const buf = serializeBoc(roots, opts);
  const bag = parseBag(buf);
  expect(bag).toMatchObject({ hasIdx: opts.idx, hasCrc: opts.crc32, hasCacheBits: false, flags: 0, absent: 0 });
  expect(bag.rootsNum).toBe(roots.length);
  expect(bag.cellsNum).toBe(distinctCells(roots));
  // parents before children
  bag.cells.forEach((c, i) => c.refs.forEach((r) => expect(r).toBeGreaterThan(i)));
  // minimal size_bytes / off_bytes
  expect(bag.sizeBytes).toBe(Math.max(1, Math.ceil(Math.max(bag.cellsNum, bag.rootsNum).toString(2).length / 8)));
  expect(bag.offBytes).toBe(Math.max(1, Math.ceil(bag.totalCellSize.toString(2).length / 8)));
  if (opts.idx) expect(bag.index).toEqual(bag.ends);
  if (opts.crc32) expect(buf.subarray(buf.length - 4)).toEqual(crc32c(buf.subarray(0, buf.length - 4)));
  const back = Cell.fromBoc(buf);
  expect(hashes(back)).toEqual(hashes(roots));
  expect(hashes(back, 0)).toEqual(hashes(roots, 0));
  return { buf, bag, back };
}

function leaf(n: number, bits = 32): Cell {
  return beginCell().storeUint(n, bits).endCell();
}

/** A pruned branch standing for `c` (level 1). */
function prunedOf(c: Cell): Cell {
  return beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(c.hash(0)).storeUint(c.depth(0), 16).endCell({ exotic: true });
}

/** A level-2 pruned branch (mask 0b11: two stored hashes and depths). */
function prunedLevel2(a: Cell, b: Cell): Cell {
  return beginCell()
    .storeUint(1, 8)
    .storeUint(3, 8)
    .storeBuffer(a.hash())
    .storeBuffer(b.hash())
    .storeUint(a.depth(), 16)
    .storeUint(b.depth(), 16)
    .endCell({ exotic: true });
}

function libraryOf(c: Cell): Cell {
  return beginCell().storeUint(2, 8).storeBuffer(c.hash()).endCell({ exotic: true });
}

function merkleProofOf(c: Cell): Cell {
  return beginCell().storeUint(3, 8).storeBuffer(c.hash(0)).storeUint(c.depth(0), 16).storeRef(c).endCell({ exotic: true });
}

/** A deterministic DAG of `n` cells with shared references and 0..1023-bit payloads. */
function randomDag(n: number, seed: number): Cell {
  let s = seed >>> 0;
  const rnd = (m: number): number => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % m;
  };
  const made: Cell[] = [];
  for (let i = 0; i < n; i++) {
    const b = beginCell();
    const bits = rnd(1024);
    for (let k = 0; k < bits; k++) b.storeBit(rnd(2) === 1);
    const refs = made.length === 0 ? 0 : rnd(Math.min(4, made.length) + 1);
    for (let k = 0; k < refs; k++) b.storeRef(made[made.length - 1 - rnd(Math.min(made.length, 40))]);
    made.push(b.endCell());
  }
  // one root reaching the cells nothing references
  const referenced = new Set(made.flatMap((c) => c.refs.map((r) => r.hash().toString("hex"))));
  let root = made[made.length - 1];
  for (const c of made.slice(0, -1)) {
    if (!referenced.has(c.hash().toString("hex"))) root = beginCell().storeRef(root).storeRef(c).endCell();
  }
  return root;
}

function dict(n: number): Dictionary<number, bigint> {
  const d = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigUint(64));
  for (let i = 0; i < n; i++) d.set(i * 7, BigInt(i) * 1000n + 1n);
  return d;
}

function dictCell(d: Dictionary<number, bigint>): Cell {
  return beginCell().storeDictDirect(d).endCell();
}

function syntheticCells(): Array<[string, Cell]> {
  const a = leaf(1);
  const shared = beginCell().storeUint(0xabc, 12).storeRef(a).endCell();
  let chain = leaf(0);
  for (let i = 1; i < 1500; i++) chain = beginCell().storeUint(i, 11).storeRef(chain).endCell();
  const d = dict(200);
  const keys = [7, 70, 700];
  return [
    ["empty cell", Cell.EMPTY],
    ["7 bits (padded)", beginCell().storeUint(0x55, 7).endCell()],
    ["8 bits", beginCell().storeUint(0xa5, 8).endCell()],
    ["data not byte-aligned in its buffer", new Cell({ bits: new BitString(Buffer.from("a5c3f0e1d2", "hex"), 3, 30), refs: [leaf(1)] })],
    ["1023 bits", beginCell().storeBuffer(Buffer.alloc(127, 0xa5)).storeUint(0x55, 7).endCell()],
    ["4 refs", beginCell().storeRef(leaf(1)).storeRef(leaf(2)).storeRef(leaf(3)).storeRef(leaf(4)).endCell()],
    ["shared subtree (DAG)", beginCell().storeRef(shared).storeRef(beginCell().storeRef(shared).storeRef(a).endCell()).storeRef(a).endCell()],
    ["chain of 1500", chain],
    ["random DAG of 700 cells (2 size bytes)", randomDag(700, 1)],
    ["dictionary of 200", dictCell(d)],
    ["pruned branch root", prunedOf(shared)],
    ["ordinary cell over a pruned branch (level mask 1)", beginCell().storeUint(5, 8).storeRef(prunedOf(shared)).storeRef(a).endCell()],
    ["level-2 pruned branch", beginCell().storeRef(prunedLevel2(a, shared)).endCell()],
    ["library cell", beginCell().storeRef(libraryOf(shared)).storeUint(1, 3).endCell()],
    ["Merkle proof (hand-made)", merkleProofOf(beginCell().storeRef(prunedOf(shared)).storeRef(a).endCell())],
    ["Merkle proof of a dictionary", generateMerkleProof(d, keys, Dictionary.Keys.Uint(32))],
    ["Merkle update of a dictionary", generateMerkleUpdate(d, 70, Dictionary.Keys.Uint(32), 5n)],
  ];
}

describe("serializeBoc: one root is byte-identical to @ton/core's Cell.toBoc", () => {
  it.each(syntheticCells())("%s", (_name, cell) => {
    for (const opts of FLAGS) expect(serializeBoc([cell], opts).equals(cell.toBoc(opts)), JSON.stringify(opts)).toBe(true);
    roundTrip([cell]);
  });

  it("uses Cell.toBoc's defaults (no index, with crc32c)", () => {
    const cell = randomDag(50, 7);
    expect(serializeBoc([cell]).equals(cell.toBoc())).toBe(true);
    expect(parseBag(serializeBoc([cell]))).toMatchObject({ hasIdx: false, hasCrc: true });
  });

  const singleRootFixtures = [...fixtureDir("blocks/"), ...fixtureDir("proofs/").filter((f) => f !== ACCOUNT_PROOF)];

  it("covers the fixture blocks and proofs", () => {
    expect(fixtureDir("blocks/").length).toBeGreaterThanOrEqual(8);
    expect(singleRootFixtures.length).toBeGreaterThanOrEqual(13);
  });

  it.each(singleRootFixtures)("%s", (rel) => {
    const cells = Cell.fromBoc(fixtureBytes(rel));
    expect(cells).toHaveLength(1);
    const [root] = cells;
    for (const opts of FLAGS) expect(serializeBoc([root], opts).equals(root.toBoc(opts)), JSON.stringify(opts)).toBe(true);
    roundTrip([root], { idx: true, crc32: true });
  });

  it("keeps pruned branches of the proofs apart from the cells they stand for", () => {
    // A Merkle proof of a dictionary together with the dictionary itself: each pruned
    // branch has the level-0 hash of a dictionary cell, but is a different cell.
    const d = dict(64);
    const full = dictCell(d);
    const proof = generateMerkleProof(d, [7], Dictionary.Keys.Uint(32));
    const { bag } = roundTrip([proof, full]);
    expect(bag.cellsNum).toBe(distinctCells([proof, full], 3));
    expect(distinctCells([proof, full], 0)).toBeLessThan(bag.cellsNum); // deduping by level-0 hash would be wrong
    expect(bag.cells.some((c) => (c.d1 & 8) !== 0 && c.data.startsWith("01"))).toBe(true); // pruned branches, exotic flag set
  });

  it("writes the exotic flag and the level mask in d1 like @ton/core", () => {
    const shared = leaf(9);
    const cases: Array<[Cell, number]> = [
      [prunedOf(shared), 8 + 32], // exotic, mask 1, no refs
      [prunedLevel2(shared, leaf(10)), 8 + 96], // exotic, mask 3
      [libraryOf(shared), 8], // exotic, level 0
      [merkleProofOf(leaf(3)), 8 + 1], // exotic, 1 ref, level 0
      [beginCell().storeRef(prunedOf(shared)).endCell(), 32 + 1], // ordinary, mask 1
    ];
    for (const [cell, d1] of cases) expect(parseBag(serializeBoc([cell])).cells[0].d1).toBe(d1);
  });
});

describe("serializeBoc: several roots", () => {
  const a = leaf(1);
  const b = leaf(2);
  const shared = beginCell().storeUint(3, 8).storeRef(a).storeRef(b).endCell();
  const r1 = beginCell().storeUint(0x11, 8).storeRef(shared).endCell();
  const r2 = beginCell().storeUint(0x22, 8).storeRef(shared).storeRef(a).endCell();
  const r3 = beginCell().storeUint(0x33, 8).storeRef(b).endCell();

  it.each(FLAGS)("three roots with shared subtrees, stored once each (%o)", (opts) => {
    const { bag } = roundTrip([r1, r2, r3], opts);
    expect(bag.cellsNum).toBe(6); // r1 r2 r3 shared a b
    expect(bag.rootList).toEqual([0, 1, 2]);
    expect(new Set(bag.cells.map((c) => `${c.d1}:${c.d2}:${c.data}`)).size).toBe(6);
  });

  it("keeps the given root order", () => {
    for (const order of [
      [r3, r1, r2],
      [r2, r3, r1],
    ]) {
      const { bag } = roundTrip(order);
      expect(bag.rootList).toEqual([0, 1, 2]);
    }
  });

  it("accepts the same cell twice (same object, or equal cells from different objects)", () => {
    const again = Cell.fromBoc(r1.toBoc())[0];
    expect(again).not.toBe(r1);
    const { bag, back } = roundTrip([r1, r2, r1, again]);
    expect(bag.cellsNum).toBe(distinctCells([r1, r2]));
    expect(bag.rootList).toEqual([0, 1, 0, 0]);
    expect(back).toHaveLength(4);
    const { bag: twice } = roundTrip([a, a]);
    expect(twice).toMatchObject({ cellsNum: 1, rootsNum: 2, rootList: [0, 0] });
  });

  it("accepts roots that are descendants of other roots", () => {
    for (const roots of [
      [r1, shared, a],
      [a, shared, r1],
      [shared, r2, r1, b],
    ]) {
      const { bag } = roundTrip(roots);
      // roots that no other root contains come first, in order; the others stay below their parents
      const top = roots.filter((r) => !roots.some((o) => contains(o, r)));
      expect(top.length).toBeLessThan(roots.length);
      roots.forEach((r, i) => {
        if (top.includes(r)) expect(bag.rootList[i]).toBe(top.indexOf(r));
        else expect(bag.rootList[i]).toBeGreaterThanOrEqual(top.length);
      });
    }
  });

  it("orders like @ton/core below the roots: a root's own subtree as in its single-root BoC", () => {
    // r3 shares nothing with a fresh tree, so the bag is r1's cells in @ton/core order then r3's
    const lone = beginCell().storeUint(0x44, 8).storeRef(leaf(40)).storeRef(leaf(41)).endCell();
    const { bag } = roundTrip([r1, lone], { idx: false, crc32: false });
    const single1 = parseBag(r1.toBoc({ idx: false, crc32: false }));
    const single2 = parseBag(lone.toBoc({ idx: false, crc32: false }));
    expect(bag.cells.map((c) => c.data)).toEqual([single1.cells[0].data, single2.cells[0].data, ...single1.cells.slice(1).map((c) => c.data), ...single2.cells.slice(1).map((c) => c.data)]);
  });

  it("is a fixed point: re-serializing what Cell.fromBoc read gives the same bytes", () => {
    const roots = [r1, randomDag(300, 3), r2, prunedOf(shared), r3];
    const buf = serializeBoc(roots, { idx: true, crc32: true });
    expect(serializeBoc(Cell.fromBoc(buf), { idx: true, crc32: true }).equals(buf)).toBe(true);
  });

  it("widens size_bytes for more than 255 roots", () => {
    const many = Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? a : b));
    const { bag } = roundTrip(many);
    expect(bag).toMatchObject({ cellsNum: 2, rootsNum: 300, sizeBytes: 2 });
  });

  it("serializes a transaction list (N transaction roots of one block)", () => {
    const txs = fixtureDir("transactions/")
      .filter((f) => f.includes("_lt767340690"))
      .map((f) => Cell.fromBoc(fixtureBytes(f))[0]);
    expect(txs.length).toBeGreaterThanOrEqual(8);
    const { bag } = roundTrip(txs, { idx: false, crc32: true });
    expect(bag.rootList).toEqual(txs.map((_, i) => i));
  });

  it("rejects an empty root list", () => {
    expect(() => serializeBoc([])).toThrow(RangeError);
  });
});

describe("serializeBoc: the 2-root liteServer.getAccountState proof", () => {
  const original = fixtureBytes(ACCOUNT_PROOF);
  const roots = Cell.fromBoc(original);

  it("has 2 Merkle proof roots (block, state)", () => {
    expect(roots).toHaveLength(2);
    for (const r of roots) expect(r.isExotic).toBe(true);
  });

  it.each(FLAGS)("re-serializes to the same 2 roots (hashes at level 0 and max level) (%o)", (opts) => {
    roundTrip(roots, opts);
  });

  it("has the same cells and size as the original, but the original is not in this canonical order", () => {
    const orig = parseBag(original);
    const mine = parseBag(serializeBoc(roots, { idx: orig.hasIdx, crc32: orig.hasCrc }));
    expect(orig).toMatchObject({ hasIdx: false, hasCrc: false, hasCacheBits: false, sizeBytes: 1, offBytes: 2, cellsNum: 63, rootsNum: 2 });
    expect(mine).toMatchObject({ sizeBytes: orig.sizeBytes, offBytes: orig.offBytes, cellsNum: orig.cellsNum, totalCellSize: orig.totalCellSize });
    const records = (bag: ReturnType<typeof parseBag>) => bag.cells.map((c) => `${c.d1}:${c.d2}:${c.data}`).sort();
    expect(records(mine)).toEqual(records(orig));
    // The source (a TON node) put the second root (state proof) first: root_list [1, 0], and
    // numbered the cells in its own order; here the roots are [0, 1] and the order is @ton/core's.
    expect(orig.rootList).toEqual([1, 0]);
    expect(mine.rootList).toEqual([0, 1]);
    expect(serializeBoc(roots, { idx: false, crc32: false }).equals(original)).toBe(false);
    expect(serializeBoc(roots, { idx: false, crc32: false })).toHaveLength(original.length);
  });
});

function contains(parent: Cell, target: Cell): boolean {
  const key = target.hash().toString("hex");
  const stack = [...parent.refs];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const c = stack.pop()!;
    const k = c.hash().toString("hex");
    if (k === key) return true;
    if (seen.has(k)) continue;
    seen.add(k);
    stack.push(...c.refs);
  }
  return false;
}
