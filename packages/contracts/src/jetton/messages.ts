// TEP-74 jetton message bodies (and the minter messages of the 2022 reference, Jetton 2.0 and the
// stablecoin), one loader and storer per TL-B constructor of toncenter's schemes
// (message-schemes.tlb "jettons.xml"; TEP names in the comments), @ton/core style.
import { beginCell, type Address, type Builder, type Cell, type Slice } from "@ton/core";
import {
  loadOpcode,
  loadOptionalEitherCell,
  loadQueryIdOnly,
  loadRest,
  storeOptionalEitherCell,
  storeQueryIdOnly,
  type EitherCell,
} from "../tlb.js";

export const JETTON_OPCODES = {
  jetton_transfer: 0x0f8a7ea5,
  jetton_internal_transfer: 0x178d4519,
  jetton_notify: 0x7362d09c,
  jetton_burn: 0x595f07bc,
  jetton_burn_notification: 0x7bdd97de,
  jetton_mint: 0x642b7d07,
  minter_jetton_mint: 0x00000015,
  jetton_change_admin: 0x6501f354,
  jetton_claim_admin: 0xfb88e119,
  jetton_drop_admin: 0x7431f221,
  jetton_set_status: 0xeed236d3,
  jetton_call_to: 0x235caf52,
  jetton_upgrade: 0x2508d66a,
  jetton_change_metadata: 0xcb862902,
  provide_wallet_address: 0x2c76b973,
  take_wallet_address: 0xd1735400,
} as const;

const OP = JETTON_OPCODES;

/**
 * jetton_transfer#0f8a7ea5 query_id:uint64 amount:(VarUInteger 16) destination:MsgAddress
 * response_destination:MsgAddress custom_payload:(Maybe ^Cell) forward_ton_amount:(VarUInteger 16)
 * forward_payload:(Either Cell ^Cell) — TEP-74 "transfer", from the owner to its jetton wallet.
 */
export interface JettonTransfer {
  queryId: bigint;
  amount: bigint;
  destination: Address | null;
  responseDestination: Address | null;
  customPayload: Cell | null;
  forwardTonAmount: bigint;
  /** null: the body ends before the Either bit (wallets read that as an empty payload). */
  forwardPayload: EitherCell | null;
}

export function loadJettonTransfer(s: Slice): JettonTransfer {
  loadOpcode(s, OP.jetton_transfer, "jetton_transfer");
  return {
    queryId: s.loadUintBig(64),
    amount: s.loadCoins(),
    destination: s.loadMaybeAddress(),
    responseDestination: s.loadMaybeAddress(),
    customPayload: s.loadMaybeRef(),
    forwardTonAmount: s.loadCoins(),
    forwardPayload: loadOptionalEitherCell(s),
  };
}

export function storeJettonTransfer(src: JettonTransfer): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.jetton_transfer, 32)
      .storeUint(src.queryId, 64)
      .storeCoins(src.amount)
      .storeAddress(src.destination)
      .storeAddress(src.responseDestination)
      .storeMaybeRef(src.customPayload)
      .storeCoins(src.forwardTonAmount)
      .store(storeOptionalEitherCell(src.forwardPayload));
}

/**
 * jetton_internal_transfer#178d4519 query_id:uint64 amount:(VarUInteger 16) from:MsgAddress
 * response_address:MsgAddress forward_ton_amount:(VarUInteger 16) forward_payload:(Either Cell ^Cell)
 * — TEP-74 "internal_transfer", wallet to wallet (or minter to wallet when minting).
 */
export interface JettonInternalTransfer {
  queryId: bigint;
  amount: bigint;
  from: Address | null;
  responseAddress: Address | null;
  forwardTonAmount: bigint;
  forwardPayload: EitherCell | null;
}

export function loadJettonInternalTransfer(s: Slice): JettonInternalTransfer {
  loadOpcode(s, OP.jetton_internal_transfer, "jetton_internal_transfer");
  return {
    queryId: s.loadUintBig(64),
    amount: s.loadCoins(),
    from: s.loadMaybeAddress(),
    responseAddress: s.loadMaybeAddress(),
    forwardTonAmount: s.loadCoins(),
    forwardPayload: loadOptionalEitherCell(s),
  };
}

export function storeJettonInternalTransfer(src: JettonInternalTransfer): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.jetton_internal_transfer, 32)
      .storeUint(src.queryId, 64)
      .storeCoins(src.amount)
      .storeAddress(src.from)
      .storeAddress(src.responseAddress)
      .storeCoins(src.forwardTonAmount)
      .store(storeOptionalEitherCell(src.forwardPayload));
}

/**
 * jetton_notify#7362d09c query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress
 * forward_payload:(Either Cell ^Cell) — TEP-74 "transfer_notification", to the new owner.
 */
export interface JettonNotify {
  queryId: bigint;
  amount: bigint;
  sender: Address | null;
  forwardPayload: EitherCell | null;
}

export function loadJettonNotify(s: Slice): JettonNotify {
  loadOpcode(s, OP.jetton_notify, "jetton_notify");
  return { queryId: s.loadUintBig(64), amount: s.loadCoins(), sender: s.loadMaybeAddress(), forwardPayload: loadOptionalEitherCell(s) };
}

export function storeJettonNotify(src: JettonNotify): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.jetton_notify, 32)
      .storeUint(src.queryId, 64)
      .storeCoins(src.amount)
      .storeAddress(src.sender)
      .store(storeOptionalEitherCell(src.forwardPayload));
}

/**
 * jetton_burn#595f07bc query_id:uint64 amount:(VarUInteger 16) response_destination:MsgAddress
 * custom_payload:(Maybe ^Cell) — TEP-74 "burn", from the owner to its wallet.
 */
export interface JettonBurn {
  queryId: bigint;
  amount: bigint;
  responseDestination: Address | null;
  /** undefined: the body ends before the Maybe bit (the wallets do not read it). */
  customPayload?: Cell | null;
}

export function loadJettonBurn(s: Slice): JettonBurn {
  loadOpcode(s, OP.jetton_burn, "jetton_burn");
  const burn: JettonBurn = { queryId: s.loadUintBig(64), amount: s.loadCoins(), responseDestination: s.loadMaybeAddress() };
  if (s.remainingBits > 0) burn.customPayload = s.loadMaybeRef();
  return burn;
}

export function storeJettonBurn(src: JettonBurn): (b: Builder) => void {
  return (b) => {
    b.storeUint(OP.jetton_burn, 32).storeUint(src.queryId, 64).storeCoins(src.amount).storeAddress(src.responseDestination);
    if (src.customPayload !== undefined) b.storeMaybeRef(src.customPayload);
  };
}

/**
 * jetton_burn_notification#7bdd97de query_id:uint64 amount:(VarUInteger 16) sender:MsgAddress
 * response_destination:MsgAddress — TEP-74 "burn_notification", wallet to minter. Some wallets add the
 * burn's custom_payload:(Maybe ^Cell) after it.
 */
export interface JettonBurnNotification {
  queryId: bigint;
  amount: bigint;
  sender: Address | null;
  responseDestination: Address | null;
  /** undefined: the body ends after response_destination (the TEP-74 layout). */
  customPayload?: Cell | null;
}

export function loadJettonBurnNotification(s: Slice): JettonBurnNotification {
  loadOpcode(s, OP.jetton_burn_notification, "jetton_burn_notification");
  const n: JettonBurnNotification = { queryId: s.loadUintBig(64), amount: s.loadCoins(), sender: s.loadMaybeAddress(), responseDestination: s.loadMaybeAddress() };
  if (s.remainingBits > 0) n.customPayload = s.loadMaybeRef();
  return n;
}

export function storeJettonBurnNotification(src: JettonBurnNotification): (b: Builder) => void {
  return (b) => {
    b.storeUint(OP.jetton_burn_notification, 32).storeUint(src.queryId, 64).storeCoins(src.amount).storeAddress(src.sender).storeAddress(src.responseDestination);
    if (src.customPayload !== undefined) b.storeMaybeRef(src.customPayload);
  };
}

/**
 * A mint, admin to minter: jetton_mint#642b7d07 (Jetton 2.0, stablecoin, mintless) and
 * minter_jetton_mint#00000015 (the 2022 reference minter) share the layout
 * query_id:uint64 to_address:MsgAddress ton_amount:Coins master_msg:^Cell, where master_msg is the
 * jetton_internal_transfer the minter sends to the new wallet (loadJettonInternalTransfer reads it).
 */
export interface JettonMint {
  queryId: bigint;
  toAddress: Address | null;
  tonAmount: bigint;
  masterMsg: Cell;
}

function loadMint(s: Slice, op: number, name: string): JettonMint {
  loadOpcode(s, op, name);
  return { queryId: s.loadUintBig(64), toAddress: s.loadMaybeAddress(), tonAmount: s.loadCoins(), masterMsg: s.loadRef() };
}

const storeMint = (op: number, src: JettonMint) => (b: Builder) =>
  b.storeUint(op, 32).storeUint(src.queryId, 64).storeAddress(src.toAddress).storeCoins(src.tonAmount).storeRef(src.masterMsg);

export const loadJettonMint = (s: Slice): JettonMint => loadMint(s, OP.jetton_mint, "jetton_mint");
export const storeJettonMint = (src: JettonMint) => storeMint(OP.jetton_mint, src);
export type MinterJettonMint = JettonMint;
export const loadMinterJettonMint = (s: Slice): MinterJettonMint => loadMint(s, OP.minter_jetton_mint, "minter_jetton_mint");
export const storeMinterJettonMint = (src: MinterJettonMint) => storeMint(OP.minter_jetton_mint, src);

/** jetton_change_admin#6501f354 query_id:uint64 new_admin_address:MsgAddress. */
export interface JettonChangeAdmin {
  queryId: bigint;
  newAdminAddress: Address | null;
}

export function loadJettonChangeAdmin(s: Slice): JettonChangeAdmin {
  loadOpcode(s, OP.jetton_change_admin, "jetton_change_admin");
  return { queryId: s.loadUintBig(64), newAdminAddress: s.loadMaybeAddress() };
}

export const storeJettonChangeAdmin = (src: JettonChangeAdmin) => (b: Builder) =>
  b.storeUint(OP.jetton_change_admin, 32).storeUint(src.queryId, 64).storeAddress(src.newAdminAddress);

/** jetton_claim_admin#fb88e119 query_id:uint64 (Jetton 2.0, stablecoin: the next admin takes over). */
export interface JettonClaimAdmin {
  queryId: bigint;
}

export const loadJettonClaimAdmin = (s: Slice): JettonClaimAdmin => ({ queryId: loadQueryIdOnly(s, OP.jetton_claim_admin, "jetton_claim_admin") });
export const storeJettonClaimAdmin = (src: JettonClaimAdmin) => storeQueryIdOnly(OP.jetton_claim_admin, src.queryId);

/** drop_admin#7431f221 query_id:uint64 (Jetton 2.0: the admin gives up the minter). */
export interface JettonDropAdmin {
  queryId: bigint;
}

export const loadJettonDropAdmin = (s: Slice): JettonDropAdmin => ({ queryId: loadQueryIdOnly(s, OP.jetton_drop_admin, "jetton_drop_admin") });
export const storeJettonDropAdmin = (src: JettonDropAdmin) => storeQueryIdOnly(OP.jetton_drop_admin, src.queryId);

/** jetton_set_status#eed236d3 query_id:uint64 status:uint4 (stablecoin: lock a wallet's sending/receiving). */
export interface JettonSetStatus {
  queryId: bigint;
  status: number;
}

export function loadJettonSetStatus(s: Slice): JettonSetStatus {
  loadOpcode(s, OP.jetton_set_status, "jetton_set_status");
  return { queryId: s.loadUintBig(64), status: s.loadUint(4) };
}

export const storeJettonSetStatus = (src: JettonSetStatus) => (b: Builder) => b.storeUint(OP.jetton_set_status, 32).storeUint(src.queryId, 64).storeUint(src.status, 4);

/**
 * jetton_call_to#235caf52 query_id:uint64 to_address:MsgAddressInt ton_amount:Coins
 * master_msg:^JettonForceAction (stablecoin: the admin makes a wallet transfer, burn or set_status).
 */
export interface JettonCallTo {
  queryId: bigint;
  toAddress: Address;
  tonAmount: bigint;
  masterMsg: Cell;
}

export function loadJettonCallTo(s: Slice): JettonCallTo {
  loadOpcode(s, OP.jetton_call_to, "jetton_call_to");
  return { queryId: s.loadUintBig(64), toAddress: s.loadAddress(), tonAmount: s.loadCoins(), masterMsg: s.loadRef() };
}

export const storeJettonCallTo = (src: JettonCallTo) => (b: Builder) =>
  b.storeUint(OP.jetton_call_to, 32).storeUint(src.queryId, 64).storeAddress(src.toAddress).storeCoins(src.tonAmount).storeRef(src.masterMsg);

/** jetton_upgrade#2508d66a query_id:uint64 new_data:^Cell new_code:^Cell. */
export interface JettonUpgrade {
  queryId: bigint;
  newData: Cell;
  newCode: Cell;
}

export function loadJettonUpgrade(s: Slice): JettonUpgrade {
  loadOpcode(s, OP.jetton_upgrade, "jetton_upgrade");
  return { queryId: s.loadUintBig(64), newData: s.loadRef(), newCode: s.loadRef() };
}

export const storeJettonUpgrade = (src: JettonUpgrade) => (b: Builder) =>
  b.storeUint(OP.jetton_upgrade, 32).storeUint(src.queryId, 64).storeRef(src.newData).storeRef(src.newCode);

/** jetton_change_metadata#cb862902 query_id:uint64 metadata:Cell — the rest of the body is the new metadata URI. */
export interface JettonChangeMetadata {
  queryId: bigint;
  metadata: Cell;
}

export function loadJettonChangeMetadata(s: Slice): JettonChangeMetadata {
  loadOpcode(s, OP.jetton_change_metadata, "jetton_change_metadata");
  return { queryId: s.loadUintBig(64), metadata: loadRest(s) };
}

export const storeJettonChangeMetadata = (src: JettonChangeMetadata) => (b: Builder) =>
  b.storeUint(OP.jetton_change_metadata, 32).storeUint(src.queryId, 64).storeSlice(src.metadata.beginParse());

/** TEP-89 provide_wallet_address#2c76b973 query_id:uint64 owner_address:MsgAddress include_address:Bool. */
export interface ProvideWalletAddress {
  queryId: bigint;
  ownerAddress: Address | null;
  includeAddress: boolean;
}

export function loadProvideWalletAddress(s: Slice): ProvideWalletAddress {
  loadOpcode(s, OP.provide_wallet_address, "provide_wallet_address");
  return { queryId: s.loadUintBig(64), ownerAddress: s.loadMaybeAddress(), includeAddress: s.loadBit() };
}

export const storeProvideWalletAddress = (src: ProvideWalletAddress) => (b: Builder) =>
  b.storeUint(OP.provide_wallet_address, 32).storeUint(src.queryId, 64).storeAddress(src.ownerAddress).storeBit(src.includeAddress);

/** TEP-89 take_wallet_address#d1735400 query_id:uint64 wallet_address:MsgAddress owner_address:(Maybe ^MsgAddress). */
export interface TakeWalletAddress {
  queryId: bigint;
  walletAddress: Address | null;
  /** undefined: not included (include_address was false); null: addr_none. */
  ownerAddress?: Address | null;
}

export function loadTakeWalletAddress(s: Slice): TakeWalletAddress {
  loadOpcode(s, OP.take_wallet_address, "take_wallet_address");
  const queryId = s.loadUintBig(64);
  const walletAddress = s.loadMaybeAddress();
  const owner = s.loadMaybeRef();
  return owner ? { queryId, walletAddress, ownerAddress: owner.beginParse().loadMaybeAddress() } : { queryId, walletAddress };
}

export function storeTakeWalletAddress(src: TakeWalletAddress): (b: Builder) => void {
  return (b) => {
    b.storeUint(OP.take_wallet_address, 32).storeUint(src.queryId, 64).storeAddress(src.walletAddress);
    if (src.ownerAddress === undefined) b.storeBit(0);
    else b.storeBit(1).storeRef(beginCell().storeAddress(src.ownerAddress).endCell());
  };
}
