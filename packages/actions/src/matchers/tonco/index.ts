// The TONCO family's matchers (swaps, positions, pool deployment), by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import { ToncoDeployPoolBlockMatcher } from "./deploy-pool.js";
import { ToncoDepositLiquidityMatcher, ToncoWithdrawLiquidityMatcher } from "./liquidity.js";
import { ToncoSwapBlockMatcher } from "./swaps.js";

export const matchers: MatcherSet = {
  ToncoSwapBlockMatcher: new ToncoSwapBlockMatcher(),
  ToncoDepositLiquidityMatcher: new ToncoDepositLiquidityMatcher(),
  ToncoDeployPoolBlockMatcher: new ToncoDeployPoolBlockMatcher(),
  ToncoWithdrawLiquidityMatcher: new ToncoWithdrawLiquidityMatcher(),
};
