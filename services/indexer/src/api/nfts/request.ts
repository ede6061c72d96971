// The NFTs requests as filters in the store's forms (raw addresses, indexes as decimal text), with
// toncenter's rules across parameters (v3-api.md §1.3) answered with 422 naming the parameter.
import type { GetNftCollectionsRequest, GetNftItemsRequest, GetNftSalesRequest, GetNftTransfersRequest } from "@tongate/proto/gen/tongate/v3/nfts_pb.js";
import { apiError } from "@tongate/runtime";
import { checkDirection, type EventFilters } from "../decoded.js";
import { rawAddress } from "../params.js";

export interface CollectionFilters {
  addresses: string[];
  owners: string[];
}

export const collectionFilters = (req: GetNftCollectionsRequest): CollectionFilters => ({
  addresses: req.collectionAddress.map(rawAddress),
  owners: req.ownerAddress.map(rawAddress),
});

export interface ItemFilters {
  addresses: string[];
  owners: string[];
  /** the owners are real owners: items on a sale or auction count as their seller's */
  includeOnSale: boolean;
  collections: string[];
  indexes: string[];
  byLastTransactionLt: boolean;
}

const UINT256_MAX = (1n << 256n) - 1n;

export function itemFilters(req: GetNftItemsRequest): ItemFilters {
  if (req.index.length && !req.collectionAddress.length) throw apiError(422, "index: needs collection_address (an index is a position in a collection)");
  if (req.collectionAddress.length > 1 && req.ownerAddress.length !== 1) {
    throw apiError(422, `collection_address: more than one (${req.collectionAddress.length} given) needs exactly one owner_address`);
  }
  // toncenter skips empty values
  const indexes = req.index.filter((v) => v !== "");
  indexes.forEach((v, i) => {
    if (!/^\d{1,78}$/.test(v) || BigInt(v) > UINT256_MAX) throw apiError(422, `index[${i}]: expected an item index in decimal digits (0 to 2^256-1), got ${JSON.stringify(v.slice(0, 80))}`);
  });
  return {
    addresses: req.address.map(rawAddress),
    owners: req.ownerAddress.map(rawAddress),
    includeOnSale: req.includeOnSale === true,
    collections: req.collectionAddress.map(rawAddress),
    indexes: indexes.map((v) => BigInt(v).toString()),
    byLastTransactionLt: req.sortByLastTransactionLt === true,
  };
}

export interface TransferFilters extends EventFilters {
  owners: string[];
  items: string[];
  collection: string | undefined;
}

export function transferFilters(req: GetNftTransfersRequest): TransferFilters {
  checkDirection(req.ownerAddress, "owner_address", req.direction);
  return {
    owners: req.ownerAddress.map(rawAddress),
    items: req.itemAddress.map(rawAddress),
    collection: req.collectionAddress === undefined ? undefined : rawAddress(req.collectionAddress),
    direction: req.direction,
    startUtime: req.startUtime,
    endUtime: req.endUtime,
    startLt: req.startLt,
    endLt: req.endLt,
  };
}

export const saleAddresses = (req: GetNftSalesRequest): string[] => req.address.map(rawAddress);
