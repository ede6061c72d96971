// The decoder's NFT rows → API v3's NFTs objects, as toncenter renders them (ton-index-go
// models/nft.go, parse/scan_nft.go).
import { create } from "@bufbuild/protobuf";
import {
  type NftCollection,
  NftCollectionSchema,
  type NftItem,
  NftItemSchema,
  type NftSale,
  type NftSaleDetails,
  NftSaleDetailsGetgemsAuctionSchema,
  NftSaleDetailsGetgemsSaleSchema,
  NftSaleDetailsSchema,
  NftSaleDetailsTelemintSchema,
  NftSaleSchema,
  type NftTransfer,
  NftTransferSchema,
} from "@tongate/proto/gen/tongate/v3/nfts_pb.js";
import { jsonObject } from "../decoded.js";
import { opt } from "../sql.js";
import type { CollectionRow, ItemRow, SaleRow, TransferRow } from "./queries.js";

/** '' in a key column: none. */
const some = (v: string): string | undefined => (v === "" ? undefined : v);
/** A number toncenter sends as text. */
const text = (v: number | null): string | undefined => (v === null ? undefined : String(v));

export const collectionOf = (r: CollectionRow): NftCollection =>
  create(NftCollectionSchema, {
    address: r.address,
    ownerAddress: opt(r.owner_address),
    lastTransactionLt: BigInt(r.last_transaction_lt),
    nextItemIndex: r.next_item_index,
    collectionContent: jsonObject(r.collection_content),
    dataHash: r.data_hash,
    codeHash: r.code_hash,
  });

/** An item with its collection (when the collection is decoded). */
export function itemOf(r: ItemRow, collections: ReadonlyMap<string, CollectionRow>): NftItem {
  const collection = collections.get(r.collection_address);
  return create(NftItemSchema, {
    address: r.address,
    init: r.init,
    index: r.nft_index,
    collectionAddress: some(r.collection_address),
    ownerAddress: some(r.owner_address),
    content: jsonObject(r.content),
    lastTransactionLt: BigInt(r.last_transaction_lt),
    codeHash: r.code_hash,
    dataHash: r.data_hash,
    collection: collection ? collectionOf(collection) : undefined,
    onSale: r.on_sale,
    saleContractAddress: opt(r.sale_contract_address),
    auctionContractAddress: opt(r.auction_contract_address),
    realOwner: some(r.real_owner),
  });
}

export const transferOf = (r: TransferRow): NftTransfer =>
  create(NftTransferSchema, {
    queryId: BigInt(r.query_id),
    nftAddress: r.nft_address,
    nftCollection: some(r.nft_collection),
    transactionHash: r.transaction_hash,
    transactionLt: BigInt(r.transaction_lt),
    transactionNow: r.transaction_now,
    transactionAborted: r.transaction_aborted,
    oldOwner: r.old_owner,
    newOwner: r.new_owner,
    responseDestination: opt(r.response_destination),
    customPayload: opt(r.custom_payload),
    forwardAmount: r.forward_amount,
    forwardPayload: opt(r.forward_payload),
    traceId: opt(r.trace_id),
  });

/** The details of a sale by its type (toncenter's NFTSaleDetailsGetgemsSale, …Auction, …Teleitem). */
function detailsOf(r: SaleRow): NftSaleDetails {
  switch (r.type) {
    case "getgems_sale":
      return create(NftSaleDetailsSchema, {
        details: {
          case: "getgemsSale",
          value: create(NftSaleDetailsGetgemsSaleSchema, {
            isComplete: opt(r.is_complete),
            fullPrice: opt(r.full_price),
            marketplaceFeeAddress: opt(r.marketplace_fee_address),
            marketplaceFee: opt(r.marketplace_fee),
            royaltyAddress: opt(r.royalty_address),
            royaltyAmount: opt(r.royalty_amount),
          }),
        },
      });
    case "getgems_auction":
      return create(NftSaleDetailsSchema, {
        details: {
          case: "getgemsAuction",
          value: create(NftSaleDetailsGetgemsAuctionSchema, {
            endFlag: opt(r.end_flag),
            endTime: opt(r.end_time),
            lastBid: opt(r.last_bid),
            lastMember: opt(r.last_member),
            minStep: r.min_step === null ? undefined : Number(r.min_step),
            mpFeeAddress: opt(r.mp_fee_address),
            mpFeeFactor: opt(r.mp_fee_factor),
            mpFeeBase: opt(r.mp_fee_base),
            royaltyFeeAddress: opt(r.royalty_fee_address),
            royaltyFeeFactor: opt(r.royalty_fee_factor),
            royaltyFeeBase: opt(r.royalty_fee_base),
            maxBid: opt(r.max_bid),
            minBid: opt(r.min_bid),
            lastBidAt: opt(r.last_bid_at),
            isCanceled: opt(r.is_canceled),
          }),
        },
      });
    case "telemint":
      return create(NftSaleDetailsSchema, {
        details: {
          case: "telemint",
          value: create(NftSaleDetailsTelemintSchema, {
            tokenName: opt(r.token_name),
            bidderAddress: opt(r.bidder_address),
            bid: opt(r.bid),
            bidTs: text(r.bid_ts),
            minBid: opt(r.min_bid),
            endTime: opt(r.end_time),
            beneficiaryAddress: opt(r.beneficiary_address),
            initialMinBid: opt(r.initial_min_bid),
            maxBid: opt(r.max_bid),
            minBidStep: text(r.min_bid_step),
            minExtendTime: text(r.min_extend_time),
            duration: text(r.duration),
            royaltyNumerator: opt(r.royalty_numerator),
            royaltyDenominator: opt(r.royalty_denominator),
            royaltyDestination: opt(r.royalty_destination),
          }),
        },
      });
  }
}

/** A sale with the item it holds (when the item is decoded and confirmed) and that item's collection. */
export function saleOf(r: SaleRow, items: ReadonlyMap<string, ItemRow>, collections: ReadonlyMap<string, CollectionRow>): NftSale {
  const item = items.get(r.nft_address);
  return create(NftSaleSchema, {
    type: r.type,
    address: r.address,
    nftAddress: some(r.nft_address),
    nftOwnerAddress: opt(r.nft_owner_address),
    marketplaceAddress: opt(r.marketplace_address),
    createdAt: opt(r.created_at),
    lastTransactionLt: BigInt(r.last_transaction_lt),
    codeHash: r.code_hash,
    dataHash: r.data_hash,
    details: detailsOf(r),
    nftItem: item ? itemOf(item, collections) : undefined,
  });
}
