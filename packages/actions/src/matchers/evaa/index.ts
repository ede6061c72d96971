// The EVAA family's matchers, by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import { EvaaLiquidateBlockMatcher } from "./liquidate.js";
import { EvaaSupplyBlockMatcher } from "./supply.js";
import { EvaaWithdrawBlockMatcher } from "./withdraw.js";

export const matchers: MatcherSet = {
  EvaaSupplyBlockMatcher: new EvaaSupplyBlockMatcher(),
  EvaaWithdrawBlockMatcher: new EvaaWithdrawBlockMatcher(),
  EvaaLiquidateBlockMatcher: new EvaaLiquidateBlockMatcher(),
};
