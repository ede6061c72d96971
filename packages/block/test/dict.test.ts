import { type Builder, type CurrencyCollection, type Slice, Dictionary, beginCell, loadCurrencyCollection } from "@ton/core";
import { describe, expect, it } from "vitest";
import {
  type Augmentation,
  addCurrencyCollections,
  buildHashmap,
  buildHashmapAug,
  currencyCollectionAug,
  currencyCollectionsEqual,
  emptyAugDict,
  hashmapAugExtra,
  loadHashmap,
  loadHashmapAugEPartial,
  makeMerkleProof,
  walkHashmap,
  loadHashmapAugE,
  loadHashmapE,
  storeHashmapAugE,
  storeHashmapE,
  storeHmLabel,
} from "../src/index.js";

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomBig(r: () => number, bits: number): bigint {
  let x = 0n;
  for (let i = 0; i < bits; i++) x = (x << 1n) | (r() < 0.5 ? 0n : 1n);
  return x;
}

// uint64 sum augmentation (a plain counter, like OutMsgQueue's min but summed) for synthetic tests.
const sumAug: Augmentation<bigint> = {
  load: (s) => s.loadUintBig(64),
  store: (v) => (b: Builder) => void b.storeUint(v, 64),
  fork: (a, b) => a + b,
  empty: () => 0n,
};

describe("HmLabel encoding", () => {
  it("picks hml_short / hml_long / hml_same like the validator", () => {
    // empty label: hml_short with unary 0 → "00"
    const e = beginCell();
    storeHmLabel(0n, 0, 256, e);
    expect(e.bits).toBe(2);
    // 1-bit label in a 256-bit key: short (4 bits) beats long (2+9+1)
    const s1 = beginCell();
    storeHmLabel(1n, 1, 256, s1);
    expect(s1.bits).toBe(4);
    // 255 zero bits: same = 3 + 9 bits
    const same = beginCell();
    storeHmLabel(0n, 255, 256, same);
    expect(same.bits).toBe(12);
    // 20 mixed bits in 256: long = 2 + 9 + 20 = 31 < short 42
    const long = beginCell();
    storeHmLabel(0xabcden, 20, 256, long);
    expect(long.bits).toBe(31);
    // 2 equal bits with max 2 (k = 2): same needs k < 2*len-1 = 3 → hml_same (5 bits) vs short (6)
    const same2 = beginCell();
    storeHmLabel(0b11n, 2, 2, same2);
    expect(same2.endCell().bits.toString()).toBe(beginCell().storeUint(0b11110, 5).endCell().bits.toString());
  });

  it("non-augmented dictionaries serialize exactly like @ton/core's serializer", () => {
    const r = rng(42);
    for (const bits of [1, 4, 7, 16, 32, 64, 96, 256]) {
      for (const count of [1, 2, 3, 10, 100]) {
        if (bits < 8 && count > 1 << bits) continue;
        const key = Dictionary.Keys.BigUint(bits);
        const value = Dictionary.Values.BigUint(32);
        const d = Dictionary.empty(key, value);
        while (d.size < count) d.set(randomBig(r, bits), randomBig(r, 32));
        const mine = beginCell().store(storeHashmapE(d, key, value)).endCell();
        const theirs = beginCell().storeDict(d).endCell();
        expect(mine.hash().toString("hex"), `bits ${bits} count ${count}`).toBe(theirs.hash().toString("hex"));
        const back = loadHashmapE(mine.beginParse(), key, value);
        expect(back.size).toBe(count);
        for (const [k, v] of d) expect(back.get(k)).toBe(v);
      }
    }
  });

  it("rejects an empty non-E Hashmap and out-of-range keys", () => {
    const key = Dictionary.Keys.BigUint(8);
    const value = Dictionary.Values.Uint(8);
    expect(() => buildHashmap(Dictionary.empty(key, value), key, value)).toThrow();
    const d = Dictionary.empty(Dictionary.Keys.BigUint(16), value);
    d.set(300n, 1);
    expect(() => buildHashmap(d, key as never, value)).toThrow();
    expect(loadHashmap(buildHashmap(d, Dictionary.Keys.BigUint(16), value), Dictionary.Keys.BigUint(16), value).get(300n)).toBe(1);
  });
});

describe("augmented dictionary builder", () => {
  const key = Dictionary.Keys.BigUint(8);
  const value = Dictionary.Values.Uint(16);

  it("writes the sum of the children's extras in every fork node", () => {
    // keys 0b00000001, 0b00000010, 0b10000000: root fork on bit 0, left fork on bit 6
    const d = emptyAugDict(key, value, sumAug);
    d.set(1n, { extra: 5n, value: 100 });
    d.set(2n, { extra: 7n, value: 200 });
    d.set(128n, { extra: 11n, value: 300 });
    const { root, extra } = buildHashmapAug(d, key, value, sumAug);
    expect(extra).toBe(23n);
    // root edge: empty label (00), fork: two refs, then extra
    const s = root.beginParse();
    expect(s.loadUint(2)).toBe(0);
    expect(s.remainingRefs).toBe(2);
    expect(s.loadUintBig(64)).toBe(23n);
    expect(s.remainingBits).toBe(0);
    const parsed = loadHashmapAugE(beginCell().store(storeHashmapAugE(d, key, value, sumAug)).endCell().beginParse(), key, value, sumAug);
    expect(parsed.extra).toBe(23n);
    expect(parsed.dict.get(1n)).toEqual({ extra: 5n, value: 100 });
    expect(parsed.dict.get(128n)).toEqual({ extra: 11n, value: 300 });
    // every fork's trailing 64 bits equal the sum of the leaves below it
    const walk = (c: typeof root, n: number): bigint => {
      const sl = c.beginParse();
      // skip the label
      let l: number;
      if (!sl.loadBit()) {
        l = 0;
        while (sl.loadBit()) l++;
        sl.skip(l);
      } else if (!sl.loadBit()) {
        l = sl.loadUint(32 - Math.clz32(n));
        sl.skip(l);
      } else {
        sl.skip(1);
        l = sl.loadUint(32 - Math.clz32(n));
      }
      if (l === n) return sl.loadUintBig(64);
      const a = walk(sl.loadRef(), n - l - 1);
      const b = walk(sl.loadRef(), n - l - 1);
      const own = sl.loadUintBig(64);
      expect(own).toBe(a + b);
      return own;
    };
    expect(walk(root, 8)).toBe(23n);
  });

  it("HashmapAugE: empty stores ahme_empty with the empty extra; single leaf keeps its extra", () => {
    const empty = emptyAugDict(key, value, sumAug);
    const ce = beginCell().store(storeHashmapAugE(empty, key, value, sumAug)).endCell();
    expect(ce.bits.length).toBe(1 + 64);
    expect(ce.refs.length).toBe(0);
    expect(loadHashmapAugE(ce.beginParse(), key, value, sumAug)).toMatchObject({ extra: 0n });
    const one = emptyAugDict(key, value, sumAug);
    one.set(77n, { extra: 9n, value: 1 });
    const c1 = beginCell().store(storeHashmapAugE(one, key, value, sumAug)).endCell();
    const p1 = loadHashmapAugE(c1.beginParse(), key, value, sumAug);
    expect(p1.extra).toBe(9n);
    expect(p1.dict.get(77n)).toEqual({ extra: 9n, value: 1 });
  });

  it("random augmented dictionaries round-trip and the root extra is the total", () => {
    const r = rng(7);
    for (const bits of [8, 32, 64, 256]) {
      const k = Dictionary.Keys.BigUint(bits);
      for (const count of [1, 2, 5, 50, 300]) {
        if (bits === 8 && count > 200) continue;
        const d = emptyAugDict(k, value, sumAug);
        let total = 0n;
        while (d.size < count) {
          const kk = randomBig(r, bits);
          if (d.has(kk)) continue;
          const ex = randomBig(r, 40);
          total += ex;
          d.set(kk, { extra: ex, value: Number(randomBig(r, 16)) });
        }
        const cell = beginCell().store(storeHashmapAugE(d, k, value, sumAug)).endCell();
        const back = loadHashmapAugE(cell.beginParse(), k, value, sumAug);
        expect(back.extra).toBe(total);
        expect(hashmapAugExtra(d, sumAug)).toBe(total);
        const again = beginCell().store(storeHashmapAugE(back.dict, k, value, sumAug)).endCell();
        expect(again.hash().equals(cell.hash())).toBe(true);
      }
    }
  });

  it("CurrencyCollection augmentation adds grams and extra currencies", () => {
    const other1 = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
    other1.set(7, 100n);
    const other2 = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
    other2.set(7, 5n);
    other2.set(9, 1n);
    const a: CurrencyCollection = { coins: 10n, other: other1 };
    const b: CurrencyCollection = { coins: 3n, other: other2 };
    const s = addCurrencyCollections(a, b);
    expect(s.coins).toBe(13n);
    expect(s.other?.get(7)).toBe(105n);
    expect(s.other?.get(9)).toBe(1n);
    expect(currencyCollectionsEqual(addCurrencyCollections({ coins: 1n }, { coins: 2n }), { coins: 3n })).toBe(true);
    const d = emptyAugDict(key, value, currencyCollectionAug);
    d.set(1n, { extra: a, value: 1 });
    d.set(200n, { extra: b, value: 2 });
    const c = beginCell().store(storeHashmapAugE(d, key, value, currencyCollectionAug)).endCell();
    const sl = c.beginParse();
    sl.loadMaybeRef();
    const root = loadCurrencyCollection(sl);
    expect(currencyCollectionsEqual(root, s)).toBe(true);
  });
});

describe("partial (pruned) augmented dictionaries", () => {
  const ccValue = { parse: (s: Slice) => s.loadUintBig(32), serialize: (v: bigint, b: Builder) => void b.storeUint(v, 32) };
  function withCurrencies(n: number) {
    const r = rng(11);
    const d = emptyAugDict(Dictionary.Keys.BigUint(64), ccValue, currencyCollectionAug);
    for (let i = 0; i < n; i++) {
      const other = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
      other.set(1 + (i % 3), BigInt(i + 1));
      d.set(randomBig(r, 64), { extra: { coins: BigInt(i), other }, value: BigInt(i) });
    }
    return beginCell().store(storeHashmapAugE(d, Dictionary.Keys.BigUint(64), ccValue, currencyCollectionAug)).endCell();
  }

  it("walkHashmap visits every node; a proof of some leaves loads partially and re-stores to the same cells", () => {
    const full = withCurrencies(40);
    const nodes = [...walkHashmap(full.refs[0], 64)];
    expect(nodes.filter((n) => n.type === "leaf").length).toBe(40);
    expect(nodes.filter((n) => n.type === "fork").length).toBe(39);
    // keep the path to three leaves (with everything below them)
    const leaves = nodes.filter((n) => n.type === "leaf").slice(10, 13);
    const keep = new Set<string>([full.hash().toString("hex")]);
    for (const n of nodes) if (leaves.some((l) => (l.path >> BigInt(64 - n.pathLen)) === n.path)) keep.add(n.cell.hash().toString("hex"));
    for (const l of leaves) for (const r of l.cell.refs) keep.add(r.hash().toString("hex"));
    const proof = makeMerkleProof(full, keep).refs[0];
    expect(proof.hash(0).equals(full.hash())).toBe(true);
    const loaded = loadHashmapAugEPartial(proof.beginParse(), Dictionary.Keys.BigUint(64), ccValue, currencyCollectionAug);
    expect(loaded.dict.size).toBe(3);
    expect(loaded.pruned!.subtrees.length).toBeGreaterThan(3);
    expect(loaded.extra).toBeUndefined(); // the root extra's currency dictionary is pruned
    const again = beginCell().store(storeHashmapAugE(loaded.dict, Dictionary.Keys.BigUint(64), ccValue, currencyCollectionAug, loaded.pruned)).endCell();
    expect(again.hash().equals(proof.hash())).toBe(true);
  });

  it("leaves whose extra hides a pruned cell are kept verbatim", () => {
    const full = withCurrencies(12);
    // keep every dictionary edge but no extra-currency dictionary
    const edges = new Set([full, ...[...walkHashmap(full.refs[0], 64)].map((n) => n.cell)].map((c) => c.hash().toString("hex")));
    const proof = makeMerkleProof(full, edges).refs[0];
    const loaded = loadHashmapAugEPartial(proof.beginParse(), Dictionary.Keys.BigUint(64), ccValue, currencyCollectionAug);
    expect(loaded.dict.size).toBe(0);
    expect(loaded.pruned!.subtrees.length).toBe(12);
    expect(loaded.pruned!.forkExtras.size).toBe(11);
    const again = beginCell().store(storeHashmapAugE(loaded.dict, Dictionary.Keys.BigUint(64), ccValue, currencyCollectionAug, loaded.pruned)).endCell();
    expect(again.hash().equals(proof.hash())).toBe(true);
    // a complete dictionary loads with no pruned parts
    const c = loadHashmapAugEPartial(full.beginParse(), Dictionary.Keys.BigUint(64), ccValue, currencyCollectionAug);
    expect([c.dict.size, c.pruned]).toEqual([12, undefined]);
  });
});
