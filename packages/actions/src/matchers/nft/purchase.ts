// nft_purchase: a getgems sale or auction sold an item, i.e. a purchase-marked nft_transfer plus the
// payout to the seller (toncenter's GetgemsNftPurchaseBlockMatcher). dns_purchase (a .ton auction
// won, dns/auction.ts) is published in the same shape.
import type { ActionRow } from "../../action.js";
import { TonTransferBlock } from "../../engine/basic.js";
import { Block, EmptyBlock } from "../../engine/block.js";
import { BlockMatcher } from "../../engine/matcher.js";
import { AUCTION_END_COMMENTS, NftTransferBlock } from "./transfer.js";

export interface NftPurchaseData {
  nftAddress: string;
  collection: string | null;
  nftIndex: bigint | null;
  prevOwner: string | null;
  newOwner: string | null;
  queryId: bigint | null;
  forwardAmount: bigint | null;
  responseDestination: string | null;
  customPayload: string | null;
  forwardPayload: string | null;
  payoutAmount: bigint | null;
  payoutCommentEncrypted: boolean | null;
  payoutCommentEncoded: boolean | null;
  payoutComment: string | null;
  price: bigint | null;
  realPrevOwner: string | null;
  marketplace: string | null;
  marketplaceAddress: string | null;
}

export class NftPurchaseBlock extends Block {
  constructor(
    readonly data: NftPurchaseData,
    kind: "nft_purchase" | "dns_purchase" = "nft_purchase",
  ) {
    super(kind, []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    if (d.prevOwner !== null) row.source = d.prevOwner;
    row.destination = d.newOwner;
    row.asset_secondary = d.nftAddress;
    row.asset = d.collection;
    row.nft_transfer_data = {
      query_id: d.queryId,
      is_purchase: true,
      price: d.price,
      nft_item_index: d.nftIndex,
      forward_amount: d.forwardAmount,
      custom_payload: d.customPayload,
      forward_payload: d.forwardPayload,
      response_destination: d.responseDestination,
      marketplace: d.marketplace,
      marketplace_address: d.marketplaceAddress,
      real_prev_owner: d.realPrevOwner,
      payout_amount: d.payoutAmount,
      payout_comment_encrypted: d.payoutCommentEncrypted,
      payout_comment_encoded: d.payoutCommentEncoded,
      payout_comment: d.payoutComment,
    };
  }
}

export class GetgemsNftPurchaseMatcher extends BlockMatcher {
  override testSelf(block: Block): boolean {
    return block instanceof NftTransferBlock && block.data.isPurchase && block.data.marketplace === "getgems";
  }

  override buildBlock(block: Block): Block[] {
    if (!(block instanceof NftTransferBlock)) return [];
    const d = block.data;
    if (d.realPrevOwner === null) return [];
    const include: Block[] = [block];
    // an auction ended by a "finish"/"stop" comment pays the seller from that comment's transaction
    const prev = block.previous;
    const ended = prev instanceof TonTransferBlock && prev.comment !== null && AUCTION_END_COMMENTS.includes(prev.comment);
    const candidates = ended ? prev.next : block.next;
    const payout = candidates.find((b): b is TonTransferBlock => b instanceof TonTransferBlock && b.node.destination === d.realPrevOwner);
    if (!payout) return [];
    include.push(payout);
    const built = new NftPurchaseBlock({
      nftAddress: d.nft.address,
      collection: d.nft.collection,
      nftIndex: d.nft.index,
      prevOwner: d.prevOwner,
      newOwner: d.newOwner,
      queryId: d.queryId,
      forwardAmount: d.forwardAmount,
      responseDestination: d.responseDestination,
      customPayload: d.customPayload,
      forwardPayload: d.forwardPayload,
      payoutAmount: payout.value,
      payoutCommentEncrypted: payout.encrypted,
      payoutCommentEncoded: payout.encrypted && payout.comment !== null,
      payoutComment: payout.comment,
      price: d.price,
      realPrevOwner: d.realPrevOwner,
      marketplace: d.marketplace,
      marketplaceAddress: d.marketplaceAddress,
    });
    if (ended) {
      // the transfer and the payout are siblings after the comment: a wrapper joins them
      const proxy = new EmptyBlock();
      prev.insertBetween([block, payout], proxy);
      include.push(proxy);
    }
    built.mergeBlocks(include);
    return [built];
  }
}
