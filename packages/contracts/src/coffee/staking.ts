// swap.coffee staking bodies (message-schemes.tlb "swap_coffee.xml" and toncenter's coffee.py):
// a deposit mints a position NFT, a withdrawal walks owner → position NFT → staking master → pool
// under one opcode with three layouts, and the admin pays rewards out with claim_rewards.
import { beginCell, type Address, type Builder, type Cell, type Slice } from "@ton/core";
import { loadOpcode } from "../tlb.js";
import { COFFEE_OPCODES } from "./messages.js";

const OP = COFFEE_OPCODES;

/**
 * coffee_staking_deposit#f9471134 query_id:uint64 sender:MsgAddressInt jetton_amount:Coins
 * from_user:MsgAddressInt period_id:uint32 — the pool tells the master of a deposit (the master logs it again).
 */
export interface CoffeeStakingDeposit {
  queryId: bigint;
  sender: Address;
  jettonAmount: bigint;
  fromUser: Address;
  periodId: number;
}

export function loadCoffeeStakingDeposit(s: Slice): CoffeeStakingDeposit {
  loadOpcode(s, OP.coffee_staking_deposit, "coffee_staking_deposit");
  return { queryId: s.loadUintBig(64), sender: s.loadAddress(), jettonAmount: s.loadCoins(), fromUser: s.loadAddress(), periodId: s.loadUint(32) };
}

export function storeCoffeeStakingDeposit(src: CoffeeStakingDeposit): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.coffee_staking_deposit, 32)
      .storeUint(src.queryId, 64)
      .storeAddress(src.sender)
      .storeCoins(src.jettonAmount)
      .storeAddress(src.fromUser)
      .storeUint(src.periodId, 32);
}

/**
 * staking_position_withdraw_2#cb03bfaf query_id:uint64 nft_id:uint64 owner:MsgAddressInt
 * points:Coins jetton_data:^[wallet:MsgAddressInt amount:Coins] — the position NFT, burning
 * itself, tells the staking master what it held.
 */
export interface CoffeeStakingPositionWithdraw2 {
  queryId: bigint;
  nftId: bigint;
  owner: Address;
  points: bigint;
  jettonWallet: Address;
  jettonAmount: bigint;
}

export function loadCoffeeStakingPositionWithdraw2(s: Slice): CoffeeStakingPositionWithdraw2 {
  loadOpcode(s, OP.coffee_staking_position_withdraw, "staking_position_withdraw_2");
  const head = { queryId: s.loadUintBig(64), nftId: s.loadUintBig(64), owner: s.loadAddress(), points: s.loadCoins() };
  const data = s.loadRef().beginParse();
  return { ...head, jettonWallet: data.loadAddress(), jettonAmount: data.loadCoins() };
}

export function storeCoffeeStakingPositionWithdraw2(src: CoffeeStakingPositionWithdraw2): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.coffee_staking_position_withdraw, 32)
      .storeUint(src.queryId, 64)
      .storeUint(src.nftId, 64)
      .storeAddress(src.owner)
      .storeCoins(src.points)
      .storeRef(beginCell().storeAddress(src.jettonWallet).storeCoins(src.jettonAmount));
}

/**
 * staking_position_withdraw_3#cb03bfaf query_id:uint64 jetton_wallet:MsgAddressInt
 * jetton_amount:Coins owner:MsgAddressInt — the master tells the pool to pay the stake out.
 */
export interface CoffeeStakingPositionWithdraw3 {
  queryId: bigint;
  jettonWallet: Address;
  jettonAmount: bigint;
  owner: Address;
}

export function loadCoffeeStakingPositionWithdraw3(s: Slice): CoffeeStakingPositionWithdraw3 {
  loadOpcode(s, OP.coffee_staking_position_withdraw, "staking_position_withdraw_3");
  return { queryId: s.loadUintBig(64), jettonWallet: s.loadAddress(), jettonAmount: s.loadCoins(), owner: s.loadAddress() };
}

export function storeCoffeeStakingPositionWithdraw3(src: CoffeeStakingPositionWithdraw3): (b: Builder) => void {
  return (b) =>
    b.storeUint(OP.coffee_staking_position_withdraw, 32).storeUint(src.queryId, 64).storeAddress(src.jettonWallet).storeCoins(src.jettonAmount).storeAddress(src.owner);
}

/**
 * coffee_staking_claim_rewards#b30c7310 query_id:uint64 jetton_wallet:MsgAddressInt
 * jetton_amount:Coins receiver:MsgAddressInt payload:(Maybe ^CoffeeStakingForwardData); the pool's
 * log coffee_staking_rewards_claimed has the same fields without payload (undefined then).
 */
export interface CoffeeStakingClaimRewards {
  queryId: bigint;
  jettonWallet: Address;
  jettonAmount: bigint;
  receiver: Address;
  payload?: Cell | null;
}

export function loadCoffeeStakingClaimRewards(s: Slice): CoffeeStakingClaimRewards {
  loadOpcode(s, OP.coffee_staking_claim_rewards, "coffee_staking_claim_rewards");
  const out: CoffeeStakingClaimRewards = { queryId: s.loadUintBig(64), jettonWallet: s.loadAddress(), jettonAmount: s.loadCoins(), receiver: s.loadAddress() };
  if (s.remainingBits > 0) out.payload = s.loadMaybeRef();
  return out;
}

export function storeCoffeeStakingClaimRewards(src: CoffeeStakingClaimRewards): (b: Builder) => void {
  return (b) => {
    b.storeUint(OP.coffee_staking_claim_rewards, 32).storeUint(src.queryId, 64).storeAddress(src.jettonWallet).storeCoins(src.jettonAmount).storeAddress(src.receiver);
    if (src.payload !== undefined) b.storeMaybeRef(src.payload);
  };
}
