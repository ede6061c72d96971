// STON.fi DEX: v1 and v2 swaps.
import type { MatcherSet } from "../registry.js";
import { StonfiSwapBlockMatcher } from "./swaps.js";
import { StonfiV2SwapBlockMatcher } from "./swaps-v2.js";

export const matchers: MatcherSet = {
  StonfiSwapBlockMatcher: new StonfiSwapBlockMatcher(),
  StonfiV2SwapBlockMatcher: new StonfiV2SwapBlockMatcher(),
};
