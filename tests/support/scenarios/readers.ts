// Readers of the getgems sale and auction and telemint get-method results the scenarios report
// (the stack layouts of getgems-io/nft-contracts nft-fixprice-sale-v3r3.fc and
// nft-auction-v3r3.func, TelegramMessenger/telemint nft-item.fc).
import { TupleReader, type Address, type TupleItem } from "@ton/core";

const address = (r: TupleReader): Address | null => r.readCellOpt()?.beginParse().loadMaybeAddress() ?? null;

/** get_sale_data of a fixed-price sale (v2 and later): ("FIXP", is_complete, created_at, marketplace, nft, owner, price, fees…). */
export interface NftSaleData {
  isComplete: boolean;
  createdAt: number;
  marketplaceAddress: Address | null;
  nftAddress: Address | null;
  /** addr_none until the item's transfer to the sale names its seller. */
  nftOwnerAddress: Address | null;
  fullPrice: bigint;
  marketplaceFeeAddress: Address | null;
  marketplaceFee: bigint;
  royaltyAddress: Address | null;
  royaltyAmount: bigint;
}

export const FIXP = 0x46495850n;
export const AUC = 0x415543n;

export function readNftSaleData(stack: TupleItem[]): NftSaleData {
  const r = new TupleReader(stack);
  const magic = r.readBigNumber();
  if (magic !== FIXP) throw new Error(`get_sale_data: magic 0x${magic.toString(16)} is not a fixed-price sale's`);
  return {
    isComplete: r.readBoolean(),
    createdAt: r.readNumber(),
    marketplaceAddress: address(r),
    nftAddress: address(r),
    nftOwnerAddress: address(r),
    fullPrice: r.readBigNumber(),
    marketplaceFeeAddress: address(r),
    marketplaceFee: r.readBigNumber(),
    royaltyAddress: address(r),
    royaltyAmount: r.readBigNumber(),
  };
}

/** get_auction_data of a v3r3 auction (22 entries). */
export interface NftAuctionData {
  activated: boolean;
  end: boolean;
  endTime: number;
  marketplaceAddress: Address | null;
  nftAddress: Address | null;
  nftOwner: Address | null;
  lastBid: bigint;
  lastMember: Address | null;
  minStep: number;
  marketplaceFeeAddress: Address | null;
  marketplaceFeeFactor: number;
  marketplaceFeeBase: number;
  royaltyAddress: Address | null;
  royaltyFactor: number;
  royaltyBase: number;
  maxBid: bigint;
  /** The next bid's minimum once there is a bid. */
  minBid: bigint;
  createdAt: number;
  lastBidAt: number;
  isCanceled: boolean;
  stepTime: number;
  lastQueryId: bigint;
}

export function readNftAuctionData(stack: TupleItem[]): NftAuctionData {
  const r = new TupleReader(stack);
  return {
    activated: r.readBoolean(),
    end: r.readBoolean(),
    endTime: r.readNumber(),
    marketplaceAddress: address(r),
    nftAddress: address(r),
    nftOwner: address(r),
    lastBid: r.readBigNumber(),
    lastMember: address(r),
    minStep: r.readNumber(),
    marketplaceFeeAddress: address(r),
    marketplaceFeeFactor: r.readNumber(),
    marketplaceFeeBase: r.readNumber(),
    royaltyAddress: address(r),
    royaltyFactor: r.readNumber(),
    royaltyBase: r.readNumber(),
    maxBid: r.readBigNumber(),
    minBid: r.readBigNumber(),
    createdAt: r.readNumber(),
    lastBidAt: r.readNumber(),
    isCanceled: r.readBoolean(),
    stepTime: r.readNumber(),
    lastQueryId: r.readBigNumber(),
  };
}

/** get_telemint_auction_state: (bidder, bid, bid_ts, min_bid, end_time). */
export interface TelemintAuctionState {
  bidder: Address | null;
  bid: bigint;
  bidTs: number;
  minBid: bigint;
  endTime: number;
}

export function readTelemintAuctionState(stack: TupleItem[]): TelemintAuctionState {
  const r = new TupleReader(stack);
  return { bidder: address(r), bid: r.readBigNumber(), bidTs: r.readNumber(), minBid: r.readBigNumber(), endTime: r.readNumber() };
}

/** get_telemint_token_name: the name's bytes (a slice). */
export function readTelemintTokenName(stack: TupleItem[]): string {
  const s = new TupleReader(stack).readCell().beginParse();
  return s.loadBuffer(s.remainingBits / 8).toString("utf8");
}

/** get_telemint_auction_config: beneficiary null when the item has no auction. */
export interface TelemintAuctionConfig {
  beneficiary: Address | null;
  initialMinBid: bigint;
  maxBid: bigint;
  minBidStep: number;
  minExtendTime: number;
  duration: number;
}

export function readTelemintAuctionConfig(stack: TupleItem[]): TelemintAuctionConfig {
  const r = new TupleReader(stack);
  return { beneficiary: address(r), initialMinBid: r.readBigNumber(), maxBid: r.readBigNumber(), minBidStep: r.readNumber(), minExtendTime: r.readNumber(), duration: r.readNumber() };
}

/** royalty_params: (numerator, denominator, destination). */
export interface RoyaltyParams {
  numerator: number;
  denominator: number;
  destination: Address | null;
}

export function readRoyaltyParams(stack: TupleItem[]): RoyaltyParams {
  const r = new TupleReader(stack);
  return { numerator: r.readNumber(), denominator: r.readNumber(), destination: address(r) };
}
