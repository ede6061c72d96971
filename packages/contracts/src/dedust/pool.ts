// DeDust v2 pools as toncenter's worker recognises them (ton-index-worker, DedustPoolDetector): the
// code is one of the pool codes DeDust deploys, get_assets gives its two assets, and the factory
// vouches for it — its get_pool_address(is_stable, asset_1, asset_2) is the pool's own address (a
// contract that copies the code with made-up assets is no pool). The classifier reads the assets
// (toncenter's `dex_pools`, dex = 'dedust').
import { Address, beginCell, type Builder, type Cell, type Slice, type TupleItem } from "@ton/core";
import { ContractDataError } from "../errors.js";
import { StackReader, type StackItem } from "../stack.js";

/** The code hashes (base64) of DeDust's pools, as toncenter's worker lists them (DEDUST_POOL_CODE_HASHES). */
export const DEDUST_POOL_CODE_HASHES: readonly string[] = [
  "EnUJW22jkRKSQG9PQ4b554AJm4VMbe6e4old3OcJJ8E=",
  "d48NP+ZILFCIiXDfXnh/QPOkqyghcMA1pZIIdwWMmdM=",
  "wPnRT7yOFPDXLLoiFBZe7jWDarF0EwkSuvnb+kPq1WI=",
];

/** DeDust's factory on mainnet (the one toncenter's worker asks): it derives every pool's address. */
export const DEDUST_FACTORY_ADDRESS = Address.parse("EQBfBWT7X2BHg9tXAxzhz2aKiNTU1tpt5NsiK0uSDW_YAJ67");

const POOL_HASHES = new Set(DEDUST_POOL_CODE_HASHES);

/**
 * Whether this code is a DeDust pool's: its own hash, or (mainnet accounts hold library cells as
 * code) the hash of the library it references — the library's code hash, so no fetch is needed.
 */
export function isDedustPoolCode(code: Cell): boolean {
  if (POOL_HASHES.has(code.hash().toString("base64"))) return true;
  // a library cell: 8 bits of type (2) and the 256-bit hash of the code it stands for
  if (!code.isExotic || code.bits.length !== 8 + 256) return false;
  const s = code.beginParse(true);
  return s.loadUint(8) === 2 && POOL_HASHES.has(s.loadBuffer(32).toString("base64"));
}

/**
 * DeDust's Asset (its TL-B: native$0000 = Asset; jetton$0001 workchain_id:int8 address:uint256 =
 * Asset; extra_currency$0010 currency_id:int32 = Asset).
 */
export type DedustAsset = { kind: "native" } | { kind: "jetton"; master: Address } | { kind: "extra_currency"; currencyId: number };

export function loadDedustAsset(slice: Slice): DedustAsset {
  const tag = slice.loadUint(4);
  switch (tag) {
    case 0b0000:
      return { kind: "native" };
    case 0b0001: {
      const workchain = slice.loadInt(8);
      return { kind: "jetton", master: new Address(workchain, slice.loadBuffer(32)) };
    }
    case 0b0010:
      return { kind: "extra_currency", currencyId: slice.loadInt(32) };
    default:
      throw new ContractDataError(`DeDust asset: unknown tag ${tag.toString(2).padStart(4, "0")}`);
  }
}

export function storeDedustAsset(asset: DedustAsset): (builder: Builder) => void {
  return (b) => {
    switch (asset.kind) {
      case "native":
        b.storeUint(0b0000, 4);
        return;
      case "jetton":
        b.storeUint(0b0001, 4).storeInt(asset.master.workChain, 8).storeBuffer(asset.master.hash, 32);
        return;
      case "extra_currency":
        b.storeUint(0b0010, 4).storeInt(asset.currencyId, 32);
    }
  };
}

/** A pool's two assets as get_assets gives them (and the slices, which the factory takes back). */
export interface DedustPoolAssets {
  assets: [DedustAsset, DedustAsset];
  slices: [Cell, Cell];
}

/** get_assets: (slice asset0, slice asset1). */
export function readDedustPoolAssets(stack: StackItem[]): DedustPoolAssets {
  const s = new StackReader("get_assets", stack, 2);
  const slices: [Cell, Cell] = [s.cell(0), s.cell(1)];
  const read = (c: Cell, i: number): DedustAsset => {
    try {
      return loadDedustAsset(c.beginParse());
    } catch (e) {
      throw new ContractDataError(`get_assets value ${i + 1}: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return { assets: [read(slices[0], 0), read(slices[1], 1)], slices };
}

/** is_stable: (int is_stable). */
export function readDedustIsStable(stack: StackItem[]): boolean {
  return new StackReader("is_stable", stack, 1).int(0) !== 0n;
}

/** The factory's get_pool_address(int pool_type, slice asset0, slice asset1) arguments, bottom first. */
export function dedustPoolAddressArgs(isStable: boolean, assets: DedustPoolAssets): TupleItem[] {
  return [
    { type: "int", value: isStable ? 1n : 0n },
    { type: "slice", cell: assets.slices[0] },
    { type: "slice", cell: assets.slices[1] },
  ];
}

/** The factory's answer to get_pool_address: the pool's address. */
export function readDedustPoolAddress(stack: StackItem[]): Address | null {
  return new StackReader("get_pool_address", stack, 1).address(0);
}

/**
 * An asset as toncenter's classifier takes it (`dex_pools`' asset_1 / asset_2: null for TON, the
 * jetton master's raw address otherwise); undefined for an asset toncenter does not index (an extra
 * currency: its worker refuses such a pool).
 */
export function dedustAssetAddress(asset: DedustAsset): string | null | undefined {
  if (asset.kind === "native") return null;
  if (asset.kind === "jetton") return `${asset.master.workChain}:${asset.master.hash.toString("hex").toUpperCase()}`;
  return undefined;
}

/** A cell of one asset (tests, and a factory's argument built by hand). */
export const dedustAssetCell = (asset: DedustAsset): Cell => beginCell().store(storeDedustAsset(asset)).endCell();
