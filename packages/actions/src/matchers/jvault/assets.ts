// What a JVault stake wallet is about, read from contract data (toncenter's extract_jvault_assets):
// the stake wallet's data names its pool and the minter of the pool's stake jettons, the pool's
// data its lock wallet, and that jetton wallet's master is the staked asset. The decoder supplies
// the data of the stake wallet and of its pool (data_boc facts) and the lock wallet's jetton
// wallet facts.
import { Cell } from "@ton/core";
import { loadJvaultStakeWalletHead, loadJvaultStakingPoolHead } from "@tongate/contracts";
import { rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";

export interface JvaultAssets {
  stakingPool: string;
  /** the staked jetton's master; null when the pool's data or its lock wallet is unknown */
  asset: string | null;
  /** the pool's stake jetton's master */
  jvaultAsset: string;
}

function dataOf(ctx: MatchContext, address: string): Cell | null {
  const facts = ctx.dataBoc(address);
  return facts === null ? null : Cell.fromBase64(facts.dataBoc);
}

export function jvaultAssets(ctx: MatchContext, stakeWallet: string | null): JvaultAssets | null {
  if (stakeWallet === null) return null;
  try {
    const walletData = dataOf(ctx, stakeWallet);
    if (walletData === null) return null;
    const head = loadJvaultStakeWalletHead(walletData.beginParse());
    const stakingPool = rawAddress(head.stakingPool)!;
    const jvaultAsset = rawAddress(head.minter)!;
    const poolData = dataOf(ctx, stakingPool);
    if (poolData === null) return { stakingPool, asset: null, jvaultAsset };
    const lockWallet = rawAddress(loadJvaultStakingPoolHead(poolData.beginParse()).lockWallet);
    const wallet = ctx.jettonWallet(lockWallet);
    if (wallet === null) throw new Error(`jvault: the lock wallet ${lockWallet} is not a known jetton wallet`);
    return { stakingPool, asset: wallet.jetton, jvaultAsset };
  } catch (e) {
    ctx.debug(`jvault assets of ${stakeWallet}: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
}
