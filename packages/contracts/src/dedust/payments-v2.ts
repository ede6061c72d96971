// DeDust CPMM v2 (toncenter's "dedust_v2") payments: the carriers that bring an asset to a pool
// (pay_native for TON, pay_jetton as a jetton transfer's forward payload) with the operation they
// pay for — a swap, a deposit, a reward funding — and the pool's TON payout or refund. Field names
// follow DeDust's v2 TL-B as toncenter v1.3 reads it.
import type { Builder, Cell, Slice } from "@ton/core";
import { loadOpcode } from "../tlb.js";

export const DEDUST_V2_PAYMENT_OPCODES = {
  dedust_v2_pay_native: 0xa5a7cbf8,
  dedust_v2_pay_jetton: 0xcbc33949,
  dedust_v2_payout: 0x3216ca09,
} as const;

const OP = DEDUST_V2_PAYMENT_OPCODES;

/**
 * pay_native#a5a7cbf8 query_id:uint64 amount:Coins payment_payload:^Cell
 * payout_config:^ExtendedPayoutConfig — TON sent straight to a pool.
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

/** The operation a pay_native / pay_jetton carries, by its payment payload's opcode. */
export function dedustV2PaymentOpcode(carrier: DedustV2PayNative | DedustV2PayJetton): number | null {
  const s = carrier.paymentPayload.beginParse();
  return s.remainingBits >= 32 ? s.loadUint(32) : null;
}

/**
 * payout#3216ca09 query_id:uint64 amount:Coins exit_code:int32 payload:(Maybe ^Cell) — pool → user,
 * TON out: an output (exit_code 0) or the refund of an operation that failed.
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
