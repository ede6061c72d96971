// NFT collection and item data cells (the contracts' load_data): the getgems/token-contract
// collection and item, the getgems single (collection-less) item.
import { beginCell, type Address, type Builder, type Cell, type Slice } from "@ton/core";
import { loadNftRoyaltyParams, storeNftRoyaltyParams, type NftRoyaltyParams } from "./messages.js";

/**
 * owner_address:MsgAddress next_item_index:uint64 content:^[collection_content:^Cell
 * common_content:^Cell] nft_item_code:^Cell royalty_params:^NftRoyaltyParams.
 */
export interface NftCollectionStorage {
  ownerAddress: Address | null;
  nextItemIndex: bigint;
  /** TEP-64 content of the collection, and the prefix get_nft_content puts before an item's content. */
  content: { collectionContent: Cell; commonContent: Cell };
  nftItemCode: Cell;
  royaltyParams: NftRoyaltyParams;
}

export function loadNftCollectionStorage(s: Slice): NftCollectionStorage {
  const ownerAddress = s.loadMaybeAddress();
  const nextItemIndex = s.loadUintBig(64);
  const content = s.loadRef().beginParse();
  return {
    ownerAddress,
    nextItemIndex,
    content: { collectionContent: content.loadRef(), commonContent: content.loadRef() },
    nftItemCode: s.loadRef(),
    royaltyParams: loadNftRoyaltyParams(s.loadRef().beginParse()),
  };
}

export const storeNftCollectionStorage = (src: NftCollectionStorage) => (b: Builder) =>
  b
    .storeAddress(src.ownerAddress)
    .storeUint(src.nextItemIndex, 64)
    .storeRef(beginCell().storeRef(src.content.collectionContent).storeRef(src.content.commonContent))
    .storeRef(src.nftItemCode)
    .storeRef(beginCell().store(storeNftRoyaltyParams(src.royaltyParams)));

/** index:uint64 collection_address:MsgAddress, then once initialised owner_address:MsgAddress content:^Cell. */
export interface NftItemStorage {
  index: bigint;
  collectionAddress: Address | null;
  /** null until the collection's deploy message initialised it. */
  init: { ownerAddress: Address | null; content: Cell } | null;
}

export function loadNftItemStorage(s: Slice): NftItemStorage {
  const index = s.loadUintBig(64);
  const collectionAddress = s.loadMaybeAddress();
  const init = s.remainingBits > 0 ? { ownerAddress: s.loadMaybeAddress(), content: s.loadRef() } : null;
  return { index, collectionAddress, init };
}

export function storeNftItemStorage(src: NftItemStorage): (b: Builder) => void {
  return (b) => {
    b.storeUint(src.index, 64).storeAddress(src.collectionAddress);
    if (src.init) b.storeAddress(src.init.ownerAddress).storeRef(src.init.content);
  };
}

/** The getgems single item: owner_address:MsgAddress editor_address:MsgAddress content:^Cell royalty_params:^NftRoyaltyParams. */
export interface NftSingleStorage {
  ownerAddress: Address | null;
  editorAddress: Address | null;
  content: Cell;
  royaltyParams: NftRoyaltyParams;
}

export function loadNftSingleStorage(s: Slice): NftSingleStorage {
  return { ownerAddress: s.loadMaybeAddress(), editorAddress: s.loadMaybeAddress(), content: s.loadRef(), royaltyParams: loadNftRoyaltyParams(s.loadRef().beginParse()) };
}

export const storeNftSingleStorage = (src: NftSingleStorage) => (b: Builder) =>
  b.storeAddress(src.ownerAddress).storeAddress(src.editorAddress).storeRef(src.content).storeRef(beginCell().store(storeNftRoyaltyParams(src.royaltyParams)));
