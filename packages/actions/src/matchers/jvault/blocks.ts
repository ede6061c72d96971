// JVault's action blocks: stake, unstake (at once), unstake request (when the lock ends), claim.
import type { ActionRow } from "../../action.js";
import { Block } from "../../engine/block.js";

export interface JvaultStakeData {
  sender: string | null;
  senderWallet: string | null;
  asset: string | null;
  stakeWallet: string | null;
  stakingPool: string | null;
  stakedAmount: bigint;
  period: number;
}

export class JvaultStakeBlock extends Block {
  constructor(readonly data: JvaultStakeData) {
    super("jvault_stake", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.sender;
    row.source_secondary = d.senderWallet;
    row.asset = d.asset;
    row.destination = d.stakingPool;
    row.amount = d.stakedAmount;
    row.jvault_stake_data = { period: d.period, stake_wallet: d.stakeWallet };
  }
}

/** An unstake or an unstake request: the same fields. */
export interface JvaultUnstakeData {
  sender: string | null;
  stakeWallet: string | null;
  stakingPool: string | null;
  amount: bigint;
  /** the staked jetton's master */
  asset: string | null;
  /** the pool's stake jetton's master */
  jvaultAsset: string | null;
  /** the stake wallet's compute exit code, when it refused */
  exitCode: number | null;
}

function fillUnstake(d: JvaultUnstakeData, row: ActionRow): void {
  row.source = d.sender;
  row.source_secondary = d.stakeWallet;
  row.destination = d.stakingPool;
  row.amount = d.amount;
  row.opcode = d.exitCode;
  row.asset = d.asset;
  row.asset2 = d.jvaultAsset;
}

export class JvaultUnstakeBlock extends Block {
  constructor(readonly data: JvaultUnstakeData) {
    super("jvault_unstake", []);
  }

  override fill(row: ActionRow): void {
    fillUnstake(this.data, row);
  }
}

export class JvaultUnstakeRequestBlock extends Block {
  constructor(readonly data: JvaultUnstakeData) {
    super("jvault_unstake_request", []);
  }

  override fill(row: ActionRow): void {
    fillUnstake(this.data, row);
  }
}

export interface JvaultClaimData {
  sender: string | null;
  stakeWallet: string | null;
  stakingPool: string | null;
  claimedJettons: string[];
  claimedAmounts: bigint[];
}

export class JvaultClaimBlock extends Block {
  constructor(readonly data: JvaultClaimData) {
    super("jvault_claim", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.sender;
    row.source_secondary = d.stakeWallet;
    row.destination = d.stakingPool;
    row.jvault_claim_data = { claimed_jettons: d.claimedJettons, claimed_amounts: d.claimedAmounts };
  }
}
