import { beginCell } from "@ton/core";
import { describe, expect, it } from "vitest";
import {
  SHARD_FULL,
  accountPrefix64,
  loadShardIdent,
  parseShardIdString,
  shardChild,
  shardChildren,
  shardContainsAccount,
  shardForAccount,
  shardFromPrefix,
  shardFromSigned,
  shardIdOf,
  shardIdToString,
  shardIdentOf,
  shardIntersects,
  shardIsAncestor,
  shardParent,
  shardPrefixLength,
  shardToPrefix,
  shardToSigned,
  storeShardIdent,
} from "../src/index.js";

describe("shard prefix math", () => {
  it("prefix length and (pfx_bits, prefix) of shard ids", () => {
    expect(shardPrefixLength(SHARD_FULL)).toBe(0);
    expect(shardPrefixLength(0xa000000000000000n)).toBe(2);
    expect(shardPrefixLength(0x4000000000000000n)).toBe(1);
    expect(shardPrefixLength(0x0680000000000000n)).toBe(8);
    expect(shardPrefixLength(1n)).toBe(63);
    expect(shardToPrefix(0xa000000000000000n)).toEqual({ pfxBits: 2, prefix: 0b10n });
    expect(shardToPrefix(SHARD_FULL)).toEqual({ pfxBits: 0, prefix: 0n });
    expect(shardFromPrefix(2, 0b10n)).toBe(0xa000000000000000n);
    expect(shardFromPrefix(0, 0n)).toBe(SHARD_FULL);
    expect(shardFromPrefix(8, 0x06n)).toBe(0x0680000000000000n);
    for (const s of [SHARD_FULL, 0xa000000000000000n, 0x0680000000000000n, 0xb688000000000000n, 1n, 0xffffffffffffffffn]) {
      const { pfxBits, prefix } = shardToPrefix(s);
      expect(shardFromPrefix(pfxBits, prefix)).toBe(s);
    }
    expect(() => shardPrefixLength(0n)).toThrow();
    expect(() => shardFromPrefix(2, 4n)).toThrow();
  });

  it("children, parents, ancestry", () => {
    expect(shardChildren(SHARD_FULL)).toEqual([0x4000000000000000n, 0xc000000000000000n]);
    expect(shardChild(0x8000000000000000n, true)).toBe(0xc000000000000000n);
    expect(shardChild(0xc000000000000000n, false)).toBe(0xa000000000000000n);
    expect(shardParent(0xa000000000000000n)).toBe(0xc000000000000000n);
    expect(shardParent(0x6000000000000000n)).toBe(0x4000000000000000n);
    expect(shardParent(0x4000000000000000n)).toBe(SHARD_FULL);
    expect(() => shardParent(SHARD_FULL)).toThrow();
    expect(() => shardChild(1n, false)).toThrow();
    for (const s of [0x0680000000000000n, 0xb688000000000000n, 0xa000000000000000n]) {
      const [l, r] = shardChildren(s);
      expect(shardParent(l)).toBe(s);
      expect(shardParent(r)).toBe(s);
      expect(shardIsAncestor(s, l)).toBe(true);
      expect(shardIsAncestor(l, s)).toBe(false);
      expect(shardIsAncestor(l, r)).toBe(false);
      expect(shardIntersects(l, r)).toBe(false);
    }
    expect(shardIsAncestor(SHARD_FULL, 0xb688000000000000n)).toBe(true);
    expect(shardIsAncestor(0xa000000000000000n, 0xa000000000000000n)).toBe(true);
    expect(shardIsAncestor(0xa000000000000000n, 0xb688000000000000n)).toBe(true); // 1011 0110 1… starts with 10
    expect(shardIsAncestor(0xe000000000000000n, 0xb688000000000000n)).toBe(false);
    expect(shardIntersects(0xb688000000000000n, 0xa000000000000000n)).toBe(true);
  });

  it("which shard an account belongs to", () => {
    const acc = Buffer.from("b2c3000000000000000000000000000000000000000000000000000000000001", "hex");
    expect(accountPrefix64(acc)).toBe(0xb2c3000000000000n);
    expect(accountPrefix64(BigInt("0x" + acc.toString("hex")))).toBe(0xb2c3000000000000n);
    expect(shardContainsAccount(SHARD_FULL, acc)).toBe(true);
    expect(shardContainsAccount(0xa000000000000000n, acc)).toBe(true); // prefix 10
    expect(shardContainsAccount(0xe000000000000000n, acc)).toBe(false); // prefix 11
    expect(shardContainsAccount(0x6000000000000000n, acc)).toBe(false);
    expect(shardForAccount(acc, 0)).toBe(SHARD_FULL);
    expect(shardForAccount(acc, 2)).toBe(0xa000000000000000n);
    expect(shardForAccount(acc, 4)).toBe(0xb800000000000000n);
    expect(shardContainsAccount(shardForAccount(acc, 60), acc)).toBe(true);
  });

  it("string and signed forms", () => {
    expect(shardIdToString(0, SHARD_FULL)).toBe("0:8000000000000000");
    expect(shardIdToString(-1, SHARD_FULL)).toBe("-1:8000000000000000");
    expect(shardIdToString(0, 0x0680000000000000n)).toBe("0:0680000000000000");
    expect(shardIdToString(shardIdentOf(0, 0xa000000000000000n))).toBe("0:a000000000000000");
    expect(parseShardIdString("0:a000000000000000")).toEqual({ workchainId: 0, shard: 0xa000000000000000n });
    expect(parseShardIdString("-1:8000000000000000")).toEqual({ workchainId: -1, shard: SHARD_FULL });
    expect(() => parseShardIdString("0:a0")).toThrow();
    expect(shardToSigned(SHARD_FULL)).toBe(-9223372036854775808n);
    expect(shardFromSigned("-9223372036854775808")).toBe(SHARD_FULL);
    expect(shardFromSigned(shardToSigned(0xa000000000000000n))).toBe(0xa000000000000000n);
  });

  it("ShardIdent load/store", () => {
    const id = shardIdentOf(0, 0xa000000000000000n);
    // the validator stores shard & (shard - 1): the prefix without its tag bit
    expect(id).toEqual({ workchainId: 0, shardPfxBits: 2, shardPrefix: 0x8000000000000000n });
    const c = beginCell().store(storeShardIdent(id)).endCell();
    expect(c.bits.length).toBe(104);
    expect(loadShardIdent(c.beginParse())).toEqual(id);
    expect(shardIdOf(id)).toBe(0xa000000000000000n);
    const mc = shardIdentOf(-1, SHARD_FULL);
    expect(mc).toEqual({ workchainId: -1, shardPfxBits: 0, shardPrefix: 0n });
    expect(loadShardIdent(beginCell().store(storeShardIdent(mc)).endCell().beginParse())).toEqual(mc);
    expect(shardIdOf(mc)).toBe(SHARD_FULL);
    // a stray tag bit in shard_prefix still maps to the same shard id
    expect(shardIdOf({ workchainId: 0, shardPfxBits: 2, shardPrefix: 0xa000000000000000n })).toBe(0xa000000000000000n);
  });
});
