// EVAA (the lending protocol) message bodies, toncenter's classifier schemes "evaa": what the
// classifier reads of supply, withdraw and liquidation, each constructor's leading fields named as
// in the scheme and the rest (which differs between EVAA versions) kept as a slice, so a loaded body
// stores back to itself. Master → user-contract commands start with the user contract's upgrade
// header (UpgradeHeader) before their opcode.
import { beginCell, type Address, type Builder, type Cell, type Slice } from "@ton/core";
import { loadOpcode, loadRest, loadRestSlice } from "../tlb.js";

export const EVAA_OPCODES = {
  evaa_supply_master: 0x00000001,
  evaa_withdraw_master: 0x00000002,
  evaa_liquidate_master: 0x00000003,
  evaa_supply_user: 0x00000011,
  evaa_withdraw_user: 0x00000021,
  evaa_liquidate_user: 0x00000031,
  evaa_supply_success: 0x0000011a,
  evaa_supply_fail: 0x0000011f,
  evaa_withdraw_collateralized: 0x00000211,
  evaa_withdraw_success: 0x0000211a,
  evaa_withdraw_fail: 0x0000211f,
  evaa_withdraw_locked_excess: 0x000021e6,
  evaa_withdraw_not_collateralized_excess: 0x000021e7,
  evaa_withdraw_missing_prices_excess: 0x000021e8,
  evaa_withdraw_execution_crashed: 0x000021ec,
  evaa_withdraw_no_funds_excess: 0x00211fe8,
  evaa_liquidate_satisfied: 0x00000311,
  evaa_liquidate_unsatisfied: 0x0000031f,
  evaa_liquidate_success: 0x0000311a,
  evaa_liquidate_fail: 0x0000311f,
  evaa_liquidate_success_report: 0x0000311d,
} as const;

const OP = EVAA_OPCODES;

/** bool_true$11 / bool_false$00 (BoolExtended), kept as its two bits. */
export type EvaaBoolExtended = number;

/**
 * upgrade_header$_ user_code_version:Coins upgrade_info:(Maybe ^[...]) upgrade_exec:BoolExtended:
 * what the master puts before every command to a user contract.
 */
export interface EvaaUpgradeHeader {
  userCodeVersion: bigint;
  upgradeInfo: Cell | null;
  upgradeExec: EvaaBoolExtended;
}

export function loadEvaaUpgradeHeader(s: Slice): EvaaUpgradeHeader {
  return { userCodeVersion: s.loadCoins(), upgradeInfo: s.loadMaybeRef(), upgradeExec: s.loadUint(2) };
}

export const storeEvaaUpgradeHeader = (src: EvaaUpgradeHeader) => (b: Builder) => b.storeCoins(src.userCodeVersion).storeMaybeRef(src.upgradeInfo).storeUint(src.upgradeExec, 2);

/** The opcode of a user command (after its upgrade header), or null when the body is not one. */
export function evaaUserCommandOpcode(s: Slice): number | null {
  try {
    loadEvaaUpgradeHeader(s);
    return s.remainingBits >= 32 ? s.loadUint(32) : null;
  } catch {
    return null;
  }
}

/** A user command: the header, then the constructor. */
export interface EvaaUserCommand<T> {
  header: EvaaUpgradeHeader;
  command: T;
}

/**
 * evaa_supply_master#00000001 query_id:uint64 include_user_code:BoolExtended
 * supply_amount:EvaaAmount recipient_address:MsgAddressInt ... — TON supplied to the master.
 */
export interface EvaaSupplyMaster {
  queryId: bigint;
  includeUserCode: EvaaBoolExtended;
  supplyAmount: bigint;
  recipientAddress: Address;
  /** forward_ton_amount and custom_response_payload, or the v8 optional part */
  rest: Slice;
}

export function loadEvaaSupplyMaster(s: Slice): EvaaSupplyMaster {
  loadOpcode(s, OP.evaa_supply_master, "evaa_supply_master");
  return { queryId: s.loadUintBig(64), includeUserCode: s.loadUint(2), supplyAmount: s.loadUintBig(64), recipientAddress: s.loadAddress(), rest: loadRestSlice(s) };
}

export const storeEvaaSupplyMaster = (src: EvaaSupplyMaster) => (b: Builder) =>
  b.storeUint(OP.evaa_supply_master, 32).storeUint(src.queryId, 64).storeUint(src.includeUserCode, 2).storeUint(src.supplyAmount, 64).storeAddress(src.recipientAddress).storeSlice(src.rest.clone());

/**
 * The forward payload of a jetton supplied to the master (supply_master without query_id and
 * amount, the jetton transfer carries them): #00000001 include_user_code:BoolExtended
 * recipient_address:MsgAddressInt ... .
 */
export interface EvaaSupplyMasterJetton {
  includeUserCode: EvaaBoolExtended;
  recipientAddress: Address;
  rest: Slice;
}

export function loadEvaaSupplyMasterJetton(s: Slice): EvaaSupplyMasterJetton {
  loadOpcode(s, OP.evaa_supply_master, "evaa_supply_master (jetton)");
  return { includeUserCode: s.loadUint(2), recipientAddress: s.loadAddress(), rest: loadRestSlice(s) };
}

export const storeEvaaSupplyMasterJetton = (src: EvaaSupplyMasterJetton) => (b: Builder) =>
  b.storeUint(OP.evaa_supply_master, 32).storeUint(src.includeUserCode, 2).storeAddress(src.recipientAddress).storeSlice(src.rest.clone());

/** evaa_supply_user#00000011 query_id:uint64 asset_id:EvaaAssetId supply_amount_current:EvaaAmount ... — master → user contract. */
export interface EvaaSupplyUser {
  queryId: bigint;
  assetId: bigint;
  supplyAmountCurrent: bigint;
  rest: Slice;
}

function loadUserCommand<T>(s: Slice, opcode: number, name: string, body: (s: Slice) => T): EvaaUserCommand<T> {
  const header = loadEvaaUpgradeHeader(s);
  loadOpcode(s, opcode, name);
  return { header, command: body(s) };
}

export function loadEvaaSupplyUser(s: Slice): EvaaUserCommand<EvaaSupplyUser> {
  return loadUserCommand(s, OP.evaa_supply_user, "evaa_supply_user", (r) => ({ queryId: r.loadUintBig(64), assetId: r.loadUintBig(256), supplyAmountCurrent: r.loadUintBig(64), rest: loadRestSlice(r) }));
}

export const storeEvaaSupplyUser = (src: EvaaUserCommand<EvaaSupplyUser>) => (b: Builder) =>
  b
    .store(storeEvaaUpgradeHeader(src.header))
    .storeUint(OP.evaa_supply_user, 32)
    .storeUint(src.command.queryId, 64)
    .storeUint(src.command.assetId, 256)
    .storeUint(src.command.supplyAmountCurrent, 64)
    .storeSlice(src.command.rest.clone());

/** evaa_supply_success#0000011a query_id:uint64 owner_address:MsgAddressInt asset_id:EvaaAssetId amount_supplied:EvaaAmount ... — user contract → master. */
export interface EvaaSupplySuccess {
  queryId: bigint;
  ownerAddress: Address;
  assetId: bigint;
  amountSupplied: bigint;
  rest: Slice;
}

export function loadEvaaSupplySuccess(s: Slice): EvaaSupplySuccess {
  loadOpcode(s, OP.evaa_supply_success, "evaa_supply_success");
  return { queryId: s.loadUintBig(64), ownerAddress: s.loadAddress(), assetId: s.loadUintBig(256), amountSupplied: s.loadUintBig(64), rest: loadRestSlice(s) };
}

export const storeEvaaSupplySuccess = (src: EvaaSupplySuccess) => (b: Builder) =>
  b.storeUint(OP.evaa_supply_success, 32).storeUint(src.queryId, 64).storeAddress(src.ownerAddress).storeUint(src.assetId, 256).storeUint(src.amountSupplied, 64).storeSlice(src.rest.clone());

/**
 * evaa_withdraw_master#00000002 query_id:uint64 asset_id:EvaaAssetId amount:EvaaAmount
 * recipient_addr:MsgAddressInt ... — the owner asks the master to withdraw (amount 2^64-1: all).
 */
export interface EvaaWithdrawMaster {
  queryId: bigint;
  assetId: bigint;
  amount: bigint;
  recipientAddr: Address;
  rest: Slice;
}

export function loadEvaaWithdrawMaster(s: Slice): EvaaWithdrawMaster {
  loadOpcode(s, OP.evaa_withdraw_master, "evaa_withdraw_master");
  return { queryId: s.loadUintBig(64), assetId: s.loadUintBig(256), amount: s.loadUintBig(64), recipientAddr: s.loadAddress(), rest: loadRestSlice(s) };
}

export const storeEvaaWithdrawMaster = (src: EvaaWithdrawMaster) => (b: Builder) =>
  b.storeUint(OP.evaa_withdraw_master, 32).storeUint(src.queryId, 64).storeUint(src.assetId, 256).storeUint(src.amount, 64).storeAddress(src.recipientAddr).storeSlice(src.rest.clone());

/** evaa_withdraw_collateralized#00000211 query_id:uint64 owner_address:MsgAddressInt asset_id:EvaaAssetId withdraw_amount_current:EvaaAmount ... — user contract → master: the withdrawal is covered. */
export interface EvaaWithdrawCollateralized {
  queryId: bigint;
  ownerAddress: Address;
  assetId: bigint;
  withdrawAmountCurrent: bigint;
  rest: Slice;
}

export function loadEvaaWithdrawCollateralized(s: Slice): EvaaWithdrawCollateralized {
  loadOpcode(s, OP.evaa_withdraw_collateralized, "evaa_withdraw_collateralized");
  return { queryId: s.loadUintBig(64), ownerAddress: s.loadAddress(), assetId: s.loadUintBig(256), withdrawAmountCurrent: s.loadUintBig(64), rest: loadRestSlice(s) };
}

export const storeEvaaWithdrawCollateralized = (src: EvaaWithdrawCollateralized) => (b: Builder) =>
  b
    .storeUint(OP.evaa_withdraw_collateralized, 32)
    .storeUint(src.queryId, 64)
    .storeAddress(src.ownerAddress)
    .storeUint(src.assetId, 256)
    .storeUint(src.withdrawAmountCurrent, 64)
    .storeSlice(src.rest.clone());

/**
 * The user contract's refusals of a withdrawal, sent back to the owner (each `#opcode
 * query_id:uint64`), by the name toncenter gives the reason.
 */
export const EVAA_WITHDRAW_FAIL_REASONS: ReadonlyMap<number, string> = new Map([
  [OP.evaa_withdraw_locked_excess, "withdraw_locked_excess"],
  [OP.evaa_withdraw_not_collateralized_excess, "withdraw_not_collateralized_excess"],
  [OP.evaa_withdraw_missing_prices_excess, "withdraw_missing_prices_excess"],
  [OP.evaa_withdraw_execution_crashed, "withdraw_execution_crashed"],
]);

/**
 * evaa_liquidate_master#00000003 query_id:uint64 borrower_address:MsgAddressInt
 * liquidator_address:MsgAddress collateral_asset_id:EvaaAssetId min_collateral_amount:EvaaAmount
 * include_user_code:BoolExtended liquidate_incoming_amount:EvaaAmount ... — a liquidator to the
 * master (the body itself for TON, the forward payload for a jetton).
 */
export interface EvaaLiquidateMaster {
  queryId: bigint;
  borrowerAddress: Address;
  liquidatorAddress: Address | null;
  collateralAssetId: bigint;
  minCollateralAmount: bigint;
  includeUserCode: EvaaBoolExtended;
  liquidateIncomingAmount: bigint;
  rest: Slice;
}

export function loadEvaaLiquidateMaster(s: Slice): EvaaLiquidateMaster {
  loadOpcode(s, OP.evaa_liquidate_master, "evaa_liquidate_master");
  return {
    queryId: s.loadUintBig(64),
    borrowerAddress: s.loadAddress(),
    liquidatorAddress: s.loadMaybeAddress(),
    collateralAssetId: s.loadUintBig(256),
    minCollateralAmount: s.loadUintBig(64),
    includeUserCode: s.loadUint(2),
    liquidateIncomingAmount: s.loadUintBig(64),
    rest: loadRestSlice(s),
  };
}

export const storeEvaaLiquidateMaster = (src: EvaaLiquidateMaster) => (b: Builder) =>
  b
    .storeUint(OP.evaa_liquidate_master, 32)
    .storeUint(src.queryId, 64)
    .storeAddress(src.borrowerAddress)
    .storeAddress(src.liquidatorAddress)
    .storeUint(src.collateralAssetId, 256)
    .storeUint(src.minCollateralAmount, 64)
    .storeUint(src.includeUserCode, 2)
    .storeUint(src.liquidateIncomingAmount, 64)
    .storeSlice(src.rest.clone());

/**
 * evaa_liquidate_satisfied#00000311 query_id:uint64 owner_address:MsgAddressInt
 * liquidator_address:MsgAddressInt transferred_asset_id:EvaaAssetId ^[ delta_loan_principal:EvaaPrincipal
 * liquidatable_amount:EvaaAmount protocol_gift:EvaaAmount new_user_loan_principal:EvaaPrincipal
 * collateral_asset_id:EvaaAssetId delta_collateral_principal:EvaaPrincipal collateral_reward:EvaaAmount ... ]
 * — user contract → master: the borrower can be liquidated.
 */
export interface EvaaLiquidateSatisfied {
  queryId: bigint;
  ownerAddress: Address;
  liquidatorAddress: Address;
  transferredAssetId: bigint;
  deltaLoanPrincipal: bigint;
  liquidatableAmount: bigint;
  protocolGift: bigint;
  newUserLoanPrincipal: bigint;
  collateralAssetId: bigint;
  deltaCollateralPrincipal: bigint;
  collateralReward: bigint;
  /** the rest of the ref (min_collateral_amount, ... in newer versions) */
  refRest: Cell;
  rest: Slice;
}

export function loadEvaaLiquidateSatisfied(s: Slice): EvaaLiquidateSatisfied {
  loadOpcode(s, OP.evaa_liquidate_satisfied, "evaa_liquidate_satisfied");
  const queryId = s.loadUintBig(64);
  const ownerAddress = s.loadAddress();
  const liquidatorAddress = s.loadAddress();
  const transferredAssetId = s.loadUintBig(256);
  const r = s.loadRef().beginParse();
  return {
    queryId,
    ownerAddress,
    liquidatorAddress,
    transferredAssetId,
    deltaLoanPrincipal: r.loadIntBig(64),
    liquidatableAmount: r.loadUintBig(64),
    protocolGift: r.loadUintBig(64),
    newUserLoanPrincipal: r.loadIntBig(64),
    collateralAssetId: r.loadUintBig(256),
    deltaCollateralPrincipal: r.loadIntBig(64),
    collateralReward: r.loadUintBig(64),
    refRest: loadRest(r),
    rest: loadRestSlice(s),
  };
}

export const storeEvaaLiquidateSatisfied = (src: EvaaLiquidateSatisfied) => (b: Builder) =>
  b
    .storeUint(OP.evaa_liquidate_satisfied, 32)
    .storeUint(src.queryId, 64)
    .storeAddress(src.ownerAddress)
    .storeAddress(src.liquidatorAddress)
    .storeUint(src.transferredAssetId, 256)
    .storeRef(
      beginCell()
        .storeInt(src.deltaLoanPrincipal, 64)
        .storeUint(src.liquidatableAmount, 64)
        .storeUint(src.protocolGift, 64)
        .storeInt(src.newUserLoanPrincipal, 64)
        .storeUint(src.collateralAssetId, 256)
        .storeInt(src.deltaCollateralPrincipal, 64)
        .storeUint(src.collateralReward, 64)
        .storeSlice(src.refRest.beginParse()),
    )
    .storeSlice(src.rest.clone());

/** The liquidation errors of liquidate_unsatisfied (toncenter's names, liquidate-message.fc). */
export const EVAA_LIQUIDATION_ERRORS: ReadonlyMap<number, string> = new Map([
  [0xe001, "master_liquidating_too_much"],
  [0xe002, "user_withdraw_in_progress"],
  [0xe003, "not_liquidatable"],
  [0xe004, "execution_crashed"],
  [0xe005, "min_collateral_not_satisfied"],
  [0xe006, "user_not_enough_collateral"],
  [0xe007, "user_liquidating_too_much"],
  [0xe008, "master_not_enough_liquidity"],
  [0xe009, "liquidation_prices_missing"],
]);

/**
 * evaa_liquidate_unsatisfied#0000031f query_id:uint64 owner_address:MsgAddressInt
 * liquidator_address:MsgAddressInt transferred_asset_id:EvaaAssetId ^[ transferred_amount:EvaaAmount
 * collateral_asset_id:EvaaAssetId min_collateral_amount:EvaaAmount forward_ton_amount:Coins
 * custom_response_payload:^Cell error:LiquidationError ] — user contract → master: refused.
 */
export interface EvaaLiquidateUnsatisfied {
  queryId: bigint;
  ownerAddress: Address;
  liquidatorAddress: Address;
  transferredAssetId: bigint;
  transferredAmount: bigint;
  collateralAssetId: bigint;
  minCollateralAmount: bigint;
  /** read as toncenter reads it: a uint64 */
  forwardTonAmount: bigint;
  customResponsePayload: Cell;
  /** the LiquidationError (its 32-bit tag first) */
  error: Cell;
  rest: Slice;
}

export function loadEvaaLiquidateUnsatisfied(s: Slice): EvaaLiquidateUnsatisfied {
  loadOpcode(s, OP.evaa_liquidate_unsatisfied, "evaa_liquidate_unsatisfied");
  const queryId = s.loadUintBig(64);
  const ownerAddress = s.loadAddress();
  const liquidatorAddress = s.loadAddress();
  const transferredAssetId = s.loadUintBig(256);
  const r = s.loadRef().beginParse();
  return {
    queryId,
    ownerAddress,
    liquidatorAddress,
    transferredAssetId,
    transferredAmount: r.loadUintBig(64),
    collateralAssetId: r.loadUintBig(256),
    minCollateralAmount: r.loadUintBig(64),
    forwardTonAmount: r.loadUintBig(64),
    customResponsePayload: r.loadRef(),
    error: loadRest(r),
    rest: loadRestSlice(s),
  };
}

export const storeEvaaLiquidateUnsatisfied = (src: EvaaLiquidateUnsatisfied) => (b: Builder) =>
  b
    .storeUint(OP.evaa_liquidate_unsatisfied, 32)
    .storeUint(src.queryId, 64)
    .storeAddress(src.ownerAddress)
    .storeAddress(src.liquidatorAddress)
    .storeUint(src.transferredAssetId, 256)
    .storeRef(
      beginCell()
        .storeUint(src.transferredAmount, 64)
        .storeUint(src.collateralAssetId, 256)
        .storeUint(src.minCollateralAmount, 64)
        .storeUint(src.forwardTonAmount, 64)
        .storeRef(src.customResponsePayload)
        .storeSlice(src.error.beginParse()),
    )
    .storeSlice(src.rest.clone());

/** toncenter's name of a liquidation error ("unknown" for a tag it does not know, "parse_error" for none). */
export function evaaLiquidationErrorReason(error: Cell): string {
  const s = error.beginParse();
  if (s.remainingBits < 32) return "parse_error";
  return EVAA_LIQUIDATION_ERRORS.get(s.loadUint(32)) ?? "unknown";
}
