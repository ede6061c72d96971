// API v3 "NFTs": tongate.v3.Nfts over the decoder's tables. Each answer is bounded by the decoder's
// checkpoint; before the decoder has decoded anything, every list is empty. The items of an owner
// are answered from the decoder's key-index tables when they can (./key-lookups.ts).
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  NftCollectionsResponseSchema,
  NftItemsResponseSchema,
  type Nfts,
  NftSalesResponseSchema,
  NftTransfersResponseSchema,
} from "@tongate/proto/gen/tongate/v3/nfts_pb.js";
import { decodedUpTo, eventOrder, keyOf } from "../decoded.js";
import { isAsc, nextCursor, pageOf } from "../params.js";
import type { Store } from "../sql.js";
import { nftItemsFromKeys } from "./key-lookups.js";
import { collectionOf, itemOf, saleOf, transferOf } from "./models.js";
import * as q from "./queries.js";
import { collectionFilters, itemFilters, saleAddresses, transferFilters } from "./request.js";

export function nftsImpl(store: Store): Partial<ServiceImpl<typeof Nfts>> {
  return {
    async getNftCollections(req) {
      const f = collectionFilters(req);
      const page = pageOf("nft/collections", true, req, ["string"]);
      const upTo = await decodedUpTo(store);
      const rows = upTo === null ? [] : await q.collections(store, f, page, upTo);
      return create(NftCollectionsResponseSchema, {
        nftCollections: rows.map(collectionOf),
        nextCursor: nextCursor("nft/collections", true, page, rows, (r) => [r.address]),
      });
    },

    async getNftItems(req) {
      const fromKeys = nftItemsFromKeys(store, req);
      if (fromKeys) return fromKeys;
      const f = itemFilters(req);
      const order = q.itemOrder(f);
      const page = pageOf("nft/items", order.asc, req, order.kinds.map(() => "string"));
      const upTo = await decodedUpTo(store);
      const rows = upTo === null ? [] : await q.items(store, f, page, upTo);
      const collections = upTo === null ? new Map() : await q.collectionsByAddress(store, rows.map((r) => r.collection_address), upTo);
      return create(NftItemsResponseSchema, {
        nftItems: rows.map((r) => itemOf(r, collections)),
        nextCursor: nextCursor("nft/items", order.asc, page, rows, (r) => keyOf(r, order.columns)),
      });
    },

    async getNftTransfers(req) {
      const f = transferFilters(req);
      const asc = isAsc(req.sort);
      const order = eventOrder(f);
      const page = pageOf("nft/transfers", asc, req, order.kinds.map(() => "string"));
      const upTo = await decodedUpTo(store);
      const rows = upTo === null ? [] : await q.transfers(store, f, asc, page, upTo);
      return create(NftTransfersResponseSchema, {
        nftTransfers: rows.map(transferOf),
        nextCursor: nextCursor("nft/transfers", asc, page, rows, (r) => keyOf(r, order.columns)),
      });
    },

    async getNftSales(req) {
      const addresses = saleAddresses(req);
      const upTo = await decodedUpTo(store);
      if (upTo === null) return create(NftSalesResponseSchema, {});
      const rows = await q.sales(store, addresses, upTo);
      const items = await q.itemsByAddress(store, rows.map((r) => r.nft_address), upTo);
      const collections = await q.collectionsByAddress(store, [...items.values()].map((i) => i.collection_address), upTo);
      return create(NftSalesResponseSchema, { nftSales: rows.map((r) => saleOf(r, items, collections)) });
    },
  };
}
