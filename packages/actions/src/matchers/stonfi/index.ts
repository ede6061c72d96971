// STON.fi DEX: v1 and v2 swaps.
import type { MatcherSet } from "../registry.js";
import { StonfiSwapBlockMatcher } from "./swaps.js";

export const matchers: MatcherSet = {
  StonfiSwapBlockMatcher: new StonfiSwapBlockMatcher(),
};
