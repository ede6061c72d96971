// The TON nominator pool (toncenter's NominatorPool: an account with the pool's code): a "d"
// transfer deposits, a "w" transfer asks to withdraw (paid at once when the pool can, else
// later), and the validator's process_withdraw_requests pays the pending withdrawals. A payout
// makes the action a stake_withdrawal, without one it is a stake_withdrawal_request.
import type { ActionRow } from "../../action.js";
import { CallContractBlock, TonTransferBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { BlockMatcher } from "../../engine/matcher.js";
import { NOMINATOR_POOL_PROCESS_WITHDRAW_REQUESTS } from "./messages.js";

const DEPOSIT_COMMENT = "d";
const WITHDRAW_COMMENT = "w";

/**
 * toncenter tells the pool by its code hash (the lookup's nominatorPool); the decoder's interface
 * detection names the same contract tv_pool (by its get-methods).
 */
function isNominatorPool(ctx: MatchContext, address: string | null): boolean {
  const f = ctx.facts(address);
  return f !== undefined && (f.nominatorPool !== undefined || (f.interfaces?.includes("tv_pool") ?? false));
}

export interface NominatorPoolDepositData {
  source: string | null;
  pool: string | null;
  value: bigint | null;
}

export class NominatorPoolDepositBlock extends Block {
  constructor(readonly data: NominatorPoolDepositData) {
    super("nominator_pool_deposit", []);
  }

  override fill(row: ActionRow): void {
    row.source = this.data.source;
    row.destination = this.data.pool;
    row.amount = this.data.value;
    row.staking_data = { provider: "nominator" };
  }
}

export interface NominatorPoolWithdrawData {
  source: string | null;
  pool: string | null;
  /** null: the pool only recorded the request */
  payoutAmount: bigint | null;
}

export class NominatorPoolWithdrawRequestBlock extends Block {
  constructor(readonly data: NominatorPoolWithdrawData) {
    super("nominator_pool_withdraw_request", []);
  }

  override fill(row: ActionRow): void {
    if (this.data.payoutAmount === null) row.type = "stake_withdrawal_request";
    else {
      row.type = "stake_withdrawal";
      row.amount = this.data.payoutAmount;
    }
    row.source = this.data.source;
    row.destination = this.data.pool;
    row.staking_data = { provider: "nominator" };
  }
}

const commentIs = (block: Block, text: string): block is TonTransferBlock => block instanceof TonTransferBlock && block.comment === text;

export class NominatorPoolDepositMatcher extends BlockMatcher {
  constructor() {
    super({ includeBounces: true, preBuildAutoAppend: true });
  }

  override testSelf(block: Block): boolean {
    return commentIs(block, DEPOSIT_COMMENT);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof TonTransferBlock) || !isNominatorPool(ctx, block.destination)) return [];
    const built = new NominatorPoolDepositBlock({ source: block.source, pool: block.destination, value: block.value });
    built.failed = block.failed;
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

export class NominatorPoolWithdrawRequestMatcher extends BlockMatcher {
  constructor() {
    super({ includeBounces: true, preBuildAutoAppend: true });
  }

  override testSelf(block: Block): boolean {
    return commentIs(block, WITHDRAW_COMMENT);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof TonTransferBlock) || !isNominatorPool(ctx, block.destination)) return [];
    const transfers = block.next.filter((b): b is TonTransferBlock => b instanceof TonTransferBlock);
    const extra: Block[] = [];
    let payoutAmount: bigint | null = null;
    if (transfers.length === 1) {
      const transfer = transfers[0];
      extra.push(transfer);
      // more back than was sent: the pool paid the withdrawal at once
      if (transfer.value !== null && block.value !== null && transfer.value > block.value) payoutAmount = transfer.value;
    } else if (transfers.length === 2) {
      // paid at once, and the payout is the first message the pool sent
      const payout = transfers.reduce((a, b) => (b.node.lt < a.node.lt ? b : a));
      extra.push(...transfers);
      payoutAmount = payout.value;
    }
    const built = new NominatorPoolWithdrawRequestBlock({ source: block.source, pool: block.destination, payoutAmount });
    built.failed = block.failed;
    built.mergeBlocks([block, ...others, ...extra]);
    return [built];
  }
}

/** The validator's process_withdraw_requests: each payout it makes is a withdrawal of its own. */
export class NominatorPoolWithdrawMatcher extends BlockMatcher {
  constructor() {
    super({ includeBounces: true, preBuildAutoAppend: true });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === NOMINATOR_POOL_PROCESS_WITHDRAW_REQUESTS;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void others;
    const pool = block.node.message!.destination;
    if (!isNominatorPool(ctx, pool)) return [];
    const built: Block[] = [];
    for (const transfer of [...block.next]) {
      if (!(transfer instanceof TonTransferBlock)) continue;
      const withdrawal = new NominatorPoolWithdrawRequestBlock({ source: transfer.destination, pool, payoutAmount: transfer.value });
      withdrawal.mergeBlocks([transfer]);
      built.push(withdrawal);
    }
    return built;
  }
}
