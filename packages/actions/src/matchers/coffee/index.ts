// The swap.coffee family's matchers, by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import { CoffeeDepositLiquidityMatcher, CoffeeWithdrawLiquidityMatcher } from "./liquidity.js";
import { CoffeeMevProtectFailedSwapMatcher, CoffeeMevProtectHoldFundsMatcher } from "./mev-protect.js";
import { CoffeeCreatePoolCreatorMatcher, CoffeeCreatePoolMatcher, CoffeeCreateVaultMatcher } from "./pools.js";
import { CoffeeStakingClaimRewardsMatcher, CoffeeStakingDepositMatcher, CoffeeStakingWithdrawMatcher } from "./staking.js";
import { CoffeeSwapBlockMatcher } from "./swaps.js";

export const matchers: MatcherSet = {
  CoffeeDepositLiquidityMatcher: new CoffeeDepositLiquidityMatcher(),
  CoffeeSwapBlockMatcher: new CoffeeSwapBlockMatcher(),
  CoffeeWithdrawLiquidityMatcher: new CoffeeWithdrawLiquidityMatcher(),
  CoffeeCreateVaultMatcher: new CoffeeCreateVaultMatcher(),
  CoffeeCreatePoolCreatorMatcher: new CoffeeCreatePoolCreatorMatcher(),
  CoffeeCreatePoolMatcher: new CoffeeCreatePoolMatcher(),
  CoffeeMevProtectHoldFundsMatcher: new CoffeeMevProtectHoldFundsMatcher(),
  CoffeeMevProtectFailedSwapMatcher: new CoffeeMevProtectFailedSwapMatcher(),
  CoffeeStakingDepositMatcher: new CoffeeStakingDepositMatcher(),
  CoffeeStakingWithdrawMatcher: new CoffeeStakingWithdrawMatcher(),
  CoffeeStakingClaimRewardsMatcher: new CoffeeStakingClaimRewardsMatcher(),
};
