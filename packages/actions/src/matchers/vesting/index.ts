// The vesting family's matchers, by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import { VestingAddWhiteListBlockMatcher, VestingSendMessageBlockMatcher } from "./vesting.js";

export const matchers: MatcherSet = {
  VestingSendMessageBlockMatcher: new VestingSendMessageBlockMatcher(),
  VestingAddWhiteListBlockMatcher: new VestingAddWhiteListBlockMatcher(),
};
