// The fast BoC reader against @ton/core's Cell.fromBoc on every real block fixture: same cells.
import { readFileSync, readdirSync } from "node:fs";
import { Cell, beginCell } from "@ton/core";
import { describe, expect, it } from "vitest";
import { cellsFromBoc } from "../src/rows/boc.js";
import { blockRows } from "../src/rows/index.js";

const DIR = new URL("../../../../shared/fixtures/blocks/", import.meta.url);
const FILES = readdirSync(DIR).filter((f) => f.endsWith(".boc"));

// Walks both trees together; returns the number of distinct cells (plain comparisons, one expect per
// tree: expect() per cell would dominate the run time).
function compareTrees(a: Cell, b: Cell): number {
  const seen = new Set<string>();
  const stack: [Cell, Cell][] = [[a, b]];
  const bad: string[] = [];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    const key = y.hash(3).toString("hex") + y.type;
    if (seen.has(key)) continue;
    seen.add(key);
    const same =
      x instanceof Cell &&
      x.type === y.type &&
      x.isExotic === y.isExotic &&
      x.level() === y.level() &&
      x.mask.value === y.mask.value &&
      x.bits.equals(y.bits) &&
      x.refs.length === y.refs.length &&
      [0, 1, 2, 3].every((l) => x.hash(l).equals(y.hash(l)) && x.depth(l) === y.depth(l)) &&
      (x.isExotic || x.beginParse().remainingBits === y.bits.length) &&
      x.equals(y);
    if (!same) bad.push(key);
    x.refs.forEach((r, i) => stack.push([r, y.refs[i]]));
  }
  expect(bad).toEqual([]);
  return seen.size;
}

describe("cellsFromBoc = Cell.fromBoc", () => {
  it.each(FILES)("%s: every cell", (f) => {
    const boc = readFileSync(new URL(f, DIR));
    const [fast] = cellsFromBoc(boc);
    const [slow] = Cell.fromBoc(boc);
    expect(compareTrees(fast, slow)).toBeGreaterThan(100);
    expect(fast.toBoc({ idx: false, crc32: true }).equals(slow.toBoc({ idx: false, crc32: true }))).toBe(true);
  });

  it("small BoCs: padding, empty cells, multi-root, index + crc, no crc", () => {
    const leaf = beginCell().storeUint(5, 3).endCell();
    const empty = beginCell().endCell();
    const full = beginCell().storeBuffer(Buffer.alloc(127, 0xff)).storeUint(0, 7).endCell();
    const root = beginCell().storeUint(0xabcdef, 24).storeRef(leaf).storeRef(empty).storeRef(full).storeRef(leaf).endCell();
    for (const opts of [{ idx: false, crc32: true }, { idx: true, crc32: true }, { idx: false, crc32: false }]) {
      const boc = root.toBoc(opts);
      expect(cellsFromBoc(boc)[0].hash().equals(root.hash())).toBe(true);
      compareTrees(cellsFromBoc(boc)[0], root);
    }
    const bad = Buffer.from(root.toBoc({ idx: false, crc32: true }));
    bad[bad.length - 1] ^= 1;
    expect(() => cellsFromBoc(bad)).toThrow(/CRC32C/);
  });

  it("blockRows is the same with either reader", () => {
    const boc = readFileSync(new URL("mainnet_0_8000000000000000_71398501.boc", DIR));
    const fast = blockRows(boc, { mcSeqno: 1 });
    const slow = blockRows(boc, { mcSeqno: 1, parseBoc: (b) => Cell.fromBoc(b) });
    expect(fast).toEqual(slow);
  });
});
