// Multisig v2: a signer or proposer asks the multisig for a new order (the multisig deploys the
// order contract), signers approve the order (it answers accepted or rejected), and the order,
// once approved enough, sends execute to the multisig. Every action needs the order's facts (its
// signers, listed among the action's accounts): a call to an address not known as an order is
// not a multisig action.
import type { ActionRow } from "../../action.js";
import { CallContractBlock, TonTransferBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import { bodySlice } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { getLabeled } from "../../engine/helpers.js";
import { BlockMatcher, ContractMatcher, labeled, OrMatcher } from "../../engine/matcher.js";
import type { MultisigOrderFacts } from "../../interfaces.js";
import { multisigOrderOf } from "./facts.js";
import { loadApproveRejectedExitCode, loadApproveSignerIndex, loadExecuteRequest, loadNewOrderRequest, loadOrderInit, MULTISIG_OPCODES, plainBoc } from "./messages.js";

const OP = MULTISIG_OPCODES;

/** The text comment a signer may approve with instead of the approve body. */
const APPROVE_COMMENT = "approve";

function orderOf(ctx: MatchContext, address: string | null): MultisigOrderFacts | null {
  return address === null ? null : multisigOrderOf(ctx.facts(address), address);
}

export interface MultisigCreateOrderData {
  queryId: bigint;
  multisig: string | null;
  orderSeqno: bigint;
  createdBy: string | null;
  isCreatedBySigner: boolean;
  creatorIndex: number;
  orderContract: string | null;
  creatorApproved: boolean;
  expirationDate: number;
  orderBoc: string;
  signers: string[];
}

export class MultisigCreateOrderBlock extends Block {
  constructor(readonly data: MultisigCreateOrderData) {
    super("multisig_create_order", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.createdBy;
    row.destination = d.multisig;
    row.destination_secondary = d.orderContract;
    row.multisig_create_order_data = {
      query_id: d.queryId,
      order_seqno: d.orderSeqno,
      is_created_by_signer: d.isCreatedBySigner,
      is_signed_by_creator: d.creatorApproved,
      creator_index: d.creatorIndex,
      expiration_date: d.expirationDate,
      order_boc: d.orderBoc,
    };
  }

  override extraAccounts(): string[] {
    return this.data.signers;
  }
}

export interface MultisigApproveData {
  signer: string | null;
  order: string | null;
  success: boolean;
  /** -1 for an approval by comment, which names no index */
  signerIndex: number;
  exitCode: number;
  signers: string[];
}

export class MultisigApproveBlock extends Block {
  constructor(readonly data: MultisigApproveData) {
    super("multisig_approve", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.signer;
    row.destination = d.order;
    row.success = d.success;
    row.multisig_approve_data = { signer_index: d.signerIndex, exit_code: d.exitCode };
  }

  override extraAccounts(): string[] {
    return this.data.signers;
  }
}

export interface MultisigExecuteData {
  queryId: bigint;
  multisig: string | null;
  success: boolean;
  orderContract: string | null;
  orderSeqno: bigint;
  expirationDate: number;
  approvalsNum: number;
  signersHash: string;
  orderBoc: string;
  signers: string[];
}

export class MultisigExecuteBlock extends Block {
  constructor(readonly data: MultisigExecuteData) {
    super("multisig_execute", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.orderContract;
    row.destination = d.multisig;
    row.success = d.success;
    row.multisig_execute_data = {
      query_id: d.queryId,
      order_seqno: d.orderSeqno,
      expiration_date: d.expirationDate,
      approvals_num: d.approvalsNum,
      signers_hash: d.signersHash,
      order_boc: d.orderBoc,
    };
  }

  override extraAccounts(): string[] {
    return this.data.signers;
  }
}

export class MultisigCreateOrderBlockMatcher extends BlockMatcher {
  constructor() {
    super({ child: labeled("init_order", new ContractMatcher(OP.multisig_order_init)) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.multisig_new_order;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof CallContractBlock)) return [];
    const request = loadNewOrderRequest(bodySlice(block.node.message!));
    const deploy = getLabeled("init_order", others, CallContractBlock);
    if (deploy === null) return [];
    const init = loadOrderInit(bodySlice(deploy.node.message!));
    const order = orderOf(ctx, deploy.destination);
    if (order === null) return [];
    const built = new MultisigCreateOrderBlock({
      queryId: request.queryId,
      multisig: block.destination,
      orderSeqno: request.orderSeqno,
      createdBy: block.source,
      isCreatedBySigner: request.isSigner,
      creatorIndex: request.index,
      orderContract: deploy.destination,
      creatorApproved: init.approveOnInit,
      expirationDate: request.expirationDate,
      orderBoc: plainBoc(init.order),
      signers: order.signers,
    });
    built.mergeBlocks([block, deploy]);
    return [built];
  }
}

export class MultisigApproveBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      child: new OrMatcher([labeled("accepted", new ContractMatcher(OP.multisig_approve_accepted)), labeled("rejected", new ContractMatcher(OP.multisig_approve_rejected))]),
    });
  }

  override testSelf(block: Block): boolean {
    if (block instanceof CallContractBlock) return block.opcode === OP.multisig_approve;
    return block instanceof TonTransferBlock && block.comment === APPROVE_COMMENT;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    const msg = block.node.message!;
    const included: Block[] = [block];
    const accepted = getLabeled("accepted", others, CallContractBlock);
    let exitCode = 0;
    if (accepted === null) {
      const rejected = getLabeled("rejected", others, CallContractBlock);
      if (rejected === null) return [];
      exitCode = loadApproveRejectedExitCode(bodySlice(rejected.node.message!));
      included.push(rejected);
    } else included.push(accepted);
    // an approval by comment names no signer index
    let signerIndex = -1;
    if (block instanceof CallContractBlock) {
      try {
        signerIndex = loadApproveSignerIndex(bodySlice(msg));
      } catch {
        signerIndex = -1;
      }
    }
    const order = orderOf(ctx, msg.destination);
    if (order === null) return [];
    const built = new MultisigApproveBlock({ signer: msg.source, order: msg.destination, success: accepted !== null, signerIndex, exitCode, signers: order.signers });
    built.mergeBlocks(included);
    return [built];
  }
}

export class MultisigExecuteBlockMatcher extends BlockMatcher {
  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.multisig_execute;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void others;
    if (!(block instanceof CallContractBlock)) return [];
    const execute = loadExecuteRequest(bodySlice(block.node.message!));
    const order = orderOf(ctx, block.source);
    if (order === null) return [];
    const built = new MultisigExecuteBlock({
      queryId: execute.queryId,
      multisig: block.destination,
      success: !block.failed,
      orderContract: block.source,
      orderSeqno: execute.orderSeqno,
      expirationDate: execute.expirationDate,
      approvalsNum: execute.approvalsNum,
      signersHash: execute.signersHash.toString("base64"),
      orderBoc: plainBoc(execute.order),
      signers: order.signers,
    });
    built.mergeBlocks([block]);
    return [built];
  }
}
