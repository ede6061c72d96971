// vesting_send_message and vesting_add_whitelist: the owner (or the vesting sender) calls the
// vesting wallet, which answers with a response of the request's opcode | 0x80000000. Without the
// response there is no action. The message a send carries is its own action (a transfer) after it.
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import { bodySlice, rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { getLabeled } from "../../engine/helpers.js";
import { BlockMatcher, ContractMatcher, labeled } from "../../engine/matcher.js";
import { plainBoc } from "../multisig/messages.js";
import { loadVestingAddWhiteList, loadVestingSendMessageRequest, VESTING_OPCODES } from "./messages.js";

export interface VestingSendMessageData {
  queryId: bigint;
  sender: string | null;
  vesting: string | null;
  messageBoc: string;
  messageDestination: string | null;
  messageValue: bigint;
}

export class VestingSendMessageBlock extends Block {
  constructor(readonly data: VestingSendMessageData) {
    super("vesting_send_message", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.sender;
    row.destination = d.vesting;
    row.destination_secondary = d.messageDestination;
    row.amount = d.messageValue;
    row.vesting_send_message_data = { query_id: d.queryId, message_boc: d.messageBoc };
  }
}

export interface VestingAddWhitelistData {
  queryId: bigint;
  adder: string | null;
  vesting: string | null;
  accountsAdded: string[];
}

export class VestingAddWhitelistBlock extends Block {
  constructor(readonly data: VestingAddWhitelistData) {
    super("vesting_add_whitelist", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.adder;
    row.destination = d.vesting;
    row.vesting_add_whitelist_data = { query_id: d.queryId, accounts_added: d.accountsAdded };
  }
}

/** The request and its response, merged. */
function mergeWithResponse(block: CallContractBlock, others: Block[], built: Block): Block[] {
  const include: Block[] = [block];
  const response = getLabeled("response", others, CallContractBlock);
  if (response !== null) include.push(response);
  built.mergeBlocks(include);
  return [built];
}

export class VestingSendMessageBlockMatcher extends BlockMatcher {
  constructor() {
    super({ child: labeled("response", new ContractMatcher(VESTING_OPCODES.vesting_send_message_response)) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === VESTING_OPCODES.vesting_send_message;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const req = loadVestingSendMessageRequest(bodySlice(block.node.message!));
    const built = new VestingSendMessageBlock({
      queryId: req.queryId,
      sender: block.source,
      vesting: block.destination,
      messageBoc: plainBoc(req.message),
      messageDestination: rawAddress(req.destination),
      messageValue: req.value,
    });
    return mergeWithResponse(block, others, built);
  }
}

export class VestingAddWhiteListBlockMatcher extends BlockMatcher {
  constructor() {
    super({ child: labeled("response", new ContractMatcher(VESTING_OPCODES.vesting_add_white_list_response)) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === VESTING_OPCODES.vesting_add_white_list;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const req = loadVestingAddWhiteList(bodySlice(block.node.message!));
    const built = new VestingAddWhitelistBlock({
      queryId: req.queryId,
      adder: block.source,
      vesting: block.destination,
      accountsAdded: req.addresses.map((a) => rawAddress(a)!),
    });
    return mergeWithResponse(block, others, built);
  }
}
