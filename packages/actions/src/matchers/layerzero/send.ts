// LayerZero sends (toncenter's layerzero.py): an OApp's endpoint_send runs through the channel,
// the message library connection and the ULN, whose send callback makes the channel answer the
// OApp with the sent packet (layerzero_send). An OApp that got jettons for the send (a bridge)
// makes the jetton transfer and the send one layerzero_send_tokens.
import { LAYERZERO_OPCODES, loadLzMdObj, loadLzSend } from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { getLabeled } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, labeled } from "../../engine/matcher.js";
import { callChain, optionalTransfer } from "./chain.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { mdOf, packetData, pyHex, type LayerZeroPacketData } from "./packet.js";

const OP = LAYERZERO_OPCODES;

export interface LayerZeroSendData {
  initiator: string | null;
  packet: LayerZeroPacketData;
  sendRequestId: bigint;
  nativeFee: bigint;
  zroFee: bigint;
  endpoint: string | null;
  channel: string | null;
  uln: string | null;
  msglibManager: string;
  msglib: string;
}

function fillSend(row: ActionRow, d: LayerZeroSendData): void {
  row.source = d.initiator;
  row.layerzero_send_data = {
    send_request_id: d.sendRequestId,
    msglib_manager: d.msglibManager,
    msglib: d.msglib,
    uln: d.uln,
    native_fee: d.nativeFee,
    zro_fee: d.zroFee,
    endpoint: d.endpoint,
    channel: d.channel,
  };
  row.layerzero_packet_data = { ...d.packet };
}

export class LayerZeroSendBlock extends Block {
  constructor(readonly data: LayerZeroSendData) {
    super("layerzero_send", []);
  }

  override fill(row: ActionRow): void {
    fillSend(row, this.data);
  }
}

export interface LayerZeroSendTokensData {
  sender: string | null;
  senderWallet: string | null;
  oapp: string | null;
  oappWallet: string | null;
  asset: string | null;
  amount: bigint;
  send: LayerZeroSendData;
}

export class LayerZeroSendTokensBlock extends Block {
  constructor(readonly data: LayerZeroSendTokensData) {
    super("layerzero_send_tokens", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    fillSend(row, d.send);
    row.source = d.sender;
    row.source_secondary = d.senderWallet;
    row.destination = d.oapp;
    row.destination_secondary = d.oappWallet;
    row.asset = d.asset;
    row.amount = d.amount;
  }
}

export class LayerZeroSendMatcher extends BlockMatcher {
  constructor() {
    super({
      child: callChain(
        [
          ["channel_send", OP.channel_send],
          ["msglib_send", OP.msglib_connection_send],
          ["uln_send", OP.uln_send],
          ["send_callback", OP.channel_msglib_send_callback],
        ],
        {
          // the event, up to five fee payments to the workers, the callback to the OApp
          children: [
            labeled("msglib_send_callback_event", new ContractMatcher(OP.event)),
            ...[1, 2, 3, 4, 5].map((i) => optionalTransfer(`excess_transfer_${i}`)),
            labeled(
              "oapp_callback",
              new ContractMatcher(OP.channel_send_callback, {
                children: [labeled("packet_sent_event", new ContractMatcher(OP.event, { optional: true })), optionalTransfer("excess_transfer_final")],
              }),
            ),
          ],
        },
      ),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.endpoint_send;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const channelSend = getLabeled("channel_send", others, CallContractBlock);
    const msglibSend = getLabeled("msglib_send", others, CallContractBlock);
    const ulnSend = getLabeled("uln_send", others, CallContractBlock);
    const sendCallback = getLabeled("send_callback", others, CallContractBlock);
    const oappCallback = getLabeled("oapp_callback", others, CallContractBlock);
    if (channelSend === null || msglibSend === null || ulnSend === null || sendCallback === null || oappCallback === null) return [];
    // the callback's md is an MdObj whose md is the message receipt; the receipt's first ref is the LzSend
    const receipt = loadLzMdObj(mdOf(oappCallback.body()).beginParse()).md;
    if (receipt.refs.length === 0) throw new Error("layerzero send callback: the receipt holds no LzSend");
    const send = loadLzSend(receipt.refs[0].beginParse());
    const built = new LayerZeroSendBlock({
      initiator: block.source,
      packet: packetData(send.packet),
      sendRequestId: send.sendRequestId,
      nativeFee: send.nativeFee,
      zroFee: send.zroFee,
      endpoint: block.destination,
      channel: channelSend.destination,
      uln: ulnSend.destination,
      msglibManager: pyHex(send.sendMsglibManager),
      msglib: pyHex(send.sendMsglib),
    });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

/** A layerzero_send whose OApp was just sent jettons (with an event of the OApp beside the send). */
export class LayerZeroSendTokensMatcher extends BlockMatcher {
  constructor() {
    super({ parent: labeled("jetton_transfer", new BlockTypeMatcher("jetton_transfer", { child: labeled("layerzero_event", new ContractMatcher(OP.event)) })) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof LayerZeroSendBlock;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof LayerZeroSendBlock)) return [];
    const transfer = getLabeled("jetton_transfer", others, JettonTransferBlock);
    if (transfer === null) return [];
    const t = transfer.data;
    const built = new LayerZeroSendTokensBlock({
      sender: t.sender,
      senderWallet: t.senderWallet,
      oapp: t.receiver,
      oappWallet: t.receiverWallet,
      asset: t.asset,
      amount: t.amount,
      send: block.data,
    });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}
