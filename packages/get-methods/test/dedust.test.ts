// A DeDust pool recognised as toncenter's worker does, on a real mainnet pool (its state before
// the replay block): get_assets and is_stable in the emulator give the
// assets toncenter's dex_pools holds for it (the classifier trace's DedustPool interface), and the
// factory's get_pool_address decides — a stand-in factory (it answers an address for exactly the
// arguments its data holds) vouching for the pool, for another address, or refusing the call.
import { readFileSync } from "node:fs";
import { compileFunc } from "@ton-community/func-js";
import { Address, beginCell, Cell } from "@ton/core";
import { defaultConfig } from "@ton/sandbox";
import { afterAll, beforeAll, expect, it } from "vitest";
import { dedustAssetAddress, dedustAssetCell, isDedustPoolCode, type DedustAsset } from "@tongate/contracts";
import { EmulatorPool } from "@tongate/emulator";
import { confirmDedustPool, type AccountState, type GetMethodContext } from "@tongate/get-methods";
import { replayBlock } from "../../contracts/test/fixtures.js";

/** The pool of TON and the jetton 0:B113…1DFE (toncenter_actions trace cq7UujFW…: DedustPool). */
const POOL = "0:3e5ffca8ddfcf36c36c9ff46f31562aab51b9914845ad6c26cbde649d58a5588";
const EXPECTED = JSON.parse(readFileSync(new URL("../../../../shared/fixtures/toncenter_actions/traces/cq7UujFWNfSnpHdRKseD41yHqj4Yx3SCWsnkw8IRPoU=.json", import.meta.url), "utf8")).interfaces[POOL.toUpperCase()].DedustPool;

const FACTORY = `
  cell get_data() asm "c4 PUSH";
  slice begin_parse(cell c) asm "CTOS";
  (slice, cell) load_ref(slice s) asm( -> 1 0) "LDREF";
  int equal_slices(slice a, slice b) asm "SDEQ";
  () recv_internal() impure { }
  ;; the address in its data, for the pool type and the two assets its data holds only
  slice get_pool_address(int pool_type, slice asset0, slice asset1) method_id {
    slice s = get_data().begin_parse();
    int t = s~load_uint(1);
    cell a0 = s~load_ref();
    cell a1 = s~load_ref();
    throw_unless(101, (t == pool_type) & equal_slices(a0.begin_parse(), asset0) & equal_slices(a1.begin_parse(), asset1));
    return s;
  }
`;

const emulator = new EmulatorPool({ size: 1 });
afterAll(() => emulator.close());
let ctx: GetMethodContext;
let pool: AccountState;
let factoryCode: Cell;
const factory = (isStable: boolean, assets: DedustAsset[], answer: Address): AccountState => ({
  address: Address.parse("EQBfBWT7X2BHg9tXAxzhz2aKiNTU1tpt5NsiK0uSDW_YAJ67"),
  code: factoryCode,
  data: beginCell().storeUint(isStable ? 1 : 0, 1).storeRef(dedustAssetCell(assets[0]!)).storeRef(dedustAssetCell(assets[1]!)).storeAddress(answer).endCell(),
  balance: 10n ** 9n,
});

beforeAll(async () => {
  const replay = replayBlock();
  const state = replay.accounts.get(POOL)!;
  pool = { address: Address.parseRaw(POOL), ...state };
  ctx = { pool: emulator, config: defaultConfig, libraries: replay.libs, now: 1_720_000_000 };
  const compiled = await compileFunc({ targets: ["factory.fc"], sources: { "factory.fc": FACTORY } });
  if (compiled.status === "error") throw new Error(compiled.message);
  factoryCode = Cell.fromBase64(compiled.codeBoc);
});

const ton: DedustAsset = { jetton: null };
const jetton = (raw: string): DedustAsset => ({ jetton: Address.parseRaw(raw) });

it("the real pool's code is a DeDust pool's, and its assets are toncenter's", async () => {
  expect(isDedustPoolCode(pool.code)).toBe(true);
  const assets = [ton, jetton(EXPECTED.assets[1].address)];
  const r = await confirmDedustPool(ctx, pool, ctx, factory(false, assets, pool.address));
  expect(r.verdict).toBe("confirmed");
  if (r.verdict !== "confirmed") return;
  expect(r.isStable).toBe(false);
  expect(r.assets.map((a) => dedustAssetAddress(a))).toEqual(EXPECTED.assets.map((a: { address: string | null }) => a.address));
});

it("denied when the factory gives another address for the pool's assets, or has none for them", async () => {
  const assets = [ton, jetton(EXPECTED.assets[1].address)];
  const other = new Address(0, Buffer.alloc(32, 9));
  expect(await confirmDedustPool(ctx, pool, ctx, factory(false, assets, other))).toMatchObject({ verdict: "denied", reason: expect.stringMatching(/another|gives/) });
  // made-up assets: the factory refuses the call (a contract copying the pool's code is no pool)
  expect(await confirmDedustPool(ctx, pool, ctx, factory(false, [ton, ton], pool.address))).toMatchObject({ verdict: "denied" });
  expect(await confirmDedustPool(ctx, pool, ctx, factory(true, assets, pool.address))).toMatchObject({ verdict: "denied" });
});

it("a contract without get_assets is denied", async () => {
  const notAPool = { ...pool, code: factoryCode, data: Cell.EMPTY };
  expect(await confirmDedustPool(ctx, notAPool, ctx, factory(false, [ton, ton], pool.address))).toMatchObject({ verdict: "denied", reason: expect.stringMatching(/get_assets/) });
});
