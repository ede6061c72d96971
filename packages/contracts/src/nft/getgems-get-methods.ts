// getgems get-method results: a fixed-price sale's get_sale_data (v1's eight values, then the
// "FIXP" shape of v2 to v3r3), v3r3's get_fix_price_data and v4's get_fix_price_data_v4; an
// auction's get_sale_data ("AUC"), v3r3's get_auction_data and v4's get_auction_data_v4; an offer's
// get_offer_data and get_offer_data_v2 ("OFFER"). Flags are the contracts' -1/0 read as booleans.
import type { Address, Cell } from "@ton/core";
import { ContractDataError } from "../errors.js";
import { StackReader, type StackItem } from "../stack.js";

export const GETGEMS_MAGIC = { fixPriceSale: 0x46495850n, auction: 0x415543n, offer: 0x4f46464552n } as const;

function magic(s: StackReader, method: string, expected: bigint): void {
  const got = s.int(0);
  if (got !== expected) throw new ContractDataError(`${method}: magic 0x${got.toString(16)} is not 0x${expected.toString(16)}`);
}

/** get_sale_data of the first sale (v1): (marketplace, nft, nft_owner, full_price, marketplace_fee_address, marketplace_fee, royalty_address, royalty_amount). */
export interface NftSaleV1Data {
  marketplace: Address | null;
  nft: Address | null;
  /** null until the NFT reached the sale. */
  nftOwner: Address | null;
  fullPrice: bigint;
  marketplaceFeeAddress: Address | null;
  marketplaceFee: bigint;
  royaltyAddress: Address | null;
  royaltyAmount: bigint;
}

export function readNftSaleV1Data(stack: StackItem[]): NftSaleV1Data {
  const s = new StackReader("get_sale_data", stack, 8);
  return {
    marketplace: s.address(0),
    nft: s.address(1),
    nftOwner: s.address(2),
    fullPrice: s.int(3),
    marketplaceFeeAddress: s.address(4),
    marketplaceFee: s.int(5),
    royaltyAddress: s.address(6),
    royaltyAmount: s.int(7),
  };
}

/** get_sale_data of sales v2 to v3r3: ("FIXP", is_complete, created_at, then v1's eight values). */
export interface NftSaleData extends NftSaleV1Data {
  isComplete: boolean;
  createdAt: number;
}

export function readNftSaleData(stack: StackItem[]): NftSaleData {
  const s = new StackReader("get_sale_data", stack, 11);
  magic(s, "get_sale_data", GETGEMS_MAGIC.fixPriceSale);
  return {
    isComplete: s.int(1) !== 0n,
    createdAt: Number(s.int(2)),
    marketplace: s.address(3),
    nft: s.address(4),
    nftOwner: s.address(5),
    fullPrice: s.int(6),
    marketplaceFeeAddress: s.address(7),
    marketplaceFee: s.int(8),
    royaltyAddress: s.address(9),
    royaltyAmount: s.int(10),
  };
}

/** get_fix_price_data of sale v3r3: get_sale_data's values without the magic, then sold_at and the buy's query_id. */
export interface NftFixPriceData extends NftSaleData {
  soldAt: number;
  queryId: bigint;
}

export function readNftFixPriceData(stack: StackItem[]): NftFixPriceData {
  const s = new StackReader("get_fix_price_data", stack, 12);
  return {
    isComplete: s.int(0) !== 0n,
    createdAt: Number(s.int(1)),
    marketplace: s.address(2),
    nft: s.address(3),
    nftOwner: s.address(4),
    fullPrice: s.int(5),
    marketplaceFeeAddress: s.address(6),
    marketplaceFee: s.int(7),
    royaltyAddress: s.address(8),
    royaltyAmount: s.int(9),
    soldAt: Number(s.int(10)),
    queryId: s.int(11),
  };
}

/**
 * get_fix_price_data_v4 of sale v4r1: (is_complete, created_at, marketplace, nft, nft_owner,
 * full_price, fee_address, fee_percent, royalty_address, royalty_percent, sold_at, sold_query_id,
 * jetton_price_dict).
 */
export interface NftFixPriceDataV4 {
  isComplete: boolean;
  createdAt: number;
  marketplace: Address | null;
  nft: Address | null;
  nftOwner: Address | null;
  /** In nanotons. */
  fullPrice: bigint;
  marketplaceFeeAddress: Address | null;
  /** Percent × 100,000. */
  marketplaceFeePercent: number;
  royaltyAddress: Address | null;
  royaltyPercent: number;
  soldAt: number;
  soldQueryId: bigint;
  /** The jetton prices' dictionary (loadGetgemsJettonPrices reads it); null: TON only. */
  jettonPrices: Cell | null;
}

export function readNftFixPriceDataV4(stack: StackItem[]): NftFixPriceDataV4 {
  const s = new StackReader("get_fix_price_data_v4", stack, 13);
  return {
    isComplete: s.int(0) !== 0n,
    createdAt: Number(s.int(1)),
    marketplace: s.address(2),
    nft: s.address(3),
    nftOwner: s.address(4),
    fullPrice: s.int(5),
    marketplaceFeeAddress: s.address(6),
    marketplaceFeePercent: Number(s.int(7)),
    royaltyAddress: s.address(8),
    royaltyPercent: Number(s.int(9)),
    soldAt: Number(s.int(10)),
    soldQueryId: s.int(11),
    jettonPrices: s.optionalCell(12),
  };
}

/**
 * get_sale_data of auctions v1 to v3r3: ("AUC", end, end_time, marketplace, nft, nft_owner, last_bid,
 * last_member, min_step, marketplace_fee_address, marketplace_fee_factor, marketplace_fee_base,
 * royalty_address, royalty_factor, royalty_base, max_bid, min_bid, created_at, last_bid_at, is_canceled).
 */
export interface NftAuctionSaleData {
  end: boolean;
  endTime: number;
  marketplace: Address | null;
  nft: Address | null;
  nftOwner: Address | null;
  lastBid: bigint;
  lastMember: Address | null;
  /** v1, v2: nanotons; v3r2 and later: percent of the last bid. */
  minStep: bigint;
  marketplaceFeeAddress: Address | null;
  marketplaceFeeFactor: number;
  marketplaceFeeBase: number;
  royaltyAddress: Address | null;
  royaltyFactor: number;
  royaltyBase: number;
  /** 0: no buy-now price. */
  maxBid: bigint;
  minBid: bigint;
  createdAt: number;
  lastBidAt: number;
  isCanceled: boolean;
}

function auctionValues(s: StackReader, at: number): Omit<NftAuctionSaleData, "end"> {
  return {
    endTime: Number(s.int(at)),
    marketplace: s.address(at + 1),
    nft: s.address(at + 2),
    nftOwner: s.address(at + 3),
    lastBid: s.int(at + 4),
    lastMember: s.address(at + 5),
    minStep: s.int(at + 6),
    marketplaceFeeAddress: s.address(at + 7),
    marketplaceFeeFactor: Number(s.int(at + 8)),
    marketplaceFeeBase: Number(s.int(at + 9)),
    royaltyAddress: s.address(at + 10),
    royaltyFactor: Number(s.int(at + 11)),
    royaltyBase: Number(s.int(at + 12)),
    maxBid: s.int(at + 13),
    minBid: s.int(at + 14),
    createdAt: Number(s.int(at + 15)),
    lastBidAt: Number(s.int(at + 16)),
    isCanceled: s.int(at + 17) !== 0n,
  };
}

export function readNftAuctionSaleData(stack: StackItem[]): NftAuctionSaleData {
  const s = new StackReader("get_sale_data", stack, 20);
  magic(s, "get_sale_data", GETGEMS_MAGIC.auction);
  return { end: s.int(1) !== 0n, ...auctionValues(s, 2) };
}

/** get_auction_data of auction v3r3: (activated, then get_sale_data's values from end on, step_time, last_query_id); min_bid is the next bid's minimum once there is a bid. */
export interface NftAuctionData extends NftAuctionSaleData {
  activated: boolean;
  stepTime: number;
  lastQueryId: bigint;
}

function readAuctionData(method: string, stack: StackItem[], size: number): [StackReader, NftAuctionData] {
  const s = new StackReader(method, stack, size);
  return [s, { activated: s.int(0) !== 0n, end: s.int(1) !== 0n, ...auctionValues(s, 2), stepTime: Number(s.int(20)), lastQueryId: s.int(21) }];
}

export const readNftAuctionData = (stack: StackItem[]): NftAuctionData => readAuctionData("get_auction_data", stack, 22)[1];

/** get_auction_data_v4 of auction v4r1: get_auction_data's values, then jetton_wallet, jetton_master, is_broken_state, public_key. */
export interface NftAuctionDataV4 extends NftAuctionData {
  /** The auction's own wallet of the jetton it is sold for; null: TON. */
  jettonWallet: Address | null;
  jettonMaster: Address | null;
  /** Set while the jetton wallet is unknown, or when the fees leave the seller nothing. */
  isBrokenState: boolean;
  /** 0 when none. */
  publicKey: bigint;
}

export function readNftAuctionDataV4(stack: StackItem[]): NftAuctionDataV4 {
  const [s, d] = readAuctionData("get_auction_data_v4", stack, 26);
  return { ...d, jettonWallet: s.address(22), jettonMaster: s.address(23), isBrokenState: s.int(24) !== 0n, publicKey: s.int(25) };
}

/**
 * get_offer_data of offer v1r3: ("OFFER", is_complete, created_at, finish_at, marketplace, nft,
 * offer_owner, full_price, marketplace_fee_address, marketplace_factor, marketplace_base,
 * royalty_address, royalty_factor, royalty_base, profit_price).
 */
export interface NftOfferData {
  isComplete: boolean;
  createdAt: number;
  finishAt: number;
  marketplace: Address | null;
  nft: Address | null;
  offerOwner: Address | null;
  fullPrice: bigint;
  marketplaceFeeAddress: Address | null;
  marketplaceFactor: number;
  marketplaceBase: number;
  royaltyAddress: Address | null;
  royaltyFactor: number;
  royaltyBase: number;
  /** What the NFT's owner gets: the price less royalty and fee. */
  profitPrice: bigint;
}

function offerValues(s: StackReader, at: number): Omit<NftOfferData, "isComplete" | "createdAt" | "finishAt"> {
  return {
    marketplace: s.address(at),
    nft: s.address(at + 1),
    offerOwner: s.address(at + 2),
    fullPrice: s.int(at + 3),
    marketplaceFeeAddress: s.address(at + 4),
    marketplaceFactor: Number(s.int(at + 5)),
    marketplaceBase: Number(s.int(at + 6)),
    royaltyAddress: s.address(at + 7),
    royaltyFactor: Number(s.int(at + 8)),
    royaltyBase: Number(s.int(at + 9)),
    profitPrice: s.int(at + 10),
  };
}

export function readNftOfferData(stack: StackItem[]): NftOfferData {
  const s = new StackReader("get_offer_data", stack, 15);
  magic(s, "get_offer_data", GETGEMS_MAGIC.offer);
  return { isComplete: s.int(1) !== 0n, createdAt: Number(s.int(2)), finishAt: Number(s.int(3)), ...offerValues(s, 4) };
}

/** get_offer_data_v2: get_offer_data's values with swap_at after finish_at. */
export interface NftOfferDataV2 extends NftOfferData {
  swapAt: number;
}

export function readNftOfferDataV2(stack: StackItem[]): NftOfferDataV2 {
  const s = new StackReader("get_offer_data_v2", stack, 16);
  magic(s, "get_offer_data_v2", GETGEMS_MAGIC.offer);
  return { isComplete: s.int(1) !== 0n, createdAt: Number(s.int(2)), finishAt: Number(s.int(3)), swapAt: Number(s.int(4)), ...offerValues(s, 5) };
}
