// jetton_burn: burn → the owner's wallet, optionally burn_notification → the minter (TEP-74).
import { JETTON_OPCODES, loadJettonBurn } from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import { bodySlice } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { BlockMatcher, ContractMatcher } from "../../engine/matcher.js";

export interface JettonBurnData {
  owner: string;
  jettonWallet: string;
  amount: bigint;
  asset: string;
}

export class JettonBurnBlock extends Block {
  constructor(public data: JettonBurnData) {
    super("jetton_burn", []);
  }

  override fill(row: ActionRow): void {
    row.source = this.data.owner;
    row.source_secondary = this.data.jettonWallet;
    row.asset = this.data.asset;
    row.amount = this.data.amount;
  }
}

export class JettonBurnBlockMatcher extends BlockMatcher {
  constructor() {
    super({ child: new ContractMatcher(JETTON_OPCODES.jetton_burn_notification, { optional: true, includeExcess: true }) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === JETTON_OPCODES.jetton_burn;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof CallContractBlock) || block.destination === null) return [];
    const burn = loadJettonBurn(bodySlice(block.node.message!));
    const wallet = ctx.jettonWallet(block.destination);
    if (wallet === null) throw new Error(`jetton_burn: ${block.destination} is not a known jetton wallet`);
    const nb = new JettonBurnBlock({ owner: wallet.owner, jettonWallet: block.destination, amount: burn.amount, asset: wallet.jetton });
    nb.valueFlow.addJetton(wallet.owner, wallet.jetton, -burn.amount);
    nb.mergeBlocks([block, ...others]);
    nb.failed = block.failed;
    return [nb];
  }
}
