// DeDust vault payouts (the vault/pool protocol): a pool asks a vault to pay out — a swap's output
// or a withdrawal's share — and the native vault pays TON out. Names follow message-schemes.tlb's
// DeDust section.
import type { Address, Builder, Cell, Slice } from "@ton/core";
import { loadOpcode } from "../tlb.js";

export const DEDUST_PAYOUT_OPCODES = {
  dedust_pay_out_from_pool: 0xad4eb6f5,
  dedust_payout: 0x474f86cf,
} as const;

const OP = DEDUST_PAYOUT_OPCODES;

/**
 * dedust_pay_out_from_pool#ad4eb6f5 query_id:uint64 proof:^DedustPoolProof amount:Coins
 * recipient_addr:MsgAddress payload:(Maybe ^Cell) — a pool → the vault of the asset it pays out.
 */
export interface DedustPayOutFromPool {
  queryId: bigint;
  proof: Cell;
  amount: bigint;
  recipientAddr: Address | null;
  payload: Cell | null;
}

export function loadDedustPayOutFromPool(s: Slice): DedustPayOutFromPool {
  loadOpcode(s, OP.dedust_pay_out_from_pool, "dedust_pay_out_from_pool");
  return { queryId: s.loadUintBig(64), proof: s.loadRef(), amount: s.loadCoins(), recipientAddr: s.loadMaybeAddress(), payload: s.loadMaybeRef() };
}

export function storeDedustPayOutFromPool(src: DedustPayOutFromPool): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.dedust_pay_out_from_pool, 32)
      .storeUint(src.queryId, 64)
      .storeRef(src.proof)
      .storeCoins(src.amount)
      .storeAddress(src.recipientAddr)
      .storeMaybeRef(src.payload);
}

/** dedust_payout#474f86cf query_id:uint64 payload:(Maybe ^Cell) — the native vault paying TON out. */
export interface DedustPayout {
  queryId: bigint;
  payload: Cell | null;
}

export function loadDedustPayout(s: Slice): DedustPayout {
  loadOpcode(s, OP.dedust_payout, "dedust_payout");
  return { queryId: s.loadUintBig(64), payload: s.loadMaybeRef() };
}

export function storeDedustPayout(src: DedustPayout): (b: Builder) => void {
  return (b) => b.storeUint(OP.dedust_payout, 32).storeUint(src.queryId, 64).storeMaybeRef(src.payload);
}
