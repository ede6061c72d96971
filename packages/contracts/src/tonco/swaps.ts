// TONCO (concentrated-liquidity AMM) swap bodies: the router → pool swap, the pool → router payout
// (ROUTERV3_PAY_TO, also used for burns), and the swap request a jetton transfer to the router
// carries. Layouts and names follow message-schemes.tlb "tonco.xml" and TONCO's SDK.
import { beginCell, type Address, type Builder, type Cell, type Slice } from "@ton/core";
import { loadOpcode } from "../tlb.js";

export const TONCO_OPCODES = {
  tonco_pool_swap: 0xa7fb58f8,
  tonco_router_pay_to: 0xa1daa96d,
  /** pay_to exit codes: a swap's payout, a burn's payout */
  pay_to_swap_ok: 200,
  pay_to_burn: 201,
} as const;

const OP = TONCO_OPCODES;

/**
 * tonco_pool_swap#a7fb58f8 query_id:uint64 owner_address:MsgAddress source_wallet:MsgAddress
 * swap_params:^[amount:(VarUInteger 16) sqrtPriceLimitX96:uint160 minOutAmount:(VarUInteger 16)]
 * swap_payloads:^[target_address:MsgAddress ok_forward_amount:(VarUInteger 16)
 * ok_forward_payload:(Maybe ^Cell) ret_forward_amount:(VarUInteger 16) ret_forward_payload:(Maybe ^Cell)]
 * — router → pool; `sourceWallet` is the router's wallet the input arrived on.
 */
export interface ToncoPoolSwap {
  queryId: bigint;
  ownerAddress: Address | null;
  sourceWallet: Address | null;
  amount: bigint;
  sqrtPriceLimitX96: bigint;
  minOutAmount: bigint;
  targetAddress: Address | null;
  okForwardAmount: bigint;
  okForwardPayload: Cell | null;
  retForwardAmount: bigint;
  retForwardPayload: Cell | null;
}

export function loadToncoPoolSwap(s: Slice): ToncoPoolSwap {
  loadOpcode(s, OP.tonco_pool_swap, "tonco_pool_swap");
  const queryId = s.loadUintBig(64);
  const ownerAddress = s.loadMaybeAddress();
  const sourceWallet = s.loadMaybeAddress();
  const params = s.loadRef().beginParse();
  const payloads = s.loadRef().beginParse();
  return {
    queryId,
    ownerAddress,
    sourceWallet,
    amount: params.loadCoins(),
    sqrtPriceLimitX96: params.loadUintBig(160),
    minOutAmount: params.loadCoins(),
    targetAddress: payloads.loadMaybeAddress(),
    okForwardAmount: payloads.loadCoins(),
    okForwardPayload: payloads.loadMaybeRef(),
    retForwardAmount: payloads.loadCoins(),
    retForwardPayload: payloads.loadMaybeRef(),
  };
}

export function storeToncoPoolSwap(src: ToncoPoolSwap): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.tonco_pool_swap, 32)
      .storeUint(src.queryId, 64)
      .storeAddress(src.ownerAddress)
      .storeAddress(src.sourceWallet)
      .storeRef(beginCell().storeCoins(src.amount).storeUint(src.sqrtPriceLimitX96, 160).storeCoins(src.minOutAmount))
      .storeRef(
        beginCell()
          .storeAddress(src.targetAddress)
          .storeCoins(src.okForwardAmount)
          .storeMaybeRef(src.okForwardPayload)
          .storeCoins(src.retForwardAmount)
          .storeMaybeRef(src.retForwardPayload),
      );
}

/**
 * The swap request in a jetton transfer's forward payload to the router (TONCO's SDK, the pool
 * swap's opcode with another layout): #a7fb58f8 target_router_jwallet:MsgAddress
 * price_limit_sqrt:uint160 min_out_amount:(VarUInteger 16) recipient:MsgAddress
 * payload:(Maybe ^Cell). A multi-hop route puts the next hop's request in `payload`.
 */
export interface ToncoSwapRequest {
  targetRouterJettonWallet: Address | null;
  priceLimitSqrt: bigint;
  minOutAmount: bigint;
  recipient: Address | null;
  payload: Cell | null;
}

export function loadToncoSwapRequest(s: Slice): ToncoSwapRequest {
  loadOpcode(s, OP.tonco_pool_swap, "tonco_swap_request");
  return {
    targetRouterJettonWallet: s.loadMaybeAddress(),
    priceLimitSqrt: s.loadUintBig(160),
    minOutAmount: s.loadCoins(),
    recipient: s.loadMaybeAddress(),
    payload: s.loadMaybeRef(),
  };
}

export function storeToncoSwapRequest(src: ToncoSwapRequest): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.tonco_pool_swap, 32)
      .storeAddress(src.targetRouterJettonWallet)
      .storeUint(src.priceLimitSqrt, 160)
      .storeCoins(src.minOutAmount)
      .storeAddress(src.recipient)
      .storeMaybeRef(src.payload);
}

/** The hops of a swap request, first to last: the router wallet of each hop's output and its minimum. */
export function toncoRouteTargets(request: ToncoSwapRequest, maxHops = 16): { wallet: Address | null; minOut: bigint }[] {
  const out = [{ wallet: request.targetRouterJettonWallet, minOut: request.minOutAmount }];
  let next = request.payload;
  while (next !== null && out.length < maxHops) {
    const s = next.beginParse();
    if (s.remainingBits < 32 || s.preloadUint(32) !== OP.tonco_pool_swap) break;
    let r: ToncoSwapRequest;
    try {
      r = loadToncoSwapRequest(s);
    } catch {
      break;
    }
    out.push({ wallet: r.targetRouterJettonWallet, minOut: r.minOutAmount });
    next = r.payload;
  }
  return out;
}

/**
 * tonco_router_pay_to#a1daa96d query_id:uint64 reciever0:MsgAddress reciever1:MsgAddress
 * exit_code:uint32 seqno:uint64 coinsinfo_cell:(Maybe ^[amount0:(VarUInteger 16)
 * jetton0_address:MsgAddress amount1:(VarUInteger 16) jetton1_address:MsgAddress ...])
 * indexer_info:(Maybe ^Cell) — pool → router: pay out these amounts (the jetton addresses are the
 * router's wallets). The indexer info is the swap's (exit code 200) or the burn's (201).
 */
export interface ToncoRouterPayTo {
  queryId: bigint;
  reciever0: Address | null;
  reciever1: Address | null;
  exitCode: number;
  seqno: bigint;
  coinsInfo: Cell | null;
  /** undefined: the body ends before its Maybe bit */
  indexerInfo: Cell | null | undefined;
}

export function loadToncoRouterPayTo(s: Slice): ToncoRouterPayTo {
  loadOpcode(s, OP.tonco_router_pay_to, "tonco_router_pay_to");
  const queryId = s.loadUintBig(64);
  const reciever0 = s.loadMaybeAddress();
  const reciever1 = s.loadMaybeAddress();
  const exitCode = s.loadUint(32);
  const seqno = s.loadUintBig(64);
  const coinsInfo = s.loadMaybeRef();
  const indexerInfo = s.remainingBits > 0 ? s.loadMaybeRef() : undefined;
  return { queryId, reciever0, reciever1, exitCode, seqno, coinsInfo, indexerInfo };
}

export function storeToncoRouterPayTo(src: ToncoRouterPayTo): (b: Builder) => void {
  return (b) => {
    b.storeUint(OP.tonco_router_pay_to, 32)
      .storeUint(src.queryId, 64)
      .storeAddress(src.reciever0)
      .storeAddress(src.reciever1)
      .storeUint(src.exitCode, 32)
      .storeUint(src.seqno, 64)
      .storeMaybeRef(src.coinsInfo);
    if (src.indexerInfo !== undefined) b.storeMaybeRef(src.indexerInfo);
  };
}

/** The amounts a pay_to pays, with the router wallets they leave from (null when it carries no coins info). */
export interface ToncoPayToCoins {
  amount0: bigint;
  jetton0Address: Address | null;
  amount1: bigint;
  jetton1Address: Address | null;
}

export function toncoPayToCoins(payTo: ToncoRouterPayTo): ToncoPayToCoins | null {
  if (payTo.coinsInfo === null) return null;
  const s = payTo.coinsInfo.beginParse();
  return { amount0: s.loadCoins(), jetton0Address: s.loadMaybeAddress(), amount1: s.loadCoins(), jetton1Address: s.loadMaybeAddress() };
}
