// STON.fi DEX swap bodies: the v1 router/pool pair (swap, payment_request), the v2 router/pool
// pair (swap, pay_to) and the jetton forward payloads that ask a router for a swap (pTON's
// ton_transfer is in pton.ts). Layouts and names follow message-schemes.tlb "ston-fi.xml".
import { beginCell, type Address, type Builder, type Cell, type Slice } from "@ton/core";
import { loadOpcode, loadRest } from "../tlb.js";

export const STONFI_OPCODES = {
  stonfi_swap: 0x25938561,
  stonfi_payment_request: 0xf93bb43f,
  stonfi_swap_v2: 0x6664de2a,
  stonfi_pay_to_v2: 0x657b54f5,
  /** a v2 route's hop to another router (cross-router swap) */
  stonfi_cross_swap_v2: 0x69cf1a5b,
  stonfi_deposit_ref_fee_v2: 0x0490f09b,
  /** payment_request exit codes (v1) and pay_to exit code (v2) of a swap that went through */
  swap_ok: 0xc64370e5,
  /** v1: the referral's share of a swap */
  swap_ok_ref: 0x45078540,
  /** v1: the pool had no liquidity / its reserves would break, the input is refunded */
  swap_no_liquidity: 0x5ffe1295,
  swap_reserve_error: 0x38976e9b,
} as const;

const OP = STONFI_OPCODES;

/**
 * stonfi_swap#25938561 query_id:uint64 to_address:MsgAddress sender_address:MsgAddress
 * jetton_amount:(VarUInteger 16) min_out:(VarUInteger 16) has_ref_address:Bool
 * addrs:^[from_user:MsgAddress ref_address:has_ref_address?MsgAddress] — v1 router → pool.
 * `toAddress` is who gets the output, `senderAddress` the router's wallet the input arrived on.
 */
export interface StonfiSwap {
  queryId: bigint;
  toAddress: Address | null;
  senderAddress: Address | null;
  jettonAmount: bigint;
  minOut: bigint;
  /** who sent the input (the user) */
  fromUser: Address | null;
  refAddress: Address | null;
  /** anything after the addresses in the ref, kept as sent */
  addrsRest: Cell | null;
}

export function loadStonfiSwap(s: Slice): StonfiSwap {
  loadOpcode(s, OP.stonfi_swap, "stonfi_swap");
  const queryId = s.loadUintBig(64);
  const toAddress = s.loadMaybeAddress();
  const senderAddress = s.loadMaybeAddress();
  const jettonAmount = s.loadCoins();
  const minOut = s.loadCoins();
  const hasRef = s.loadBit();
  const addrs = s.loadRef().beginParse();
  const fromUser = addrs.loadMaybeAddress();
  const refAddress = hasRef ? addrs.loadMaybeAddress() : null;
  const addrsRest = addrs.remainingBits > 0 || addrs.remainingRefs > 0 ? addrs.asCell() : null;
  return { queryId, toAddress, senderAddress, jettonAmount, minOut, fromUser, refAddress, addrsRest };
}

export function storeStonfiSwap(src: StonfiSwap): (b: Builder) => void {
  return (b) => {
    const addrs = beginCell().storeAddress(src.fromUser);
    if (src.refAddress !== null) addrs.storeAddress(src.refAddress);
    if (src.addrsRest !== null) addrs.storeSlice(src.addrsRest.beginParse());
    b.storeUint(OP.stonfi_swap, 32)
      .storeUint(src.queryId, 64)
      .storeAddress(src.toAddress)
      .storeAddress(src.senderAddress)
      .storeCoins(src.jettonAmount)
      .storeCoins(src.minOut)
      .storeBit(src.refAddress !== null)
      .storeRef(addrs);
  };
}

/** pay_to_params amount0_out:(VarUInteger 16) token0_address:MsgAddress amount1_out:(VarUInteger 16) token1_address:MsgAddress. */
export interface StonfiPayToParams {
  amount0Out: bigint;
  token0Address: Address | null;
  amount1Out: bigint;
  token1Address: Address | null;
}

function loadPayToParams(s: Slice): StonfiPayToParams {
  return { amount0Out: s.loadCoins(), token0Address: s.loadMaybeAddress(), amount1Out: s.loadCoins(), token1Address: s.loadMaybeAddress() };
}

function storePayToParams(src: StonfiPayToParams): (b: Builder) => void {
  return (b) => b.storeCoins(src.amount0Out).storeAddress(src.token0Address).storeCoins(src.amount1Out).storeAddress(src.token1Address);
}

/**
 * stonfi_payment_request#f93bb43f query_id:uint64 owner:MsgAddress exit_code:uint32
 * params:(Either StonfiPayToParams ^StonfiPayToParams) — v1 pool → router: pay these amounts
 * (the token addresses are the router's jetton wallets) to `owner`.
 */
export interface StonfiPaymentRequest {
  queryId: bigint;
  owner: Address | null;
  exitCode: number;
  params: StonfiPayToParams;
  paramsInRef: boolean;
}

export function loadStonfiPaymentRequest(s: Slice): StonfiPaymentRequest {
  loadOpcode(s, OP.stonfi_payment_request, "stonfi_payment_request");
  const queryId = s.loadUintBig(64);
  const owner = s.loadMaybeAddress();
  const exitCode = s.loadUint(32);
  const paramsInRef = s.loadBit();
  const params = loadPayToParams(paramsInRef ? s.loadRef().beginParse() : s);
  return { queryId, owner, exitCode, params, paramsInRef };
}

export function storeStonfiPaymentRequest(src: StonfiPaymentRequest): (b: Builder) => void {
  return (b) => {
    b.storeUint(OP.stonfi_payment_request, 32).storeUint(src.queryId, 64).storeAddress(src.owner).storeUint(src.exitCode, 32).storeBit(src.paramsInRef);
    if (src.paramsInRef) b.storeRef(beginCell().store(storePayToParams(src.params)));
    else b.store(storePayToParams(src.params));
  };
}

/**
 * The forward payload of a jetton transfer to a v1 router:
 * stonfi_swap_forward_payload#25938561 token_wallet:MsgAddress min_out:(VarUInteger 16)
 * to_address:MsgAddress referral_address:(Maybe MsgAddress). `tokenWallet` is the router's
 * wallet of the jetton the user wants.
 */
export interface StonfiSwapForwardPayload {
  tokenWallet: Address | null;
  minOut: bigint;
  toAddress: Address | null;
  referralAddress: Address | null;
  /** the payload ends before the referral's Maybe bit (older SDKs) */
  noReferralBit: boolean;
  /** bits some senders leave after the fields, kept as sent */
  rest: Cell | null;
}

export function loadStonfiSwapForwardPayload(s: Slice): StonfiSwapForwardPayload {
  loadOpcode(s, OP.stonfi_swap, "stonfi_swap_forward_payload");
  const tokenWallet = s.loadMaybeAddress();
  const minOut = s.loadCoins();
  const toAddress = s.loadMaybeAddress();
  const noReferralBit = s.remainingBits === 0;
  const referralAddress = !noReferralBit && s.loadBit() ? s.loadMaybeAddress() : null;
  const rest = s.remainingBits > 0 || s.remainingRefs > 0 ? loadRest(s) : null;
  return { tokenWallet, minOut, toAddress, referralAddress, noReferralBit, rest };
}

export function storeStonfiSwapForwardPayload(src: StonfiSwapForwardPayload): (b: Builder) => void {
  return (b) => {
    b.storeUint(OP.stonfi_swap, 32).storeAddress(src.tokenWallet).storeCoins(src.minOut).storeAddress(src.toAddress);
    if (!src.noReferralBit) {
      if (src.referralAddress === null) b.storeBit(0);
      else b.storeBit(1).storeAddress(src.referralAddress);
    }
    if (src.rest !== null) b.storeSlice(src.rest.beginParse());
  };
}

/**
 * cross_swap_body / swap_body: min_out:(VarUInteger 16) receiver:MsgAddress fwd_gas:Coins
 * custom_payload:(Maybe ^Cell) refund_fwd_gas:Coins refund_payload:(Maybe ^Cell) ref_fee:uint16
 * ref_address:MsgAddress. A multi-hop route puts the next hop's swap payload in custom_payload.
 */
export interface StonfiSwapBodyV2 {
  minOut: bigint;
  receiver: Address | null;
  fwdGas: bigint;
  customPayload: Cell | null;
  refundFwdGas: bigint;
  refundPayload: Cell | null;
  refFee: number;
  refAddress: Address | null;
}

function loadSwapBodyV2(s: Slice): StonfiSwapBodyV2 {
  return {
    minOut: s.loadCoins(),
    receiver: s.loadMaybeAddress(),
    fwdGas: s.loadCoins(),
    customPayload: s.loadMaybeRef(),
    refundFwdGas: s.loadCoins(),
    refundPayload: s.loadMaybeRef(),
    refFee: s.loadUint(16),
    refAddress: s.loadMaybeAddress(),
  };
}

function storeSwapBodyV2(src: StonfiSwapBodyV2): (b: Builder) => void {
  return (b) =>
    b
      .storeCoins(src.minOut)
      .storeAddress(src.receiver)
      .storeCoins(src.fwdGas)
      .storeMaybeRef(src.customPayload)
      .storeCoins(src.refundFwdGas)
      .storeMaybeRef(src.refundPayload)
      .storeUint(src.refFee, 16)
      .storeAddress(src.refAddress);
}

/**
 * dex_payload transferred_op:uint32 token_wallet1:MsgAddress refund_address:MsgAddress
 * excesses_address:MsgAddress tx_deadline:uint64 _:^SwapBody. `tokenWallet1` is the router's
 * wallet of the other token of the pool (the one the user wants from this hop).
 */
export interface StonfiDexPayloadV2 {
  transferredOp: number;
  tokenWallet1: Address | null;
  refundAddress: Address | null;
  excessesAddress: Address | null;
  txDeadline: bigint;
  swap: StonfiSwapBodyV2;
}

function loadDexPayloadTail(transferredOp: number, s: Slice): StonfiDexPayloadV2 {
  return {
    transferredOp,
    tokenWallet1: s.loadMaybeAddress(),
    refundAddress: s.loadMaybeAddress(),
    excessesAddress: s.loadMaybeAddress(),
    txDeadline: s.loadUintBig(64),
    swap: loadSwapBodyV2(s.loadRef().beginParse()),
  };
}

function storeDexPayload(src: StonfiDexPayloadV2): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(src.transferredOp, 32)
      .storeAddress(src.tokenWallet1)
      .storeAddress(src.refundAddress)
      .storeAddress(src.excessesAddress)
      .storeUint(src.txDeadline, 64)
      .storeRef(beginCell().store(storeSwapBodyV2(src.swap)));
}

/**
 * stonfi_swap_v2_forward_payload#6664de2a token_wallet1:MsgAddress refund_address:MsgAddress
 * excesses_address:MsgAddress tx_deadline:uint64 _:^CrossSwapBody — what a jetton (or pTON)
 * transfer to a v2 router carries to ask for a swap; also the next hop of a route.
 */
export function loadStonfiSwapV2ForwardPayload(s: Slice): StonfiDexPayloadV2 {
  loadOpcode(s, OP.stonfi_swap_v2, "stonfi_swap_v2_forward_payload");
  return loadDexPayloadTail(OP.stonfi_swap_v2, s);
}

export function storeStonfiSwapV2ForwardPayload(src: StonfiDexPayloadV2): (b: Builder) => void {
  return storeDexPayload({ ...src, transferredOp: OP.stonfi_swap_v2 });
}

/**
 * stonfi_swap_v2#6664de2a query_id:uint64 from_user:MsgAddress left_amount:(VarUInteger 16)
 * right_amount:(VarUInteger 16) _:^DexPayload — v2 router → pool.
 */
export interface StonfiSwapV2 {
  queryId: bigint;
  fromUser: Address | null;
  leftAmount: bigint;
  rightAmount: bigint;
  payload: StonfiDexPayloadV2;
}

export function loadStonfiSwapV2(s: Slice): StonfiSwapV2 {
  loadOpcode(s, OP.stonfi_swap_v2, "stonfi_swap_v2");
  const queryId = s.loadUintBig(64);
  const fromUser = s.loadMaybeAddress();
  const leftAmount = s.loadCoins();
  const rightAmount = s.loadCoins();
  const p = s.loadRef().beginParse();
  return { queryId, fromUser, leftAmount, rightAmount, payload: loadDexPayloadTail(p.loadUint(32), p) };
}

export function storeStonfiSwapV2(src: StonfiSwapV2): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.stonfi_swap_v2, 32)
      .storeUint(src.queryId, 64)
      .storeAddress(src.fromUser)
      .storeCoins(src.leftAmount)
      .storeCoins(src.rightAmount)
      .storeRef(beginCell().store(storeDexPayload(src.payload)));
}

/**
 * The router wallets a v2 route goes through, in order: the first hop's token_wallet1, then each
 * next hop's (a hop's custom_payload holds the next hop's swap payload).
 */
export function stonfiV2RouteWallets(payload: StonfiDexPayloadV2, maxHops = 16): (Address | null)[] {
  const out: (Address | null)[] = [payload.tokenWallet1];
  let next = payload.swap.customPayload;
  while (next !== null && out.length < maxHops) {
    const s = next.beginParse();
    if (s.remainingBits < 32) break;
    const op = s.loadUint(32);
    // a route's next hop: a swap, or a cross-router swap
    if (op !== OP.stonfi_swap_v2 && op !== OP.stonfi_cross_swap_v2) break;
    out.push(s.loadMaybeAddress());
    if (s.remainingRefs === 0) break;
    const body = s.loadRef().beginParse();
    body.loadCoins();
    body.loadMaybeAddress();
    body.loadCoins();
    next = body.loadMaybeRef();
  }
  return out;
}

/**
 * stonfi_pay_to_v2#657b54f5 query_id:uint64 to_address:MsgAddress excesses_address:MsgAddress
 * original_caller:MsgAddress exit_code:uint32 custom_payload:(Maybe ^Cell)
 * _:^[fwd_ton_amount:Coins amount0_out:(VarUInteger 16) token0_address:MsgAddress
 * amount1_out:(VarUInteger 16) token1_address:MsgAddress] — v2 pool → router.
 */
export interface StonfiPayToV2 {
  queryId: bigint;
  toAddress: Address | null;
  excessesAddress: Address | null;
  originalCaller: Address | null;
  exitCode: number;
  customPayload: Cell | null;
  fwdTonAmount: bigint;
  amount0Out: bigint;
  token0Address: Address | null;
  amount1Out: bigint;
  token1Address: Address | null;
}

export function loadStonfiPayToV2(s: Slice): StonfiPayToV2 {
  loadOpcode(s, OP.stonfi_pay_to_v2, "stonfi_pay_to_v2");
  const queryId = s.loadUintBig(64);
  const toAddress = s.loadMaybeAddress();
  const excessesAddress = s.loadMaybeAddress();
  const originalCaller = s.loadMaybeAddress();
  const exitCode = s.loadUint(32);
  const customPayload = s.loadMaybeRef();
  const info = s.loadRef().beginParse();
  return {
    queryId,
    toAddress,
    excessesAddress,
    originalCaller,
    exitCode,
    customPayload,
    fwdTonAmount: info.loadCoins(),
    amount0Out: info.loadCoins(),
    token0Address: info.loadMaybeAddress(),
    amount1Out: info.loadCoins(),
    token1Address: info.loadMaybeAddress(),
  };
}

export function storeStonfiPayToV2(src: StonfiPayToV2): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.stonfi_pay_to_v2, 32)
      .storeUint(src.queryId, 64)
      .storeAddress(src.toAddress)
      .storeAddress(src.excessesAddress)
      .storeAddress(src.originalCaller)
      .storeUint(src.exitCode, 32)
      .storeMaybeRef(src.customPayload)
      .storeRef(
        beginCell().storeCoins(src.fwdTonAmount).storeCoins(src.amount0Out).storeAddress(src.token0Address).storeCoins(src.amount1Out).storeAddress(src.token1Address),
      );
}
