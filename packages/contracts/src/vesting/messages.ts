// Vesting wallet message bodies (vesting-contract's vesting_wallet.fc; toncenter's classifier
// schemes "vesting"). Its external messages are wallet v3's (loadWalletSignedV3, at most one message).
import { beginCell, type Address, type Builder, type Slice } from "@ton/core";
import { relaxedMessageCell, relaxedMessageOf, type RelaxedMessage } from "../out-actions.js";
import { loadOpcode, loadQueryIdOnly, storeQueryIdOnly } from "../tlb.js";

export const VESTING_OPCODES = {
  vesting_send_message: 0xa7733acd,
  vesting_send_message_response: 0xf7733acd,
  vesting_add_white_list: 0x7258a69b,
  vesting_add_white_list_response: 0xf258a69b,
} as const;

const OP = VESTING_OPCODES;

/** vesting_send_message#a7733acd query_id:uint64 send_mode:uint8 message:^(MessageRelaxed Any): the owner sends from the vesting wallet. */
export interface VestingSendMessage {
  queryId: bigint;
  sendMode: number;
  message: RelaxedMessage;
}

export function loadVestingSendMessage(s: Slice): VestingSendMessage {
  loadOpcode(s, OP.vesting_send_message, "vesting_send_message");
  return { queryId: s.loadUintBig(64), sendMode: s.loadUint(8), message: relaxedMessageOf(s.loadRef()) };
}

export const storeVestingSendMessage = (src: VestingSendMessage) => (b: Builder) =>
  b.storeUint(OP.vesting_send_message, 32).storeUint(src.queryId, 64).storeUint(src.sendMode, 8).storeRef(relaxedMessageCell(src.message));

/**
 * vesting_add_white_list#7258a69b query_id:uint64 addresses_ref_snake:Any: the vesting sender
 * whitelists addresses, the first in the body and each next one in a ref of the previous.
 */
export interface VestingAddWhiteList {
  queryId: bigint;
  addresses: Address[];
}

export function loadVestingAddWhiteList(s: Slice): VestingAddWhiteList {
  loadOpcode(s, OP.vesting_add_white_list, "vesting_add_white_list");
  const queryId = s.loadUintBig(64);
  const addresses = [s.loadAddress()];
  for (let cur = s; cur.remainingRefs > 0; ) {
    cur = cur.loadRef().beginParse();
    addresses.push(cur.loadAddress());
  }
  return { queryId, addresses };
}

export function storeVestingAddWhiteList(src: VestingAddWhiteList): (b: Builder) => void {
  const [first, ...rest] = src.addresses;
  const chain = rest.reduceRight<ReturnType<typeof beginCell> | null>((next, a) => {
    const c = beginCell().storeAddress(a);
    return next ? c.storeRef(next) : c;
  }, null);
  return (b) => {
    b.storeUint(OP.vesting_add_white_list, 32).storeUint(src.queryId, 64).storeAddress(first ?? null);
    if (chain) b.storeRef(chain);
  };
}

/** The responses: vesting_send_message_response#f7733acd and vesting_add_white_list_response#f258a69b, query_id:uint64. */
export interface VestingResponse {
  queryId: bigint;
}

export const loadVestingSendMessageResponse = (s: Slice): VestingResponse => ({
  queryId: loadQueryIdOnly(s, OP.vesting_send_message_response, "vesting_send_message_response"),
});
export const storeVestingSendMessageResponse = (src: VestingResponse) => storeQueryIdOnly(OP.vesting_send_message_response, src.queryId);
export const loadVestingAddWhiteListResponse = (s: Slice): VestingResponse => ({
  queryId: loadQueryIdOnly(s, OP.vesting_add_white_list_response, "vesting_add_white_list_response"),
});
export const storeVestingAddWhiteListResponse = (src: VestingResponse) => storeQueryIdOnly(OP.vesting_add_white_list_response, src.queryId);
