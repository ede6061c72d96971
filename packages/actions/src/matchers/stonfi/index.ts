// The STON.fi family's matchers, by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import { StonfiV2ProvideLiquidityMatcher, StonfiV2WithdrawLiquidityMatcher } from "./liquidity-v2.js";

export const matchers: MatcherSet = {
  StonfiV2ProvideLiquidityMatcher: new StonfiV2ProvideLiquidityMatcher(),
  StonfiV2WithdrawLiquidityMatcher: new StonfiV2WithdrawLiquidityMatcher(),
};
