// DeDust: swaps of the vault/pool protocol and of CPMM v2.
import type { MatcherSet } from "../registry.js";
import { DedustSwapBlockMatcher } from "./swaps.js";

export const matchers: MatcherSet = {
  DedustSwapBlockMatcher: new DedustSwapBlockMatcher(),
};
