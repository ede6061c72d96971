// The auction family's matchers (getgems sales and auctions, Fragment teleitem auctions), by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import { AuctionBidMatcher, AuctionOutbidMatcher } from "./auction-bids.js";
import { NftPutOnSaleMatcher, NftUpdateSaleMatcher } from "./listings.js";
import { TeleitemCancelAuctionMatcher, TeleitemStartAuctionMatcher } from "./teleitem.js";
import { NftCancelAuctionMatcher, NftCancelSaleMatcher, NftFinishAuctionMatcher } from "./trades.js";

export const matchers: MatcherSet = {
  UpdateSaleMatcher: new NftUpdateSaleMatcher(),
  NftPutOnSaleBlockMatcher: new NftPutOnSaleMatcher(),
  TeleitemStartAuctionMatcher: new TeleitemStartAuctionMatcher(),
  TeleitemCancelAuctionMatcher: new TeleitemCancelAuctionMatcher(),
  AuctionBidMatcher: new AuctionBidMatcher(),
  AuctionOutbidMatcher: new AuctionOutbidMatcher(),
  NftCancelSaleMatcher: new NftCancelSaleMatcher(),
  NftFinishAuctionMatcher: new NftFinishAuctionMatcher(),
  NftCancelAuctionMatcher: new NftCancelAuctionMatcher(),
};
