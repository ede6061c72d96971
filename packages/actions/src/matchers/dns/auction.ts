// .ton domain auctions (toncenter's DnsPurchaseMatcher and DnsReleaseMatcher): dns_purchase is the
// auction_fill_up a domain sends when a call made it its buyer's, dns_release a dns_balance_release
// (an owner gives a domain up to a new auction).
import { DNS_OPCODES } from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { BlockMatcher, BlockTypeMatcher } from "../../engine/matcher.js";
import { readOptionalQueryId } from "../nft/bodies.js";
import { isDnsItem } from "../nft/items.js";
import { NftPurchaseBlock } from "../nft/purchase.js";

export class DnsPurchaseMatcher extends BlockMatcher {
  constructor() {
    super({ parent: new BlockTypeMatcher("call_contract") });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === DNS_OPCODES.auction_fill_up;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    const call = others[0];
    const node = block.node;
    const item = ctx.nftItem(node.source);
    if (!call || !item || node.source === null || !isDnsItem(item)) return [];
    const paid = node.message!.value;
    const built = new NftPurchaseBlock(
      {
        nftAddress: node.source,
        collection: item.collectionAddress,
        nftIndex: item.index,
        prevOwner: null,
        newOwner: call.node.source,
        queryId: readOptionalQueryId(node.message!, DNS_OPCODES.auction_fill_up),
        forwardAmount: null,
        responseDestination: null,
        customPayload: null,
        forwardPayload: null,
        payoutAmount: paid,
        payoutCommentEncrypted: null,
        payoutCommentEncoded: null,
        payoutComment: null,
        price: paid,
        realPrevOwner: null,
        marketplace: null,
        marketplaceAddress: null,
      },
      "dns_purchase",
    );
    built.mergeBlocks([block]);
    built.failed = node.tx.aborted;
    return [built];
  }
}

export interface DnsReleaseData {
  queryId: bigint | null;
  nft: string;
  collection: string | null;
  index: bigint;
  source: string | null;
  value: bigint | null;
}

export class DnsReleaseBlock extends Block {
  constructor(readonly data: DnsReleaseData) {
    super("dns_release", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.source;
    row.destination = d.nft;
    row.asset = d.collection;
    row.nft_transfer_data = { query_id: d.queryId, nft_item_index: d.index };
    row.value = d.value;
  }
}

export class DnsReleaseMatcher extends BlockMatcher {
  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === DNS_OPCODES.dns_balance_release;
  }

  override buildBlock(block: Block, _others: Block[], ctx: MatchContext): Block[] {
    const node = block.node;
    const item = ctx.nftItem(node.destination);
    if (!item || node.destination === null || !isDnsItem(item)) return [];
    const built = new DnsReleaseBlock({
      queryId: readOptionalQueryId(node.message!, DNS_OPCODES.dns_balance_release),
      nft: node.destination,
      collection: item.collectionAddress,
      index: item.index,
      source: node.source,
      value: node.message!.value,
    });
    built.mergeBlocks([block]);
    built.failed = node.tx.aborted;
    return [built];
  }
}
