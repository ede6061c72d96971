// The NFTs queries over the decoder's tables (migrations/0001_tokens.sql of services/decoder),
// bounded by the decoder's checkpoint (`upTo`). Values travel as query parameters only.
import type { KeyCollectionRow, KeyItemRow } from "@tongate/store";
import { afterCursor, byOwners, eventOrder, inRanges, latestOf, limitOf, listedEvents, orderBy, type KeyKind } from "../decoded.js";
import type { Page } from "../params.js";
import { select, type Store, Where } from "../sql.js";
import type { CollectionFilters, ItemFilters, TransferFilters } from "./request.js";

/** A collection as a page renders it (the decoder's key-index row is the same shape). */
export type CollectionRow = Omit<KeyCollectionRow, "mc_seqno">;

const COLLECTION_COLUMNS = "address, next_item_index, owner_address, collection_content, code_hash, data_hash, last_transaction_lt";

/** Collections in address order (toncenter's is insertion order, which the store does not keep). */
export async function collections(store: Store, f: CollectionFilters, page: Page, upTo: number): Promise<CollectionRow[]> {
  const keys = new Where("k");
  if (f.addresses.length) keys.add("address IN {}", ["Array(String)", f.addresses]);
  const w = new Where("w");
  if (f.owners.length) w.add("owner_address IN {}", ["Array(String)", f.owners]);
  afterCursor(w, "nft/collections", page, ["address"], ["address"], true);
  return select<CollectionRow>(
    store,
    `SELECT * FROM ${latestOf("nft_collections", COLLECTION_COLUMNS, keys, upTo)} ${w.sql} ORDER BY address ${limitOf(w, page)}`,
    { ...keys.params, ...w.params },
  );
}

/** The collections of these addresses (those decoded), by address. */
export async function collectionsByAddress(store: Store, addresses: readonly string[], upTo: number): Promise<Map<string, CollectionRow>> {
  const wanted = [...new Set(addresses.filter((a) => a !== ""))];
  if (!wanted.length) return new Map();
  const keys = new Where("k").add("address IN {}", ["Array(String)", wanted]);
  const rows = await select<CollectionRow>(store, `SELECT * FROM ${latestOf("nft_collections", COLLECTION_COLUMNS, keys, upTo)}`, keys.params);
  return new Map(rows.map((r) => [r.address, r]));
}

/** An item as a page renders it (the decoder's key-index row is the same shape). */
export type ItemRow = Omit<KeyItemRow, "verdict" | "mc_seqno">;

const ITEM_COLUMNS =
  "address, init, nft_index, collection_address, owner_address, content, verdict, on_sale, sale_contract_address, auction_contract_address, real_owner, code_hash, data_hash, last_transaction_lt";

/**
 * The order of an items page, each ending with the address: newest last transaction first with
 * sort_by_last_transaction_lt; with owners by (owner, collection, index) as toncenter; else by
 * (collection, index), the table's own order.
 */
export function itemOrder(f: Pick<ItemFilters, "owners" | "includeOnSale" | "byLastTransactionLt">): { columns: string[]; kinds: KeyKind[]; asc: boolean } {
  if (f.byLastTransactionLt) return { columns: ["last_transaction_lt", "address"], kinds: ["uint64", "address"], asc: false };
  const byCollection = { columns: ["collection_address", "nft_index", "address"], kinds: ["text", "uint256", "address"] satisfies KeyKind[] };
  if (!f.owners.length) return { ...byCollection, asc: true };
  return { columns: [ownerColumn(f), ...byCollection.columns], kinds: ["address", ...byCollection.kinds], asc: true };
}

const ownerColumn = (f: Pick<ItemFilters, "includeOnSale">): string => (f.includeOnSale ? "real_owner" : "owner_address");

/** Confirmed items (their collection returns their address for their index, or they have none). */
export async function items(store: Store, f: ItemFilters, page: Page, upTo: number): Promise<ItemRow[]> {
  const keys = new Where("k");
  if (f.addresses.length) keys.add("address IN {}", ["Array(String)", f.addresses]);
  if (f.collections.length) keys.add("collection_address IN {}", ["Array(String)", f.collections]);
  // as numbers: the client quotes strings, which an Array(UInt256) parameter does not read
  if (f.indexes.length) keys.add("nft_index IN {}", ["Array(UInt256)", f.indexes.map(BigInt)]);
  const w = new Where("w");
  w.add("verdict = 'confirmed'");
  if (f.owners.length) {
    // an owner changes: the latest row decides, after the items that ever had it are found
    const owner = ownerColumn(f);
    keys.add(`address IN (SELECT address FROM nft_items WHERE ${owner} IN {})`, ["Array(String)", f.owners]);
    w.add(`${owner} IN {}`, ["Array(String)", f.owners]);
  }
  const order = itemOrder(f);
  afterCursor(w, "nft/items", page, order.columns, order.kinds, order.asc);
  return select<ItemRow>(
    store,
    `SELECT * FROM ${latestOf("nft_items", ITEM_COLUMNS, keys, upTo)} ${w.sql} ${orderBy(order.columns, order.asc)} ${limitOf(w, page)}`,
    { ...keys.params, ...w.params },
  );
}

/** The confirmed items of these addresses, by address. */
export async function itemsByAddress(store: Store, addresses: readonly string[], upTo: number): Promise<Map<string, ItemRow>> {
  const wanted = [...new Set(addresses.filter((a) => a !== ""))];
  if (!wanted.length) return new Map();
  const keys = new Where("k").add("address IN {}", ["Array(String)", wanted]);
  const rows = await select<ItemRow>(store, `SELECT * FROM ${latestOf("nft_items", ITEM_COLUMNS, keys, upTo)} WHERE verdict = 'confirmed'`, keys.params);
  return new Map(rows.map((r) => [r.address, r]));
}

export type TransferRow = {
  transaction_hash: string;
  transaction_lt: string;
  transaction_now: number;
  transaction_aborted: boolean;
  query_id: string;
  nft_address: string;
  nft_collection: string;
  old_owner: string;
  new_owner: string;
  response_destination: string | null;
  custom_payload: string | null;
  forward_amount: string;
  forward_payload: string | null;
  trace_id: string | null;
};

/** Transfers of confirmed items, not aborted (toncenter lists aborted ones: a transfer that did not happen). */
export async function transfers(store: Store, f: TransferFilters, asc: boolean, page: Page, upTo: number): Promise<TransferRow[]> {
  const w = new Where();
  listedEvents(w, upTo);
  byOwners(w, f.owners, f.direction, "old_owner", "new_owner");
  if (f.items.length) w.add("nft_address IN {}", ["Array(String)", f.items]);
  if (f.collection !== undefined) w.add("nft_collection = {}", ["String", f.collection]);
  inRanges(w, f);
  const order = eventOrder(f);
  afterCursor(w, "nft/transfers", page, order.columns, order.kinds, asc);
  return select<TransferRow>(
    store,
    `SELECT transaction_hash, transaction_lt, transaction_now, transaction_aborted, query_id, nft_address, nft_collection, old_owner,
            new_owner, response_destination, custom_payload, forward_amount, forward_payload, trace_id
     FROM nft_transfers FINAL ${w.sql} ${orderBy(order.columns, asc)} ${limitOf(w, page)}`,
    w.params,
  );
}

export type SaleRow = {
  address: string;
  type: "getgems_sale" | "getgems_auction" | "telemint";
  nft_address: string;
  nft_owner_address: string | null;
  marketplace_address: string | null;
  created_at: number | null;
  is_complete: boolean | null;
  full_price: string | null;
  marketplace_fee_address: string | null;
  marketplace_fee: string | null;
  royalty_address: string | null;
  royalty_amount: string | null;
  end_flag: boolean | null;
  last_bid: string | null;
  last_member: string | null;
  min_step: string | null;
  mp_fee_address: string | null;
  mp_fee_factor: number | null;
  mp_fee_base: number | null;
  royalty_fee_address: string | null;
  royalty_fee_factor: number | null;
  royalty_fee_base: number | null;
  last_bid_at: number | null;
  is_canceled: boolean | null;
  min_bid: string | null;
  max_bid: string | null;
  end_time: number | null;
  token_name: string | null;
  bidder_address: string | null;
  bid: string | null;
  bid_ts: number | null;
  beneficiary_address: string | null;
  initial_min_bid: string | null;
  min_bid_step: number | null;
  min_extend_time: number | null;
  duration: number | null;
  royalty_numerator: number | null;
  royalty_denominator: number | null;
  royalty_destination: string | null;
  code_hash: string;
  data_hash: string;
  last_transaction_lt: string;
};

const SALE_COLUMNS =
  "address, type, nft_address, nft_owner_address, marketplace_address, created_at, is_complete, full_price, marketplace_fee_address, " +
  "marketplace_fee, royalty_address, royalty_amount, end_flag, last_bid, last_member, min_step, mp_fee_address, mp_fee_factor, mp_fee_base, " +
  "royalty_fee_address, royalty_fee_factor, royalty_fee_base, last_bid_at, is_canceled, min_bid, max_bid, end_time, token_name, " +
  "bidder_address, bid, bid_ts, beneficiary_address, initial_min_bid, min_bid_step, min_extend_time, duration, royalty_numerator, " +
  "royalty_denominator, royalty_destination, code_hash, data_hash, last_transaction_lt";

/** Sales, auctions and telemint items of these addresses, in address order. */
export async function sales(store: Store, addresses: readonly string[], upTo: number): Promise<SaleRow[]> {
  const keys = new Where("k").add("address IN {}", ["Array(String)", [...new Set(addresses)]]);
  return select<SaleRow>(store, `SELECT * FROM ${latestOf("nft_sales", SALE_COLUMNS, keys, upTo)} ORDER BY address`, keys.params);
}
