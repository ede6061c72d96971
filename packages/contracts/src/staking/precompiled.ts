// Precompiled reader of the Whales nominator pool: get_pool_status, get_params, get_members_raw,
// get_owner/get_controller/get_proxy from the data cell; get_staking_status also from the time
// and the validator cycles of the block's config (params 32 and 34), as the contract reads them.
import { Dictionary, type Address, type Cell } from "@ton/core";
import type { ReadStateContext } from "../precompiled.js";
import type { WhalesPoolParams, WhalesPoolStatus, WhalesStakingStatus } from "./get-methods.js";
import { loadWhalesPoolStorage, type WhalesProxyState } from "./storage.js";

/**
 * The pool-wide get-methods. A member's get_member(address) is left to the emulator: it applies
 * the pool's profit since the member's last operation (member_update_balance) to what
 * loadWhalesMembers(membersRaw) holds.
 */
export interface WhalesPoolState {
  kind: "whales_pool";
  owner: Address | null;
  controller: Address | null;
  proxy: Address | null;
  poolStatus: WhalesPoolStatus;
  params: WhalesPoolParams;
  /** The members' dictionary root (loadWhalesMembers reads it). */
  membersRaw: Cell | null;
  /**
   * undefined: the context has no time or no config (run the get-method); null: it throws (a
   * staked pool and a config without param 32 or 34).
   */
  stakingStatus?: WhalesStakingStatus | null;
}

/** The contract's values without an extras cell. */
export const WHALES_DEFAULT_PARAMS: WhalesPoolParams = {
  enabled: true,
  updatesEnabled: true,
  minStake: 1_000_000_000n,
  depositFee: 100_000_000n,
  withdrawFee: 100_000_000n,
  poolFee: 1000n,
  receiptPrice: 100_000_000n,
};

const configs = new WeakMap<Cell, Dictionary<number, Cell>>();

/** A config param's cell from the ConfigParams dictionary root (parsed once per root). */
function configParam(config: Cell, n: number): Cell | undefined {
  let dict = configs.get(config);
  if (!dict) configs.set(config, (dict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), config)));
  return dict.get(n);
}

/** utime_since of config param 32 (the previous validator set) or 34 (the current one). */
function cycleSince(config: Cell, n: 32 | 34): number | null {
  const p = configParam(config, n);
  if (!p) return null;
  const s = p.beginParse();
  s.skip(8);
  return s.loadUint(32);
}

/** utils-config.fc lockup_lift_time: the stake is freed as long after its cycle began as it was locked for. */
function lockupLiftTime(config: Cell, stakeAt: number, stakeUntil: number): number | null {
  for (const n of [32, 34] as const) {
    const since = cycleSince(config, n);
    if (since === null) return null;
    if (stakeAt <= since) return since + (stakeUntil - stakeAt);
  }
  return stakeUntil;
}

function stakingStatus(p: WhalesProxyState, locked: boolean, now: number, config: Cell): WhalesStakingStatus | null {
  let unlocked = p.stakeUntil === 0 || p.stakeUntil < now;
  let until = p.stakeUntil;
  if (p.stakeAt !== 0 && p.stakeUntil !== 0) {
    const lifted = lockupLiftTime(config, p.stakeAt, p.stakeUntil);
    if (lifted === null) return null;
    until = lifted;
    unlocked = unlocked && until < now;
  }
  return { stakeAt: p.stakeAt, stakeUntil: until, stakeSent: p.stakeSent, querySent: p.storedQueryId !== 0n, unlocked, locked };
}

function whalesPool(data: Cell, ctx: ReadStateContext): WhalesPoolState {
  const st = loadWhalesPoolStorage(data.beginParse());
  const b = st.balances;
  const state: WhalesPoolState = {
    kind: "whales_pool",
    owner: st.owner,
    controller: st.controller,
    proxy: st.proxy,
    poolStatus: { balance: b.balance, balanceSent: b.balanceSent, balancePendingDeposits: b.balancePendingDeposits, balancePendingWithdraw: b.balancePendingWithdraw, balanceWithdraw: b.balanceWithdraw },
    params: st.extras ?? { ...WHALES_DEFAULT_PARAMS },
    membersRaw: st.members,
  };
  if (ctx.now !== undefined && ctx.config) state.stakingStatus = stakingStatus(st.proxyState, st.locked, ctx.now, ctx.config);
  return state;
}

export const STAKING_READERS: Record<string, (data: Cell, ctx: ReadStateContext) => WhalesPoolState> = {
  whales_nominator_pool: whalesPool,
};
