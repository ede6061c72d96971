// pTON v2 (STON.fi's proxy TON, also TONCO's wrapped TON): its ton_transfer, the message that moves
// TON in and out of a DEX router's pTON wallet. Names follow message-schemes.tlb.
import type { Address, Builder, Slice } from "@ton/core";
import { loadOpcode, loadOptionalEitherCell, storeOptionalEitherCell, type EitherCell } from "../tlb.js";

export const PTON_OPCODES = {
  pton_ton_transfer: 0x01f3835d,
} as const;

/**
 * pton_ton_transfer#01f3835d query_id:uint64 ton_amount:Coins refund_address:MsgAddress
 * forward_payload:(Either Cell ^Cell) — a pTON wallet telling its owner (a router) that TON
 * arrived, or a router sending TON out through its pTON wallet.
 */
export interface PtonTonTransfer {
  queryId: bigint;
  tonAmount: bigint;
  refundAddress: Address | null;
  /** null: the body ends after refund_address */
  forwardPayload: EitherCell | null;
}

export function loadPtonTonTransfer(s: Slice): PtonTonTransfer {
  loadOpcode(s, PTON_OPCODES.pton_ton_transfer, "pton_ton_transfer");
  return { queryId: s.loadUintBig(64), tonAmount: s.loadCoins(), refundAddress: s.loadMaybeAddress(), forwardPayload: loadOptionalEitherCell(s) };
}

export function storePtonTonTransfer(src: PtonTonTransfer): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(PTON_OPCODES.pton_ton_transfer, 32)
      .storeUint(src.queryId, 64)
      .storeCoins(src.tonAmount)
      .storeAddress(src.refundAddress)
      .store(storeOptionalEitherCell(src.forwardPayload));
}
