// nft_mint: a message deployed an NFT item (toncenter's NftMintBlockMatcher, the first matcher of
// all): the block deployed exactly one contract and the facts know it as an item.
import type { ActionRow } from "../../action.js";
import { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { BlockMatcher } from "../../engine/matcher.js";

export interface NftMintData {
  source: string | null;
  item: string;
  index: bigint;
  opcode: number | null;
  collection: string | null;
}

export class NftMintBlock extends Block {
  constructor(readonly data: NftMintData) {
    super("nft_mint", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    if (d.source) row.source = d.source;
    row.destination = d.item;
    row.asset_secondary = d.item;
    row.opcode = d.opcode;
    if (d.collection) row.asset = d.collection;
    row.nft_mint_data = { nft_item_index: d.index };
  }
}

export class NftMintMatcher extends BlockMatcher {
  override testSelf(block: Block): boolean {
    return block.deployments.size === 1;
  }

  override buildBlock(block: Block, _others: Block[], ctx: MatchContext): Block[] {
    const [address] = block.deployments;
    const item = ctx.nftItem(address);
    if (!item) return [];
    const node = block.node;
    const built = new NftMintBlock({ source: node.source, item: address, index: item.index, opcode: node.opcode, collection: item.collectionAddress });
    built.mergeBlocks([block]);
    return [built];
  }
}
