// TEP-62 get-method results: a collection's get_collection_data, get_nft_address_by_index and
// get_nft_content, an item's get_nft_data; TEP-66's royalty_params.
import type { Address, Cell } from "@ton/core";
import { StackReader, type StackItem } from "../stack.js";
import type { NftRoyaltyParams } from "./messages.js";

export interface NftCollectionData {
  nextItemIndex: bigint;
  /** TEP-64 content. */
  content: Cell;
  owner: Address | null;
}

/** get_collection_data: (int next_item_index, cell collection_content, slice owner_address). */
export function readCollectionData(stack: StackItem[]): NftCollectionData {
  const s = new StackReader("get_collection_data", stack, 3);
  return { nextItemIndex: s.int(0), content: s.cell(1), owner: s.address(2) };
}

export interface NftItemData {
  init: boolean;
  index: bigint;
  collection: Address | null;
  owner: Address | null;
  /** The item's individual content (full content when it has no collection); null before init. */
  individualContent: Cell | null;
}

/** get_nft_data: (int init?, int index, slice collection_address, slice owner_address, cell individual_content). */
export function readNftData(stack: StackItem[]): NftItemData {
  const s = new StackReader("get_nft_data", stack, 5);
  return { init: s.int(0) !== 0n, index: s.int(1), collection: s.address(2), owner: s.address(3), individualContent: s.optionalCell(4) };
}

/** get_nft_address_by_index(int index) of a collection: the item's address (null for addr_none). */
export function readNftAddressByIndex(stack: StackItem[]): Address | null {
  return new StackReader("get_nft_address_by_index", stack, 1).address(0);
}

/** get_nft_content(int index, cell individual_content) of a collection: the item's full content. */
export function readNftContent(stack: StackItem[]): Cell {
  return new StackReader("get_nft_content", stack, 1).cell(0);
}

/** royalty_params (TEP-66) of a collection or an item: (numerator, denominator, destination). */
export function readRoyaltyParams(stack: StackItem[]): NftRoyaltyParams {
  const s = new StackReader("royalty_params", stack, 3);
  return { numerator: Number(s.int(0)), denominator: Number(s.int(1)), destination: s.address(2) };
}
