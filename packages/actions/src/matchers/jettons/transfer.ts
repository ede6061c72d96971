// jetton_transfer: transfer → the sender's wallet, internal_transfer → the receiver's wallet,
// optionally the transfer notification to the receiver (TEP-74). The receiver is the owner of the
// wallet that got the internal transfer; the asset its jetton master.
import { JETTON_OPCODES, loadJettonInternalTransfer, loadJettonTransfer, type JettonTransfer } from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import { bodySlice, cellToBoc, rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { BlockMatcher, ContractMatcher } from "../../engine/matcher.js";
import { findCallContract } from "../../engine/helpers.js";
import { commentOf, readForwardPayload, type ForwardPayload } from "./payload.js";

export interface JettonTransferData {
  hasInternalTransfer: boolean;
  sender: string | null;
  senderWallet: string | null;
  receiver: string | null;
  receiverWallet: string | null;
  responseAddress: string | null;
  /** what the receiver's wallet was told to forward (the internal transfer's, else the request's) */
  forwardAmount: bigint;
  desiredForwardAmount: bigint;
  queryId: bigint;
  /** the jetton master; null when unknown */
  asset: string | null;
  amount: bigint;
  desiredAmount: bigint;
  customPayload: string | null;
  payload: ForwardPayload;
}

export class JettonTransferBlock extends Block {
  constructor(
    public data: JettonTransferData,
    readonly message: JettonTransfer,
  ) {
    super("jetton_transfer", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.sender;
    row.source_secondary = d.senderWallet;
    row.destination = d.receiver;
    row.destination_secondary = d.receiverWallet;
    row.amount = d.amount;
    row.asset = d.asset;
    row.jetton_transfer_data = {
      query_id: d.queryId,
      response_destination: d.responseAddress,
      forward_amount: d.forwardAmount,
      custom_payload: d.customPayload,
      forward_payload: d.payload.boc,
      comment: commentOf(d.payload),
      is_encrypted_comment: d.payload.encrypted,
    };
  }
}

/** The transfer request of a call_contract block, with what toncenter keeps of it. */
export function readTransferRequest(block: CallContractBlock): { msg: JettonTransfer; payload: ForwardPayload; customPayload: string | null } {
  const msg = loadJettonTransfer(bodySlice(block.node.message!));
  return { msg, payload: readForwardPayload(msg.forwardPayload), customPayload: msg.customPayload ? cellToBoc(msg.customPayload) : null };
}

export class JettonTransferBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      child: new ContractMatcher(JETTON_OPCODES.jetton_internal_transfer, {
        child: new ContractMatcher(JETTON_OPCODES.jetton_notify, { optional: true }),
      }),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === JETTON_OPCODES.jetton_transfer;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof CallContractBlock)) return [];
    const { msg, payload, customPayload } = readTransferRequest(block);
    const internal = findCallContract(others, JETTON_OPCODES.jetton_internal_transfer);
    if (internal === null) throw new Error("no internal transfer");
    let amount = msg.amount;
    let forwardAmount = msg.forwardTonAmount;
    try {
      const it = loadJettonInternalTransfer(bodySlice(internal.node.message!));
      amount = it.amount;
      forwardAmount = it.forwardTonAmount;
    } catch {
      // the request's amounts stand
    }
    const receiverWallet = internal.destination;
    const wallet = ctx.jettonWallet(receiverWallet);
    if (wallet === null) return [];
    let receiver = rawAddress(msg.destination);
    // the wallet's owner is who got the jettons, whatever the request said
    if (receiver === null || wallet.owner.toUpperCase() !== receiver) {
      block.broken = true;
      receiver = wallet.owner;
    }
    const nb = new JettonTransferBlock(
      {
        hasInternalTransfer: true,
        sender: block.source,
        senderWallet: block.destination,
        receiver,
        receiverWallet,
        responseAddress: rawAddress(msg.responseDestination),
        forwardAmount,
        desiredForwardAmount: msg.forwardTonAmount,
        queryId: msg.queryId,
        asset: wallet.jetton,
        amount,
        desiredAmount: msg.amount,
        customPayload,
        payload,
      },
      msg,
    );
    nb.mergeBlocks([block, ...others]);
    nb.failed = block.failed || internal.failed;
    return [nb];
  }
}

/** pTON (STON.fi's proxy TON) wallets: the transfer never reaches another jetton wallet. */
export const PTON_MASTERS = new Set([
  "0:8CDC1D7640AD5EE326527FC1AD0514F468B30DC84B0173F0E155F451B4E11F7C",
  "0:671963027F7F85659AB55B821671688601CDCF1EE674FC7FBBB1A776A18D34A3",
  // TONCO's wTTON
  "0:949C4C66760C002800E2FA3D8A3CA4E1C90A9373B53AE7472033483BF14CD95E",
]);

export class PTonTransferMatcher extends BlockMatcher {
  constructor() {
    super({ child: new ContractMatcher(JETTON_OPCODES.jetton_notify, { optional: true }) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === JETTON_OPCODES.jetton_transfer;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof CallContractBlock)) return [];
    const { msg, payload, customPayload } = readTransferRequest(block);
    const wallet = ctx.jettonWallet(block.destination);
    if (wallet === null || !PTON_MASTERS.has(wallet.jetton)) return [];
    const nb = new JettonTransferBlock(
      {
        hasInternalTransfer: false,
        sender: block.source,
        senderWallet: null,
        receiver: rawAddress(msg.destination),
        receiverWallet: null,
        responseAddress: rawAddress(msg.responseDestination),
        forwardAmount: msg.forwardTonAmount,
        desiredForwardAmount: msg.forwardTonAmount,
        queryId: msg.queryId,
        asset: wallet.jetton,
        amount: msg.amount,
        desiredAmount: msg.amount,
        customPayload,
        payload,
      },
      msg,
    );
    nb.mergeBlocks([block, ...others]);
    nb.failed = block.failed;
    return [nb];
  }
}

/** A transfer a failed wallet external asked for (ghost message): only the request is known. */
export class FallbackJettonTransferBlockMatcher extends BlockMatcher {
  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === JETTON_OPCODES.jetton_transfer;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof CallContractBlock)) return [];
    const { msg, payload, customPayload } = readTransferRequest(block);
    const wallet = ctx.jettonWallet(block.destination);
    const nb = new JettonTransferBlock(
      {
        hasInternalTransfer: false,
        sender: block.source,
        senderWallet: block.destination,
        receiver: rawAddress(msg.destination),
        receiverWallet: null,
        responseAddress: rawAddress(msg.responseDestination),
        forwardAmount: msg.forwardTonAmount,
        desiredForwardAmount: msg.forwardTonAmount,
        queryId: msg.queryId,
        asset: wallet ? wallet.jetton : null,
        amount: msg.amount,
        desiredAmount: msg.amount,
        customPayload,
        payload,
      },
      msg,
    );
    nb.mergeBlocks([block, ...others]);
    nb.failed = block.failed;
    return [nb];
  }
}
