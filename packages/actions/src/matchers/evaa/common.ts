// What the EVAA matchers share: the master → user-contract commands (opcode after the upgrade
// header), the comments EVAA's payouts carry, and its TON asset id.
import { evaaUserCommandOpcode } from "@tongate/contracts";
import { CallContractBlock, TonTransferBlock } from "../../engine/basic.js";
import type { Block } from "../../engine/block.js";
import { BlockMatcher, GenericMatcher, type MatcherOptions } from "../../engine/matcher.js";
import { JettonTransferBlock } from "../jettons/transfer.js";

/** sha256("TON"): EVAA's asset id of TON. */
export const EVAA_TON_ASSET_ID = 0x1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8an;

const EVAA_COMMENTS = new Set(["EVAA liquidation.", "EVAA supply.", "EVAA withdraw."]);

/** The comment transfer EVAA sends with a payout or a change. */
export const evaaCommentMatcher = () => new GenericMatcher((b) => b instanceof TonTransferBlock && b.comment !== null && EVAA_COMMENTS.has(b.comment), { optional: true });

/** A command of the master to a user contract: its opcode follows the user contract's upgrade header. */
export class EvaaUserCommandMatcher extends BlockMatcher {
  constructor(
    readonly opcode: number,
    o: MatcherOptions = {},
  ) {
    super(o);
  }

  override testSelf(block: Block): boolean {
    if (!(block instanceof CallContractBlock) || block.node.message === null) return false;
    try {
      return evaaUserCommandOpcode(block.body()) === this.opcode;
    } catch {
      return false;
    }
  }
}


/**
 * Whether a jetton transfer's forward payload starts with `opcode` (the jetton flavour of a master
 * call), by the payload's opcode the transfer already read ("0x" and hex digits).
 */
export function jettonPayloadOpcodeTest(opcode: number): (block: Block) => block is JettonTransferBlock {
  const want = `0x${opcode.toString(16)}`;
  return (block): block is JettonTransferBlock => block instanceof JettonTransferBlock && block.data.payload.opcode === want;
}
