// Precompiled readers of NFT contracts: collections and items (getgems, token-contract, telemint),
// getgems sales, auctions, offers and the marketplace deployer. Each gives what the contract's
// get-methods answer, computed from the data cell as the contract computes it (the profit checks
// and next-bid minimum of the later getgems versions included); a get-method that throws on the
// data is a null.
import { beginCell, type Cell } from "@ton/core";
import type { ReadStateContext } from "../precompiled.js";
import type { NftAuctionData, NftAuctionDataV4, NftAuctionSaleData, NftFixPriceData, NftFixPriceDataV4, NftOfferData, NftOfferDataV2, NftSaleData, NftSaleV1Data } from "./getgems-get-methods.js";
import {
  loadGetgemsAuctionV1Storage,
  loadGetgemsAuctionV2Storage,
  loadGetgemsAuctionV3R3Storage,
  loadGetgemsAuctionV4Storage,
  loadGetgemsMarketplaceStorage,
  loadGetgemsOfferStorage,
  loadGetgemsSaleV1Storage,
  loadGetgemsSaleV2Storage,
  loadGetgemsSaleV3R3Storage,
  loadGetgemsSaleV3Storage,
  loadGetgemsSaleV4Storage,
  type GetgemsAuctionFees,
  type GetgemsSaleV2Storage,
} from "./getgems-storage.js";
import type { NftCollectionData, NftItemData } from "./get-methods.js";
import type { NftRoyaltyParams } from "./messages.js";
import { loadNftCollectionStorage, loadNftItemStorage, loadNftSingleStorage } from "./storage.js";
import type { TelemintAuctionConfig, TelemintAuctionState } from "./telemint-get-methods.js";
import { loadTelemintCollectionStorage, loadTeleitemStorage, type TeleitemStorage } from "./telemint-storage.js";

export interface NftCollectionState {
  kind: "nft_collection";
  collectionData: NftCollectionData;
}

/** A telemint item's own get-methods; each null when it throws (every one before the item is initialised; the auction state without an auction). */
export interface TelemintItemState {
  tokenName: Buffer | null;
  auctionState: TelemintAuctionState | null;
  auctionConfig: TelemintAuctionConfig | null;
  royaltyParams: NftRoyaltyParams | null;
}

/**
 * An item's get_nft_data. Its individual content is the item's; the full content is the
 * collection's get_nft_content of it (nftContentByCode reads that for the known collections).
 */
export interface NftItemState {
  kind: "nft_item";
  nftData: NftItemData;
  telemint?: TelemintItemState;
}

export interface NftSaleV1State {
  kind: "nft_sale_v1";
  saleData: NftSaleV1Data;
}

/** Sales v2 to v3r3. v3r3 throws (null) when the fees leave the seller nothing or an address is not a standard one. */
export interface NftSaleState {
  kind: "nft_sale";
  saleData: NftSaleData | null;
  /** v3r3 only. */
  fixPriceData?: NftFixPriceData | null;
}

export interface NftSaleV4State {
  kind: "nft_sale_v4";
  fixPriceDataV4: NftFixPriceDataV4;
}

/** Auctions v1 to v3r3. v3r3 throws (null) when the fees leave the seller nothing. */
export interface NftAuctionState {
  kind: "nft_auction";
  saleData: NftAuctionSaleData | null;
  /** v3r3 only. */
  auctionData?: NftAuctionData | null;
}

export interface NftAuctionV4State {
  kind: "nft_auction_v4";
  auctionDataV4: NftAuctionDataV4;
}

/** Offer v1r3: both throw (null) while can_deploy is set, or when the fees leave less than 0.005 TON. */
export interface NftOfferState {
  kind: "nft_offer";
  offerData: NftOfferData | null;
  offerDataV2: NftOfferDataV2 | null;
}

/** The marketplace deployer: seqno and get_public_key. */
export interface GetgemsMarketplaceState {
  kind: "getgems_marketplace";
  seqno: number;
  publicKey: bigint;
}

export type NftInterfaceState =
  | NftCollectionState
  | NftItemState
  | NftSaleV1State
  | NftSaleState
  | NftSaleV4State
  | NftAuctionState
  | NftAuctionV4State
  | NftOfferState
  | GetgemsMarketplaceState;

/** FunC's muldiv: floor(a × b / c). */
function muldiv(a: bigint, b: bigint, c: bigint): bigint {
  const p = a * b;
  const q = p / c;
  return p % c !== 0n && p < 0n !== c < 0n ? q - 1n : q;
}

const BN = (n: number) => BigInt(n);

// --- collections and items ---

function getgemsCollection(data: Cell): NftCollectionState {
  const st = loadNftCollectionStorage(data.beginParse());
  return { kind: "nft_collection", collectionData: { nextItemIndex: st.nextItemIndex, content: st.content.collectionContent, owner: st.ownerAddress } };
}

function getgemsItem(data: Cell): NftItemState {
  const st = loadNftItemStorage(data.beginParse());
  const i = st.init;
  return { kind: "nft_item", nftData: { init: i !== null, index: st.index, collection: st.collectionAddress, owner: i?.ownerAddress ?? null, individualContent: i?.content ?? null } };
}

/** nft-single.fc: (true, 0, addr_none, owner, content). */
function singleItem(data: Cell): NftItemState {
  const st = loadNftSingleStorage(data.beginParse());
  return { kind: "nft_item", nftData: { init: true, index: 0n, collection: null, owner: st.ownerAddress, individualContent: st.content } };
}

/** telemint collections: (-1, content, addr_none). */
function telemintCollection(data: Cell): NftCollectionState {
  const st = loadTelemintCollectionStorage(data.beginParse());
  return { kind: "nft_collection", collectionData: { nextItemIndex: -1n, content: st.content, owner: null } };
}

/** The cheap delayed item's longest auction: an end_time up to it is a duration that starts with the first bid. */
const TELEMINT_MAX_DURATION = 60 * 60 * 24 * 365;

function telemintItemState(st: TeleitemStorage, delayed: boolean): TelemintItemState {
  const s = st.state;
  if (!s) return { tokenName: null, auctionState: null, auctionConfig: null, royaltyParams: null };
  const a = s.auction;
  let auctionState: TelemintAuctionState | null = null;
  if (a) {
    const l = a.state.lastBid;
    const endTime = delayed && a.state.endTime <= TELEMINT_MAX_DURATION ? 2 ** 32 - 1 : a.state.endTime;
    auctionState = { bidder: l?.bidderAddress ?? null, bid: l?.bid ?? 0n, bidTs: l?.bidTs ?? 0, minBid: a.state.minBid, endTime };
  }
  const c = a?.config;
  const auctionConfig: TelemintAuctionConfig = c
    ? { beneficiary: c.beneficiaryAddress, initialMinBid: c.initialMinBid, maxBid: c.maxBid, minBidStep: c.minBidStep, minExtendTime: c.minExtendTime, duration: c.duration }
    : { beneficiary: null, initialMinBid: 0n, maxBid: 0n, minBidStep: 0, minExtendTime: 0, duration: 0 };
  return { tokenName: s.content.tokenInfo.name, auctionState, auctionConfig, royaltyParams: s.royaltyParams };
}

const telemintItem =
  (delayed: boolean) =>
  (data: Cell): NftItemState => {
    const st = loadTeleitemStorage(data.beginParse());
    const s = st.state;
    return {
      kind: "nft_item",
      nftData: { init: s !== null, index: st.itemIndex, collection: st.collectionAddress, owner: s?.ownerAddress ?? null, individualContent: s?.content.nftContent ?? null },
      telemint: telemintItemState(st, delayed),
    };
  };

// --- sales ---

function saleV1(data: Cell): NftSaleV1State {
  const st = loadGetgemsSaleV1Storage(data.beginParse());
  return {
    kind: "nft_sale_v1",
    saleData: { marketplace: st.marketplaceAddress, nft: st.nftAddress, nftOwner: st.nftOwnerAddress, fullPrice: st.fullPrice, ...st.fees },
  };
}

const saleData = (st: GetgemsSaleV2Storage): NftSaleData => ({
  isComplete: st.isComplete,
  createdAt: st.createdAt,
  marketplace: st.marketplaceAddress,
  nft: st.nftAddress,
  nftOwner: st.nftOwnerAddress,
  fullPrice: st.fullPrice,
  ...st.fees,
});

const saleV2 = (data: Cell): NftSaleState => ({ kind: "nft_sale", saleData: saleData(loadGetgemsSaleV2Storage(data.beginParse())) });
const saleV3 = (data: Cell): NftSaleState => ({ kind: "nft_sale", saleData: saleData(loadGetgemsSaleV3Storage(data.beginParse())) });

/** v3r3's get-methods throw unless the seller gets at least a nanoton and the marketplace, NFT and fee addresses are standard ones. */
function saleV3R3(data: Cell): NftSaleState {
  const st = loadGetgemsSaleV3R3Storage(data.beginParse());
  const f = st.fees;
  if (st.fullPrice - f.marketplaceFee - f.royaltyAmount < 1n || !st.marketplaceAddress || !st.nftAddress || !f.marketplaceFeeAddress) return { kind: "nft_sale", saleData: null, fixPriceData: null };
  const d = saleData(st);
  return { kind: "nft_sale", saleData: d, fixPriceData: { ...d, soldAt: st.soldAt, queryId: st.queryId } };
}

function saleV4(data: Cell): NftSaleV4State {
  const st = loadGetgemsSaleV4Storage(data.beginParse());
  const d = st.staticData;
  return {
    kind: "nft_sale_v4",
    fixPriceDataV4: {
      isComplete: st.isComplete,
      createdAt: d.createdAt,
      marketplace: st.marketplaceAddress,
      nft: d.nftAddress,
      nftOwner: st.nftOwnerAddress,
      fullPrice: st.fullPrice,
      marketplaceFeeAddress: d.marketplaceFeeAddress,
      marketplaceFeePercent: d.marketplaceFeePercent,
      royaltyAddress: d.royaltyAddress,
      royaltyPercent: d.royaltyPercent,
      soldAt: st.soldAt,
      soldQueryId: st.soldQueryId,
      jettonPrices: st.jettonPrices,
    },
  };
}

// --- auctions ---

const feeValues = (f: GetgemsAuctionFees) => ({
  marketplaceFeeAddress: f.marketplaceFeeAddress,
  marketplaceFeeFactor: f.marketplaceFeeFactor,
  marketplaceFeeBase: f.marketplaceFeeBase,
  royaltyAddress: f.royaltyAddress,
  royaltyFactor: f.royaltyFactor,
  royaltyBase: f.royaltyBase,
});

function auctionV1(data: Cell): NftAuctionState {
  const st = loadGetgemsAuctionV1Storage(data.beginParse());
  const b = st.bids;
  return {
    kind: "nft_auction",
    saleData: {
      end: st.end,
      endTime: b.endTime,
      marketplace: st.marketplaceAddress,
      nft: st.nftAddress,
      nftOwner: st.nftOwner,
      lastBid: b.lastBid,
      lastMember: b.lastMember,
      minStep: b.minStep,
      ...feeValues(st.fees),
      maxBid: b.maxBid,
      minBid: b.minBid,
      createdAt: st.createdAt,
      lastBidAt: b.lastBidAt,
      isCanceled: st.isCanceled,
    },
  };
}

function auctionV2(data: Cell): NftAuctionState {
  const st = loadGetgemsAuctionV2Storage(data.beginParse());
  const c = st.constants;
  return {
    kind: "nft_auction",
    saleData: {
      end: st.end,
      endTime: st.endTime,
      marketplace: c.marketplaceAddress,
      nft: c.nftAddress,
      nftOwner: st.nftOwner,
      lastBid: st.lastBid,
      lastMember: st.lastMember,
      minStep: c.minStep,
      ...feeValues(st.fees),
      maxBid: c.maxBid,
      minBid: c.minBid,
      createdAt: c.createdAt,
      lastBidAt: st.lastBidAt,
      isCanceled: st.isCanceled,
    },
  };
}

/** v3r3's math: a percent as two fixed-point steps of 10⁹, each rounded down. */
function percentV3R3(a: bigint, percent: bigint, factor: bigint): bigint {
  return factor === 0n ? 0n : muldiv(muldiv(a, percent, 1_000_000_000n), 1_000_000_000n, factor);
}

function auctionV3R3(data: Cell): NftAuctionState {
  const st = loadGetgemsAuctionV3R3Storage(data.beginParse());
  const [f, c] = [st.fees, st.constants];
  const amount = 1_000_000_000n;
  const profit = amount - percentV3R3(amount, BN(f.marketplaceFeeFactor), BN(f.marketplaceFeeBase)) - percentV3R3(amount, BN(f.royaltyFactor), BN(f.royaltyBase));
  if (profit < 1n) return { kind: "nft_auction", saleData: null, auctionData: null };
  const sale: NftAuctionSaleData = {
    end: st.end,
    endTime: st.endTime,
    marketplace: c.marketplaceAddress,
    nft: c.nftAddress,
    nftOwner: st.nftOwner,
    lastBid: st.lastBid,
    lastMember: st.lastMember,
    minStep: BN(c.minStep),
    ...feeValues(f),
    maxBid: c.maxBid,
    minBid: c.minBid,
    createdAt: c.createdAt,
    lastBidAt: st.lastBidAt,
    isCanceled: st.isCanceled,
  };
  const nextMinBid = st.lastBid > 0n ? max(st.lastBid + 100_000_000n, percentV3R3(st.lastBid, 100n + BN(c.minStep), 100n)) : c.minBid;
  return { kind: "nft_auction", saleData: sale, auctionData: { ...sale, activated: st.nftOwner !== null, minBid: nextMinBid, stepTime: c.stepTime, lastQueryId: st.lastQueryId } };
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);

function auctionV4(data: Cell): NftAuctionV4State {
  const st = loadGetgemsAuctionV4Storage(data.beginParse());
  const [f, c, j] = [st.fees, st.constants, st.jetton];
  const percent = (a: bigint, p: bigint, factor: bigint) => (factor === 0n ? 0n : muldiv(a, p, factor));
  const amount = 10_000_000_000n;
  const profitable = amount - percent(amount, BN(f.marketplaceFeeFactor), BN(f.marketplaceFeeBase)) - percent(amount, BN(f.royaltyFactor), BN(f.royaltyBase)) >= 1n;
  const jettonMode = j?.jettonWallet != null;
  const broken = (j !== null && ((j.jettonMaster !== null && !jettonMode) || j.publicKey !== null)) || !profitable;
  let minBid = c.minBid;
  if (st.lastBid > 0n) {
    const step = percent(st.lastBid, 100n + BN(c.minStep), 100n);
    minBid = jettonMode ? step : max(st.lastBid + 100_000_000n, step);
  }
  return {
    kind: "nft_auction_v4",
    auctionDataV4: {
      activated: st.nftOwner !== null,
      end: st.end,
      endTime: st.endTime,
      marketplace: c.marketplaceAddress,
      nft: c.nftAddress,
      nftOwner: st.nftOwner,
      lastBid: st.lastBid,
      lastMember: st.lastMember,
      minStep: BN(c.minStep),
      ...feeValues(f),
      maxBid: c.maxBid,
      minBid,
      createdAt: c.createdAt,
      lastBidAt: st.lastBidAt,
      isCanceled: st.isCanceled,
      stepTime: c.stepTime,
      lastQueryId: st.lastQueryId,
      jettonWallet: j?.jettonWallet ?? null,
      jettonMaster: j?.jettonMaster ?? null,
      isBrokenState: broken,
      publicKey: j?.publicKey ?? 0n,
    },
  };
}

// --- offers, the marketplace ---

/** The least the NFT's owner must get for get_offer_data to answer: 0.005 TON. */
const OFFER_MIN_PROFIT = 5_000_000n;

function offer(data: Cell): NftOfferState {
  const st = loadGetgemsOfferStorage(data.beginParse());
  const f = st.fees;
  const royalty = percentV3R3(st.fullPrice, BN(f.royaltyFactor), BN(f.royaltyBase));
  const fee = percentV3R3(st.fullPrice, BN(f.marketplaceFeeFactor), BN(f.marketplaceFeeBase));
  const profitPrice = st.fullPrice - royalty - fee;
  if (st.canDeploy || profitPrice < OFFER_MIN_PROFIT) return { kind: "nft_offer", offerData: null, offerDataV2: null };
  const d: NftOfferData = {
    isComplete: st.isComplete,
    createdAt: st.createdAt,
    finishAt: st.finishAt,
    marketplace: st.marketplaceAddress,
    nft: st.nftAddress,
    offerOwner: st.offerOwnerAddress,
    fullPrice: st.fullPrice,
    marketplaceFeeAddress: f.marketplaceFeeAddress,
    marketplaceFactor: f.marketplaceFeeFactor,
    marketplaceBase: f.marketplaceFeeBase,
    royaltyAddress: f.royaltyAddress,
    royaltyFactor: f.royaltyFactor,
    royaltyBase: f.royaltyBase,
    profitPrice,
  };
  return { kind: "nft_offer", offerData: d, offerDataV2: { ...d, swapAt: st.swapAt } };
}

function marketplace(data: Cell): GetgemsMarketplaceState {
  const st = loadGetgemsMarketplaceStorage(data.beginParse());
  return { kind: "getgems_marketplace", seqno: st.seqno, publicKey: BigInt(`0x${st.publicKey.toString("hex")}`) };
}

export const NFT_READERS: Record<string, (data: Cell, ctx: ReadStateContext) => NftInterfaceState> = {
  nft_collection_editable: getgemsCollection,
  nft_collection_tokencontract: getgemsCollection,
  nft_item: getgemsItem,
  nft_item_tokencontract: getgemsItem,
  nft_single: singleItem,
  telemint_collection: telemintCollection,
  telemint_collection_no_dns: telemintCollection,
  telemint_item: telemintItem(false),
  telemint_item_no_dns: telemintItem(false),
  telemint_item_no_dns_cheap: telemintItem(false),
  telemint_item_no_dns_cheap_delayed: telemintItem(true),
  nft_marketplace_getgems: marketplace,
  nft_sale_getgems_v1: saleV1,
  nft_sale_getgems_v2: saleV2,
  nft_sale_getgems_v3: saleV3,
  nft_sale_getgems_v3r2: saleV3,
  nft_sale_getgems_v3r3: saleV3R3,
  nft_sale_getgems_v4r1: saleV4,
  nft_auction_getgems_v1: auctionV1,
  nft_auction_getgems_v2: auctionV2,
  nft_auction_getgems_v3r2: auctionV2,
  nft_auction_getgems_v3r3: auctionV3R3,
  nft_auction_getgems_v4r1: auctionV4,
  nft_offer_getgems_v1r3: offer,
};

/**
 * A known collection's get_nft_content(index, individual_content), from the collection's data: the
 * getgems and token-contract collections put their common content before the item's (an off-chain
 * 0x01 tag, the common prefix, the item's content in a ref); telemint and .ton DNS collections give
 * the item's content as it is. null: the get-method throws (the common content leaves no room);
 * undefined: not a collection known here (run the get-method).
 */
export function nftContentByCode(collection: { name: string }, collectionData: Cell, individualContent: Cell): Cell | null | undefined {
  switch (collection.name) {
    case "nft_collection_editable":
    case "nft_collection_tokencontract": {
      const common = loadNftCollectionStorage(collectionData.beginParse()).content.commonContent;
      if (common.bits.length + 8 > 1023 || common.refs.length > 3) return null;
      return beginCell().storeUint(1, 8).storeSlice(common.beginParse()).storeRef(individualContent).endCell();
    }
    case "telemint_collection":
    case "telemint_collection_no_dns":
    case "dns_collection":
      return individualContent;
    default:
      return undefined;
  }
}
