// auction_bid: TON sent to a getgems auction, to a Fragment teleitem on auction, or to a .ton domain
// on auction (toncenter's AuctionBidMatcher); auction_outbid: the previous bidder's bid returned
// when a higher one came (AuctionOutbidMatcher).
import { DNS_OPCODES } from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock, TonTransferBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { BlockMatcher } from "../../engine/matcher.js";
import { isDnsItem, isTeleitem } from "../nft/items.js";

type AuctionType = "getgems" | "fragment";

export interface AuctionBidData {
  amount: bigint | null;
  bidder: string | null;
  auction: string;
  nft: string;
  nftIndex: bigint | null;
  collection: string | null;
  auctionType: AuctionType;
}

export class AuctionBidBlock extends Block {
  constructor(readonly data: AuctionBidData) {
    super("auction_bid", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.bidder;
    row.destination = d.auction;
    row.asset_secondary = d.nft;
    row.asset = d.collection;
    row.nft_transfer_data = { nft_item_index: d.nftIndex, marketplace: d.auctionType };
    row.value = d.amount;
  }

  override extraAccounts(): string[] {
    return [this.data.nft];
  }
}

const AUCTION_WORDS = ["cancel", "finish", "stop"];

export class AuctionBidMatcher extends BlockMatcher {
  constructor() {
    super({ includeExcess: false });
  }

  override testSelf(block: Block): boolean {
    return block instanceof TonTransferBlock;
  }

  override buildBlock(block: Block, _others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof TonTransferBlock)) return [];
    const node = block.node;
    const auctionAddress = node.destination;
    const facts = ctx.facts(auctionAddress);
    if (!facts || auctionAddress === null || block.deployments.size > 0) return [];
    if (block.comment !== null && AUCTION_WORDS.includes(block.comment)) return [];
    const base = { amount: node.message!.value, bidder: node.source, auction: auctionAddress };
    let data: AuctionBidData;
    if (facts.nftAuction) {
      const nft = facts.nftAuction.nftAddress;
      const item = ctx.nftItem(nft);
      data = { ...base, nft, nftIndex: item?.index ?? null, collection: item?.collectionAddress ?? null, auctionType: "getgems" };
    } else if (facts.nftItem && (isTeleitem(facts.nftItem) || isDnsItem(facts.nftItem))) {
      // a transfer to a domain is a bid only when it outbid someone (domains take plain TON otherwise)
      if (isDnsItem(facts.nftItem) && !block.next.some((b) => b instanceof CallContractBlock && b.opcode === DNS_OPCODES.outbid_notification)) return [];
      data = { ...base, nft: auctionAddress, nftIndex: facts.nftItem.index, collection: facts.nftItem.collectionAddress, auctionType: "fragment" };
    } else return [];
    const built = new AuctionBidBlock(data);
    built.failed = block.failed;
    built.mergeBlocks([block]);
    return [built];
  }
}

export interface AuctionOutbidData {
  auction: string;
  nft: string;
  collection: string | null;
  /** the bidder whose bid came back */
  bidder: string | null;
  newBidder: string | null;
  amount: bigint | null;
  comment: string | null;
  auctionType: AuctionType;
}

export class AuctionOutbidBlock extends Block {
  constructor(readonly data: AuctionOutbidData) {
    super("auction_outbid", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.auction;
    row.destination = d.bidder;
    row.source_secondary = d.newBidder;
    row.asset_secondary = d.nft;
    row.asset = d.collection;
    row.nft_transfer_data = { marketplace: d.auctionType };
    row.amount = d.amount;
    row.ton_transfer_data = { content: d.comment, encrypted: false };
  }

  override extraAccounts(): string[] {
    return [this.data.nft];
  }
}

const GETGEMS_OUTBID_TEXT = "Your bid has been outbid by another user";

/** getgems returns a bid with a comment saying so, Fragment and .ton auctions with outbid_notification. */
function isBidReturn(b: TonTransferBlock | CallContractBlock, bid: AuctionBidData): boolean {
  if (b.node.source !== bid.auction) return false;
  if (bid.auctionType === "fragment") return b instanceof CallContractBlock && b.opcode === DNS_OPCODES.outbid_notification;
  if (!(b instanceof TonTransferBlock)) return false;
  // toncenter reads the comment of every transfer from the auction and fails on one without
  if (b.comment === null) throw new Error("a transfer from the auction has no comment");
  return b.comment.includes(GETGEMS_OUTBID_TEXT);
}

export class AuctionOutbidMatcher extends BlockMatcher {
  constructor() {
    super({ includeExcess: false });
  }

  override testSelf(block: Block): boolean {
    return block instanceof AuctionBidBlock;
  }

  override buildBlock(block: Block): Block[] {
    if (!(block instanceof AuctionBidBlock)) return [];
    const bid = block.data;
    let returned: TonTransferBlock | CallContractBlock | null = null;
    for (const b of block.next) {
      if (!(b instanceof TonTransferBlock || b instanceof CallContractBlock) || !isBidReturn(b, bid)) continue;
      // more than one candidate is ambiguous: no outbid rather than a wrong one
      if (returned !== null) return [];
      returned = b;
    }
    if (returned === null) return [];
    const built = new AuctionOutbidBlock({
      auction: bid.auction,
      nft: bid.nft,
      collection: bid.collection,
      bidder: returned.node.destination,
      newBidder: bid.bidder,
      amount: returned.node.message!.value,
      comment: returned instanceof TonTransferBlock ? returned.comment : null,
      auctionType: bid.auctionType,
    });
    built.mergeBlocks([returned]);
    return [built];
  }
}
