// What a JVault stake wallet is about, read from contract data (toncenter's extract_jvault_assets):
// the stake wallet's data names its pool and the minter of the pool's stake jettons, the pool's
// data its lock wallet, and that jetton wallet's master is the staked asset. The decoder supplies
// the data of the stake wallet and of its pool (data_boc facts, the pool's lock wallet already
// read out when it can) and the lock wallet's jetton wallet facts.
import { Cell } from "@ton/core";
import { loadJvaultStakeWalletHead, loadJvaultStakingPoolHead } from "@tongate/contracts";
import type { DataBocFacts } from "../../interfaces.js";
import { rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";

export interface JvaultAssets {
  stakingPool: string;
  /** the staked jetton's master; null when the pool's data is unknown */
  asset: string | null;
  /** the pool's stake jetton's master */
  jvaultAsset: string;
}

interface StakeWalletHead {
  stakingPool: string;
  minter: string;
}

// contract data is a BoC of many cells (a pool's holds its reward tables): read once per facts object
const stakeWalletHeads = new WeakMap<DataBocFacts, StakeWalletHead>();
const lockWallets = new WeakMap<DataBocFacts, string>();

function required(a: string | null, what: string): string {
  if (a === null) throw new Error(`jvault: no ${what}`);
  return a;
}

function stakeWalletHead(facts: DataBocFacts): StakeWalletHead {
  let head = stakeWalletHeads.get(facts);
  if (head === undefined) {
    const h = loadJvaultStakeWalletHead(Cell.fromBase64(facts.dataBoc).beginParse());
    head = { stakingPool: required(rawAddress(h.stakingPool), "staking pool"), minter: required(rawAddress(h.minter), "minter") };
    stakeWalletHeads.set(facts, head);
  }
  return head;
}

function lockWalletOf(facts: DataBocFacts): string {
  let lock = lockWallets.get(facts);
  if (lock === undefined) {
    lock = facts.lockWalletAddress ?? required(rawAddress(loadJvaultStakingPoolHead(Cell.fromBase64(facts.dataBoc).beginParse()).lockWallet), "lock wallet");
    lockWallets.set(facts, lock);
  }
  return lock;
}

export function jvaultAssets(ctx: MatchContext, stakeWallet: string | null): JvaultAssets | null {
  try {
    const walletFacts = ctx.dataBoc(stakeWallet);
    if (walletFacts === null) return null;
    const head = stakeWalletHead(walletFacts);
    const poolFacts = ctx.dataBoc(head.stakingPool);
    if (poolFacts === null) return { stakingPool: head.stakingPool, asset: null, jvaultAsset: head.minter };
    const lockWallet = lockWalletOf(poolFacts);
    const wallet = ctx.jettonWallet(lockWallet);
    if (wallet === null) throw new Error(`jvault: the lock wallet ${lockWallet} is not a known jetton wallet`);
    return { stakingPool: head.stakingPool, asset: wallet.jetton, jvaultAsset: head.minter };
  } catch (e) {
    ctx.debug(`jvault assets of ${stakeWallet}: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
}
