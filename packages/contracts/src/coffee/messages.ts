// swap.coffee message bodies (message-schemes.tlb "swap_coffee.xml", toncenter's
// events/blocks/messages/coffee.py where the scheme has no entry): the user's requests to the
// vaults, what the vaults, the factory and the pools send each other, the pools' event logs, MEV
// protection and the staking contracts' messages. @ton/core style, one loader and storer per
// constructor; what the classifier does not read is kept as cells.
import { beginCell, type Address, type Builder, type Cell, type Slice } from "@ton/core";
import { loadOpcode, loadQueryIdOnly, storeQueryIdOnly } from "../tlb.js";
import {
  loadCoffeeAsset,
  loadCoffeePoolCreationParams,
  loadCoffeePoolParams,
  loadCoffeePoolReserves,
  loadCoffeeSwapStepParams,
  storeCoffeeAsset,
  storeCoffeePoolCreationParams,
  storeCoffeePoolParams,
  storeCoffeePoolReserves,
  storeCoffeeSwapStepParams,
  type CoffeeAsset,
  type CoffeePoolCreationParams,
  type CoffeePoolParams,
  type CoffeePoolReserves,
  type CoffeeSwapStepParams,
} from "./types.js";

export const COFFEE_OPCODES = {
  coffee_swap: 0xc0ffee00,
  coffee_swap_extra: 0xc0ffee01,
  coffee_create_pool: 0xc0ffee02,
  coffee_create_pool_extra: 0xc0ffee03,
  coffee_deposit_liquidity: 0xc0ffee04,
  coffee_deposit_liquidity_extra: 0xc0ffee05,
  coffee_create_vault: 0xc0ffee06,
  coffee_withdraw_deposit: 0xc0ffee07,
  /** jetton forward payloads to a vault */
  coffee_swap_jetton: 0xc0ffee10,
  coffee_create_pool_jetton: 0xc0ffee11,
  coffee_deposit_liquidity_jetton: 0xc0ffee12,
  coffee_swap_internal: 0xc0ffee20,
  coffee_payout_internal: 0xc0ffee21,
  coffee_deploy: 0xc0ffee22,
  coffee_create_pool_creator_request: 0xc0ffee23,
  coffee_create_pool_creator_internal: 0xc0ffee24,
  coffee_create_pool_request: 0xc0ffee25,
  coffee_create_pool_internal: 0xc0ffee26,
  coffee_create_liquidity_depository_request: 0xc0ffee27,
  coffee_create_liquidity_depository_internal: 0xc0ffee28,
  coffee_deposit_liquidity_internal: 0xc0ffee29,
  /** pool event logs (external-out) */
  coffee_swap_succeeded: 0xc0ffee30,
  coffee_swap_failed: 0xc0ffee31,
  coffee_payout: 0xc0ffee32,
  coffee_deposit_liquidity_succeeded: 0xc0ffee33,
  coffee_deposit_liquidity_failed: 0xc0ffee34,
  coffee_withdraw_liquidity_succeeded: 0xc0ffee35,
  coffee_notification: 0xc0ffee36,
  coffee_service_fee: 0xc0ffeea0,
  coffee_mev_protect_hold_funds: 0x6bc79e7e,
  coffee_mev_protect_failed_swap: 0xee51ce51,
  coffee_staking_deposit: 0xf9471134,
  coffee_staking_init: 0xbe5a7595,
  coffee_staking_claim_rewards: 0xb30c7310,
  /** the three steps of a staking withdrawal (owner → position NFT → master → pool) share one opcode */
  coffee_staking_position_withdraw: 0xcb03bfaf,
} as const;

const OP = COFFEE_OPCODES;

const cellOf = (store: (b: Builder) => void): Cell => beginCell().store(store).endCell();

/** coffee_swap#c0ffee00 query_id:uint64 amount:Coins _:CoffeeSwapStepParams params:^CoffeeSwapParams — a TON swap, to the native vault. */
export interface CoffeeSwap {
  queryId: bigint;
  amount: bigint;
  step: CoffeeSwapStepParams;
  params: Cell;
}

export function loadCoffeeSwap(s: Slice): CoffeeSwap {
  loadOpcode(s, OP.coffee_swap, "coffee_swap");
  return { queryId: s.loadUintBig(64), amount: s.loadCoins(), step: loadCoffeeSwapStepParams(s), params: s.loadRef() };
}

export function storeCoffeeSwap(src: CoffeeSwap): (b: Builder) => void {
  return (b) => b.storeUint(OP.coffee_swap, 32).storeUint(src.queryId, 64).storeCoins(src.amount).store(storeCoffeeSwapStepParams(src.step)).storeRef(src.params);
}

/**
 * coffee_swap_succeeded#c0ffee30 query_id:uint64 input:CoffeeAsset input_amount:Coins
 * output_amount:Coins reserves:CoffeePoolReserves protocol_fee:Coins — a pool's log of one swap
 * step (older pools end before protocol_fee: null).
 */
export interface CoffeeSwapSucceeded {
  queryId: bigint;
  input: CoffeeAsset;
  inputAmount: bigint;
  outputAmount: bigint;
  reserves: CoffeePoolReserves;
  protocolFee: bigint | null;
}

export function loadCoffeeSwapSucceeded(s: Slice): CoffeeSwapSucceeded {
  loadOpcode(s, OP.coffee_swap_succeeded, "coffee_swap_succeeded");
  return {
    queryId: s.loadUintBig(64),
    input: loadCoffeeAsset(s),
    inputAmount: s.loadCoins(),
    outputAmount: s.loadCoins(),
    reserves: loadCoffeePoolReserves(s),
    protocolFee: s.remainingBits > 0 ? s.loadCoins() : null,
  };
}

export function storeCoffeeSwapSucceeded(src: CoffeeSwapSucceeded): (b: Builder) => void {
  return (b) => {
    b.storeUint(OP.coffee_swap_succeeded, 32)
      .storeUint(src.queryId, 64)
      .store(storeCoffeeAsset(src.input))
      .storeCoins(src.inputAmount)
      .storeCoins(src.outputAmount)
      .store(storeCoffeePoolReserves(src.reserves));
    if (src.protocolFee !== null) b.storeCoins(src.protocolFee);
  };
}

/**
 * coffee_payout_internal#c0ffee21 query_id:uint64 recipient:MsgAddressInt amount:Coins
 * notification_data:(Maybe ^CoffeeNotificationDataSingle) proof:(Maybe ^Cell) — a pool (or a
 * depository) tells the vault of the asset to pay `amount` out.
 */
export interface CoffeePayoutInternal {
  queryId: bigint;
  recipient: Address;
  amount: bigint;
  notificationData: Cell | null;
  proof: Cell | null;
}

export function loadCoffeePayoutInternal(s: Slice): CoffeePayoutInternal {
  loadOpcode(s, OP.coffee_payout_internal, "coffee_payout_internal");
  return { queryId: s.loadUintBig(64), recipient: s.loadAddress(), amount: s.loadCoins(), notificationData: s.loadMaybeRef(), proof: s.loadMaybeRef() };
}

export function storeCoffeePayoutInternal(src: CoffeePayoutInternal): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.coffee_payout_internal, 32)
      .storeUint(src.queryId, 64)
      .storeAddress(src.recipient)
      .storeCoins(src.amount)
      .storeMaybeRef(src.notificationData)
      .storeMaybeRef(src.proof);
}

/** coffee_payout#c0ffee32 query_id:uint64 — a vault pays TON out. */
export interface CoffeePayout {
  queryId: bigint;
}

export const loadCoffeePayout = (s: Slice): CoffeePayout => ({ queryId: loadQueryIdOnly(s, OP.coffee_payout, "coffee_payout") });
export const storeCoffeePayout = (src: CoffeePayout) => storeQueryIdOnly(OP.coffee_payout, src.queryId);

/**
 * coffee_create_pool#c0ffee02 query_id:uint64 amount:Coins params:CoffeePoolParams
 * creation_params:CoffeePoolCreationParams — the TON side of a new pool, to the native vault.
 */
export interface CoffeeCreatePool {
  queryId: bigint;
  amount: bigint;
  params: CoffeePoolParams;
  creationParams: CoffeePoolCreationParams;
}

export function loadCoffeeCreatePool(s: Slice): CoffeeCreatePool {
  loadOpcode(s, OP.coffee_create_pool, "coffee_create_pool");
  return { queryId: s.loadUintBig(64), amount: s.loadCoins(), params: loadCoffeePoolParams(s), creationParams: loadCoffeePoolCreationParams(s) };
}

export function storeCoffeeCreatePool(src: CoffeeCreatePool): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.coffee_create_pool, 32)
      .storeUint(src.queryId, 64)
      .storeCoins(src.amount)
      .store(storeCoffeePoolParams(src.params))
      .store(storeCoffeePoolCreationParams(src.creationParams));
}

/** coffee_create_pool_jetton#c0ffee11 params:CoffeePoolParams creation_params:CoffeePoolCreationParams — a jetton transfer's forward payload to a jetton vault. */
export interface CoffeeCreatePoolJetton {
  params: CoffeePoolParams;
  creationParams: CoffeePoolCreationParams;
}

export function loadCoffeeCreatePoolJetton(s: Slice): CoffeeCreatePoolJetton {
  loadOpcode(s, OP.coffee_create_pool_jetton, "coffee_create_pool_jetton");
  return { params: loadCoffeePoolParams(s), creationParams: loadCoffeePoolCreationParams(s) };
}

export function storeCoffeeCreatePoolJetton(src: CoffeeCreatePoolJetton): (b: Builder) => void {
  return (b) => b.storeUint(OP.coffee_create_pool_jetton, 32).store(storeCoffeePoolParams(src.params)).store(storeCoffeePoolCreationParams(src.creationParams));
}

/**
 * coffee_create_pool_request#c0ffee25 query_id:uint64 amount1:Coins amount2:Coins
 * tx_initiator:MsgAddressInt creation_params:^CoffeePoolCreationParams proof:^Cell — the pool
 * creator, both sides provided, asks the factory to deploy the pool.
 */
export interface CoffeeCreatePoolRequest {
  queryId: bigint;
  amount1: bigint;
  amount2: bigint;
  txInitiator: Address;
  creationParams: CoffeePoolCreationParams;
  proof: Cell;
}

export function loadCoffeeCreatePoolRequest(s: Slice): CoffeeCreatePoolRequest {
  loadOpcode(s, OP.coffee_create_pool_request, "coffee_create_pool_request");
  return {
    queryId: s.loadUintBig(64),
    amount1: s.loadCoins(),
    amount2: s.loadCoins(),
    txInitiator: s.loadAddress(),
    creationParams: loadCoffeePoolCreationParams(s.loadRef().beginParse()),
    proof: s.loadRef(),
  };
}

export function storeCoffeeCreatePoolRequest(src: CoffeeCreatePoolRequest): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.coffee_create_pool_request, 32)
      .storeUint(src.queryId, 64)
      .storeCoins(src.amount1)
      .storeCoins(src.amount2)
      .storeAddress(src.txInitiator)
      .storeRef(cellOf(storeCoffeePoolCreationParams(src.creationParams)))
      .storeRef(src.proof);
}

/**
 * coffee_create_liquidity_depository_request#c0ffee27 query_id:uint64 amount:Coins
 * params:^CoffeeDepositLiquidityParamsTrimmed pool_params:^CoffeePoolParams sender:MsgAddressInt
 * proof:^Cell — a vault asks the factory for the depository that collects one user's two sides.
 */
export interface CoffeeCreateLiquidityDepositoryRequest {
  queryId: bigint;
  amount: bigint;
  params: Cell;
  poolParams: CoffeePoolParams;
  sender: Address;
  proof: Cell;
}

export function loadCoffeeCreateLiquidityDepositoryRequest(s: Slice): CoffeeCreateLiquidityDepositoryRequest {
  loadOpcode(s, OP.coffee_create_liquidity_depository_request, "coffee_create_liquidity_depository_request");
  return {
    queryId: s.loadUintBig(64),
    amount: s.loadCoins(),
    params: s.loadRef(),
    poolParams: loadCoffeePoolParams(s.loadRef().beginParse()),
    sender: s.loadAddress(),
    proof: s.loadRef(),
  };
}

export function storeCoffeeCreateLiquidityDepositoryRequest(src: CoffeeCreateLiquidityDepositoryRequest): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.coffee_create_liquidity_depository_request, 32)
      .storeUint(src.queryId, 64)
      .storeCoins(src.amount)
      .storeRef(src.params)
      .storeRef(cellOf(storeCoffeePoolParams(src.poolParams)))
      .storeAddress(src.sender)
      .storeRef(src.proof);
}

/**
 * coffee_deposit_liquidity_succeeded#c0ffee33 and coffee_withdraw_liquidity_succeeded#c0ffee35:
 * query_id:uint64 amount1:Coins amount2:Coins lp_amount:Coins total_supply:CoffeePoolReserves
 * reserves:CoffeePoolReserves — a pool's log of liquidity added or removed.
 */
export interface CoffeeLiquidityEvent {
  queryId: bigint;
  amount1: bigint;
  amount2: bigint;
  lpAmount: bigint;
  totalSupply: CoffeePoolReserves;
  reserves: CoffeePoolReserves;
}

function loadLiquidityEvent(s: Slice, opcode: number, name: string): CoffeeLiquidityEvent {
  loadOpcode(s, opcode, name);
  return {
    queryId: s.loadUintBig(64),
    amount1: s.loadCoins(),
    amount2: s.loadCoins(),
    lpAmount: s.loadCoins(),
    totalSupply: loadCoffeePoolReserves(s),
    reserves: loadCoffeePoolReserves(s),
  };
}

function storeLiquidityEvent(opcode: number, src: CoffeeLiquidityEvent): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(opcode, 32)
      .storeUint(src.queryId, 64)
      .storeCoins(src.amount1)
      .storeCoins(src.amount2)
      .storeCoins(src.lpAmount)
      .store(storeCoffeePoolReserves(src.totalSupply))
      .store(storeCoffeePoolReserves(src.reserves));
}

export const loadCoffeeDepositLiquiditySucceeded = (s: Slice) => loadLiquidityEvent(s, OP.coffee_deposit_liquidity_succeeded, "coffee_deposit_liquidity_succeeded");
export const storeCoffeeDepositLiquiditySucceeded = (src: CoffeeLiquidityEvent) => storeLiquidityEvent(OP.coffee_deposit_liquidity_succeeded, src);
export const loadCoffeeWithdrawLiquiditySucceeded = (s: Slice) => loadLiquidityEvent(s, OP.coffee_withdraw_liquidity_succeeded, "coffee_withdraw_liquidity_succeeded");
export const storeCoffeeWithdrawLiquiditySucceeded = (src: CoffeeLiquidityEvent) => storeLiquidityEvent(OP.coffee_withdraw_liquidity_succeeded, src);

/** coffee_create_vault#c0ffee06 query_id:uint64 asset:CoffeeAsset — to the factory, for a vault of `asset`. */
export interface CoffeeCreateVault {
  queryId: bigint;
  asset: CoffeeAsset;
}

export function loadCoffeeCreateVault(s: Slice): CoffeeCreateVault {
  loadOpcode(s, OP.coffee_create_vault, "coffee_create_vault");
  return { queryId: s.loadUintBig(64), asset: loadCoffeeAsset(s) };
}

export function storeCoffeeCreateVault(src: CoffeeCreateVault): (b: Builder) => void {
  return (b) => b.storeUint(OP.coffee_create_vault, 32).storeUint(src.queryId, 64).store(storeCoffeeAsset(src.asset));
}

/** coffee_mev_protect_hold_funds#6bc79e7e query_id:uint64 — funds handed to the MEV protection contract. */
export interface CoffeeMevProtectHoldFunds {
  queryId: bigint;
}

export const loadCoffeeMevProtectHoldFunds = (s: Slice): CoffeeMevProtectHoldFunds => ({
  queryId: loadQueryIdOnly(s, OP.coffee_mev_protect_hold_funds, "coffee_mev_protect_hold_funds"),
});
export const storeCoffeeMevProtectHoldFunds = (src: CoffeeMevProtectHoldFunds) => storeQueryIdOnly(OP.coffee_mev_protect_hold_funds, src.queryId);

/** coffee_mev_protect_failed_swap#ee51ce51 query_id:uint64 recipient:MsgAddressInt — held funds returned (a body, or a jetton forward payload). */
export interface CoffeeMevProtectFailedSwap {
  queryId: bigint;
  recipient: Address;
}

export function loadCoffeeMevProtectFailedSwap(s: Slice): CoffeeMevProtectFailedSwap {
  loadOpcode(s, OP.coffee_mev_protect_failed_swap, "coffee_mev_protect_failed_swap");
  return { queryId: s.loadUintBig(64), recipient: s.loadAddress() };
}

export function storeCoffeeMevProtectFailedSwap(src: CoffeeMevProtectFailedSwap): (b: Builder) => void {
  return (b) => b.storeUint(OP.coffee_mev_protect_failed_swap, 32).storeUint(src.queryId, 64).storeAddress(src.recipient);
}
