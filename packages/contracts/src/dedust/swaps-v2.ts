// DeDust CPMM v2 (toncenter's "dedust_v2") swap bodies: the swap operation a payment carries
// (payments-v2.ts has the carriers and the TON payout), its route steps and the pool's swap event.
// Field names follow DeDust's v2 TL-B as toncenter v1.3 documents it.
import { type Address, type Builder, type Cell, type Slice } from "@ton/core";
import { ContractDataError } from "../errors.js";
import { loadOpcode } from "../tlb.js";

export const DEDUST_V2_OPCODES = {
  dedust_v2_swap: 0xc442500f,
  dedust_v2_swap_event: 0x78e79ba4,
} as const;

const OP = DEDUST_V2_OPCODES;

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
