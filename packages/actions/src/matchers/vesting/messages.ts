// The vesting wallet's owner requests, read as toncenter's classifier reads them: the message a
// send carries is kept as its cell (published as a BoC), not re-serialised.
import { loadCommonMessageInfoRelaxed, type Address, type Cell, type Slice } from "@ton/core";
import { loadVestingAddWhiteList, VESTING_OPCODES } from "@tongate/contracts";

export { VESTING_OPCODES };

export interface VestingSendMessageRequest {
  queryId: bigint;
  sendMode: number;
  /** the MessageRelaxed cell the owner asked the wallet to send */
  message: Cell;
  destination: Address | null;
  /** nanotons the message carries */
  value: bigint;
}

/** vesting_send_message#a7733acd query_id:uint64 send_mode:uint8 message:^(MessageRelaxed Any). */
export function loadVestingSendMessageRequest(s: Slice): VestingSendMessageRequest {
  s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const sendMode = s.loadUint(8);
  const message = s.loadRef();
  const info = loadCommonMessageInfoRelaxed(message.beginParse());
  if (info.type !== "internal") return { queryId, sendMode, message, destination: null, value: 0n };
  return { queryId, sendMode, message, destination: info.dest, value: info.value.coins };
}

export { loadVestingAddWhiteList };
