// The STON.fi family's matchers (v1 and v2 swaps, v2 liquidity), by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import { StonfiV2ProvideLiquidityMatcher, StonfiV2WithdrawLiquidityMatcher } from "./liquidity-v2.js";
import { StonfiSwapBlockMatcher } from "./swaps.js";
import { StonfiV2SwapBlockMatcher } from "./swaps-v2.js";

export const matchers: MatcherSet = {
  StonfiSwapBlockMatcher: new StonfiSwapBlockMatcher(),
  StonfiV2SwapBlockMatcher: new StonfiV2SwapBlockMatcher(),
  StonfiV2ProvideLiquidityMatcher: new StonfiV2ProvideLiquidityMatcher(),
  StonfiV2WithdrawLiquidityMatcher: new StonfiV2WithdrawLiquidityMatcher(),
};
