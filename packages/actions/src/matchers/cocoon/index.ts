// The Cocoon family's matchers, by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import {
  cocoonClientChangeSecretHashMatcher,
  cocoonClientIncreaseStakeMatcher,
  cocoonClientRegisterMatcher,
  cocoonClientRequestRefundMatcher,
  cocoonClientTopUpMatcher,
  cocoonClientWithdrawMatcher,
  cocoonRegisterProxyMatcher,
  cocoonUnregisterProxyMatcher,
} from "./client.js";
import { CocoonGrantRefundMatcher, CocoonProxyChargeMatcher, CocoonProxyPayoutMatcher, CocoonWorkerPayoutMatcher } from "./payouts.js";

export const matchers: MatcherSet = {
  CocoonWorkerPayoutMatcher: new CocoonWorkerPayoutMatcher(),
  CocoonProxyPayoutMatcher: new CocoonProxyPayoutMatcher(),
  CocoonProxyChargeMatcher: new CocoonProxyChargeMatcher(),
  CocoonClientTopUpMatcher: cocoonClientTopUpMatcher(),
  CocoonRegisterProxyMatcher: cocoonRegisterProxyMatcher(),
  CocoonUnregisterProxyMatcher: cocoonUnregisterProxyMatcher(),
  CocoonClientRegisterMatcher: cocoonClientRegisterMatcher(),
  CocoonClientChangeSecretHashMatcher: cocoonClientChangeSecretHashMatcher(),
  CocoonClientRequestRefundMatcher: cocoonClientRequestRefundMatcher(),
  CocoonGrantRefundMatcher: new CocoonGrantRefundMatcher(),
  CocoonClientIncreaseStakeMatcher: cocoonClientIncreaseStakeMatcher(),
  CocoonClientWithdrawMatcher: cocoonClientWithdrawMatcher(),
};
