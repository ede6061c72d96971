// The elections family's matchers, by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import { ElectionDepositStakeBlockMatcher, ElectionRecoverStakeBlockMatcher } from "./elections.js";

export const matchers: MatcherSet = {
  ElectionDepositStakeBlockMatcher: new ElectionDepositStakeBlockMatcher(),
  ElectionRecoverStakeBlockMatcher: new ElectionRecoverStakeBlockMatcher(),
};
