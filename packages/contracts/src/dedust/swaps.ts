// DeDust (the vault/pool protocol toncenter calls "dedust") swap bodies: the native vault's swap,
// the jetton vault's swap forward payload, vault → pool (swap_external), pool → pool (swap_peer)
// and the pool's swap event (the payout through a vault is in payouts.ts). Layouts and names follow
// message-schemes.tlb "DeDust Protocol v2" (DeDust's own name for this protocol).
import { beginCell, type Address, type Builder, type Cell, type Slice } from "@ton/core";
import { ContractDataError } from "../errors.js";
import { loadOpcode } from "../tlb.js";
import { loadDedustAsset, storeDedustAsset, type DedustAsset } from "./asset.js";

export const DEDUST_OPCODES = {
  dedust_swap: 0xea06185d,
  dedust_swap_forward_payload: 0xe3a0d482,
  dedust_swap_external: 0x61ee542d,
  dedust_swap_peer: 0x72aca8aa,
  dedust_swap_event: 0x9c610de3,
} as const;

const OP = DEDUST_OPCODES;

/** step_params kind:DedustSwapKind limit:Coins next:(Maybe ^DedustSwapStep); kind 0 = given_in, 1 = given_out. */
export interface DedustSwapStepParams {
  givenOut: boolean;
  limit: bigint;
  next: DedustSwapStep | null;
}

/** step pool_addr:MsgAddressInt params:DedustSwapStepParams: one pool of a route. */
export interface DedustSwapStep {
  poolAddr: Address;
  params: DedustSwapStepParams;
}

function loadStepParams(s: Slice, depth: number): DedustSwapStepParams {
  const givenOut = s.loadBit();
  const limit = s.loadCoins();
  const ref = s.loadMaybeRef();
  return { givenOut, limit, next: ref === null ? null : loadStep(ref.beginParse(), depth + 1) };
}

function loadStep(s: Slice, depth = 0): DedustSwapStep {
  if (depth > 64) throw new ContractDataError("dedust swap step: the route is deeper than 64 pools");
  return { poolAddr: s.loadAddress(), params: loadStepParams(s, depth) };
}

export const loadDedustSwapStep = (s: Slice): DedustSwapStep => loadStep(s);

function storeStepParams(src: DedustSwapStepParams): (b: Builder) => void {
  return (b) => b.storeBit(src.givenOut).storeCoins(src.limit).storeMaybeRef(src.next === null ? null : beginCell().store(storeDedustSwapStep(src.next)));
}

export function storeDedustSwapStep(src: DedustSwapStep): (b: Builder) => void {
  return (b) => b.storeAddress(src.poolAddr).store(storeStepParams(src.params));
}

/** The pools of a route, first to last. */
export function dedustRoutePools(step: DedustSwapStep): Address[] {
  const out: Address[] = [];
  for (let s: DedustSwapStep | null = step; s !== null; s = s.params.next) out.push(s.poolAddr);
  return out;
}

/**
 * dedust_swap#ea06185d query_id:uint64 amount:Coins _:DedustSwapStep swap_params:^DedustSwapParams
 * — the user → the native (TON) vault. swap_params (deadline, recipient, referral, payloads) kept as sent.
 */
export interface DedustSwap {
  queryId: bigint;
  amount: bigint;
  step: DedustSwapStep;
  swapParams: Cell;
}

export function loadDedustSwap(s: Slice): DedustSwap {
  loadOpcode(s, OP.dedust_swap, "dedust_swap");
  return { queryId: s.loadUintBig(64), amount: s.loadCoins(), step: loadStep(s), swapParams: s.loadRef() };
}

export function storeDedustSwap(src: DedustSwap): (b: Builder) => void {
  return (b) => b.storeUint(OP.dedust_swap, 32).storeUint(src.queryId, 64).storeCoins(src.amount).store(storeDedustSwapStep(src.step)).storeRef(src.swapParams);
}

/** dedust_swap#e3a0d482 _:DedustSwapStep swap_params:^DedustSwapParams — a jetton transfer's forward payload to a jetton vault. */
export interface DedustSwapForwardPayload {
  step: DedustSwapStep;
  swapParams: Cell;
}

export function loadDedustSwapForwardPayload(s: Slice): DedustSwapForwardPayload {
  loadOpcode(s, OP.dedust_swap_forward_payload, "dedust_swap_forward_payload");
  return { step: loadStep(s), swapParams: s.loadRef() };
}

export function storeDedustSwapForwardPayload(src: DedustSwapForwardPayload): (b: Builder) => void {
  return (b) => b.storeUint(OP.dedust_swap_forward_payload, 32).store(storeDedustSwapStep(src.step)).storeRef(src.swapParams);
}

/**
 * dedust_swap_external#61ee542d query_id:uint64 proof:^DedustVaultProof amount:Coins
 * sender_addr:MsgAddressInt current:DedustSwapStepParams swap_params:^DedustSwapParams — vault → first pool.
 */
export interface DedustSwapExternal {
  queryId: bigint;
  proof: Cell;
  amount: bigint;
  senderAddr: Address;
  current: DedustSwapStepParams;
  swapParams: Cell;
}

export function loadDedustSwapExternal(s: Slice): DedustSwapExternal {
  loadOpcode(s, OP.dedust_swap_external, "dedust_swap_external");
  return { queryId: s.loadUintBig(64), proof: s.loadRef(), amount: s.loadCoins(), senderAddr: s.loadAddress(), current: loadStepParams(s, 0), swapParams: s.loadRef() };
}

export function storeDedustSwapExternal(src: DedustSwapExternal): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.dedust_swap_external, 32)
      .storeUint(src.queryId, 64)
      .storeRef(src.proof)
      .storeCoins(src.amount)
      .storeAddress(src.senderAddr)
      .store(storeStepParams(src.current))
      .storeRef(src.swapParams);
}

/**
 * dedust_swap_peer#72aca8aa query_id:uint64 proof:^DedustPoolProof asset:DedustAsset amount:Coins
 * sender_addr:MsgAddressInt current:DedustSwapStepParams swap_params:^DedustSwapParams — pool → next pool of a route.
 */
export interface DedustSwapPeer {
  queryId: bigint;
  proof: Cell;
  asset: DedustAsset;
  amount: bigint;
  senderAddr: Address;
  current: DedustSwapStepParams;
  swapParams: Cell;
}

export function loadDedustSwapPeer(s: Slice): DedustSwapPeer {
  loadOpcode(s, OP.dedust_swap_peer, "dedust_swap_peer");
  return {
    queryId: s.loadUintBig(64),
    proof: s.loadRef(),
    asset: loadDedustAsset(s),
    amount: s.loadCoins(),
    senderAddr: s.loadAddress(),
    current: loadStepParams(s, 0),
    swapParams: s.loadRef(),
  };
}

export function storeDedustSwapPeer(src: DedustSwapPeer): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.dedust_swap_peer, 32)
      .storeUint(src.queryId, 64)
      .storeRef(src.proof)
      .store(storeDedustAsset(src.asset))
      .storeCoins(src.amount)
      .storeAddress(src.senderAddr)
      .store(storeStepParams(src.current))
      .storeRef(src.swapParams);
}

/**
 * dedust_swap#9c610de3 asset_in:DedustAsset asset_out:DedustAsset amount_in:Coins amount_out:Coins
 * ^[sender_addr:MsgAddressInt referral_addr:MsgAddress reserve0:Coins reserve1:Coins] — the
 * pool's log of a swap it made.
 */
export interface DedustSwapEvent {
  assetIn: DedustAsset;
  assetOut: DedustAsset;
  amountIn: bigint;
  amountOut: bigint;
  senderAddr: Address;
  referralAddr: Address | null;
  reserve0: bigint;
  reserve1: bigint;
}

export function loadDedustSwapEvent(s: Slice): DedustSwapEvent {
  loadOpcode(s, OP.dedust_swap_event, "dedust_swap_event");
  const assetIn = loadDedustAsset(s);
  const assetOut = loadDedustAsset(s);
  const amountIn = s.loadCoins();
  const amountOut = s.loadCoins();
  const r = s.loadRef().beginParse();
  return { assetIn, assetOut, amountIn, amountOut, senderAddr: r.loadAddress(), referralAddr: r.loadMaybeAddress(), reserve0: r.loadCoins(), reserve1: r.loadCoins() };
}

export function storeDedustSwapEvent(src: DedustSwapEvent): (b: Builder) => void {
  return (b) =>
    b
      .storeUint(OP.dedust_swap_event, 32)
      .store(storeDedustAsset(src.assetIn))
      .store(storeDedustAsset(src.assetOut))
      .storeCoins(src.amountIn)
      .storeCoins(src.amountOut)
      .storeRef(beginCell().storeAddress(src.senderAddr).storeAddress(src.referralAddr).storeCoins(src.reserve0).storeCoins(src.reserve1));
}
