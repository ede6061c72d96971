// DeDust liquidity message bodies: v1 deposits (vault → factory → deposit contract → pool, with
// the pool's LP mint or rejection) and withdrawals (LP burn → pool → vault payouts), and v2
// deposits, withdrawals and position fee/reward claims (pool ↔ deposit/position contracts, with
// the pool's external-out events). Names follow message-schemes.tlb's DeDust section where it has
// the constructor, else DeDust v2's own TL-B (as toncenter reads it), @ton/core style.
import { beginCell, type Address, type Builder, type Cell, type Slice } from "@ton/core";
import { loadOpcode } from "../tlb.js";
import { loadDedustAsset, storeDedustAsset, type DedustAsset } from "./asset.js";

export const DEDUST_LIQUIDITY_OPCODES = {
  // v1
  deposit_liquidity_native: 0xd55e4686,
  deposit_liquidity_jetton_payload: 0x40e108d6,
  create_liquidity_deposit: 0xf04ec526,
  install: 0x9b3aa3fa,
  top_up_liquidity_deposit: 0x54240fe5,
  deposit_liquidity_all: 0xb56b9598,
  destroy_liquidity_deposit: 0xaae79256,
  pay_out_from_deposit: 0x6b0b787f,
  deposit_rejected: 0xe1a36cd4,
  // v2
  v2_withdraw: 0x20b5ef89,
  v2_withdraw_liquidity: 0xbc1531a9,
  v2_exit_liquidity: 0xf6f6a3aa,
  v2_withdrawal_event: 0xc0d77b54,
  v2_deposit_payload: 0xc9a015da,
  v2_credit_asset: 0xdc5ddba1,
  v2_join_liquidity: 0x25251ee0,
  v2_deposit_event: 0x35df2e12,
  v2_credit_liquidity: 0x855afcbd,
  v2_claim_position_fees: 0x5652f1df,
  v2_claim_available_fees: 0x25f19752,
  v2_payout_position_fees: 0x29ff1bcf,
  v2_claim_reward: 0x909fdb65,
  v2_claim_position_reward: 0x2e0cccba,
  v2_payout_reward: 0x9e17fbbe,
} as const;

const OP = DEDUST_LIQUIDITY_OPCODES;

function cellOf(write: (b: Builder) => Builder): Cell {
  return write(beginCell()).endCell();
}

/** pool_params#_ is_stable:Bool asset0:DedustAsset asset1:DedustAsset = DedustPoolParams. */
export interface DedustPoolParams {
  isStable: boolean;
  asset0: DedustAsset;
  asset1: DedustAsset;
}

function loadPoolParams(s: Slice): DedustPoolParams {
  return { isStable: s.loadBit(), asset0: loadDedustAsset(s), asset1: loadDedustAsset(s) };
}

function storePoolParams(src: DedustPoolParams): (b: Builder) => void {
  return (b) => b.storeBit(src.isStable).store(storeDedustAsset(src.asset0)).store(storeDedustAsset(src.asset1));
}

/**
 * dedust_deposit_liquidity#d55e4686 query_id:uint64 amount:Coins pool_params:DedustPoolParams
 * deposit_params:^[min_lp_amount:Coins asset0_target_balance:Coins asset1_target_balance:Coins]
 * fulfill_payload:(Maybe ^Cell) reject_payload:(Maybe ^Cell) — TON to the native vault (the layout
 * with the parameters in a ref, the one toncenter reads).
 */
export interface DedustDepositLiquidityNative {
  queryId: bigint;
  amount: bigint;
  poolParams: DedustPoolParams;
  minLpAmount: bigint;
  asset0TargetBalance: bigint;
  asset1TargetBalance: bigint;
  fulfillPayload: Cell | null;
  rejectPayload: Cell | null;
}

export function loadDedustDepositLiquidityNative(s: Slice): DedustDepositLiquidityNative {
  loadOpcode(s, OP.deposit_liquidity_native, "dedust_deposit_liquidity");
  const queryId = s.loadUintBig(64);
  const amount = s.loadCoins();
  const poolParams = loadPoolParams(s);
  const p = s.loadRef().beginParse();
  return {
    queryId,
    amount,
    poolParams,
    minLpAmount: p.loadCoins(),
    asset0TargetBalance: p.loadCoins(),
    asset1TargetBalance: p.loadCoins(),
    fulfillPayload: s.loadMaybeRef(),
    rejectPayload: s.loadMaybeRef(),
  };
}

export function storeDedustDepositLiquidityNative(src: DedustDepositLiquidityNative): (b: Builder) => void {
  return (b) => {
    b.storeUint(OP.deposit_liquidity_native, 32).storeUint(src.queryId, 64).storeCoins(src.amount).store(storePoolParams(src.poolParams));
    b.storeRef(cellOf((c) => c.storeCoins(src.minLpAmount).storeCoins(src.asset0TargetBalance).storeCoins(src.asset1TargetBalance)));
    b.storeMaybeRef(src.fulfillPayload).storeMaybeRef(src.rejectPayload);
  };
}

/**
 * dedust_deposit_liquidity#40e108d6 pool_params:DedustPoolParams min_lp_amount:Coins
 * asset0_target_balance:Coins asset1_target_balance:Coins fulfill_payload:(Maybe ^Cell)
 * reject_payload:(Maybe ^Cell) = ForwardPayload — a jetton deposit's forward payload to its vault.
 */
export interface DedustDepositLiquidityJettonPayload {
  poolParams: DedustPoolParams;
  minLpAmount: bigint;
  asset0TargetBalance: bigint;
  asset1TargetBalance: bigint;
  fulfillPayload: Cell | null;
  rejectPayload: Cell | null;
}

export function loadDedustDepositLiquidityJettonPayload(s: Slice): DedustDepositLiquidityJettonPayload {
  loadOpcode(s, OP.deposit_liquidity_jetton_payload, "dedust_deposit_liquidity (forward payload)");
  return {
    poolParams: loadPoolParams(s),
    minLpAmount: s.loadCoins(),
    asset0TargetBalance: s.loadCoins(),
    asset1TargetBalance: s.loadCoins(),
    fulfillPayload: s.loadMaybeRef(),
    rejectPayload: s.loadMaybeRef(),
  };
}

export function storeDedustDepositLiquidityJettonPayload(src: DedustDepositLiquidityJettonPayload): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.deposit_liquidity_jetton_payload, 32)
      .store(storePoolParams(src.poolParams))
      .storeCoins(src.minLpAmount)
      .storeCoins(src.asset0TargetBalance)
      .storeCoins(src.asset1TargetBalance)
      .storeMaybeRef(src.fulfillPayload)
      .storeMaybeRef(src.rejectPayload);
}

/**
 * dedust_deposit_liquidity_all#b56b9598 query_id:uint64 proof:^DedustLiquidityDepositProof
 * owner_addr:MsgAddressInt min_lp_amount:Coins ^[asset0:DedustAsset asset0_amount:Coins
 * asset1:DedustAsset asset1_amount:Coins] fulfill_payload:(Maybe ^Cell) reject_payload:(Maybe ^Cell)
 * — the deposit contract, both assets in, to the pool.
 */
export interface DedustDepositLiquidityAll {
  queryId: bigint;
  proof: Cell;
  owner: Address;
  minLpAmount: bigint;
  asset0: DedustAsset;
  asset0Amount: bigint;
  asset1: DedustAsset;
  asset1Amount: bigint;
  fulfillPayload: Cell | null;
  rejectPayload: Cell | null;
}

export function loadDedustDepositLiquidityAll(s: Slice): DedustDepositLiquidityAll {
  loadOpcode(s, OP.deposit_liquidity_all, "dedust_deposit_liquidity_all");
  const queryId = s.loadUintBig(64);
  const proof = s.loadRef();
  const owner = s.loadAddress();
  const minLpAmount = s.loadCoins();
  const a = s.loadRef().beginParse();
  return {
    queryId,
    proof,
    owner,
    minLpAmount,
    asset0: loadDedustAsset(a),
    asset0Amount: a.loadCoins(),
    asset1: loadDedustAsset(a),
    asset1Amount: a.loadCoins(),
    fulfillPayload: s.loadMaybeRef(),
    rejectPayload: s.loadMaybeRef(),
  };
}

export function storeDedustDepositLiquidityAll(src: DedustDepositLiquidityAll): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.deposit_liquidity_all, 32)
      .storeUint(src.queryId, 64)
      .storeRef(src.proof)
      .storeAddress(src.owner)
      .storeCoins(src.minLpAmount)
      .storeRef(
        cellOf((c) =>
          c.store(storeDedustAsset(src.asset0)).storeCoins(src.asset0Amount).store(storeDedustAsset(src.asset1)).storeCoins(src.asset1Amount),
        ),
      )
      .storeMaybeRef(src.fulfillPayload)
      .storeMaybeRef(src.rejectPayload);
}

/**
 * withdraw#20b5ef89 query_id:uint64 liquidity:Coins minimal_x_out:Coins minimal_y_out:Coins
 * auto_claim_fees:Bool payout_config:^Cell — the user asks a v2 pool to burn a position's share.
 */
export interface DedustV2Withdraw {
  queryId: bigint;
  liquidity: bigint;
  minimalXOut: bigint;
  minimalYOut: bigint;
  autoClaimFees: boolean;
  payoutConfig: Cell;
}

export function loadDedustV2Withdraw(s: Slice): DedustV2Withdraw {
  loadOpcode(s, OP.v2_withdraw, "dedust_v2_withdraw");
  return {
    queryId: s.loadUintBig(64),
    liquidity: s.loadCoins(),
    minimalXOut: s.loadCoins(),
    minimalYOut: s.loadCoins(),
    autoClaimFees: s.loadBit(),
    payoutConfig: s.loadRef(),
  };
}

export function storeDedustV2Withdraw(src: DedustV2Withdraw): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.v2_withdraw, 32)
      .storeUint(src.queryId, 64)
      .storeCoins(src.liquidity)
      .storeCoins(src.minimalXOut)
      .storeCoins(src.minimalYOut)
      .storeBit(src.autoClaimFees)
      .storeRef(src.payoutConfig);
}

/**
 * initiator:MsgAddressInt recipient:MsgAddressInt next_state:^Cell — the tail a v2 pool's
 * liquidity events (withdrawal, deposit) end with: who acted, who receives, the pool's new state.
 */
export interface DedustV2PoolEventTail {
  initiator: Address;
  recipient: Address;
  nextState: Cell;
}

function loadPoolEventTail(s: Slice): DedustV2PoolEventTail {
  return { initiator: s.loadAddress(), recipient: s.loadAddress(), nextState: s.loadRef() };
}

function storePoolEventTail(src: DedustV2PoolEventTail): (b: Builder) => void {
  return (b) => b.storeAddress(src.initiator).storeAddress(src.recipient).storeRef(src.nextState);
}

/** withdrawal#c0d77b54 liquidity:Coins amount_x_out:Coins amount_y_out:Coins initiator recipient next_state. */
export interface DedustV2WithdrawalEvent extends DedustV2PoolEventTail {
  liquidity: bigint;
  amountXOut: bigint;
  amountYOut: bigint;
}

export function loadDedustV2WithdrawalEvent(s: Slice): DedustV2WithdrawalEvent {
  loadOpcode(s, OP.v2_withdrawal_event, "dedust_v2_withdrawal");
  return { liquidity: s.loadCoins(), amountXOut: s.loadCoins(), amountYOut: s.loadCoins(), ...loadPoolEventTail(s) };
}

export function storeDedustV2WithdrawalEvent(src: DedustV2WithdrawalEvent): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.v2_withdrawal_event, 32)
      .storeCoins(src.liquidity)
      .storeCoins(src.amountXOut)
      .storeCoins(src.amountYOut)
      .store(storePoolEventTail(src));
}

/** deposit#35df2e12 amount_x_in:Coins amount_y_in:Coins liquidity:Coins initiator recipient next_state — a v2 pool's deposit event. */
export interface DedustV2DepositEvent extends DedustV2PoolEventTail {
  amountXIn: bigint;
  amountYIn: bigint;
  liquidity: bigint;
}

export function loadDedustV2DepositEvent(s: Slice): DedustV2DepositEvent {
  loadOpcode(s, OP.v2_deposit_event, "dedust_v2_deposit_event");
  return { amountXIn: s.loadCoins(), amountYIn: s.loadCoins(), liquidity: s.loadCoins(), ...loadPoolEventTail(s) };
}

export function storeDedustV2DepositEvent(src: DedustV2DepositEvent): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.v2_deposit_event, 32)
      .storeCoins(src.amountXIn)
      .storeCoins(src.amountYIn)
      .storeCoins(src.liquidity)
      .store(storePoolEventTail(src));
}

/** deposit#c9a015da amount_x:Coins amount_y:Coins minimal_liquidity:Coins locked_liquidity_share:uint16 — a pay_* payment payload: the desired amounts. */
export interface DedustV2DepositPayload {
  amountX: bigint;
  amountY: bigint;
  minimalLiquidity: bigint;
  lockedLiquidityShare: number;
}

export function loadDedustV2DepositPayload(s: Slice): DedustV2DepositPayload {
  loadOpcode(s, OP.v2_deposit_payload, "dedust_v2_deposit");
  return { amountX: s.loadCoins(), amountY: s.loadCoins(), minimalLiquidity: s.loadCoins(), lockedLiquidityShare: s.loadUint(16) };
}

export function storeDedustV2DepositPayload(src: DedustV2DepositPayload): (b: Builder) => void {
  return (b) =>
    b.storeUint(OP.v2_deposit_payload, 32).storeCoins(src.amountX).storeCoins(src.amountY).storeCoins(src.minimalLiquidity).storeUint(src.lockedLiquidityShare, 16);
}

/** credit_asset#dc5ddba1 query_id:uint64 is_x:Bool amount:Coins — the pool credits one deposited asset to the deposit contract. */
export interface DedustV2CreditAsset {
  queryId: bigint;
  isX: boolean;
  amount: bigint;
}

export function loadDedustV2CreditAsset(s: Slice): DedustV2CreditAsset {
  loadOpcode(s, OP.v2_credit_asset, "dedust_v2_credit_asset");
  return { queryId: s.loadUintBig(64), isX: s.loadBit(), amount: s.loadCoins() };
}

export function storeDedustV2CreditAsset(src: DedustV2CreditAsset): (b: Builder) => void {
  return (b) => b.storeUint(OP.v2_credit_asset, 32).storeUint(src.queryId, 64).storeBit(src.isX).storeCoins(src.amount);
}

/** join_liquidity#25251ee0 query_id:uint64 config:^Cell amount_x:Coins amount_y:Coins initiator:MsgAddressInt — the deposit contract, both legs in, to the pool. */
export interface DedustV2JoinLiquidity {
  queryId: bigint;
  config: Cell;
  amountX: bigint;
  amountY: bigint;
  initiator: Address;
}

export function loadDedustV2JoinLiquidity(s: Slice): DedustV2JoinLiquidity {
  loadOpcode(s, OP.v2_join_liquidity, "dedust_v2_join_liquidity");
  return { queryId: s.loadUintBig(64), config: s.loadRef(), amountX: s.loadCoins(), amountY: s.loadCoins(), initiator: s.loadAddress() };
}

export function storeDedustV2JoinLiquidity(src: DedustV2JoinLiquidity): (b: Builder) => void {
  return (b) =>
    b.storeUint(OP.v2_join_liquidity, 32).storeUint(src.queryId, 64).storeRef(src.config).storeCoins(src.amountX).storeCoins(src.amountY).storeAddress(src.initiator);
}

/** payout_position_fees#29ff1bcf query_id:uint64 x_fees:Coins y_fees:Coins owner:MsgAddressInt excesses_to:MsgAddressInt — the position's accrued fees, to the pool. */
export interface DedustV2PayoutPositionFees {
  queryId: bigint;
  xFees: bigint;
  yFees: bigint;
  owner: Address;
  excessesTo: Address;
}

export function loadDedustV2PayoutPositionFees(s: Slice): DedustV2PayoutPositionFees {
  loadOpcode(s, OP.v2_payout_position_fees, "dedust_v2_payout_position_fees");
  return { queryId: s.loadUintBig(64), xFees: s.loadCoins(), yFees: s.loadCoins(), owner: s.loadAddress(), excessesTo: s.loadAddress() };
}

export function storeDedustV2PayoutPositionFees(src: DedustV2PayoutPositionFees): (b: Builder) => void {
  return (b) =>
    b.storeUint(OP.v2_payout_position_fees, 32).storeUint(src.queryId, 64).storeCoins(src.xFees).storeCoins(src.yFees).storeAddress(src.owner).storeAddress(src.excessesTo);
}

/** claim_reward#909fdb65 query_id:uint64 reward_index:uint2 excesses_to:MsgAddressInt — the user claims a liquidity-mining reward. */
export interface DedustV2ClaimReward {
  queryId: bigint;
  rewardIndex: number;
  excessesTo: Address;
}

export function loadDedustV2ClaimReward(s: Slice): DedustV2ClaimReward {
  loadOpcode(s, OP.v2_claim_reward, "dedust_v2_claim_reward");
  return { queryId: s.loadUintBig(64), rewardIndex: s.loadUint(2), excessesTo: s.loadAddress() };
}

export function storeDedustV2ClaimReward(src: DedustV2ClaimReward): (b: Builder) => void {
  return (b) => b.storeUint(OP.v2_claim_reward, 32).storeUint(src.queryId, 64).storeUint(src.rewardIndex, 2).storeAddress(src.excessesTo);
}

/** payout_reward#9e17fbbe query_id:uint64 amount:Coins reward_index:uint2 owner:MsgAddressInt excesses_to:MsgAddressInt — the position's reward, to the pool. */
export interface DedustV2PayoutReward {
  queryId: bigint;
  amount: bigint;
  rewardIndex: number;
  owner: Address;
  excessesTo: Address;
}

export function loadDedustV2PayoutReward(s: Slice): DedustV2PayoutReward {
  loadOpcode(s, OP.v2_payout_reward, "dedust_v2_payout_reward");
  return { queryId: s.loadUintBig(64), amount: s.loadCoins(), rewardIndex: s.loadUint(2), owner: s.loadAddress(), excessesTo: s.loadAddress() };
}

export function storeDedustV2PayoutReward(src: DedustV2PayoutReward): (b: Builder) => void {
  return (b) =>
    b.storeUint(OP.v2_payout_reward, 32).storeUint(src.queryId, 64).storeCoins(src.amount).storeUint(src.rewardIndex, 2).storeAddress(src.owner).storeAddress(src.excessesTo);
}
