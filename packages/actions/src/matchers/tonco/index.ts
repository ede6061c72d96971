// TONCO: swaps.
import type { MatcherSet } from "../registry.js";
import { ToncoSwapBlockMatcher } from "./swaps.js";

export const matchers: MatcherSet = {
  ToncoSwapBlockMatcher: new ToncoSwapBlockMatcher(),
};
