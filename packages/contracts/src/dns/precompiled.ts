// Precompiled readers of the .ton DNS collection and its items: get_collection_data and
// get_nft_data, read from the data cell.
import type { Cell } from "@ton/core";
import type { NftCollectionState, NftItemState } from "../nft/precompiled.js";
import type { ReadStateContext } from "../precompiled.js";
import { loadDnsCollectionStorage, loadDnsItemStorage } from "./storage.js";

/** (-1, content, addr_none): the collection has no item counter and no owner. */
function collection(data: Cell): NftCollectionState {
  return { kind: "nft_collection", collectionData: { nextItemIndex: -1n, content: loadDnsCollectionStorage(data.beginParse()).content, owner: null } };
}

/** The owner is null before init and while the domain's auction runs. */
function item(data: Cell): NftItemState {
  const st = loadDnsItemStorage(data.beginParse());
  const i = st.init;
  return { kind: "nft_item", nftData: { init: i !== null, index: st.index, collection: st.collectionAddress, owner: i?.ownerAddress ?? null, individualContent: i?.content ?? null } };
}

export const DNS_READERS: Record<string, (data: Cell, ctx: ReadStateContext) => NftCollectionState | NftItemState> = {
  dns_collection: collection,
  dns_item: item,
};
