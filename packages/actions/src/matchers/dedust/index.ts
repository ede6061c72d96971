// The DeDust family's matchers (the vault/pool protocol and CPMM v2: swaps, liquidity, claims), by
// toncenter's matcher name, and its post-processors.
import type { TracePostProcessor } from "../../engine/post-process.js";
import type { MatcherSet } from "../registry.js";
import { DedustV2ClaimFeesBlockMatcher, DedustV2ClaimRewardBlockMatcher } from "./claims-v2.js";
import { DedustDepositBlockMatcher, DedustDepositFirstAssetBlockMatcher, DedustWithdrawBlockMatcher, postProcessDedustLiquidity } from "./liquidity.js";
import {
  DedustV2DepositBlockMatcher,
  DedustV2DepositPartialBlockMatcher,
  DedustV2RejectedDepositBlockMatcher,
  DedustV2WithdrawBlockMatcher,
  postProcessDedustV2Liquidity,
} from "./liquidity-v2.js";
import { DedustSwapBlockMatcher } from "./swaps.js";
import { DedustV2FailedSwapBlockMatcher, DedustV2SwapBlockMatcher } from "./swaps-v2.js";

export const matchers: MatcherSet = {
  DedustDepositBlockMatcher: new DedustDepositBlockMatcher(),
  DedustDepositFirstAssetBlockMatcher: new DedustDepositFirstAssetBlockMatcher(),
  DedustWithdrawBlockMatcher: new DedustWithdrawBlockMatcher(),
  DedustSwapBlockMatcher: new DedustSwapBlockMatcher(),
  DedustV2SwapBlockMatcher: new DedustV2SwapBlockMatcher(),
  DedustV2FailedSwapBlockMatcher: new DedustV2FailedSwapBlockMatcher(),
  DedustV2WithdrawBlockMatcher: new DedustV2WithdrawBlockMatcher(),
  DedustV2DepositBlockMatcher: new DedustV2DepositBlockMatcher(),
  DedustV2RejectedDepositBlockMatcher: new DedustV2RejectedDepositBlockMatcher(),
  DedustV2DepositPartialBlockMatcher: new DedustV2DepositPartialBlockMatcher(),
  DedustV2ClaimFeesBlockMatcher: new DedustV2ClaimFeesBlockMatcher(),
  DedustV2ClaimRewardBlockMatcher: new DedustV2ClaimRewardBlockMatcher(),
};

/** In toncenter's order (v1 deposits first); they run before unwindDeployments. */
export const postProcessors: TracePostProcessor[] = [postProcessDedustLiquidity, postProcessDedustV2Liquidity];
