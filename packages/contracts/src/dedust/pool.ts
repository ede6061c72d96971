// DeDust v2 pools as toncenter's worker recognises them (ton-index-worker, DedustPoolDetector): the
// code is one of the pool codes DeDust deploys, get_assets gives its two assets, and the factory
// vouches for it — its get_pool_address(is_stable, asset_1, asset_2) is the pool's own address (a
// contract that copies the code with made-up assets is no pool). The classifier reads the assets
// (toncenter's `dex_pools`, dex = 'dedust').
import { Address, beginCell, type Cell, type TupleItem } from "@ton/core";
import { ContractDataError } from "../errors.js";
import { StackReader, type StackItem } from "../stack.js";
import { loadDedustAsset, storeDedustAsset, type DedustAsset } from "./asset.js";

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

// The assets are DeDust's Asset (swaps.ts: native and jetton; an extra-currency asset is refused,
// so a pool of one is no pool here, as toncenter's worker refuses it).

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

/** An asset as toncenter's classifier takes it (`dex_pools`' asset_1 / asset_2): null for TON, the jetton master's raw address otherwise. */
export function dedustAssetAddress(asset: DedustAsset): string | null {
  return asset.jetton === null ? null : `${asset.jetton.workChain}:${asset.jetton.hash.toString("hex").toUpperCase()}`;
}

/** A cell of one asset (tests, and a factory's argument built by hand). */
export const dedustAssetCell = (asset: DedustAsset): Cell => beginCell().store(storeDedustAsset(asset)).endCell();
