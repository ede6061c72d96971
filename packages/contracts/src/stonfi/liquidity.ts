// STON.fi v2 liquidity bodies (message-schemes.tlb's stonfi section): the router's provide_lp to a
// pool, and the opcodes of the rest of a deposit (add_liquidity to the LP account, its
// cb_add_liquidity back to the pool) and of a withdrawal (the LP burn's notification, a refunded
// provision's withdrawal) — read as toncenter reads them, by opcode. The pool's payouts are
// swaps.ts' stonfi_pay_to_v2.
import type { Address, Builder, Cell, Slice } from "@ton/core";
import { loadOpcode } from "../tlb.js";

export const STONFI_V2_LIQUIDITY_OPCODES = {
  provide_lp: 0x37c096df,
  add_liquidity: 0x50c6a654,
  cb_add_liquidity: 0x06ecd527,
  burn_notification_ext: 0x297437cf,
  /** the LP account's refund of a provision, to the pool */
  cb_refund_me: 0x0f98e2b8,
  /** the user's refund request to the LP account */
  refund_me: 0x132b9a2c,
} as const;

/**
 * stonfi_provide_lp_v2#37c096df query_id:uint64 from_user:MsgAddress left_amount:(VarUInteger 16)
 * right_amount:(VarUInteger 16) _:^DexPayloadProvideLpV2 — the router passes one deposited asset to the pool.
 */
export interface StonfiProvideLpV2 {
  queryId: bigint;
  fromUser: Address | null;
  leftAmount: bigint;
  rightAmount: bigint;
  /** DexPayloadProvideLpV2, kept as sent */
  dexPayload: Cell;
}

export function loadStonfiProvideLpV2(s: Slice): StonfiProvideLpV2 {
  loadOpcode(s, STONFI_V2_LIQUIDITY_OPCODES.provide_lp, "stonfi_provide_lp_v2");
  return { queryId: s.loadUintBig(64), fromUser: s.loadMaybeAddress(), leftAmount: s.loadCoins(), rightAmount: s.loadCoins(), dexPayload: s.loadRef() };
}

export function storeStonfiProvideLpV2(src: StonfiProvideLpV2): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(STONFI_V2_LIQUIDITY_OPCODES.provide_lp, 32)
      .storeUint(src.queryId, 64)
      .storeAddress(src.fromUser)
      .storeCoins(src.leftAmount)
      .storeCoins(src.rightAmount)
      .storeRef(src.dexPayload);
}
