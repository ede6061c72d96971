// JVault staking message bodies (toncenter's classifier schemes "jvault"): a jetton transfer to
// the staking pool stakes (its forward payload names the lock period), the pool hands the jettons
// to the staker's stake wallet (receive_jettons); the stake wallet asks the pool to update rewards
// on every stake, unstake and claim. The pool ↔ wallet bookkeeping bodies are read by opcode only.
import { Dictionary, type Address, type Builder, type Slice } from "@ton/core";
import { loadOpcode, loadRestSlice } from "../tlb.js";

export const JVAULT_OPCODES = {
  jvault_stake_jettons: 0xe3a06989,
  jvault_receive_jettons: 0xd68a4ac1,
  jvault_unstake_jettons: 0x499a9262,
  jvault_unstake_request: 0x0168d4b7,
  jvault_claim_rewards_msg: 0x78d9f109,
  jvault_send_claimed_rewards: 0x44bc1fe3,
  jvault_request_update_rewards: 0xf5c5baa3,
  jvault_update_rewards: 0xae9307ce,
  jvault_request_update_referrer: 0x55c35b40,
  jvault_update_referrer: 0x076ee4e0,
  jvault_set_data: 0x383411ea,
  /** the pool refuses a stake and returns the jettons (toncenter's 0x9eada1d9, unnamed in its schemes) */
  jvault_cancel_stake: 0x9eada1d9,
} as const;

const OP = JVAULT_OPCODES;

/** (HashmapE 267 Bit): a set of MsgAddressStd keys (2+1+8+256 bits), kept with their bit. */
export type JvaultAddressSet = Dictionary<Address, boolean>;

const ADDRESS_STD_KEY = Dictionary.Keys.Address();

function loadAddressSet(s: Slice): JvaultAddressSet {
  return s.loadDict(ADDRESS_STD_KEY, Dictionary.Values.Bool());
}

/**
 * jvault_stake_jettons#e3a06989 lock_period:uint32: the forward payload of the jetton transfer
 * that stakes (layout as toncenter reads it: the opcode, then the period in seconds).
 */
export interface JvaultStakeJettons {
  lockPeriod: number;
  /** what follows the period (a payload written inline in the transfer carries a bit and a ref more), kept as read */
  rest: Slice;
}

export function loadJvaultStakeJettons(s: Slice): JvaultStakeJettons {
  loadOpcode(s, OP.jvault_stake_jettons, "jvault_stake_jettons");
  return { lockPeriod: s.loadUint(32), rest: loadRestSlice(s) };
}

export const storeJvaultStakeJettons = (src: JvaultStakeJettons) => (b: Builder) => b.storeUint(OP.jvault_stake_jettons, 32).storeUint(src.lockPeriod, 32).storeSlice(src.rest.clone());

/**
 * jvault_receive_jettons#d68a4ac1 query_id:uint64 min_deposit:Coins max_deposit:Coins
 * unstake_commission:uint16 unstake_fee:Coins whitelist:(HashmapE 267 Bit) received_jettons:Coins:
 * the pool → the staker's stake wallet.
 */
export interface JvaultReceiveJettons {
  queryId: bigint;
  minDeposit: bigint;
  maxDeposit: bigint;
  unstakeCommission: number;
  unstakeFee: bigint;
  whitelist: JvaultAddressSet;
  receivedJettons: bigint;
  /** what newer pools send after the scheme's fields (36 bits in the fixtures) */
  rest: Slice;
}

export function loadJvaultReceiveJettons(s: Slice): JvaultReceiveJettons {
  loadOpcode(s, OP.jvault_receive_jettons, "jvault_receive_jettons");
  return {
    queryId: s.loadUintBig(64),
    minDeposit: s.loadCoins(),
    maxDeposit: s.loadCoins(),
    unstakeCommission: s.loadUint(16),
    unstakeFee: s.loadCoins(),
    whitelist: loadAddressSet(s),
    receivedJettons: s.loadCoins(),
    rest: loadRestSlice(s),
  };
}

export const storeJvaultReceiveJettons = (src: JvaultReceiveJettons) => (b: Builder) =>
  b
    .storeUint(OP.jvault_receive_jettons, 32)
    .storeUint(src.queryId, 64)
    .storeCoins(src.minDeposit)
    .storeCoins(src.maxDeposit)
    .storeUint(src.unstakeCommission, 16)
    .storeCoins(src.unstakeFee)
    .storeDict(src.whitelist)
    .storeCoins(src.receivedJettons)
    .storeSlice(src.rest.clone());

/** jvault_unstake_jettons#499a9262 query_id:uint64 jettons_to_unstake:Coins force_unstake:Bool: the staker → its stake wallet. */
export interface JvaultUnstakeJettons {
  queryId: bigint;
  jettonsToUnstake: bigint;
  forceUnstake: boolean;
}

export function loadJvaultUnstakeJettons(s: Slice): JvaultUnstakeJettons {
  loadOpcode(s, OP.jvault_unstake_jettons, "jvault_unstake_jettons");
  return { queryId: s.loadUintBig(64), jettonsToUnstake: s.loadCoins(), forceUnstake: s.loadBit() };
}

export const storeJvaultUnstakeJettons = (src: JvaultUnstakeJettons) => (b: Builder) =>
  b.storeUint(OP.jvault_unstake_jettons, 32).storeUint(src.queryId, 64).storeCoins(src.jettonsToUnstake).storeBit(src.forceUnstake);

/** jvault_unstake_request#0168d4b7 query_id:uint64 jettons_to_unstake:Coins: the staker asks to unstake when the lock ends. */
export interface JvaultUnstakeRequest {
  queryId: bigint;
  jettonsToUnstake: bigint;
}

export function loadJvaultUnstakeRequest(s: Slice): JvaultUnstakeRequest {
  loadOpcode(s, OP.jvault_unstake_request, "jvault_unstake_request");
  return { queryId: s.loadUintBig(64), jettonsToUnstake: s.loadCoins() };
}

export const storeJvaultUnstakeRequest = (src: JvaultUnstakeRequest) => (b: Builder) =>
  b.storeUint(OP.jvault_unstake_request, 32).storeUint(src.queryId, 64).storeCoins(src.jettonsToUnstake);

/** jvault_claim_rewards_msg#78d9f109 query_id:uint64 jettons_to_claim:(HashmapE 267 Bit): the staker claims the rewards of these jetton wallets. */
export interface JvaultClaimRewardsMsg {
  queryId: bigint;
  jettonsToClaim: JvaultAddressSet;
}

export function loadJvaultClaimRewardsMsg(s: Slice): JvaultClaimRewardsMsg {
  loadOpcode(s, OP.jvault_claim_rewards_msg, "jvault_claim_rewards_msg");
  return { queryId: s.loadUintBig(64), jettonsToClaim: loadAddressSet(s) };
}

export const storeJvaultClaimRewardsMsg = (src: JvaultClaimRewardsMsg) => (b: Builder) =>
  b.storeUint(OP.jvault_claim_rewards_msg, 32).storeUint(src.queryId, 64).storeDict(src.jettonsToClaim);
