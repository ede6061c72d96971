// getgems marketplace data cells (getgems-io/nft-contracts sources/*.fc load_data / init_data): the
// marketplace deployer, the fixed-price sales v1 to v4r1, the auctions v1 to v4r1 and the offer v1r3.
// A sale's or auction's nft_owner is addr_none (null) until the NFT's ownership_assigned reaches it.
// Dictionaries a get-method returns as they are (v4's jetton prices) stay cells, so that a reader
// gives the very cell the contract would.
import { beginCell, Dictionary, type Address, type Builder, type Cell, type DictionaryValue, type Slice } from "@ton/core";

/** The marketplace deployer (nft-marketplace-v2.fc, a wallet v3 that deploys sales): seqno:uint32 subwallet:uint32 public_key:bits256. */
export interface GetgemsMarketplaceStorage {
  seqno: number;
  subwallet: number;
  publicKey: Buffer;
}

export const loadGetgemsMarketplaceStorage = (s: Slice): GetgemsMarketplaceStorage => ({ seqno: s.loadUint(32), subwallet: s.loadUint(32), publicKey: s.loadBuffer(32) });
export const storeGetgemsMarketplaceStorage = (src: GetgemsMarketplaceStorage) => (b: Builder) => b.storeUint(src.seqno, 32).storeUint(src.subwallet, 32).storeBuffer(src.publicKey, 32);

/** A fixed-price sale's fees: absolute amounts in nanotons. */
export interface GetgemsSaleFees {
  marketplaceFeeAddress: Address | null;
  marketplaceFee: bigint;
  royaltyAddress: Address | null;
  royaltyAmount: bigint;
}

/**
 * Sale v1 (nft-fixprice-sale.fc): marketplace_address:MsgAddress nft_address:MsgAddress
 * nft_owner_address:MsgAddress full_price:Coins fees:^[marketplace_fee:Coins
 * marketplace_fee_address:MsgAddress royalty_address:MsgAddress royalty_amount:Coins].
 */
export interface GetgemsSaleV1Storage {
  marketplaceAddress: Address | null;
  nftAddress: Address | null;
  nftOwnerAddress: Address | null;
  fullPrice: bigint;
  fees: GetgemsSaleFees;
}

export function loadGetgemsSaleV1Storage(s: Slice): GetgemsSaleV1Storage {
  const [marketplaceAddress, nftAddress, nftOwnerAddress, fullPrice] = [s.loadMaybeAddress(), s.loadMaybeAddress(), s.loadMaybeAddress(), s.loadCoins()];
  const f = s.loadRef().beginParse();
  const marketplaceFee = f.loadCoins();
  return { marketplaceAddress, nftAddress, nftOwnerAddress, fullPrice, fees: { marketplaceFeeAddress: f.loadMaybeAddress(), marketplaceFee, royaltyAddress: f.loadMaybeAddress(), royaltyAmount: f.loadCoins() } };
}

export const storeGetgemsSaleV1Storage = (src: GetgemsSaleV1Storage) => (b: Builder) =>
  b
    .storeAddress(src.marketplaceAddress)
    .storeAddress(src.nftAddress)
    .storeAddress(src.nftOwnerAddress)
    .storeCoins(src.fullPrice)
    .storeRef(beginCell().storeCoins(src.fees.marketplaceFee).storeAddress(src.fees.marketplaceFeeAddress).storeAddress(src.fees.royaltyAddress).storeCoins(src.fees.royaltyAmount));

/** v2 and later: marketplace_fee_address:MsgAddress marketplace_fee:Coins royalty_address:MsgAddress royalty_amount:Coins. */
const loadSaleFees = (f: Slice): GetgemsSaleFees => ({ marketplaceFeeAddress: f.loadMaybeAddress(), marketplaceFee: f.loadCoins(), royaltyAddress: f.loadMaybeAddress(), royaltyAmount: f.loadCoins() });
const saleFeesCell = (f: GetgemsSaleFees) => beginCell().storeAddress(f.marketplaceFeeAddress).storeCoins(f.marketplaceFee).storeAddress(f.royaltyAddress).storeCoins(f.royaltyAmount);

/**
 * Sale v2 (nft-fixprice-sale-v2.fc): is_complete:uint1 created_at:uint32 marketplace_address:MsgAddress
 * nft_address:MsgAddress nft_owner_address:MsgAddress full_price:Coins fees:^[marketplace_fee_address
 * marketplace_fee:Coins royalty_address royalty_amount:Coins].
 */
export interface GetgemsSaleV2Storage {
  isComplete: boolean;
  createdAt: number;
  marketplaceAddress: Address | null;
  nftAddress: Address | null;
  nftOwnerAddress: Address | null;
  fullPrice: bigint;
  fees: GetgemsSaleFees;
}

export function loadGetgemsSaleV2Storage(s: Slice): GetgemsSaleV2Storage {
  return {
    isComplete: s.loadBit(),
    createdAt: s.loadUint(32),
    marketplaceAddress: s.loadMaybeAddress(),
    nftAddress: s.loadMaybeAddress(),
    nftOwnerAddress: s.loadMaybeAddress(),
    fullPrice: s.loadCoins(),
    fees: loadSaleFees(s.loadRef().beginParse()),
  };
}

export const storeGetgemsSaleV2Storage = (src: GetgemsSaleV2Storage) => (b: Builder) =>
  b
    .storeBit(src.isComplete)
    .storeUint(src.createdAt, 32)
    .storeAddress(src.marketplaceAddress)
    .storeAddress(src.nftAddress)
    .storeAddress(src.nftOwnerAddress)
    .storeCoins(src.fullPrice)
    .storeRef(saleFeesCell(src.fees));

/** Sale v3 and v3r2 (nft-fixprice-sale-v3.fc, -v3r2.fc): v2's layout, then can_deploy_by_external:uint1. */
export interface GetgemsSaleV3Storage extends GetgemsSaleV2Storage {
  canDeployByExternal: boolean;
}

export const loadGetgemsSaleV3Storage = (s: Slice): GetgemsSaleV3Storage => ({ ...loadGetgemsSaleV2Storage(s), canDeployByExternal: s.loadBit() });
export const storeGetgemsSaleV3Storage = (src: GetgemsSaleV3Storage) => (b: Builder) => b.store(storeGetgemsSaleV2Storage(src)).storeBit(src.canDeployByExternal);

/** Sale v3r3 (nft-fixprice-sale-v3r3.fc): v2's layout, then sold_at:uint32 query_id:uint64 (of the buy, 0 before). */
export interface GetgemsSaleV3R3Storage extends GetgemsSaleV2Storage {
  soldAt: number;
  queryId: bigint;
}

export const loadGetgemsSaleV3R3Storage = (s: Slice): GetgemsSaleV3R3Storage => ({ ...loadGetgemsSaleV2Storage(s), soldAt: s.loadUint(32), queryId: s.loadUintBig(64) });
export const storeGetgemsSaleV3R3Storage = (src: GetgemsSaleV3R3Storage) => (b: Builder) => b.store(storeGetgemsSaleV2Storage(src)).storeUint(src.soldAt, 32).storeUint(src.queryId, 64);

/** A v4 sale's price in one jetton: price:Coins jetton_master:MsgAddress, keyed by the hash of the sale's own (basechain) wallet of that jetton. */
export interface GetgemsJettonPrice {
  price: bigint;
  jettonMaster: Address | null;
}

const JETTON_PRICE: DictionaryValue<GetgemsJettonPrice> = {
  serialize: (v, b) => {
    b.storeCoins(v.price).storeAddress(v.jettonMaster);
  },
  parse: (s) => ({ price: s.loadCoins(), jettonMaster: s.loadMaybeAddress() }),
};

/** The jetton prices of a v4 sale (its jetton_price_dict root), by the sale's jetton wallet hash. */
export function loadGetgemsJettonPrices(root: Cell | null): Dictionary<bigint, GetgemsJettonPrice> {
  return root ? Dictionary.loadDirect(Dictionary.Keys.BigUint(256), JETTON_PRICE, root) : Dictionary.empty(Dictionary.Keys.BigUint(256), JETTON_PRICE);
}

/** The root of a jetton prices dictionary (null when empty). */
export function getgemsJettonPricesCell(prices: Dictionary<bigint, GetgemsJettonPrice>): Cell | null {
  return prices.size === 0 ? null : beginCell().storeDictDirect(prices, Dictionary.Keys.BigUint(256), JETTON_PRICE).endCell();
}

/**
 * Sale v4r1 (nft-fixprice-sale-v4r1.fc, storage.tlb): is_complete:uint1 marketplace_address:MsgAddress
 * nft_owner_address:MsgAddress full_price:Coins sold_at:uint32 sold_query_id:uint64
 * static_data:^[marketplace_fee_address royalty_address marketplace_fee_percent:uint17
 * royalty_percent:uint17 nft_address created_at:uint32] jetton_prices:(HashmapE 256 GetgemsJettonPrice)
 * public_key:(Maybe bits256).
 */
export interface GetgemsSaleV4Storage {
  isComplete: boolean;
  marketplaceAddress: Address | null;
  nftOwnerAddress: Address | null;
  /** In nanotons. */
  fullPrice: bigint;
  soldAt: number;
  soldQueryId: bigint;
  staticData: {
    marketplaceFeeAddress: Address | null;
    royaltyAddress: Address | null;
    /** Percent × 100,000 of the price. */
    marketplaceFeePercent: number;
    royaltyPercent: number;
    nftAddress: Address | null;
    createdAt: number;
  };
  /** The jetton prices' dictionary root (loadGetgemsJettonPrices reads it). */
  jettonPrices: Cell | null;
  /**
   * The key that signs a jetton sale's deploy: absent (undefined) once the contract stored its data
   * itself (save_data drops it), null for a Maybe's nothing.
   */
  publicKey?: Buffer | null;
}

export function loadGetgemsSaleV4Storage(s: Slice): GetgemsSaleV4Storage {
  const [isComplete, marketplaceAddress, nftOwnerAddress, fullPrice, soldAt, soldQueryId] = [s.loadBit(), s.loadMaybeAddress(), s.loadMaybeAddress(), s.loadCoins(), s.loadUint(32), s.loadUintBig(64)];
  const d = s.loadRef().beginParse();
  const staticData = {
    marketplaceFeeAddress: d.loadMaybeAddress(),
    royaltyAddress: d.loadMaybeAddress(),
    marketplaceFeePercent: d.loadUint(17),
    royaltyPercent: d.loadUint(17),
    nftAddress: d.loadMaybeAddress(),
    createdAt: d.loadUint(32),
  };
  const st: GetgemsSaleV4Storage = { isComplete, marketplaceAddress, nftOwnerAddress, fullPrice, soldAt, soldQueryId, staticData, jettonPrices: s.loadMaybeRef() };
  if (s.remainingBits > 0) st.publicKey = s.loadBit() ? s.loadBuffer(32) : null;
  return st;
}

export function storeGetgemsSaleV4Storage(src: GetgemsSaleV4Storage): (b: Builder) => void {
  const d = src.staticData;
  const staticData = beginCell()
    .storeAddress(d.marketplaceFeeAddress)
    .storeAddress(d.royaltyAddress)
    .storeUint(d.marketplaceFeePercent, 17)
    .storeUint(d.royaltyPercent, 17)
    .storeAddress(d.nftAddress)
    .storeUint(d.createdAt, 32);
  return (b) => {
    b.storeBit(src.isComplete)
      .storeAddress(src.marketplaceAddress)
      .storeAddress(src.nftOwnerAddress)
      .storeCoins(src.fullPrice)
      .storeUint(src.soldAt, 32)
      .storeUint(src.soldQueryId, 64)
      .storeRef(staticData)
      .storeMaybeRef(src.jettonPrices);
    if (src.publicKey !== undefined) b.storeMaybeBuffer(src.publicKey, 32);
  };
}

/** An auction's fees: factor/base fractions of the final bid. */
export interface GetgemsAuctionFees {
  marketplaceFeeAddress: Address | null;
  marketplaceFeeFactor: number;
  marketplaceFeeBase: number;
  royaltyAddress: Address | null;
  royaltyFactor: number;
  royaltyBase: number;
}

/** Auctions v1 to v3r2: mp_fee_addr:MsgAddress mp_fee_factor:uint32 mp_fee_base:uint32 royalty_fee_addr:MsgAddress royalty_fee_factor:uint32 royalty_fee_base:uint32. */
const loadAuctionFees = (f: Slice): GetgemsAuctionFees => ({
  marketplaceFeeAddress: f.loadMaybeAddress(),
  marketplaceFeeFactor: f.loadUint(32),
  marketplaceFeeBase: f.loadUint(32),
  royaltyAddress: f.loadMaybeAddress(),
  royaltyFactor: f.loadUint(32),
  royaltyBase: f.loadUint(32),
});
const auctionFeesCell = (f: GetgemsAuctionFees) =>
  beginCell().storeAddress(f.marketplaceFeeAddress).storeUint(f.marketplaceFeeFactor, 32).storeUint(f.marketplaceFeeBase, 32).storeAddress(f.royaltyAddress).storeUint(f.royaltyFactor, 32).storeUint(f.royaltyBase, 32);

/**
 * Auction v1 (nft-auction/struct/storage.func): end:int1 mp_addr:MsgAddress activated:int1
 * created_at:int32 is_canceled:int1 fees:^GetgemsAuctionFees bids:^[min_bid:Coins max_bid:Coins
 * min_step:Coins last_member:MsgAddress last_bid:Coins last_bid_at:uint32 end_time:uint32
 * step_time:uint32 try_step_time:uint32] nft:^[nft_owner:MsgAddress nft_addr:MsgAddress].
 */
export interface GetgemsAuctionV1Storage {
  end: boolean;
  marketplaceAddress: Address | null;
  activated: boolean;
  /** Signed: the contract reads it as int32. */
  createdAt: number;
  isCanceled: boolean;
  fees: GetgemsAuctionFees;
  bids: {
    minBid: bigint;
    /** 0: no buy-now price. */
    maxBid: bigint;
    /** Nanotons. */
    minStep: bigint;
    lastMember: Address | null;
    lastBid: bigint;
    lastBidAt: number;
    endTime: number;
    stepTime: number;
    tryStepTime: number;
  };
  nftOwner: Address | null;
  nftAddress: Address | null;
}

export function loadGetgemsAuctionV1Storage(s: Slice): GetgemsAuctionV1Storage {
  const [end, marketplaceAddress, activated, createdAt, isCanceled] = [s.loadBit(), s.loadMaybeAddress(), s.loadBit(), s.loadInt(32), s.loadBit()];
  const fees = loadAuctionFees(s.loadRef().beginParse());
  const b = s.loadRef().beginParse();
  const bids = {
    minBid: b.loadCoins(),
    maxBid: b.loadCoins(),
    minStep: b.loadCoins(),
    lastMember: b.loadMaybeAddress(),
    lastBid: b.loadCoins(),
    lastBidAt: b.loadUint(32),
    endTime: b.loadUint(32),
    stepTime: b.loadUint(32),
    tryStepTime: b.loadUint(32),
  };
  const n = s.loadRef().beginParse();
  return { end, marketplaceAddress, activated, createdAt, isCanceled, fees, bids, nftOwner: n.loadMaybeAddress(), nftAddress: n.loadMaybeAddress() };
}

export function storeGetgemsAuctionV1Storage(src: GetgemsAuctionV1Storage): (b: Builder) => void {
  const x = src.bids;
  const bids = beginCell()
    .storeCoins(x.minBid)
    .storeCoins(x.maxBid)
    .storeCoins(x.minStep)
    .storeAddress(x.lastMember)
    .storeCoins(x.lastBid)
    .storeUint(x.lastBidAt, 32)
    .storeUint(x.endTime, 32)
    .storeUint(x.stepTime, 32)
    .storeUint(x.tryStepTime, 32);
  return (b) =>
    b
      .storeBit(src.end)
      .storeAddress(src.marketplaceAddress)
      .storeBit(src.activated)
      .storeInt(src.createdAt, 32)
      .storeBit(src.isCanceled)
      .storeRef(auctionFeesCell(src.fees))
      .storeRef(bids)
      .storeRef(beginCell().storeAddress(src.nftOwner).storeAddress(src.nftAddress));
}

/**
 * Auction v2 and v3r2 (nft-auction-v2/struct/storage.func, same in v3r2): end:int1 activated:int1
 * is_canceled:int1 last_member:MsgAddress last_bid:Coins last_bid_at:uint32 end_time:uint32
 * nft_owner:MsgAddress fees:^GetgemsAuctionFees constants:^[sub_gas_price_from_bid:int32
 * mp_addr:MsgAddress min_bid:Coins max_bid:Coins min_step:Coins step_time:uint32 nft_addr:MsgAddress
 * created_at:uint32].
 */
export interface GetgemsAuctionV2Storage {
  end: boolean;
  activated: boolean;
  isCanceled: boolean;
  lastMember: Address | null;
  lastBid: bigint;
  lastBidAt: number;
  endTime: number;
  nftOwner: Address | null;
  fees: GetgemsAuctionFees;
  constants: {
    subGasPriceFromBid: number;
    marketplaceAddress: Address | null;
    minBid: bigint;
    maxBid: bigint;
    /** v2: nanotons; v3r2: percent of the last bid. */
    minStep: bigint;
    stepTime: number;
    nftAddress: Address | null;
    createdAt: number;
  };
}

export function loadGetgemsAuctionV2Storage(s: Slice): GetgemsAuctionV2Storage {
  const [end, activated, isCanceled, lastMember, lastBid, lastBidAt, endTime, nftOwner] = [
    s.loadBit(),
    s.loadBit(),
    s.loadBit(),
    s.loadMaybeAddress(),
    s.loadCoins(),
    s.loadUint(32),
    s.loadUint(32),
    s.loadMaybeAddress(),
  ];
  const fees = loadAuctionFees(s.loadRef().beginParse());
  const c = s.loadRef().beginParse();
  const constants = {
    subGasPriceFromBid: c.loadInt(32),
    marketplaceAddress: c.loadMaybeAddress(),
    minBid: c.loadCoins(),
    maxBid: c.loadCoins(),
    minStep: c.loadCoins(),
    stepTime: c.loadUint(32),
    nftAddress: c.loadMaybeAddress(),
    createdAt: c.loadUint(32),
  };
  return { end, activated, isCanceled, lastMember, lastBid, lastBidAt, endTime, nftOwner, fees, constants };
}

export function storeGetgemsAuctionV2Storage(src: GetgemsAuctionV2Storage): (b: Builder) => void {
  const c = src.constants;
  const constants = beginCell()
    .storeInt(c.subGasPriceFromBid, 32)
    .storeAddress(c.marketplaceAddress)
    .storeCoins(c.minBid)
    .storeCoins(c.maxBid)
    .storeCoins(c.minStep)
    .storeUint(c.stepTime, 32)
    .storeAddress(c.nftAddress)
    .storeUint(c.createdAt, 32);
  return (b) =>
    b
      .storeBit(src.end)
      .storeBit(src.activated)
      .storeBit(src.isCanceled)
      .storeAddress(src.lastMember)
      .storeCoins(src.lastBid)
      .storeUint(src.lastBidAt, 32)
      .storeUint(src.endTime, 32)
      .storeAddress(src.nftOwner)
      .storeRef(auctionFeesCell(src.fees))
      .storeRef(constants);
}

/** v3r3 and v4r1 constants: mp_addr:MsgAddress min_bid:Coins max_bid:Coins min_step:uint7 step_time:uint17 nft_addr:MsgAddress created_at:uint32. */
export interface GetgemsAuctionConstants {
  marketplaceAddress: Address | null;
  minBid: bigint;
  maxBid: bigint;
  /** Percent of the last bid a new bid adds at least. */
  minStep: number;
  stepTime: number;
  nftAddress: Address | null;
  createdAt: number;
}

const loadAuctionConstants = (c: Slice): GetgemsAuctionConstants => ({
  marketplaceAddress: c.loadMaybeAddress(),
  minBid: c.loadCoins(),
  maxBid: c.loadCoins(),
  minStep: c.loadUint(7),
  stepTime: c.loadUint(17),
  nftAddress: c.loadMaybeAddress(),
  createdAt: c.loadUint(32),
});
const auctionConstantsCell = (c: GetgemsAuctionConstants) =>
  beginCell().storeAddress(c.marketplaceAddress).storeCoins(c.minBid).storeCoins(c.maxBid).storeUint(c.minStep, 7).storeUint(c.stepTime, 17).storeAddress(c.nftAddress).storeUint(c.createdAt, 32);

/**
 * Auction v3r3 (nft-auction-v3r3.func): end:int1 is_canceled:int1 last_member:MsgAddress last_bid:Coins
 * last_bid_at:uint32 end_time:uint32 nft_owner:MsgAddress last_query_id:uint64 mp_fee_factor:uint32
 * mp_fee_base:uint32 royalty_fee_factor:uint32 royalty_fee_base:uint32 fees:^[mp_fee_addr:MsgAddress
 * royalty_fee_addr:MsgAddress] constants:^GetgemsAuctionConstants. Activated = an nft_owner is set.
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

export function loadGetgemsAuctionV3R3Storage(s: Slice): GetgemsAuctionV3R3Storage {
  const [end, isCanceled, lastMember, lastBid, lastBidAt, endTime, nftOwner, lastQueryId] = [
    s.loadBit(),
    s.loadBit(),
    s.loadMaybeAddress(),
    s.loadCoins(),
    s.loadUint(32),
    s.loadUint(32),
    s.loadMaybeAddress(),
    s.loadUintBig(64),
  ];
  const [marketplaceFeeFactor, marketplaceFeeBase, royaltyFactor, royaltyBase] = [s.loadUint(32), s.loadUint(32), s.loadUint(32), s.loadUint(32)];
  const f = s.loadRef().beginParse();
  const fees = { marketplaceFeeAddress: f.loadMaybeAddress(), marketplaceFeeFactor, marketplaceFeeBase, royaltyAddress: f.loadMaybeAddress(), royaltyFactor, royaltyBase };
  return { end, isCanceled, lastMember, lastBid, lastBidAt, endTime, nftOwner, lastQueryId, fees, constants: loadAuctionConstants(s.loadRef().beginParse()) };
}

export function storeGetgemsAuctionV3R3Storage(src: GetgemsAuctionV3R3Storage): (b: Builder) => void {
  const f = src.fees;
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
      .storeRef(auctionConstantsCell(src.constants));
}

/** A v4 auction's jetton: jetton_wallet:MsgAddress jetton_master:MsgAddress public_key:(Maybe uint256). */
export interface GetgemsAuctionJetton {
  /** The auction's own wallet of the jetton it is sold for (addr_none: TON). */
  jettonWallet: Address | null;
  jettonMaster: Address | null;
  publicKey: bigint | null;
}

/**
 * Auction v4r1 (nft-auction-v4r1.func): end:int1 is_canceled:int1 last_member:MsgAddress last_bid:Coins
 * last_bid_at:uint32 end_time:uint32 nft_owner:MsgAddress last_query_id:uint64 fees:^[mp_fee_addr
 * royalty_fee_addr mp_fee_factor:uint32 mp_fee_base:uint32 royalty_fee_factor:uint32
 * royalty_fee_base:uint32] constants:^GetgemsAuctionConstants jetton:(Maybe ^GetgemsAuctionJetton).
 */
export interface GetgemsAuctionV4Storage {
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
  jetton: GetgemsAuctionJetton | null;
}

export function loadGetgemsAuctionV4Storage(s: Slice): GetgemsAuctionV4Storage {
  const [end, isCanceled, lastMember, lastBid, lastBidAt, endTime, nftOwner, lastQueryId] = [
    s.loadBit(),
    s.loadBit(),
    s.loadMaybeAddress(),
    s.loadCoins(),
    s.loadUint(32),
    s.loadUint(32),
    s.loadMaybeAddress(),
    s.loadUintBig(64),
  ];
  const f = s.loadRef().beginParse();
  const fees = {
    marketplaceFeeAddress: f.loadMaybeAddress(),
    royaltyAddress: f.loadMaybeAddress(),
    marketplaceFeeFactor: f.loadUint(32),
    marketplaceFeeBase: f.loadUint(32),
    royaltyFactor: f.loadUint(32),
    royaltyBase: f.loadUint(32),
  };
  const constants = loadAuctionConstants(s.loadRef().beginParse());
  const j = s.loadMaybeRef()?.beginParse();
  const jetton = j ? { jettonWallet: j.loadMaybeAddress(), jettonMaster: j.loadMaybeAddress(), publicKey: j.loadMaybeUintBig(256) } : null;
  return { end, isCanceled, lastMember, lastBid, lastBidAt, endTime, nftOwner, lastQueryId, fees, constants, jetton };
}

export function storeGetgemsAuctionV4Storage(src: GetgemsAuctionV4Storage): (b: Builder) => void {
  const f = src.fees;
  const j = src.jetton;
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
      .storeRef(
        beginCell()
          .storeAddress(f.marketplaceFeeAddress)
          .storeAddress(f.royaltyAddress)
          .storeUint(f.marketplaceFeeFactor, 32)
          .storeUint(f.marketplaceFeeBase, 32)
          .storeUint(f.royaltyFactor, 32)
          .storeUint(f.royaltyBase, 32),
      )
      .storeRef(auctionConstantsCell(src.constants))
      .storeMaybeRef(j ? beginCell().storeAddress(j.jettonWallet).storeAddress(j.jettonMaster).storeMaybeUint(j.publicKey, 256) : null);
}

/**
 * Offer v1r3 (nft-offer-v1r3.fc): is_complete:uint1 created_at:uint32 finish_at:uint32 swap_at:uint32
 * marketplace_address:MsgAddress nft_address:MsgAddress offer_owner_address:MsgAddress full_price:Coins
 * fees:^GetgemsAuctionFees can_deploy:uint1 (set in the data the marketplace deploys, cleared once it runs).
 */
export interface GetgemsOfferStorage {
  isComplete: boolean;
  createdAt: number;
  finishAt: number;
  swapAt: number;
  marketplaceAddress: Address | null;
  nftAddress: Address | null;
  offerOwnerAddress: Address | null;
  fullPrice: bigint;
  fees: GetgemsAuctionFees;
  canDeploy: boolean;
}

export function loadGetgemsOfferStorage(s: Slice): GetgemsOfferStorage {
  return {
    isComplete: s.loadBit(),
    createdAt: s.loadUint(32),
    finishAt: s.loadUint(32),
    swapAt: s.loadUint(32),
    marketplaceAddress: s.loadMaybeAddress(),
    nftAddress: s.loadMaybeAddress(),
    offerOwnerAddress: s.loadMaybeAddress(),
    fullPrice: s.loadCoins(),
    fees: loadAuctionFees(s.loadRef().beginParse()),
    canDeploy: s.loadBit(),
  };
}

export const storeGetgemsOfferStorage = (src: GetgemsOfferStorage) => (b: Builder) =>
  b
    .storeBit(src.isComplete)
    .storeUint(src.createdAt, 32)
    .storeUint(src.finishAt, 32)
    .storeUint(src.swapAt, 32)
    .storeAddress(src.marketplaceAddress)
    .storeAddress(src.nftAddress)
    .storeAddress(src.offerOwnerAddress)
    .storeCoins(src.fullPrice)
    .storeRef(auctionFeesCell(src.fees))
    .storeBit(src.canDeploy);
