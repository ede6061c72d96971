// DeDust: swaps of the vault/pool protocol and of CPMM v2.
import type { MatcherSet } from "../registry.js";
import { DedustSwapBlockMatcher } from "./swaps.js";
import { DedustV2FailedSwapBlockMatcher, DedustV2SwapBlockMatcher } from "./swaps-v2.js";

export const matchers: MatcherSet = {
  DedustSwapBlockMatcher: new DedustSwapBlockMatcher(),
  DedustV2SwapBlockMatcher: new DedustV2SwapBlockMatcher(),
  DedustV2FailedSwapBlockMatcher: new DedustV2FailedSwapBlockMatcher(),
};
