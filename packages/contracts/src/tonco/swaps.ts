// TONCO (concentrated-liquidity AMM) swap bodies: the router → pool swap and the swap request a
// jetton transfer to the router carries (the pool → router payout is pay-to.ts). Layouts and names
// follow message-schemes.tlb "tonco.xml" and TONCO's SDK.
import { beginCell, type Address, type Builder, type Cell, type Slice } from "@ton/core";
import { loadOpcode } from "../tlb.js";

export const TONCO_OPCODES = {
  tonco_pool_swap: 0xa7fb58f8,
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
