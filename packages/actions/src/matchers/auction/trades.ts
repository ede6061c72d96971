// The end of a getgems sale or auction without a sale: the owner cancels (op 3 to a sale; "cancel"
// or op 0x5616c572 to an auction) and the item comes back, or an auction is finished ("finish",
// "stop" or their ops) — toncenter's NftCancelSaleMatcher, NftCancelAuctionMatcher and
// NftFinishAuctionMatcher. teleitem_cancel_auction (teleitem.ts) has the same shape.
import type { ActionRow } from "../../action.js";
import { CallContractBlock, TonTransferBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { BlockMatcher, BlockTypeMatcher, labeled } from "../../engine/matcher.js";
import { getLabeled } from "../../engine/helpers.js";
import { NftPurchaseBlock } from "../nft/purchase.js";
import { NftTransferBlock } from "../nft/transfer.js";

export type TradeEndKind = "nft_cancel_sale" | "nft_cancel_auction" | "nft_finish_auction" | "teleitem_cancel_auction";

export interface TradeEndData {
  nft: string;
  collection: string | null;
  owner: string | null;
  /** the sale or auction contract (the teleitem itself for its own auction) */
  tradeContract: string;
  marketplaceAddress: string | null;
}

export class NftTradeEndBlock extends Block {
  constructor(
    kind: TradeEndKind,
    readonly data: TradeEndData,
  ) {
    super(kind, []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.owner;
    row.destination = d.tradeContract;
    row.asset_secondary = d.nft;
    row.asset = d.collection;
    row.nft_transfer_data = { marketplace_address: d.marketplaceAddress };
  }

  override extraAccounts(): string[] {
    return [this.data.nft];
  }
}

const CANCEL_SALE = 0x3;
const AUCTION_OPS = { cancel: 0x5616c572, finish: 0x20c9eb18, stop: 0xb95616b6 } as const;
const AUCTION_OP_SET = new Set<number>(Object.values(AUCTION_OPS));
const AUCTION_COMMENTS = ["cancel", "finish", "stop"];

/** The trade's terms when the returned item is the one the sale (or auction) held. */
function tradeEnd(block: Block, returned: NftTransferBlock, ctx: MatchContext, isSale: boolean): TradeEndData | null {
  const contract = block.node.destination;
  if (contract === null) return null;
  const trade = isSale ? ctx.nftSale(contract) : ctx.nftAuction(contract);
  if (!trade || trade.nftAddress !== returned.data.nft.address) return null;
  return { nft: returned.data.nft.address, collection: returned.data.nft.collection, owner: returned.data.newOwner, tradeContract: contract, marketplaceAddress: trade.marketplaceAddress };
}

export class NftCancelSaleMatcher extends BlockMatcher {
  constructor() {
    super({ child: labeled("nft_transfer", new BlockTypeMatcher("nft_transfer")) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === CANCEL_SALE;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    const returned = getLabeled("nft_transfer", others, NftTransferBlock);
    const data = returned ? tradeEnd(block, returned, ctx, true) : null;
    if (!data) return [];
    const built = new NftTradeEndBlock("nft_cancel_sale", data);
    built.mergeBlocks([block]);
    return [built];
  }
}

const isFinish = (block: Block): boolean =>
  block instanceof CallContractBlock
    ? block.opcode === AUCTION_OPS.finish || block.opcode === AUCTION_OPS.stop
    : block instanceof TonTransferBlock && (block.comment === "finish" || block.comment === "stop");

export class NftCancelAuctionMatcher extends BlockMatcher {
  constructor() {
    super({ child: labeled("nft_transfer", new BlockTypeMatcher("nft_transfer")) });
  }

  override testSelf(block: Block): boolean {
    if (block instanceof TonTransferBlock) return block.comment !== null && AUCTION_COMMENTS.includes(block.comment);
    return block instanceof CallContractBlock && block.opcode !== null && AUCTION_OP_SET.has(block.opcode);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    const returned = getLabeled("nft_transfer", others, NftTransferBlock);
    const data = returned ? tradeEnd(block, returned, ctx, false) : null;
    if (!data) return [];
    const built = new NftTradeEndBlock(isFinish(block) ? "nft_finish_auction" : "nft_cancel_auction", data);
    built.mergeBlocks([block]);
    return [built];
  }
}

/** An auction finished with a sale: the finish message and the purchase it caused. */
export class NftFinishAuctionMatcher extends BlockMatcher {
  constructor() {
    super({ child: labeled("nft_purchase", new BlockTypeMatcher("nft_purchase")) });
  }

  override testSelf(block: Block): boolean {
    return isFinish(block);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    const purchase = getLabeled("nft_purchase", others, NftPurchaseBlock);
    const contract = block.node.destination;
    const auction = contract === null ? null : ctx.nftAuction(contract);
    if (!purchase || !auction || contract === null || purchase.data.nftAddress !== auction.nftAddress) return [];
    const built = new NftTradeEndBlock("nft_finish_auction", {
      nft: purchase.data.nftAddress,
      collection: purchase.data.collection,
      owner: purchase.data.newOwner,
      tradeContract: contract,
      marketplaceAddress: null,
    });
    built.mergeBlocks([block]);
    return [built];
  }
}
