// The receiving side of LayerZero (toncenter's layerzero.py): a DVN verifies a packet through its
// proxy, the ULN and the ULN connection (layerzero_dvn_verify); the executor commits the verified
// packet through the ULN connection and the endpoint to the channel (layerzero_commit_packet);
// then it has the channel deliver it to the OApp (layerzero_receive).
import { LAYERZERO_OPCODES, LZ_VERIFICATION_STATUS, loadLzExtendedMd, loadLzMdObj, loadLzVerificationStatus } from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { getLabeled } from "../../engine/helpers.js";
import { BlockMatcher, ContractMatcher, labeled } from "../../engine/matcher.js";
import { callChain, eventThenCallback, optionalEvent, optionalTransfer } from "./chain.js";
import { mdOf, packetData, type LayerZeroPacketData } from "./packet.js";

const OP = LAYERZERO_OPCODES;

export interface LayerZeroReceiveData {
  sender: string | null;
  channel: string | null;
  oapp: string | null;
  packet: LayerZeroPacketData;
}

export class LayerZeroReceiveBlock extends Block {
  constructor(readonly data: LayerZeroReceiveData) {
    super("layerzero_receive", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.sender;
    row.destination = d.oapp;
    row.destination_secondary = d.channel;
    row.layerzero_packet_data = { ...d.packet };
  }
}

/** channel_lz_receive_prepare → lz_receive_prepare → lz_receive_lock → lz_receive_execute → the OApp's execute callback. */
export class LayerZeroReceiveMatcher extends BlockMatcher {
  constructor() {
    super({
      children: [
        optionalTransfer("excesses_transfer"),
        callChain(
          [
            ["receive_prepare", OP.lz_receive_prepare],
            ["receive_lock", OP.channel_lz_receive_lock],
            ["receive_execute", OP.lz_receive_execute],
          ],
          {
            children: [
              optionalEvent("event_1"),
              labeled("execute_callback", new ContractMatcher(OP.lz_receive_execute_callback, { children: [optionalEvent("event_2"), optionalTransfer("excess_transfer_2")] })),
            ],
          },
        ),
      ],
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.channel_lz_receive_prepare;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    // the channel's lz_receive_execute to the OApp carries the packet (toncenter finds it first
    // under its shared "execute_callback" label)
    const execute = getLabeled("receive_execute", others, CallContractBlock);
    if (execute === null || !(block instanceof CallContractBlock)) return [];
    const packet = packetData(loadLzMdObj(mdOf(execute.body()).beginParse()).md);
    // toncenter compares the hex digits as text: an OApp whose address starts with a zero digit
    // never matches its packet's dst_oapp (hex() drops the zero), and no action is made
    const oapp = execute.destination;
    if (oapp === null || oapp.slice(2).toLowerCase() !== packet.dst_oapp.slice(2).toLowerCase()) return [];
    const built = new LayerZeroReceiveBlock({ sender: block.source, channel: execute.source, oapp, packet });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

export interface LayerZeroCommitPacketData {
  sender: string | null;
  uln: string | null;
  ulnConnection: string | null;
  endpoint: string | null;
  channel: string | null;
  msglibConnection: string | null;
  packet: LayerZeroPacketData;
}

export class LayerZeroCommitPacketBlock extends Block {
  constructor(readonly data: LayerZeroCommitPacketData) {
    super("layerzero_commit_packet", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.sender;
    row.source_secondary = d.endpoint;
    row.destination = d.uln;
    row.destination_secondary = d.ulnConnection;
    row.asset = d.channel;
    row.asset_secondary = d.msglibConnection;
    row.layerzero_packet_data = { ...d.packet };
  }
}

/** uln_commit_packet → uln_connection_commit_packet → endpoint_commit_packet → channel_commit_packet → the message library's callback. */
export class LayerZeroCommitPacketMatcher extends BlockMatcher {
  constructor() {
    super({
      child: callChain(
        [
          ["uln_connection_commit", OP.uln_connection_commit_packet],
          ["endpoint_commit", OP.endpoint_commit_packet],
          ["channel_commit", OP.channel_commit_packet],
        ],
        eventThenCallback("msglib_callback", OP.msglib_connection_commit_packet_callback),
      ),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.uln_commit_packet;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    const ulnConnectionCommit = getLabeled("uln_connection_commit", others, CallContractBlock);
    const endpointCommit = getLabeled("endpoint_commit", others, CallContractBlock);
    const channelCommit = getLabeled("channel_commit", others, CallContractBlock);
    const msglibCallback = getLabeled("msglib_callback", others, CallContractBlock);
    if (ulnConnectionCommit === null || endpointCommit === null || channelCommit === null || msglibCallback === null || !(block instanceof CallContractBlock)) return [];
    const packet = packetData(loadLzExtendedMd(mdOf(channelCommit.body()).beginParse()).md);
    const built = new LayerZeroCommitPacketBlock({
      sender: block.source,
      // toncenter reports the ULN connection as the ULN too
      uln: ulnConnectionCommit.destination,
      ulnConnection: ulnConnectionCommit.destination,
      endpoint: endpointCommit.destination,
      channel: channelCommit.destination,
      msglibConnection: msglibCallback.destination,
      packet,
    });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

export interface LayerZeroDvnVerifyData {
  sender: string | null;
  nonce: bigint;
  status: string;
  dvn: string | null;
  proxy: string | null;
  uln: string | null;
  ulnConnection: string | null;
}

export class LayerZeroDvnVerifyBlock extends Block {
  constructor(readonly data: LayerZeroDvnVerifyData) {
    super("layerzero_dvn_verify", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.sender;
    row.layerzero_dvn_verify_data = { nonce: d.nonce, status: d.status, dvn: d.dvn, proxy: d.proxy, uln: d.uln, uln_connection: d.ulnConnection };
  }
}

const STATUS_NAMES = new Map<number, string>(Object.entries(LZ_VERIFICATION_STATUS).map(([name, code]) => [code, name]));

/** dvn_verify → proxy_call_contract → uln_verify → uln_connection_verify → the connection's verify callback. */
export class LayerZeroDvnVerifyMatcher extends BlockMatcher {
  constructor() {
    super({
      child: callChain(
        [
          ["proxy_call", OP.proxy_call_contract],
          ["uln_verify", OP.uln_verify],
          ["uln_connection_verify", OP.uln_connection_verify],
        ],
        eventThenCallback("uln_verify_callback", OP.uln_connection_verify_callback),
      ),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.dvn_verify;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    const ulnVerify = getLabeled("uln_verify", others, CallContractBlock);
    const ulnConnectionVerify = getLabeled("uln_connection_verify", others, CallContractBlock);
    const proxyCall = getLabeled("proxy_call", others, CallContractBlock);
    const callback = getLabeled("uln_verify_callback", others, CallContractBlock);
    if (ulnVerify === null || ulnConnectionVerify === null || proxyCall === null || callback === null || !(block instanceof CallContractBlock)) return [];
    const verdict = loadLzVerificationStatus(loadLzMdObj(mdOf(callback.body()).beginParse()).md.beginParse());
    const built = new LayerZeroDvnVerifyBlock({
      sender: block.source,
      nonce: verdict.nonce,
      status: STATUS_NAMES.get(verdict.status) ?? `unknown_${verdict.status}`,
      dvn: block.destination,
      proxy: proxyCall.destination,
      uln: ulnVerify.destination,
      ulnConnection: ulnConnectionVerify.destination,
    });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}
