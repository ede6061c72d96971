// The DeDust family's matchers, by toncenter's matcher name, and its post-processors.
import type { TracePostProcessor } from "../../engine/post-process.js";
import type { MatcherSet } from "../registry.js";
import { DedustDepositBlockMatcher, DedustDepositFirstAssetBlockMatcher, DedustWithdrawBlockMatcher, postProcessDedustLiquidity } from "./liquidity.js";
import { DedustV2ClaimFeesBlockMatcher, DedustV2ClaimRewardBlockMatcher } from "./claims-v2.js";
import {
  DedustV2DepositBlockMatcher,
  DedustV2DepositPartialBlockMatcher,
  DedustV2RejectedDepositBlockMatcher,
  DedustV2WithdrawBlockMatcher,
  postProcessDedustV2Liquidity,
} from "./liquidity-v2.js";

export const matchers: MatcherSet = {
  DedustDepositBlockMatcher: new DedustDepositBlockMatcher(),
  DedustDepositFirstAssetBlockMatcher: new DedustDepositFirstAssetBlockMatcher(),
  DedustWithdrawBlockMatcher: new DedustWithdrawBlockMatcher(),
  DedustV2WithdrawBlockMatcher: new DedustV2WithdrawBlockMatcher(),
  DedustV2DepositBlockMatcher: new DedustV2DepositBlockMatcher(),
  DedustV2RejectedDepositBlockMatcher: new DedustV2RejectedDepositBlockMatcher(),
  DedustV2DepositPartialBlockMatcher: new DedustV2DepositPartialBlockMatcher(),
  DedustV2ClaimFeesBlockMatcher: new DedustV2ClaimFeesBlockMatcher(),
  DedustV2ClaimRewardBlockMatcher: new DedustV2ClaimRewardBlockMatcher(),
};

/** In toncenter's order (v1 deposits first); they run before unwindDeployments. */
export const postProcessors: TracePostProcessor[] = [postProcessDedustLiquidity, postProcessDedustV2Liquidity];
