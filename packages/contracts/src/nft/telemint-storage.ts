// Telegram's telemint data cells (TelegramMessenger/telemint telemint.tlb, func/common.fc): the
// collection (usernames with DNS, anonymous numbers without) and its items, the same layout in every
// item variant (with or without DNS, cheap, cheap delayed).
import { beginCell, type Address, type Builder, type Cell, type Slice } from "@ton/core";
import { loadNftRoyaltyParams, storeNftRoyaltyParams, type NftRoyaltyParams } from "./messages.js";

/** telemint_text$_ len:(## 8) text:(bits (len * 8)): the bytes. */
export const loadTelemintText = (s: Slice): Buffer => s.loadBuffer(s.loadUint(8));
export const storeTelemintText = (text: Buffer) => (b: Builder) => b.storeUint(text.length, 8).storeBuffer(text);

/**
 * telemint_data$_ touched:Bool subwallet_id:uint32 public_key:bits256 collection_content:^Cell
 * nft_item_code:^Cell full_domain:^TelemintText royalty_params:^NftRoyaltyParams.
 */
export interface TelemintCollectionStorage {
  /** Set by the first external message (the collection accepts one to top itself up). */
  touched: boolean;
  subwalletId: number;
  /** The key that signs deploys. */
  publicKey: Buffer;
  /** TEP-64 content of the collection. */
  content: Cell;
  nftItemCode: Cell;
  /** e.g. "me\0t\0" (reversed labels, each ended by a zero byte). */
  fullDomain: Buffer;
  /** The royalty an item gets when its deploy sets none. */
  royaltyParams: NftRoyaltyParams;
}

export function loadTelemintCollectionStorage(s: Slice): TelemintCollectionStorage {
  return {
    touched: s.loadBit(),
    subwalletId: s.loadUint(32),
    publicKey: s.loadBuffer(32),
    content: s.loadRef(),
    nftItemCode: s.loadRef(),
    fullDomain: loadTelemintText(s.loadRef().beginParse()),
    royaltyParams: loadNftRoyaltyParams(s.loadRef().beginParse()),
  };
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

/** teleitem_last_bid bidder_address:MsgAddressInt bid:Grams bid_ts:uint32. */
export interface TeleitemLastBid {
  bidderAddress: Address | null;
  bid: bigint;
  bidTs: number;
}

/** teleitem_auction_state$_ last_bid:(Maybe ^TeleitemLastBid) min_bid:Grams end_time:uint32. */
export interface TeleitemAuctionState {
  lastBid: TeleitemLastBid | null;
  minBid: bigint;
  /** The cheap delayed item stores a duration (≤ one year) here until the first bid starts the clock. */
  endTime: number;
}

/**
 * teleitem_auction_config$_ beneficiary_address:MsgAddressInt initial_min_bid:Grams max_bid:Grams
 * min_bid_step:uint8 min_extend_time:uint32 duration:uint32.
 */
export interface TeleitemAuctionConfig {
  beneficiaryAddress: Address | null;
  initialMinBid: bigint;
  /** 0: none. */
  maxBid: bigint;
  /** Percent. */
  minBidStep: number;
  minExtendTime: number;
  duration: number;
}

export const loadTeleitemAuctionConfig = (c: Slice): TeleitemAuctionConfig => ({
  beneficiaryAddress: c.loadMaybeAddress(),
  initialMinBid: c.loadCoins(),
  maxBid: c.loadCoins(),
  minBidStep: c.loadUint(8),
  minExtendTime: c.loadUint(32),
  duration: c.loadUint(32),
});
export const storeTeleitemAuctionConfig = (src: TeleitemAuctionConfig) => (b: Builder) =>
  b.storeAddress(src.beneficiaryAddress).storeCoins(src.initialMinBid).storeCoins(src.maxBid).storeUint(src.minBidStep, 8).storeUint(src.minExtendTime, 32).storeUint(src.duration, 32);

/** teleitem_auction$_ state:^TeleitemAuctionState config:^TeleitemAuctionConfig. */
export interface TeleitemAuction {
  state: TeleitemAuctionState;
  config: TeleitemAuctionConfig;
}

/** teleitem_content$_ nft_content:^Cell dns:DNS_RecordSet token_info:^[name:TelemintText domain:TelemintText]. */
export interface TeleitemContent {
  /** TEP-64 content of the item (what get_nft_data gives). */
  nftContent: Cell;
  /** The DNS records' dictionary (HashmapE 256 ^DNSRecord), its root. */
  dns: Cell | null;
  tokenInfo: { name: Buffer; domain: Buffer };
}

/** teleitem_state$_ owner_address:MsgAddressInt content:^TeleitemContent auction:(Maybe ^TeleitemAuction) royalty_params:^NftRoyaltyParams. */
export interface TeleitemState {
  /** null (addr_none) while the first auction runs. */
  ownerAddress: Address | null;
  content: TeleitemContent;
  auction: TeleitemAuction | null;
  royaltyParams: NftRoyaltyParams;
}

/** teleitem_data$_ config:^[item_index:bits256 collection_address:MsgAddressInt] state:(Maybe ^TeleitemState). */
export interface TeleitemStorage {
  itemIndex: bigint;
  collectionAddress: Address | null;
  /** null until the collection's deploy message reached the item. */
  state: TeleitemState | null;
}

function loadAuction(a: Slice): TeleitemAuction {
  const st = a.loadRef().beginParse();
  const lastBidCell = st.loadMaybeRef()?.beginParse();
  const lastBid = lastBidCell ? { bidderAddress: lastBidCell.loadMaybeAddress(), bid: lastBidCell.loadCoins(), bidTs: lastBidCell.loadUint(32) } : null;
  const state = { lastBid, minBid: st.loadCoins(), endTime: st.loadUint(32) };
  return { state, config: loadTeleitemAuctionConfig(a.loadRef().beginParse()) };
}

function auctionCell(a: TeleitemAuction): Cell {
  const l = a.state.lastBid;
  const state = beginCell()
    .storeMaybeRef(l ? beginCell().storeAddress(l.bidderAddress).storeCoins(l.bid).storeUint(l.bidTs, 32) : null)
    .storeCoins(a.state.minBid)
    .storeUint(a.state.endTime, 32);
  return beginCell().storeRef(state).storeRef(beginCell().store(storeTeleitemAuctionConfig(a.config))).endCell();
}

export function loadTeleitemStorage(s: Slice): TeleitemStorage {
  const config = s.loadRef().beginParse();
  const [itemIndex, collectionAddress] = [config.loadUintBig(256), config.loadMaybeAddress()];
  const st = s.loadMaybeRef()?.beginParse();
  if (!st) return { itemIndex, collectionAddress, state: null };
  const ownerAddress = st.loadMaybeAddress();
  const c = st.loadRef().beginParse();
  const [nftContent, dns] = [c.loadRef(), c.loadMaybeRef()];
  const info = c.loadRef().beginParse();
  const content = { nftContent, dns, tokenInfo: { name: loadTelemintText(info), domain: loadTelemintText(info) } };
  const auction = st.loadMaybeRef();
  return { itemIndex, collectionAddress, state: { ownerAddress, content, auction: auction ? loadAuction(auction.beginParse()) : null, royaltyParams: loadNftRoyaltyParams(st.loadRef().beginParse()) } };
}

export function storeTeleitemStorage(src: TeleitemStorage): (b: Builder) => void {
  const config = beginCell().storeUint(src.itemIndex, 256).storeAddress(src.collectionAddress);
  const st = src.state;
  let state: Cell | null = null;
  if (st) {
    const c = st.content;
    const info = beginCell().store(storeTelemintText(c.tokenInfo.name)).store(storeTelemintText(c.tokenInfo.domain));
    const content = beginCell().storeRef(c.nftContent).storeMaybeRef(c.dns).storeRef(info);
    state = beginCell()
      .storeAddress(st.ownerAddress)
      .storeRef(content)
      .storeMaybeRef(st.auction ? auctionCell(st.auction) : null)
      .storeRef(beginCell().store(storeNftRoyaltyParams(st.royaltyParams)))
      .endCell();
  }
  return (b) => b.storeRef(config).storeMaybeRef(state);
}
