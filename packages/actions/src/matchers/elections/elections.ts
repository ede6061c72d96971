// election_deposit / election_recover: a validator's wallet or pool sends new_stake or
// recover_stake to the elector, which confirms the stake or returns the stake with its reward.
// Without the elector's answer the action failed.
import { STAKING_OPCODES } from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { getLabeled } from "../../engine/helpers.js";
import { BlockMatcher, ContractMatcher, labeled } from "../../engine/matcher.js";

/** The elector smart contract (config param 1 on mainnet and on localnets built the standard way). */
export const ELECTOR_ADDRESS = `-1:${"3".repeat(64)}`;

export interface ElectionData {
  stakeHolder: string | null;
  amount: bigint | null;
}

class ElectionBlock extends Block {
  constructor(
    kind: "election_deposit" | "election_recover",
    readonly data: ElectionData,
  ) {
    super(kind, []);
  }

  override fill(row: ActionRow): void {
    row.source = this.data.stakeHolder;
    row.amount = this.data.amount;
  }
}

/** A call to the elector with `request`, optionally answered by `confirmation`. */
abstract class ElectorCallMatcher extends BlockMatcher {
  constructor(
    readonly request: number,
    confirmation: number,
  ) {
    super({ child: labeled("confirmation", new ContractMatcher(confirmation, { optional: true, includeExcess: false })), includeExcess: false });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === this.request && block.destination === ELECTOR_ADDRESS;
  }
}

export class ElectionDepositStakeBlockMatcher extends ElectorCallMatcher {
  constructor() {
    super(STAKING_OPCODES.elector_new_stake, STAKING_OPCODES.elector_new_stake_confirmation);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    const m = block.node.message!;
    const confirmation = getLabeled("confirmation", others, CallContractBlock);
    const built = new ElectionBlock("election_deposit", { stakeHolder: m.source, amount: m.value });
    built.failed = confirmation === null;
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

export class ElectionRecoverStakeBlockMatcher extends ElectorCallMatcher {
  constructor() {
    super(STAKING_OPCODES.elector_recover_stake_request, STAKING_OPCODES.elector_recover_stake_response);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    const m = block.node.message!;
    const response = getLabeled("confirmation", others, CallContractBlock);
    const built = new ElectionBlock("election_recover", { stakeHolder: m.source, amount: response === null ? null : response.node.message!.value });
    built.failed = response === null;
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}
