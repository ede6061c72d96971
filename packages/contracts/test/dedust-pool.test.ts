// DeDust pools as toncenter's worker recognises them: the pool code hashes (also behind a library
// cell, as mainnet accounts hold code), the Asset loader on real bodies (the pool_params of DeDust's
// deposit_liquidity in toncenter's classifier traces: load → store → the same cell), and the
// get-method results and arguments the decoder's detection reads and passes.
import { Address, beginCell, Cell } from "@ton/core";
import { describe, expect, it } from "vitest";
import {
  DEDUST_POOL_CODE_HASHES,
  dedustAssetAddress,
  dedustAssetCell,
  dedustPoolAddressArgs,
  isDedustPoolCode,
  loadDedustAsset,
  readDedustIsStable,
  readDedustPoolAddress,
  readDedustPoolAssets,
  storeDedustAsset,
} from "../src/index.js";
import { actionTraceMessages } from "./fixtures.js";

/** DeDust's vault deposit_liquidity: query_id:uint64 amount:Coins pool_params:(pool_type:uint1 asset0:Asset asset1:Asset) … */
const DEPOSIT_LIQUIDITY = 0xd55e4686;

const libraryCell = (hash: Buffer): Cell => beginCell().storeUint(2, 8).storeBuffer(hash).endCell({ exotic: true });

describe("DeDust pool code", () => {
  it("is recognised by its hash, or by the hash a library cell refers to", () => {
    const hash = Buffer.from(DEDUST_POOL_CODE_HASHES[0]!, "base64");
    expect(isDedustPoolCode(libraryCell(hash))).toBe(true);
    expect(isDedustPoolCode(libraryCell(Buffer.alloc(32, 7)))).toBe(false);
    expect(isDedustPoolCode(beginCell().storeUint(1, 8).endCell())).toBe(false);
  });
});

describe("DeDust Asset", () => {
  const bodies = actionTraceMessages().filter((m) => m.opcode === DEPOSIT_LIQUIDITY);

  it("the fixtures carry deposit_liquidity bodies", () => {
    expect(bodies.length).toBeGreaterThan(0);
  });

  it("load → store gives the same cell, on every pool_params of the fixtures", () => {
    const kinds = new Set<string>();
    for (const m of bodies) {
      const s = m.body.beginParse();
      const op = s.loadUint(32);
      const queryId = s.loadUintBig(64);
      const amount = s.loadCoins();
      const poolType = s.loadUint(1);
      const a0 = loadDedustAsset(s);
      const a1 = loadDedustAsset(s);
      kinds.add(a0.jetton === null ? "native" : "jetton").add(a1.jetton === null ? "native" : "jetton");
      const again = beginCell().storeUint(op, 32).storeUint(queryId, 64).storeCoins(amount).storeUint(poolType, 1).store(storeDedustAsset(a0)).store(storeDedustAsset(a1)).storeSlice(s).endCell();
      expect(again.hash().toString("base64")).toBe(m.body.hash().toString("base64"));
    }
    expect([...kinds].sort()).toEqual(["jetton", "native"]);
  });

  it("an extra-currency asset (a pool toncenter's worker refuses) and an unknown tag are refused", () => {
    expect(() => loadDedustAsset(beginCell().storeUint(0b0010, 4).storeInt(239, 32).endCell().beginParse())).toThrow(/neither native nor jetton/);
    expect(() => loadDedustAsset(beginCell().storeUint(0b1111, 4).endCell().beginParse())).toThrow(/neither native nor jetton/);
  });

  it("as toncenter's dex_pools keeps it: null for TON, the master's raw address", () => {
    const master = Address.parseRaw(`0:${"ab".repeat(32)}`);
    expect(dedustAssetAddress({ jetton: null })).toBeNull();
    expect(dedustAssetAddress({ jetton: master })).toBe(`0:${"AB".repeat(32)}`);
  });
});

describe("DeDust get-methods", () => {
  const master = Address.parseRaw(`0:${"cd".repeat(32)}`);
  const slices = [dedustAssetCell({ jetton: null }), dedustAssetCell({ jetton: master })];

  it("get_assets, is_stable and the factory's get_pool_address read; the factory's arguments are the pool's own slices", () => {
    const assets = readDedustPoolAssets([{ type: "slice", cell: slices[0]! }, { type: "slice", cell: slices[1]! }]);
    expect(assets.assets.map(dedustAssetAddress)).toEqual([null, `0:${"CD".repeat(32)}`]);
    expect(readDedustIsStable([{ type: "int", value: 1n }])).toBe(true);
    expect(dedustPoolAddressArgs(false, assets)).toEqual([{ type: "int", value: 0n }, { type: "slice", cell: slices[0] }, { type: "slice", cell: slices[1] }]);
    const pool = Address.parseRaw(`0:${"ef".repeat(32)}`);
    expect(readDedustPoolAddress([{ type: "slice", cell: beginCell().storeAddress(pool).endCell() }])?.equals(pool)).toBe(true);
  });

  it("a get_assets answer that is not two assets is refused", () => {
    expect(() => readDedustPoolAssets([{ type: "int", value: 1n }, { type: "slice", cell: slices[0]! }])).toThrow(/get_assets/);
    expect(() => readDedustPoolAssets([{ type: "slice", cell: beginCell().storeUint(0b0111, 4).endCell() }, { type: "slice", cell: slices[0]! }])).toThrow(/get_assets value 1/);
  });
});
