// TONCO's ROUTERV3_PAY_TO: the pool telling its router whom to pay, after a swap (exit code 200) or
// a position burn (201). Names follow message-schemes.tlb's tonco section, with its
// reciever0/coinsinfo_cell spelled receiver0/coinsInfo.
import type { Address, Builder, Cell, Slice } from "@ton/core";
import { loadOpcode } from "../tlb.js";

export const TONCO_PAY_TO_OPCODES = {
  tonco_router_pay_to: 0xa1daa96d,
  /** pay_to exit codes: a swap's payout, a burn's payout */
  pay_to_swap_ok: 200,
  pay_to_burn: 201,
} as const;

const OP = TONCO_PAY_TO_OPCODES;

/**
 * tonco_router_pay_to_normal#a1daa96d query_id:uint64 reciever0:MsgAddress reciever1:MsgAddress
 * exit_code:uint32 seqno:uint64 coinsinfo_cell:(Maybe ^ToncoCoinsInfoCellFull) then indexer info
 * cells, (Maybe ^Cell) each — pool → router: pay out these amounts.
 */
export interface ToncoRouterPayTo {
  queryId: bigint;
  receiver0: Address | null;
  receiver1: Address | null;
  exitCode: number;
  seqno: bigint;
  /** the coinsinfo cell as sent (pools may hang more under it); read its amounts with toncoPayToCoins */
  coinsInfo: Cell | null;
  /**
   * the indexer info cells after coinsinfo: the scheme names one, a swap's (exit code 200) or a
   * burn's (201); pools send none, one or two
   */
  indexerInfo: (Cell | null)[];
}

export function loadToncoRouterPayTo(s: Slice): ToncoRouterPayTo {
  loadOpcode(s, OP.tonco_router_pay_to, "tonco_router_pay_to");
  const queryId = s.loadUintBig(64);
  const receiver0 = s.loadMaybeAddress();
  const receiver1 = s.loadMaybeAddress();
  const exitCode = s.loadUint(32);
  const seqno = s.loadUintBig(64);
  const coinsInfo = s.loadMaybeRef();
  const indexerInfo: (Cell | null)[] = [];
  while (s.remainingBits > 0) indexerInfo.push(s.loadMaybeRef());
  return { queryId, receiver0, receiver1, exitCode, seqno, coinsInfo, indexerInfo };
}

export function storeToncoRouterPayTo(src: ToncoRouterPayTo): (b: Builder) => void {
  return (b) => {
    b.storeUint(OP.tonco_router_pay_to, 32)
      .storeUint(src.queryId, 64)
      .storeAddress(src.receiver0)
      .storeAddress(src.receiver1)
      .storeUint(src.exitCode, 32)
      .storeUint(src.seqno, 64)
      .storeMaybeRef(src.coinsInfo);
    for (const info of src.indexerInfo) b.storeMaybeRef(info);
  };
}

/** coinsinfo_cell: amount0:(VarUInteger 16) jetton0_address:MsgAddress amount1:(VarUInteger 16) jetton1_address:MsgAddress — the jetton addresses are the router's wallets. */
export interface ToncoPayToCoins {
  amount0: bigint;
  jetton0Address: Address | null;
  amount1: bigint;
  jetton1Address: Address | null;
}

/** The amounts a pay_to pays and the router wallets they leave from; null when it carries no coins info. */
export function toncoPayToCoins(payTo: ToncoRouterPayTo): ToncoPayToCoins | null {
  if (payTo.coinsInfo === null) return null;
  const s = payTo.coinsInfo.beginParse();
  return { amount0: s.loadCoins(), jetton0Address: s.loadMaybeAddress(), amount1: s.loadCoins(), jetton1Address: s.loadMaybeAddress() };
}
