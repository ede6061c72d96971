// The staking family's matchers (tonstakers, the TON nominator pool), by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import { NominatorPoolDepositMatcher, NominatorPoolWithdrawMatcher, NominatorPoolWithdrawRequestMatcher } from "./nominator-pool.js";
import { TONStakersDelayedWithdrawalMatcher, TONStakersDepositMatcher, TONStakersWithdrawMatcher } from "./tonstakers.js";

export const matchers: MatcherSet = {
  TONStakersDelayedWithdrawalMatcher: new TONStakersDelayedWithdrawalMatcher(),
  TONStakersDepositMatcher: new TONStakersDepositMatcher(),
  TONStakersWithdrawMatcher: new TONStakersWithdrawMatcher(),
  NominatorPoolDepositMatcher: new NominatorPoolDepositMatcher(),
  NominatorPoolWithdrawRequestMatcher: new NominatorPoolWithdrawRequestMatcher(),
  NominatorPoolWithdrawMatcher: new NominatorPoolWithdrawMatcher(),
};
