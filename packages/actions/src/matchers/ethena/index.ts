// The Ethena family's matchers, by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import { EthenaDepositBlockMatcher, EthenaWithdrawalRequestBlockMatcher } from "./ethena.js";

export const matchers: MatcherSet = {
  EthenaWithdrawalRequestBlockMatcher: new EthenaWithdrawalRequestBlockMatcher(),
  EthenaDepositBlockMatcher: new EthenaDepositBlockMatcher(),
};
