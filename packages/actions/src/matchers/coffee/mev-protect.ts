// swap.coffee MEV protection (toncenter's CoffeeMevProtectHoldFundsMatcher and
// CoffeeMevProtectFailedSwapMatcher): the user's funds are held by a protection contract
// (mev_protect_hold_funds, as TON or as a jetton transfer's payload), usually with a service fee
// sent beside it; a swap that could not go through returns them (mev_protect_failed_swap).
import { loadCoffeeMevProtectFailedSwap } from "@tongate/contracts";
import type { Cell } from "@ton/core";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { BlockMatcher, ContractMatcher, GenericMatcher } from "../../engine/matcher.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { addressOf, OP } from "./common.js";
import { isCall } from "../../engine/helpers.js";

/** The opcode a jetton transfer's forward payload starts with. */
function payloadOpcode(t: JettonTransferBlock): number | null {
  const c: Cell | null = t.data.payload.cell;
  return c !== null && c.bits.length >= 32 ? c.beginParse().preloadUint(32) : null;
}

/** A call with `opcode`, or a jetton transfer whose payload has it. */
function carries(block: Block, opcode: number): boolean {
  return isCall(block, opcode) || (block instanceof JettonTransferBlock && payloadOpcode(block) === opcode);
}

export interface CoffeeMevProtectHoldFundsData {
  sender: string | null;
  senderWallet: string | null;
  mevContract: string | null;
  asset: string | null;
  amount: bigint | null;
}

export class CoffeeMevProtectHoldFundsBlock extends Block {
  constructor(readonly data: CoffeeMevProtectHoldFundsData) {
    super("coffee_mev_protect_hold_funds", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.sender;
    row.source_secondary = d.senderWallet;
    row.destination = d.mevContract;
    // toncenter never learns the protection contract's jetton wallet
    row.destination_secondary = null;
    row.asset = d.asset;
    row.amount = d.amount;
  }
}

export class CoffeeMevProtectHoldFundsMatcher extends BlockMatcher {
  constructor() {
    // the service fee is a sibling: found from the message that sent both
    super({ parent: new GenericMatcher(() => true, { optional: true, child: new ContractMatcher(OP.coffee_service_fee) }) });
  }

  override testSelf(block: Block): boolean {
    return carries(block, OP.coffee_mev_protect_hold_funds);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    let data: CoffeeMevProtectHoldFundsData;
    if (block instanceof CallContractBlock) data = { sender: block.source, senderWallet: null, mevContract: block.destination, asset: null, amount: block.value };
    else if (block instanceof JettonTransferBlock) {
      const d = block.data;
      data = { sender: d.sender, senderWallet: d.senderWallet, mevContract: d.receiver, asset: d.asset, amount: d.amount };
    } else return [];
    const built = new CoffeeMevProtectHoldFundsBlock(data);
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

export class CoffeeMevProtectFailedSwapBlock extends Block {
  constructor(readonly data: { recipient: string | null; asset: string | null }) {
    super("coffee_mev_protect_failed_swap", []);
  }

  override fill(row: ActionRow): void {
    row.destination = this.data.recipient;
    row.asset = this.data.asset;
  }
}

export class CoffeeMevProtectFailedSwapMatcher extends BlockMatcher {
  override testSelf(block: Block): boolean {
    return carries(block, OP.coffee_mev_protect_failed_swap);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    let data: { recipient: string | null; asset: string | null };
    if (block instanceof CallContractBlock) data = { recipient: addressOf(loadCoffeeMevProtectFailedSwap(block.body()).recipient), asset: null };
    else if (block instanceof JettonTransferBlock && block.data.payload.cell !== null) {
      data = { recipient: addressOf(loadCoffeeMevProtectFailedSwap(block.data.payload.cell.beginParse()).recipient), asset: block.data.asset };
    } else return [];
    const built = new CoffeeMevProtectFailedSwapBlock(data);
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}
