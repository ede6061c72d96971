// nft_discovery: get_static_data sent to an item and its report_static_data answer (TEP-62's way
// to learn an item's collection and index on chain; toncenter's NftDiscoveryBlockMatcher).
import { NFT_OPCODES } from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import { BlockMatcher, ContractMatcher, labeled } from "../../engine/matcher.js";
import { getLabeled } from "../../engine/helpers.js";
import { readReportStaticData } from "./bodies.js";

export interface NftDiscoveryData {
  sender: string | null;
  nft: string | null;
  collection: string | null;
  index: bigint;
  queryId: bigint;
}

export class NftDiscoveryBlock extends Block {
  constructor(readonly data: NftDiscoveryData) {
    super("nft_discovery", []);
  }

  override fill(row: ActionRow): void {
    row.source = this.data.sender;
    row.asset = this.data.collection;
    row.asset_secondary = this.data.nft;
    row.nft_transfer_data = { nft_item_index: this.data.index };
  }
}

export class NftDiscoveryMatcher extends BlockMatcher {
  constructor() {
    super({ child: labeled("report", new ContractMatcher(NFT_OPCODES.report_static_data)) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === NFT_OPCODES.get_static_data;
  }

  override buildBlock(block: Block, others: Block[]): Block[] {
    const report = getLabeled("report", others, CallContractBlock);
    if (!report) return [];
    const r = readReportStaticData(report.node.message!);
    const built = new NftDiscoveryBlock({ sender: block.node.source, nft: block.node.destination, collection: r.collection, index: r.index, queryId: r.queryId });
    built.mergeBlocks([block, report]);
    return [built];
  }
}
