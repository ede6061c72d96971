// The LayerZero family's matchers, by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import { LayerZeroCommitPacketMatcher, LayerZeroDvnVerifyMatcher, LayerZeroReceiveMatcher } from "./receive.js";
import { LayerZeroSendMatcher, LayerZeroSendTokensMatcher } from "./send.js";

export const matchers: MatcherSet = {
  LayerZeroSendMatcher: new LayerZeroSendMatcher(),
  LayerZeroSendTokensMatcher: new LayerZeroSendTokensMatcher(),
  LayerZeroReceiveMatcher: new LayerZeroReceiveMatcher(),
  LayerZeroCommitPacketMatcher: new LayerZeroCommitPacketMatcher(),
  LayerZeroDvnVerifyMatcher: new LayerZeroDvnVerifyMatcher(),
};
