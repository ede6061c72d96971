// The NFTs requests the decoder's key-index tables answer (@tongate/store's decoded-keys): the items
// of one owner (or one real owner, with include_on_sale), in the ClickHouse path's order (owner,
// collection, index, address) — one range scan, no query. Undefined when the request has a filter
// only ClickHouse applies, or while the tables are not usable; the caller then queries ClickHouse.
import { create } from "@bufbuild/protobuf";
import { type GetNftItemsRequest, type NftItemsResponse, NftItemsResponseSchema } from "@tongate/proto/gen/tongate/v3/nfts_pb.js";
import { itemOrderKey, type KeyItemRow } from "@tongate/store";
import { usableDecoded, type KeySource } from "../blockchain/key-lookups.js";
import { keyOf, validCursor } from "../decoded.js";
import { nextCursor, pageOf } from "../params.js";
import { itemOf } from "./models.js";
import { itemOrder } from "./queries.js";
import { itemFilters } from "./request.js";

/** A collection in a cursor that the tables can continue after: none ('') or an address. */
const COLLECTION = /^(|-?\d{1,3}:[0-9A-F]{64})$/;

/** /nft/items of one owner (with collections, include_on_sale, a page or a cursor). */
export function nftItemsFromKeys(source: KeySource, req: GetNftItemsRequest): NftItemsResponse | undefined {
  const keys = usableDecoded(source);
  if (!keys) return undefined;
  const f = itemFilters(req);
  if (f.owners.length !== 1 || f.addresses.length || f.indexes.length || f.byLastTransactionLt) return undefined;
  const owner = f.owners[0]!;
  const order = itemOrder(f);
  const page = pageOf("nft/items", order.asc, req, order.kinds.map(() => "string"));
  if (page.after && !validCursor(page.after, order.kinds)) return undefined;
  const response = (rows: KeyItemRow[]): NftItemsResponse => {
    const collections = keys.collectionRows(rows.map((r) => r.collection_address));
    return create(NftItemsResponseSchema, {
      nftItems: rows.map((r) => itemOf(r, collections)),
      nextCursor: nextCursor("nft/items", order.asc, page, rows, (r) => keyOf(r, order.columns)),
    });
  };
  // a cursor of this owner continues after its item; of an owner before it, from the start; after it, nothing
  let after: Buffer | undefined;
  const [afterOwner, collection, index, address] = (page.after ?? []).map(String);
  if (afterOwner !== undefined && afterOwner > owner) return response([]);
  if (afterOwner === owner) {
    if (!COLLECTION.test(collection!)) return undefined;
    after = itemOrderKey(collection!, index!, address!);
  }
  const collections = f.collections.length ? new Set(f.collections) : undefined;
  const rows: KeyItemRow[] = [];
  let skip = page.offset;
  for (const r of keys.itemsOf(owner, f.includeOnSale, after)) {
    if (r.verdict !== "confirmed" || (f.includeOnSale ? r.real_owner : r.owner_address) !== owner) continue;
    if (collections && !collections.has(r.collection_address)) continue;
    if (skip > 0) skip--;
    else if (rows.push(r) >= page.limit) break;
  }
  return response(rows);
}
