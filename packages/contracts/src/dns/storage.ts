// .ton DNS data cells (dns-contract's load_data): the collection and its domain items.
import { beginCell, type Address, type Builder, type Cell, type Slice } from "@ton/core";

/** content:^Cell nft_item_code:^Cell. */
export interface DnsCollectionStorage {
  content: Cell;
  nftItemCode: Cell;
}

export const loadDnsCollectionStorage = (s: Slice): DnsCollectionStorage => ({ content: s.loadRef(), nftItemCode: s.loadRef() });
export const storeDnsCollectionStorage = (src: DnsCollectionStorage) => (b: Builder) => b.storeRef(src.content).storeRef(src.nftItemCode);

/** An item's auction: max_bid_address:MsgAddress max_bid_amount:Coins auction_end_time:uint64. */
export interface DnsAuction {
  maxBidAddress: Address | null;
  maxBidAmount: bigint;
  auctionEndTime: bigint;
}

/**
 * index:uint256 collection_address:MsgAddress, then once initialised owner_address:MsgAddress
 * content:^Cell domain:^Cell auction:(Maybe ^DnsAuction) last_fill_up_time:uint64.
 */
export interface DnsItemStorage {
  index: bigint;
  collectionAddress: Address | null;
  init: {
    /** null while the domain is being auctioned. */
    ownerAddress: Address | null;
    content: Cell;
    /** The domain's name bytes (without ".ton"). */
    domain: Cell;
    auction: DnsAuction | null;
    lastFillUpTime: bigint;
  } | null;
}

export function loadDnsItemStorage(s: Slice): DnsItemStorage {
  const index = s.loadUintBig(256);
  const collectionAddress = s.loadMaybeAddress();
  if (s.remainingBits === 0) return { index, collectionAddress, init: null };
  const [ownerAddress, content, domain, auctionCell] = [s.loadMaybeAddress(), s.loadRef(), s.loadRef(), s.loadMaybeRef()];
  const a = auctionCell?.beginParse();
  const auction = a ? { maxBidAddress: a.loadMaybeAddress(), maxBidAmount: a.loadCoins(), auctionEndTime: a.loadUintBig(64) } : null;
  return { index, collectionAddress, init: { ownerAddress, content, domain, auction, lastFillUpTime: s.loadUintBig(64) } };
}

export function storeDnsItemStorage(src: DnsItemStorage): (b: Builder) => void {
  return (b) => {
    b.storeUint(src.index, 256).storeAddress(src.collectionAddress);
    const i = src.init;
    if (!i) return;
    const a = i.auction;
    b.storeAddress(i.ownerAddress)
      .storeRef(i.content)
      .storeRef(i.domain)
      .storeMaybeRef(a ? beginCell().storeAddress(a.maxBidAddress).storeCoins(a.maxBidAmount).storeUint(a.auctionEndTime, 64) : null)
      .storeUint(i.lastFillUpTime, 64);
  };
}
