// A DeDust pool as toncenter's worker recognises it (DedustPoolDetector): its get_assets and
// is_stable, and the factory's get_pool_address of those must give the pool's own address back.
import { dedustPoolAddressArgs, readDedustIsStable, readDedustPoolAddress, readDedustPoolAssets, type DedustAsset } from "@tongate/contracts";
import { readGetMethod, type AccountState, type GetMethodContext, type ReadFailure } from "./run.js";

/**
 * The pool's assets when the factory vouches for it; denied when the pool or the factory answers
 * otherwise (an exit code, a result that does not fit, another address); unknown when a run did not
 * finish or needs a library (ask again).
 */
export type DedustPoolConfirmation =
  | { verdict: "confirmed"; assets: [DedustAsset, DedustAsset]; isStable: boolean }
  | { verdict: "denied"; reason: string }
  | { verdict: "unknown"; failure: ReadFailure };

const settled = (f: ReadFailure): boolean => f.reason === "exit_code" || f.reason === "result";

/** Runs the pool's get_assets and is_stable (on `poolCtx`), then the factory's get_pool_address (on `factoryCtx`). */
export async function confirmDedustPool(poolCtx: GetMethodContext, pool: AccountState, factoryCtx: GetMethodContext, factory: AccountState): Promise<DedustPoolConfirmation> {
  const assets = await readGetMethod(poolCtx, pool, "get_assets", [], readDedustPoolAssets);
  if (!assets.ok) return settled(assets.failure) ? { verdict: "denied", reason: assets.failure.message } : { verdict: "unknown", failure: assets.failure };
  const stable = await readGetMethod(poolCtx, pool, "is_stable", [], readDedustIsStable);
  if (!stable.ok) return settled(stable.failure) ? { verdict: "denied", reason: stable.failure.message } : { verdict: "unknown", failure: stable.failure };
  const answered = await readGetMethod(factoryCtx, factory, "get_pool_address", dedustPoolAddressArgs(stable.value, assets.value), readDedustPoolAddress);
  if (!answered.ok) return settled(answered.failure) ? { verdict: "denied", reason: answered.failure.message } : { verdict: "unknown", failure: answered.failure };
  if (!answered.value?.equals(pool.address)) return { verdict: "denied", reason: `the factory gives ${answered.value?.toRawString() ?? "no address"} for these assets` };
  return { verdict: "confirmed", assets: assets.value.assets, isStable: stable.value };
}
