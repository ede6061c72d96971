// Data cells and message bodies of the getgems sale and auction (v3r3) and of telemint that the
// scenarios deploy and send. @tongate/contracts gets loaders and storers of these contracts of its
// own; these have the same names and shapes so that the scenarios can take the package's instead.
// Layouts: getgems-io/nft-contracts sources/nft-fixprice-sale-v3r3.fc, nft-auction-v3r3.func;
// TelegramMessenger/telemint telemint.tlb, func/common.fc.
import { beginCell, type Address, type Builder, type Cell } from "@ton/core";
import { storeNftRoyaltyParams, storeTextComment, type NftRoyaltyParams } from "@tongate/contracts";

// ---- getgems fixed-price sale v3r3 ------------------------------------------

/** A fixed-price sale's fees: absolute amounts in nanotons. */
export interface GetgemsSaleFees {
  marketplaceFeeAddress: Address | null;
  marketplaceFee: bigint;
  royaltyAddress: Address | null;
  royaltyAmount: bigint;
}

/**
 * is_complete:uint1 created_at:uint32 marketplace_address:MsgAddress nft_address:MsgAddress
 * nft_owner_address:MsgAddress full_price:Coins fees:^[marketplace_fee_address:MsgAddress
 * marketplace_fee:Coins royalty_address:MsgAddress royalty_amount:Coins] sold_at:uint32 query_id:uint64.
 * The owner is addr_none until the item's ownership_assigned names the seller.
 */
export interface GetgemsSaleV3R3Storage {
  isComplete: boolean;
  createdAt: number;
  marketplaceAddress: Address | null;
  nftAddress: Address | null;
  nftOwnerAddress: Address | null;
  fullPrice: bigint;
  fees: GetgemsSaleFees;
  soldAt: number;
  queryId: bigint;
}

export const storeGetgemsSaleV3R3Storage = (src: GetgemsSaleV3R3Storage) => (b: Builder) =>
  b
    .storeBit(src.isComplete)
    .storeUint(src.createdAt, 32)
    .storeAddress(src.marketplaceAddress)
    .storeAddress(src.nftAddress)
    .storeAddress(src.nftOwnerAddress)
    .storeCoins(src.fullPrice)
    .storeRef(beginCell().storeAddress(src.fees.marketplaceFeeAddress).storeCoins(src.fees.marketplaceFee).storeAddress(src.fees.royaltyAddress).storeCoins(src.fees.royaltyAmount))
    .storeUint(src.soldAt, 32)
    .storeUint(src.queryId, 64);

/** The sale's opcodes (a buy carries the price plus at least 0.1 TON). */
export const GETGEMS_SALE_OPS = { acceptCoins: 1, buy: 2, cancel: 3 } as const;

/** op:uint32 query_id:uint64: the sale's accept_coins (its deploy), buy and cancel. */
export const storeGetgemsSaleOp = (op: number, queryId: bigint) => (b: Builder) => b.storeUint(op, 32).storeUint(queryId, 64);

// ---- getgems auction v3r3 ---------------------------------------------------

/** An auction's fees: factor/base fractions of the final bid. */
export interface GetgemsAuctionFees {
  marketplaceFeeAddress: Address | null;
  marketplaceFeeFactor: number;
  marketplaceFeeBase: number;
  royaltyAddress: Address | null;
  royaltyFactor: number;
  royaltyBase: number;
}

/** mp_addr:MsgAddress min_bid:Coins max_bid:Coins min_step:uint7 step_time:uint17 nft_addr:MsgAddress created_at:uint32. */
export interface GetgemsAuctionConstants {
  marketplaceAddress: Address | null;
  minBid: bigint;
  /** 0: no buy-out price. */
  maxBid: bigint;
  /** Percent of the last bid a new bid adds at least. */
  minStep: number;
  stepTime: number;
  nftAddress: Address | null;
  createdAt: number;
}

/**
 * end:int1 is_canceled:int1 last_member:MsgAddress last_bid:Coins last_bid_at:uint32 end_time:uint32
 * nft_owner:MsgAddress last_query_id:uint64 mp_fee_factor:uint32 mp_fee_base:uint32
 * royalty_fee_factor:uint32 royalty_fee_base:uint32 fees:^[mp_fee_addr royalty_fee_addr]
 * constants:^GetgemsAuctionConstants. Activated once the item's ownership_assigned names an owner.
 */
export interface GetgemsAuctionV3R3Storage {
  end: boolean;
  isCanceled: boolean;
  lastMember: Address | null;
  lastBid: bigint;
  lastBidAt: number;
  endTime: number;
  nftOwner: Address | null;
  lastQueryId: bigint;
  fees: GetgemsAuctionFees;
  constants: GetgemsAuctionConstants;
}

export function storeGetgemsAuctionV3R3Storage(src: GetgemsAuctionV3R3Storage): (b: Builder) => void {
  const f = src.fees;
  const c = src.constants;
  return (b) =>
    b
      .storeBit(src.end)
      .storeBit(src.isCanceled)
      .storeAddress(src.lastMember)
      .storeCoins(src.lastBid)
      .storeUint(src.lastBidAt, 32)
      .storeUint(src.endTime, 32)
      .storeAddress(src.nftOwner)
      .storeUint(src.lastQueryId, 64)
      .storeUint(f.marketplaceFeeFactor, 32)
      .storeUint(f.marketplaceFeeBase, 32)
      .storeUint(f.royaltyFactor, 32)
      .storeUint(f.royaltyBase, 32)
      .storeRef(beginCell().storeAddress(f.marketplaceFeeAddress).storeAddress(f.royaltyAddress))
      .storeRef(beginCell().storeAddress(c.marketplaceAddress).storeCoins(c.minBid).storeCoins(c.maxBid).storeUint(c.minStep, 7).storeUint(c.stepTime, 17).storeAddress(c.nftAddress).storeUint(c.createdAt, 32));
}

/**
 * The auction's commands are text comments: "deploy" (accept coins), "stop" (settle once ended),
 * "cancel"; a bid is any other message with enough TON.
 */
export const getgemsAuctionCommand = (command: "deploy" | "stop" | "cancel"): Cell => beginCell().store(storeTextComment({ text: command })).endCell();

// ---- telemint ---------------------------------------------------------------

/** telemint_text$_ len:(## 8) text:(bits (len * 8)). */
export const storeTelemintText = (text: Buffer) => (b: Builder) => b.storeUint(text.length, 8).storeBuffer(text);

/**
 * telemint_data$_ touched:Bool subwallet_id:uint32 public_key:bits256 collection_content:^Cell
 * nft_item_code:^Cell full_domain:^TelemintText royalty_params:^NftRoyaltyParams.
 */
export interface TelemintCollectionStorage {
  touched: boolean;
  subwalletId: number;
  /** The key that signs deploys. */
  publicKey: Buffer;
  content: Cell;
  nftItemCode: Cell;
  /** e.g. "me\0t\0" (reversed labels, each ended by a zero byte). */
  fullDomain: Buffer;
  royaltyParams: NftRoyaltyParams;
}

export const storeTelemintCollectionStorage = (src: TelemintCollectionStorage) => (b: Builder) =>
  b
    .storeBit(src.touched)
    .storeUint(src.subwalletId, 32)
    .storeBuffer(src.publicKey, 32)
    .storeRef(src.content)
    .storeRef(src.nftItemCode)
    .storeRef(beginCell().store(storeTelemintText(src.fullDomain)))
    .storeRef(beginCell().store(storeNftRoyaltyParams(src.royaltyParams)));

/**
 * teleitem_auction_config$_ beneficiary_address:MsgAddressInt initial_min_bid:Grams max_bid:Grams
 * min_bid_step:uint8 min_extend_time:uint32 duration:uint32.
 */
export interface TeleitemAuctionConfig {
  beneficiaryAddress: Address | null;
  initialMinBid: bigint;
  /** 0: no buy-out price. */
  maxBid: bigint;
  minBidStep: number;
  minExtendTime: number;
  duration: number;
}

export const storeTeleitemAuctionConfig = (src: TeleitemAuctionConfig) => (b: Builder) =>
  b.storeAddress(src.beneficiaryAddress).storeCoins(src.initialMinBid).storeCoins(src.maxBid).storeUint(src.minBidStep, 8).storeUint(src.minExtendTime, 32).storeUint(src.duration, 32);

/**
 * telemint_unsigned_deploy$_ subwallet_id:uint32 valid_since:uint32 valid_till:uint32
 * token_name:TelemintText content:^Cell auction_config:^TeleitemAuctionConfig
 * royalty_params:(Maybe ^NftRoyaltyParams): what the collection's key signs.
 */
export interface TelemintUnsignedDeploy {
  subwalletId: number;
  validSince: number;
  validTill: number;
  tokenName: Buffer;
  content: Cell;
  auctionConfig: TeleitemAuctionConfig;
  royaltyParams: NftRoyaltyParams | null;
}

export const storeTelemintUnsignedDeploy = (src: TelemintUnsignedDeploy) => (b: Builder) =>
  b
    .storeUint(src.subwalletId, 32)
    .storeUint(src.validSince, 32)
    .storeUint(src.validTill, 32)
    .store(storeTelemintText(src.tokenName))
    .storeRef(src.content)
    .storeRef(beginCell().store(storeTeleitemAuctionConfig(src.auctionConfig)))
    .storeMaybeRef(src.royaltyParams ? beginCell().store(storeNftRoyaltyParams(src.royaltyParams)) : null);

export const TELEMINT_MSG_DEPLOY = 0x4637289a;

/** telemint_msg_deploy#4637289a sig:bits512 msg:TelemintUnsignedDeploy; `signature` signs the hash of `unsigned`'s cell. */
export const storeTelemintMsgDeploy = (signature: Buffer, unsigned: Cell) => (b: Builder) => b.storeUint(TELEMINT_MSG_DEPLOY, 32).storeBuffer(signature, 64).storeSlice(unsigned.beginParse());
