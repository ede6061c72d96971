// The order matchers run in: toncenter's (event_processing.py `matchers`). Each matcher runs over
// the whole graph before the next one starts, so an earlier matcher claims the blocks a later one
// would also match (e.g. a tonstakers deposit before the jetton mint inside it). Families register
// their matchers under these names in their folder's index.ts; a name nobody registered is
// skipped (the DeFi families come later).
import type { BlockMatcher } from "../engine/matcher.js";
import type { TracePostProcessor } from "../engine/post-process.js";
import { matchers as auction } from "./auction/index.js";
import { matchers as cocoon } from "./cocoon/index.js";
import { matchers as coffee } from "./coffee/index.js";
import { matchers as dedust, postProcessors as dedustPostProcessors } from "./dedust/index.js";
import { matchers as dns } from "./dns/index.js";
import { matchers as elections } from "./elections/index.js";
import { matchers as ethena } from "./ethena/index.js";
import { matchers as evaa } from "./evaa/index.js";
import { matchers as jettons, failedExternalMatchers } from "./jettons/index.js";
import { matchers as jvault } from "./jvault/index.js";
import { matchers as layerzero } from "./layerzero/index.js";
import { matchers as multisig } from "./multisig/index.js";
import { matchers as nft } from "./nft/index.js";
import type { MatcherSet } from "./registry.js";
import { matchers as staking } from "./staking/index.js";
import { matchers as stonfi } from "./stonfi/index.js";
import { matchers as subscriptions } from "./subscriptions/index.js";
import { matchers as tgbtc } from "./tgbtc/index.js";
import { matchers as tonco } from "./tonco/index.js";
import { matchers as vesting } from "./vesting/index.js";

export const MATCHER_ORDER = [
  "NftMintBlockMatcher",
  "TONStakersDelayedWithdrawalMatcher",
  "DedustDepositBlockMatcher",
  "DedustDepositFirstAssetBlockMatcher",
  "TONStakersDepositMatcher",
  "TONStakersWithdrawMatcher",
  "MultisigCreateOrderBlockMatcher",
  "MultisigApproveBlockMatcher",
  "MultisigExecuteBlockMatcher",
  "VestingSendMessageBlockMatcher",
  "VestingAddWhiteListBlockMatcher",
  "NominatorPoolDepositMatcher",
  "NominatorPoolWithdrawRequestMatcher",
  "NominatorPoolWithdrawMatcher",
  "JettonTransferBlockMatcher",
  "PTonTransferMatcher",
  "DedustWithdrawBlockMatcher",
  "JettonBurnBlockMatcher",
  "DedustSwapBlockMatcher",
  // DeDust v2 (toncenter's dedust_v2.matchers(), in their order)
  "DedustV2SwapBlockMatcher",
  "DedustV2FailedSwapBlockMatcher",
  "DedustV2WithdrawBlockMatcher",
  "DedustV2DepositBlockMatcher",
  "DedustV2RejectedDepositBlockMatcher",
  "DedustV2DepositPartialBlockMatcher",
  "DedustV2ClaimFeesBlockMatcher",
  "DedustV2ClaimRewardBlockMatcher",
  "StonfiSwapBlockMatcher",
  "StonfiV2SwapBlockMatcher",
  "ToncoSwapBlockMatcher",
  "DnsReleaseMatcher",
  "DnsPurchaseMatcher",
  "UpdateSaleMatcher",
  "NftTransferBlockMatcher",
  "TelegramNftPurchaseBlockMatcher",
  "GetgemsNftPurchaseBlockMatcher",
  "NftPutOnSaleBlockMatcher",
  "TeleitemStartAuctionMatcher",
  "TeleitemCancelAuctionMatcher",
  "NftDiscoveryBlockMatcher",
  "ChangeDnsRecordMatcher",
  "ElectionDepositStakeBlockMatcher",
  "ElectionRecoverStakeBlockMatcher",
  "SubscriptionBlockMatcher",
  "UnsubscribeBlockMatcher",
  "AuctionBidMatcher",
  "AuctionOutbidMatcher",
  "NftCancelSaleMatcher",
  "NftFinishAuctionMatcher",
  "NftCancelAuctionMatcher",
  "EthenaWithdrawalRequestBlockMatcher",
  "JettonMintBlockMatcher",
  "EthenaDepositBlockMatcher",
  "StonfiV2ProvideLiquidityMatcher",
  "StonfiV2WithdrawLiquidityMatcher",
  "JVaultStakeBlockMatcher",
  "JVaultUnstakeBlockMatcher",
  "JVaultClaimBlockMatcher",
  "JVaultUnstakeRequestBlockMatcher",
  "EvaaSupplyBlockMatcher",
  "EvaaWithdrawBlockMatcher",
  "EvaaLiquidateBlockMatcher",
  "TgBTCMintBlockMatcher",
  "TgBTCBurnBlockMatcher",
  "TgBTCNewKeyBlockMatcher",
  "TgBTCMintLogOnlyMatcher",
  "TgBTCBurnLogOnlyMatcher",
  "TgBTCNewKeyLogOnlyMatcher",
  "TgBTCDkgLogOnlyMatcher",
  "ToncoDepositLiquidityMatcher",
  "ToncoDeployPoolBlockMatcher",
  "ToncoWithdrawLiquidityMatcher",
  "CoffeeDepositLiquidityMatcher",
  "CoffeeSwapBlockMatcher",
  "CoffeeWithdrawLiquidityMatcher",
  "CoffeeCreateVaultMatcher",
  "CoffeeCreatePoolCreatorMatcher",
  "CoffeeCreatePoolMatcher",
  "CoffeeMevProtectHoldFundsMatcher",
  "CoffeeMevProtectFailedSwapMatcher",
  "CoffeeStakingDepositMatcher",
  "CoffeeStakingWithdrawMatcher",
  "CoffeeStakingClaimRewardsMatcher",
  "LayerZeroSendMatcher",
  "LayerZeroSendTokensMatcher",
  "LayerZeroReceiveMatcher",
  "LayerZeroCommitPacketMatcher",
  "LayerZeroDvnVerifyMatcher",
  "CocoonWorkerPayoutMatcher",
  "CocoonProxyPayoutMatcher",
  "CocoonProxyChargeMatcher",
  "CocoonClientTopUpMatcher",
  "CocoonRegisterProxyMatcher",
  "CocoonUnregisterProxyMatcher",
  "CocoonClientRegisterMatcher",
  "CocoonClientChangeSecretHashMatcher",
  "CocoonClientRequestRefundMatcher",
  "CocoonGrantRefundMatcher",
  "CocoonClientIncreaseStakeMatcher",
  "CocoonClientWithdrawMatcher",
] as const;

export type MatcherName = (typeof MATCHER_ORDER)[number];

const FAMILIES: MatcherSet[] = [jettons, nft, dns, auction, subscriptions, staking, elections, ethena, vesting, multisig, cocoon, layerzero, stonfi, dedust, tonco, coffee, jvault, evaa, tgbtc];

/** The families' passes over the finished graph, in toncenter's order (before unwindDeployments). */
export const POST_PROCESSORS: readonly TracePostProcessor[] = [...dedustPostProcessors];

function registered(): Map<MatcherName, BlockMatcher> {
  const all = new Map<MatcherName, BlockMatcher>();
  for (const family of FAMILIES) {
    for (const name of MATCHER_ORDER) {
      const m = family[name];
      if (m === undefined) continue;
      if (all.has(name)) throw new Error(`matcher ${name} is registered twice`);
      all.set(name, m);
    }
  }
  return all;
}

const REGISTERED = registered();

/** The matchers in the order they run. */
export const MATCHERS: readonly BlockMatcher[] = MATCHER_ORDER.flatMap((n) => {
  const m = REGISTERED.get(n);
  return m ? [m] : [];
});

/** The names in MATCHER_ORDER nobody registered yet. */
export const UNREGISTERED_MATCHERS: readonly MatcherName[] = MATCHER_ORDER.filter((n) => !REGISTERED.has(n));

/** What runs on the ghost messages of a failed wallet external. */
export const MATCHERS_FOR_FAILED_EXTERNALS: readonly BlockMatcher[] = failedExternalMatchers;
