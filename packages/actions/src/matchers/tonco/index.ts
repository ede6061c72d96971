// The TONCO family's matchers, by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import { ToncoDeployPoolBlockMatcher } from "./deploy-pool.js";
import { ToncoDepositLiquidityMatcher, ToncoWithdrawLiquidityMatcher } from "./liquidity.js";

export const matchers: MatcherSet = {
  ToncoDepositLiquidityMatcher: new ToncoDepositLiquidityMatcher(),
  ToncoDeployPoolBlockMatcher: new ToncoDeployPoolBlockMatcher(),
  ToncoWithdrawLiquidityMatcher: new ToncoWithdrawLiquidityMatcher(),
};
