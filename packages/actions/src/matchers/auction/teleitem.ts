// A Fragment teleitem's owner starts or cancels an auction of the item itself (toncenter's
// TeleitemStartAuctionMatcher and TeleitemCancelAuctionMatcher); the item answers teleitem_ok.
import type { Block } from "../../engine/block.js";
import { CallContractBlock } from "../../engine/basic.js";
import type { MatchContext } from "../../engine/context.js";
import { BlockMatcher, ContractMatcher, labeled } from "../../engine/matcher.js";
import { readTeleitemStartAuction, TELEITEM_OPCODES } from "../nft/bodies.js";
import { isTeleitem } from "../nft/items.js";
import { NftPutOnAuctionBlock } from "./listings.js";
import { NftTradeEndBlock } from "./trades.js";

const teleitemOk = () => labeled("teleitem_ok", new ContractMatcher(TELEITEM_OPCODES.ok, { optional: true }));

export class TeleitemStartAuctionMatcher extends BlockMatcher {
  constructor() {
    super({ child: teleitemOk(), includeExcess: false });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === TELEITEM_OPCODES.start_auction;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    const node = block.node;
    const item = ctx.nftItem(node.destination);
    if (!item || node.destination === null || !isTeleitem(item)) return [];
    const start = readTeleitemStartAuction(node.message!);
    const built = new NftPutOnAuctionBlock(
      { nft: { address: node.destination, index: item.index, collection: item.collectionAddress }, owner: node.source, listing: null, marketplaceAddress: null, marketplace: "fragment" },
      node.destination,
      { marketplaceFeeAddress: start.beneficiary, marketplaceFeeFactor: 0n, marketplaceFeeBase: 0n, royaltyAddress: null, royaltyFeeBase: 0n, minBid: start.initialMinBid, maxBid: start.maxBid },
      "teleitem_start_auction",
    );
    built.failed = node.tx.aborted;
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

export class TeleitemCancelAuctionMatcher extends BlockMatcher {
  constructor() {
    super({ child: teleitemOk(), includeExcess: false });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === TELEITEM_OPCODES.cancel_auction;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    const node = block.node;
    const item = ctx.nftItem(node.destination);
    if (!item || node.destination === null || !isTeleitem(item)) return [];
    const built = new NftTradeEndBlock("teleitem_cancel_auction", {
      nft: node.destination,
      collection: item.collectionAddress,
      owner: node.source,
      tradeContract: node.destination,
      marketplaceAddress: null,
    });
    built.mergeBlocks([block, ...others]);
    built.failed = node.tx.aborted;
    return [built];
  }
}
