// Multisig v2 message bodies (message-schemes.tlb "multisig.xml", multisig-contract-v2's
// multisig.tlb): orders, their actions, approvals and execution.
import { beginCell, Dictionary, type Address, type Builder, type DictionaryValue, type Slice } from "@ton/core";
import { ContractDataError } from "../errors.js";
import { relaxedMessageCell, relaxedMessageOf, type RelaxedMessage } from "../out-actions.js";
import { loadOpcode, loadQueryIdOnly, storeQueryIdOnly } from "../tlb.js";

export const MULTISIG_OPCODES = {
  multisig_new_order: 0xf718510f,
  multisig_execute: 0x75097f5d,
  multisig_execute_internal: 0xa32c59bf,
  multisig_order_init: 0x9c73fba2,
  multisig_approve: 0xa762230f,
  multisig_approve_accepted: 0x82609bf6,
  multisig_approve_rejected: 0xafaf283e,
  send_message: 0xf1381e5b,
  update_multisig_param: 0x1d0cfbd3,
} as const;

const OP = MULTISIG_OPCODES;

/** Signers or proposers: (Hashmap 8 MsgAddressInt), index → address. */
export type MultisigAddresses = Dictionary<number, Address>;
export const emptyMultisigAddresses = (): MultisigAddresses => Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());

/** A non-empty Hashmap in a ref (signers:^(Hashmap 8 MsgAddressInt)). */
export const loadSigners = (s: Slice): MultisigAddresses => Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Address(), s.loadRef().beginParse());
export const storeSigners = (signers: MultisigAddresses) => (b: Builder) => b.storeRef(beginCell().storeDictDirect(signers));

/**
 * MulisigAction (sic, toncenter's spelling): send_message#f1381e5b mode:uint8 message:^(MessageRelaxed Any),
 * update_multisig_param#1d0cfbd3 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt) proposers:(HashmapE 8 MsgAddressInt).
 */
export type MultisigAction =
  | { type: "send_message"; mode: number; message: RelaxedMessage }
  | { type: "update_multisig_param"; threshold: number; signers: MultisigAddresses; proposers: MultisigAddresses };

export function loadMultisigAction(s: Slice): MultisigAction {
  const op = s.loadUint(32);
  if (op === OP.send_message) return { type: "send_message", mode: s.loadUint(8), message: relaxedMessageOf(s.loadRef()) };
  if (op === OP.update_multisig_param)
    return { type: "update_multisig_param", threshold: s.loadUint(8), signers: loadSigners(s), proposers: s.loadDict(Dictionary.Keys.Uint(8), Dictionary.Values.Address()) };
  throw new ContractDataError(`MultisigAction: unknown opcode 0x${op.toString(16)}`);
}

export const storeMultisigAction = (a: MultisigAction) => (b: Builder) =>
  a.type === "send_message"
    ? b.storeUint(OP.send_message, 32).storeUint(a.mode, 8).storeRef(relaxedMessageCell(a.message))
    : b.storeUint(OP.update_multisig_param, 32).storeUint(a.threshold, 8).store(storeSigners(a.signers)).storeDict(a.proposers);

const ACTION_REF: DictionaryValue<MultisigAction> = {
  serialize: (a, b) => {
    b.storeRef(beginCell().store(storeMultisigAction(a)));
  },
  parse: (s) => loadMultisigAction(s.loadRef().beginParse()),
};

/** _ _:(Hashmap 8 ^MulisigAction) = MultisigOrder: the actions of an order, by index. */
export type MultisigOrder = Dictionary<number, MultisigAction>;

export const emptyMultisigOrder = (): MultisigOrder => Dictionary.empty(Dictionary.Keys.Uint(8), ACTION_REF);
/** order:^MultisigOrder. */
export const loadMultisigOrder = (s: Slice): MultisigOrder => Dictionary.loadDirect(Dictionary.Keys.Uint(8), ACTION_REF, s.loadRef().beginParse());
export const storeMultisigOrder = (order: MultisigOrder) => (b: Builder) => b.storeRef(beginCell().storeDictDirect(order, Dictionary.Keys.Uint(8), ACTION_REF));

/**
 * multisig_new_order#f718510f (toncenter: mulisig_new_order) query_id:uint64 order_seqno:uint256
 * signer:Bool index:uint8 expiration_date:uint48 order:^MultisigOrder: a signer or proposer (by its
 * index) asks the multisig to create an order.
 */
export interface MultisigNewOrder {
  queryId: bigint;
  orderSeqno: bigint;
  /** The sender is a signer (else a proposer). */
  signer: boolean;
  index: number;
  expirationDate: number;
  order: MultisigOrder;
}

export function loadMultisigNewOrder(s: Slice): MultisigNewOrder {
  loadOpcode(s, OP.multisig_new_order, "multisig_new_order");
  return { queryId: s.loadUintBig(64), orderSeqno: s.loadUintBig(256), signer: s.loadBit(), index: s.loadUint(8), expirationDate: s.loadUint(48), order: loadMultisigOrder(s) };
}

export const storeMultisigNewOrder = (src: MultisigNewOrder) => (b: Builder) =>
  b
    .storeUint(OP.multisig_new_order, 32)
    .storeUint(src.queryId, 64)
    .storeUint(src.orderSeqno, 256)
    .storeBit(src.signer)
    .storeUint(src.index, 8)
    .storeUint(src.expirationDate, 48)
    .store(storeMultisigOrder(src.order));

/**
 * multisig_execute#75097f5d query_id:uint64 order_seqno:uint256 expiration_date:uint48
 * approvals_num:uint8 signers_hash:bits256 order:^MultisigOrder: an approved order to its multisig.
 */
export interface MultisigExecute {
  queryId: bigint;
  orderSeqno: bigint;
  expirationDate: number;
  approvalsNum: number;
  signersHash: Buffer;
  order: MultisigOrder;
}

export function loadMultisigExecute(s: Slice): MultisigExecute {
  loadOpcode(s, OP.multisig_execute, "multisig_execute");
  return { queryId: s.loadUintBig(64), orderSeqno: s.loadUintBig(256), expirationDate: s.loadUint(48), approvalsNum: s.loadUint(8), signersHash: s.loadBuffer(32), order: loadMultisigOrder(s) };
}

export const storeMultisigExecute = (src: MultisigExecute) => (b: Builder) =>
  b
    .storeUint(OP.multisig_execute, 32)
    .storeUint(src.queryId, 64)
    .storeUint(src.orderSeqno, 256)
    .storeUint(src.expirationDate, 48)
    .storeUint(src.approvalsNum, 8)
    .storeBuffer(src.signersHash, 32)
    .store(storeMultisigOrder(src.order));

/** multisig_execute_internal#a32c59bf query_id:uint64 order:^MultisigOrder: the multisig to itself, for orders of more than 255 actions. */
export interface MultisigExecuteInternal {
  queryId: bigint;
  order: MultisigOrder;
}

export function loadMultisigExecuteInternal(s: Slice): MultisigExecuteInternal {
  loadOpcode(s, OP.multisig_execute_internal, "multisig_execute_internal");
  return { queryId: s.loadUintBig(64), order: loadMultisigOrder(s) };
}

export const storeMultisigExecuteInternal = (src: MultisigExecuteInternal) => (b: Builder) =>
  b.storeUint(OP.multisig_execute_internal, 32).storeUint(src.queryId, 64).store(storeMultisigOrder(src.order));

/**
 * multisig_order_init#9c73fba2 query_id:uint64 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt)
 * expiration_date:uint48 order:^MultisigOrder signer_index:(Maybe uint8): the multisig deploys an
 * order (approving it at once for the signer of signer_index).
 */
export interface MultisigOrderInit {
  queryId: bigint;
  threshold: number;
  signers: MultisigAddresses;
  expirationDate: number;
  order: MultisigOrder;
  signerIndex: number | null;
}

export function loadMultisigOrderInit(s: Slice): MultisigOrderInit {
  loadOpcode(s, OP.multisig_order_init, "multisig_order_init");
  return {
    queryId: s.loadUintBig(64),
    threshold: s.loadUint(8),
    signers: loadSigners(s),
    expirationDate: s.loadUint(48),
    order: loadMultisigOrder(s),
    signerIndex: s.loadBit() ? s.loadUint(8) : null,
  };
}

export function storeMultisigOrderInit(src: MultisigOrderInit): (b: Builder) => void {
  return (b) => {
    b.storeUint(OP.multisig_order_init, 32).storeUint(src.queryId, 64).storeUint(src.threshold, 8).store(storeSigners(src.signers)).storeUint(src.expirationDate, 48).store(storeMultisigOrder(src.order));
    if (src.signerIndex === null) b.storeBit(0);
    else b.storeBit(1).storeUint(src.signerIndex, 8);
  };
}

/** multisig_approve#a762230f query_id:uint64 signer_index:uint8: a signer approves an order. */
export interface MultisigApprove {
  queryId: bigint;
  signerIndex: number;
}

export function loadMultisigApprove(s: Slice): MultisigApprove {
  loadOpcode(s, OP.multisig_approve, "multisig_approve");
  return { queryId: s.loadUintBig(64), signerIndex: s.loadUint(8) };
}

export const storeMultisigApprove = (src: MultisigApprove) => (b: Builder) => b.storeUint(OP.multisig_approve, 32).storeUint(src.queryId, 64).storeUint(src.signerIndex, 8);

/** multisig_approve_accepted#82609bf6 query_id:uint64. */
export interface MultisigApproveAccepted {
  queryId: bigint;
}

export const loadMultisigApproveAccepted = (s: Slice): MultisigApproveAccepted => ({ queryId: loadQueryIdOnly(s, OP.multisig_approve_accepted, "multisig_approve_accepted") });
export const storeMultisigApproveAccepted = (src: MultisigApproveAccepted) => storeQueryIdOnly(OP.multisig_approve_accepted, src.queryId);

/** multisig_approve_rejected#afaf283e query_id:uint64 exit_code:uint32. */
export interface MultisigApproveRejected {
  queryId: bigint;
  exitCode: number;
}

export function loadMultisigApproveRejected(s: Slice): MultisigApproveRejected {
  loadOpcode(s, OP.multisig_approve_rejected, "multisig_approve_rejected");
  return { queryId: s.loadUintBig(64), exitCode: s.loadUint(32) };
}

export const storeMultisigApproveRejected = (src: MultisigApproveRejected) => (b: Builder) =>
  b.storeUint(OP.multisig_approve_rejected, 32).storeUint(src.queryId, 64).storeUint(src.exitCode, 32);
