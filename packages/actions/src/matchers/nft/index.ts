// The nft family's matchers (TEP-62 items: mint, transfer, purchases, discovery), by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import { NftDiscoveryMatcher } from "./discovery.js";
import { NftMintMatcher } from "./mint.js";
import { GetgemsNftPurchaseMatcher } from "./purchase.js";
import { NftTransferMatcher, TelegramNftPurchaseMatcher } from "./transfer.js";

export const matchers: MatcherSet = {
  NftMintBlockMatcher: new NftMintMatcher(),
  NftTransferBlockMatcher: new NftTransferMatcher(),
  TelegramNftPurchaseBlockMatcher: new TelegramNftPurchaseMatcher(),
  GetgemsNftPurchaseBlockMatcher: new GetgemsNftPurchaseMatcher(),
  NftDiscoveryBlockMatcher: new NftDiscoveryMatcher(),
};
