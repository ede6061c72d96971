// Whales nominator pool get-method results: get_pool_status, get_params, get_staking_status,
// get_members_raw and the related contracts (get_owner, get_controller, get_proxy).
import type { Address, Cell } from "@ton/core";
import { StackReader, type StackItem } from "../stack.js";

/** get_pool_status: (balance, balance_sent, balance_pending_deposits, balance_pending_withdraw, balance_withdraw). */
export interface WhalesPoolStatus {
  balance: bigint;
  balanceSent: bigint;
  balancePendingDeposits: bigint;
  balancePendingWithdraw: bigint;
  balanceWithdraw: bigint;
}

export function readWhalesPoolStatus(stack: StackItem[]): WhalesPoolStatus {
  const s = new StackReader("get_pool_status", stack, 5);
  return { balance: s.int(0), balanceSent: s.int(1), balancePendingDeposits: s.int(2), balancePendingWithdraw: s.int(3), balanceWithdraw: s.int(4) };
}

/** get_params: (enabled, updates_enabled, min_stake, deposit_fee, withdraw_fee, pool_fee, receipt_price). */
export interface WhalesPoolParams {
  enabled: boolean;
  updatesEnabled: boolean;
  minStake: bigint;
  depositFee: bigint;
  withdrawFee: bigint;
  /** In hundredths of a percent. */
  poolFee: bigint;
  receiptPrice: bigint;
}

export function readWhalesPoolParams(stack: StackItem[]): WhalesPoolParams {
  const s = new StackReader("get_params", stack, 7);
  return { enabled: s.int(0) !== 0n, updatesEnabled: s.int(1) !== 0n, minStake: s.int(2), depositFee: s.int(3), withdrawFee: s.int(4), poolFee: s.int(5), receiptPrice: s.int(6) };
}

/** get_staking_status: (stake_at, stake_until, stake_sent, query_sent, unlocked, locked); stake_until is when the elector frees the stake. */
export interface WhalesStakingStatus {
  stakeAt: number;
  stakeUntil: number;
  stakeSent: bigint;
  querySent: boolean;
  unlocked: boolean;
  locked: boolean;
}

export function readWhalesStakingStatus(stack: StackItem[]): WhalesStakingStatus {
  const s = new StackReader("get_staking_status", stack, 6);
  return { stakeAt: Number(s.int(0)), stakeUntil: Number(s.int(1)), stakeSent: s.int(2), querySent: s.int(3) !== 0n, unlocked: s.int(4) !== 0n, locked: s.int(5) !== 0n };
}

/** get_members_raw: the members' dictionary (loadWhalesMembers reads it), null when empty. */
export function readWhalesMembersRaw(stack: StackItem[]): Cell | null {
  return new StackReader("get_members_raw", stack, 1).optionalCell(0);
}

/** get_owner, get_controller, get_proxy: one address. */
export function readWhalesAddress(method: "get_owner" | "get_controller" | "get_proxy", stack: StackItem[]): Address | null {
  return new StackReader(method, stack, 1).address(0);
}
