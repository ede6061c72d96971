// DeDust CPMM v2 (toncenter's "dedust_v2") swap bodies: the carriers that bring an asset to a pool
// (pay_native for TON, pay_jetton as a jetton transfer's forward payload), the swap operation they
// carry, its route steps, the pool's swap event and its TON payout. Field names follow DeDust's
// v2 TL-B as toncenter v1.3 documents it (messages/dedust_v2.py).
import { type Address, type Builder, type Cell, type Slice } from "@ton/core";
import { ContractDataError } from "../errors.js";
import { loadOpcode } from "../tlb.js";

export const DEDUST_V2_OPCODES = {
  dedust_v2_pay_native: 0xa5a7cbf8,
  dedust_v2_pay_jetton: 0xcbc33949,
  dedust_v2_payout: 0x3216ca09,
  dedust_v2_swap: 0xc442500f,
  dedust_v2_swap_event: 0x78e79ba4,
} as const;

const OP = DEDUST_V2_OPCODES;

const payloadOpcode = (c: Cell): number | null => {
  const s = c.beginParse();
  return s.remainingBits >= 32 ? s.loadUint(32) : null;
};

/**
 * pay_native#a5a7cbf8 query_id:uint64 amount:Coins payment_payload:^Cell
 * payout_config:^ExtendedPayoutConfig — TON sent straight to a pool; the payload's opcode names
 * the operation (a swap, a deposit, a reward funding).
 */
export interface DedustV2PayNative {
  queryId: bigint;
  amount: bigint;
  paymentPayload: Cell;
  payoutConfig: Cell;
}

export function loadDedustV2PayNative(s: Slice): DedustV2PayNative {
  loadOpcode(s, OP.dedust_v2_pay_native, "dedust_v2_pay_native");
  return { queryId: s.loadUintBig(64), amount: s.loadCoins(), paymentPayload: s.loadRef(), payoutConfig: s.loadRef() };
}

export function storeDedustV2PayNative(src: DedustV2PayNative): (b: Builder) => void {
  return (b) => b.storeUint(OP.dedust_v2_pay_native, 32).storeUint(src.queryId, 64).storeCoins(src.amount).storeRef(src.paymentPayload).storeRef(src.payoutConfig);
}

/** pay_jetton#cbc33949 payment_payload:^Cell payout_config:^ExtendedPayoutConfig — a jetton transfer's forward payload to a pool. */
export interface DedustV2PayJetton {
  paymentPayload: Cell;
  payoutConfig: Cell;
}

export function loadDedustV2PayJetton(s: Slice): DedustV2PayJetton {
  loadOpcode(s, OP.dedust_v2_pay_jetton, "dedust_v2_pay_jetton");
  return { paymentPayload: s.loadRef(), payoutConfig: s.loadRef() };
}

export function storeDedustV2PayJetton(src: DedustV2PayJetton): (b: Builder) => void {
  return (b) => b.storeUint(OP.dedust_v2_pay_jetton, 32).storeRef(src.paymentPayload).storeRef(src.payoutConfig);
}

/** The operation a pay_native / pay_jetton carries, by its opcode. */
export const dedustV2PaymentOpcode = (carrier: DedustV2PayNative | DedustV2PayJetton): number | null => payloadOpcode(carrier.paymentPayload);

/**
 * payout#3216ca09 query_id:uint64 amount:Coins exit_code:int32 payload:(Maybe ^Cell) — pool → user,
 * TON out: a swap's output (exit_code 0) or the refund of one that failed.
 */
export interface DedustV2Payout {
  queryId: bigint;
  amount: bigint;
  exitCode: number;
  payload: Cell | null;
}

export function loadDedustV2Payout(s: Slice): DedustV2Payout {
  loadOpcode(s, OP.dedust_v2_payout, "dedust_v2_payout");
  return { queryId: s.loadUintBig(64), amount: s.loadCoins(), exitCode: s.loadInt(32), payload: s.loadMaybeRef() };
}

export function storeDedustV2Payout(src: DedustV2Payout): (b: Builder) => void {
  return (b) => b.storeUint(OP.dedust_v2_payout, 32).storeUint(src.queryId, 64).storeCoins(src.amount).storeInt(src.exitCode, 32).storeMaybeRef(src.payload);
}

/** partner / referrer config: id:uint256 fee_bps:uint16. */
export interface DedustV2FeeShare {
  id: bigint;
  feeBps: number;
}

const loadMaybeShare = (s: Slice): DedustV2FeeShare | null => (s.loadBit() ? { id: s.loadUintBig(256), feeBps: s.loadUint(16) } : null);
const storeMaybeShare = (b: Builder, v: DedustV2FeeShare | null) => (v === null ? b.storeBit(0) : b.storeBit(1).storeUint(v.id, 256).storeUint(v.feeBps, 16));

/**
 * swap#c442500f minimal_amount_out:Coins deadline:uint40 next:(Maybe ^SwapStep)
 * partner_config:(Maybe PartnerConfig) referrer_config:(Maybe ReferrerConfig) — the swap a
 * carrier asks the pool for; `next` holds the rest of a multi-pool route.
 */
export interface DedustV2SwapPayload {
  minimalAmountOut: bigint;
  deadline: bigint;
  next: Cell | null;
  partner: DedustV2FeeShare | null;
  referrer: DedustV2FeeShare | null;
}

export function loadDedustV2SwapPayload(s: Slice): DedustV2SwapPayload {
  loadOpcode(s, OP.dedust_v2_swap, "dedust_v2_swap");
  return { minimalAmountOut: s.loadCoins(), deadline: s.loadUintBig(40), next: s.loadMaybeRef(), partner: loadMaybeShare(s), referrer: loadMaybeShare(s) };
}

export function storeDedustV2SwapPayload(src: DedustV2SwapPayload): (b: Builder) => void {
  return (b) => {
    b.storeUint(OP.dedust_v2_swap, 32).storeCoins(src.minimalAmountOut).storeUint(src.deadline, 40).storeMaybeRef(src.next);
    storeMaybeShare(b, src.partner);
    storeMaybeShare(b, src.referrer);
  };
}

/** _ pool:MsgAddressInt minimal_amount_out:Coins deadline:uint40 next:(Maybe ^SwapStep) = SwapStep. */
export interface DedustV2SwapStep {
  pool: Address;
  minimalAmountOut: bigint;
  deadline: bigint;
  next: Cell | null;
}

export function loadDedustV2SwapStep(s: Slice): DedustV2SwapStep {
  return { pool: s.loadAddress(), minimalAmountOut: s.loadCoins(), deadline: s.loadUintBig(40), next: s.loadMaybeRef() };
}

export function storeDedustV2SwapStep(src: DedustV2SwapStep): (b: Builder) => void {
  return (b) => b.storeAddress(src.pool).storeCoins(src.minimalAmountOut).storeUint(src.deadline, 40).storeMaybeRef(src.next);
}

/** The floor on the route's final output: the last step's minimal_amount_out (the payload's own is the first hop's). */
export function dedustV2FinalMinOut(payload: DedustV2SwapPayload, maxSteps = 16): bigint {
  let minOut = payload.minimalAmountOut;
  let next = payload.next;
  for (let i = 0; next !== null; i++) {
    if (i >= maxSteps) throw new ContractDataError("dedust_v2 swap: the route is longer than its step cap");
    const step = loadDedustV2SwapStep(next.beginParse());
    minOut = step.minimalAmountOut;
    next = step.next;
  }
  return minOut;
}

/**
 * swap#78e79ba4 x_to_y:Bool amount_in:Coins amount_out:Coins initiator_address:MsgAddressInt
 * recipient_address:MsgAddressInt next_state:^PoolUpdatedState fees:^SwapFees — the pool's log of
 * a swap it made.
 */
export interface DedustV2SwapEvent {
  xToY: boolean;
  amountIn: bigint;
  amountOut: bigint;
  initiator: Address;
  recipient: Address;
  nextState: Cell;
  fees: Cell;
}

export function loadDedustV2SwapEvent(s: Slice): DedustV2SwapEvent {
  loadOpcode(s, OP.dedust_v2_swap_event, "dedust_v2_swap_event");
  return { xToY: s.loadBit(), amountIn: s.loadCoins(), amountOut: s.loadCoins(), initiator: s.loadAddress(), recipient: s.loadAddress(), nextState: s.loadRef(), fees: s.loadRef() };
}

export function storeDedustV2SwapEvent(src: DedustV2SwapEvent): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.dedust_v2_swap_event, 32)
      .storeBit(src.xToY)
      .storeCoins(src.amountIn)
      .storeCoins(src.amountOut)
      .storeAddress(src.initiator)
      .storeAddress(src.recipient)
      .storeRef(src.nextState)
      .storeRef(src.fees);
}
