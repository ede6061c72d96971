// Multisig v2 bodies as toncenter's classifier reads them: the order (a dictionary of actions) is
// kept as its cell and published as a BoC, so an order with an action this package cannot parse
// still classifies.
import type { Cell, Slice } from "@ton/core";
import { MULTISIG_OPCODES } from "@tongate/contracts";

export { MULTISIG_OPCODES };

/** A cell as toncenter publishes an order or a message it carries: a BoC without index or CRC32, base64. */
export const plainBoc = (c: Cell): string => c.toBoc({ idx: false, crc32: false }).toString("base64");

/** new_order#f718510f query_id:uint64 order_seqno:uint256 signer:Bool index:uint8 expiration_date:uint48 order:^Order. */
export interface NewOrderRequest {
  queryId: bigint;
  orderSeqno: bigint;
  isSigner: boolean;
  index: number;
  expirationDate: number;
  order: Cell;
}

export function loadNewOrderRequest(s: Slice): NewOrderRequest {
  s.loadUint(32);
  return { queryId: s.loadUintBig(64), orderSeqno: s.loadUintBig(256), isSigner: s.loadBit(), index: s.loadUint(8), expirationDate: s.loadUint(48), order: s.loadRef() };
}

/** init#9c73fba2 query_id:uint64 threshold:uint8 signers:^Hashmap expiration_date:uint48 order:^Order approve_on_init:Bool signer_index:uint8?. */
export interface OrderInit {
  queryId: bigint;
  threshold: number;
  expirationDate: number;
  order: Cell;
  approveOnInit: boolean;
  signerIndex: number;
}

export function loadOrderInit(s: Slice): OrderInit {
  s.loadUint(32);
  const queryId = s.loadUintBig(64);
  const threshold = s.loadUint(8);
  s.loadRef(); // signers
  const expirationDate = s.loadUint(48);
  const order = s.loadRef();
  const approveOnInit = s.loadBit();
  return { queryId, threshold, expirationDate, order, approveOnInit, signerIndex: approveOnInit ? s.loadUint(8) : -1 };
}

/** execute#75097f5d query_id:uint64 order_seqno:uint256 expiration_date:uint48 approvals_num:uint8 signers_hash:bits256 order:^Order. */
export interface ExecuteRequest {
  queryId: bigint;
  orderSeqno: bigint;
  expirationDate: number;
  approvalsNum: number;
  signersHash: Buffer;
  order: Cell;
}

export function loadExecuteRequest(s: Slice): ExecuteRequest {
  s.loadUint(32);
  return { queryId: s.loadUintBig(64), orderSeqno: s.loadUintBig(256), expirationDate: s.loadUint(48), approvalsNum: s.loadUint(8), signersHash: s.loadBuffer(32), order: s.loadRef() };
}

/** approve#a762230f query_id:uint64 signer_index:uint8 (or the text comment "approve", which names no index). */
export function loadApproveSignerIndex(s: Slice): number {
  s.loadUint(32);
  s.loadUintBig(64);
  return s.loadUint(8);
}

/** approve_rejected#afaf283e query_id:uint64 exit_code:uint32. */
export function loadApproveRejectedExitCode(s: Slice): number {
  s.loadUint(32);
  s.loadUintBig(64);
  return s.loadUint(32);
}
