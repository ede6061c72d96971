// The tgBTC family's matchers, by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import {
  TgBTCBurnBlockMatcher,
  TgBTCBurnLogOnlyMatcher,
  TgBTCDkgLogOnlyMatcher,
  TgBTCMintBlockMatcher,
  TgBTCMintLogOnlyMatcher,
  TgBTCNewKeyBlockMatcher,
  TgBTCNewKeyLogOnlyMatcher,
} from "./tgbtc.js";

export const matchers: MatcherSet = {
  TgBTCMintBlockMatcher: new TgBTCMintBlockMatcher(),
  TgBTCBurnBlockMatcher: new TgBTCBurnBlockMatcher(),
  TgBTCNewKeyBlockMatcher: new TgBTCNewKeyBlockMatcher(),
  TgBTCMintLogOnlyMatcher: new TgBTCMintLogOnlyMatcher(),
  TgBTCBurnLogOnlyMatcher: new TgBTCBurnLogOnlyMatcher(),
  TgBTCNewKeyLogOnlyMatcher: new TgBTCNewKeyLogOnlyMatcher(),
  TgBTCDkgLogOnlyMatcher: new TgBTCDkgLogOnlyMatcher(),
};
