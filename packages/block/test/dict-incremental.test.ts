// hashmapAugSet (one entry set on a dictionary kept as cells) gives the same cells as building the
// whole dictionary from its entries (storeHashmapAugE), for appends, random inserts and replacements.
import { beginCell } from "@ton/core";
import { describe, expect, it } from "vitest";
import {
  emptyOldMcBlocksInfo,
  hashmapAugSet,
  keyExtBlkRefValue,
  keyMaxLtAug,
  storeHashmapAugECell,
  storeOldMcBlocksInfo,
  type HashmapAugECell,
  type KeyExtBlkRef,
  type KeyMaxLt,
} from "@tongate/block";

function entry(seqno: number, key: boolean): { extra: KeyMaxLt; value: KeyExtBlkRef } {
  const endLt = BigInt(seqno) * 1_000_000n + 7n;
  const h = Buffer.alloc(32, seqno & 0xff);
  return { extra: { key, maxEndLt: endLt }, value: { key, blkRef: { endLt, seqNo: seqno, rootHash: h, fileHash: h } } };
}

function check(keys: number[]) {
  const dict = emptyOldMcBlocksInfo();
  let cells: HashmapAugECell<KeyMaxLt> = { root: null, extra: keyMaxLtAug.empty() };
  for (const [i, k] of keys.entries()) {
    const e = entry((k + i) % 0x7fffffff, (k * 7 + i) % 5 === 0);
    dict.set(k, e);
    const r = hashmapAugSet(cells.root, 32, BigInt(k), { extra: e.extra, store: (b) => keyExtBlkRefValue.serialize(e.value, b) }, keyMaxLtAug);
    cells = { root: r.root, extra: r.extra };
    const whole = beginCell().store(storeOldMcBlocksInfo(dict)).endCell();
    const incremental = beginCell().store(storeHashmapAugECell(cells, keyMaxLtAug)).endCell();
    expect(incremental.hash().toString("hex"), `after ${i + 1} sets (key ${k})`).toBe(whole.hash().toString("hex"));
  }
}

describe("hashmapAugSet", () => {
  it("appends increasing keys (prev_blocks grows by one masterchain block)", () => check(Array.from({ length: 300 }, (_, i) => i + 1)));
  it("inserts keys in any order and replaces existing ones", () => {
    let x = 12345;
    const rnd = () => (x = (x * 1103515245 + 12345) & 0x7fffffff);
    const keys = Array.from({ length: 200 }, () => rnd() % 5000);
    keys.push(0, 0xffffffff, 0x80000000, 1, 0xfffffffe, keys[3]!, keys[10]!);
    check(keys);
  });
  it("keeps unchanged sub-trees as the same cells", () => {
    let cells: HashmapAugECell<KeyMaxLt> = { root: null, extra: keyMaxLtAug.empty() };
    for (let k = 1; k <= 64; k++) {
      const e = entry(k, false);
      const r = hashmapAugSet(cells.root, 32, BigInt(k), { extra: e.extra, store: (b) => keyExtBlkRefValue.serialize(e.value, b) }, keyMaxLtAug);
      cells = { root: r.root, extra: r.extra };
    }
    const before = cells.root!;
    const e = entry(65, true);
    const after = hashmapAugSet(before, 32, 65n, { extra: e.extra, store: (b) => keyExtBlkRefValue.serialize(e.value, b) }, keyMaxLtAug).root;
    // keys 1..64 and 65 part at the top fork; the left sub-tree (1..63) is shared as is
    const shared = (c: typeof before): Set<unknown> => new Set(c.refs.flatMap((r) => [r, ...r.refs]));
    const old = shared(before);
    expect([...shared(after)].some((c) => old.has(c))).toBe(true);
  });
});
