// Wallet v4 subscription plugins (toncenter's SubscriptionBlockMatcher and UnsubscribeBlockMatcher):
// subscribe is a payment a plugin asked its wallet for (payment_request → the wallet's
// payment_confirmed with the TON → the plugin pays the beneficiary), unsubscribe a
// wallet_plugin_destruct between the wallet and its plugin.
import { WALLET_OPCODES } from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import { bodyCell } from "../../engine/cells.js";
import { BlockMatcher, ContractMatcher } from "../../engine/matcher.js";

/** The plugin's payment to the beneficiary ("subs"). */
export const SUBSCRIPTION_PAYMENT = 0x73756273;

export interface SubscriptionData {
  subscriber: string | null;
  subscription: string | null;
  beneficiary: string | null;
  amount?: bigint | null;
}

export class SubscriptionBlock extends Block {
  constructor(
    kind: "subscribe" | "unsubscribe",
    readonly data: SubscriptionData,
  ) {
    super(kind, []);
  }

  override fill(row: ActionRow): void {
    row.source = this.data.subscriber;
    row.destination = this.data.beneficiary;
    row.destination_secondary = this.data.subscription;
    if (this.btype === "subscribe") row.amount = this.data.amount ?? null;
  }
}

const findCall = (blocks: readonly Block[], opcode: number): CallContractBlock | null => {
  for (const b of blocks) if (b instanceof CallContractBlock && b.opcode === opcode) return b;
  return null;
};

/** payment_request#706c7567 query_id:uint64 amount:Coins (the rest, extra currencies, is not read). */
function requestedAmount(msg: { body: string }): bigint {
  const s = bodyCell(msg).beginParse();
  s.skip(32 + 64);
  return s.loadCoins();
}

export class SubscribeMatcher extends BlockMatcher {
  constructor() {
    super({ child: new ContractMatcher(SUBSCRIPTION_PAYMENT), parent: new ContractMatcher(WALLET_OPCODES.payment_request, { optional: true }) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === WALLET_OPCODES.payment_confirmed;
  }

  override buildBlock(block: Block, others: Block[]): Block[] {
    const node = block.node;
    const payment = findCall(others, SUBSCRIPTION_PAYMENT);
    if (!payment) throw new Error("the subscription payment is missing");
    const request = findCall(others, WALLET_OPCODES.payment_request);
    const built = new SubscriptionBlock("subscribe", {
      subscriber: node.source,
      subscription: node.destination,
      beneficiary: payment.node.destination,
      amount: request ? requestedAmount(request.node.message!) : node.message!.value,
    });
    built.failed = request ? request.failed : false;
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

export class UnsubscribeMatcher extends BlockMatcher {
  constructor() {
    super({ child: new ContractMatcher(WALLET_OPCODES.wallet_plugin_destruct, { optional: true }) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === WALLET_OPCODES.wallet_plugin_destruct;
  }

  override buildBlock(block: Block, others: Block[]): Block[] {
    const node = block.node;
    const response = findCall(others, WALLET_OPCODES.wallet_plugin_destruct);
    const built = new SubscriptionBlock("unsubscribe", { subscriber: node.source, subscription: node.destination, beneficiary: response ? response.node.destination : null });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}
