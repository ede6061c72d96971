// Multisig v2 data cells (multisig.func and order.func load_data).
import { Dictionary, type Address, type Builder, type Slice } from "@ton/core";
import { loadMultisigOrder, loadSigners, storeMultisigOrder, storeSigners, type MultisigAddresses, type MultisigOrder } from "./messages.js";

/**
 * next_order_seqno:uint256 threshold:uint8 signers:^(Hashmap 8 MsgAddressInt) signers_num:uint8
 * proposers:(HashmapE 8 MsgAddressInt) allow_arbitrary_order_seqno:Bool.
 */
export interface MultisigStorage {
  nextOrderSeqno: bigint;
  threshold: number;
  signers: MultisigAddresses;
  signersNum: number;
  proposers: MultisigAddresses;
  allowArbitraryOrderSeqno: boolean;
}

export function loadMultisigStorage(s: Slice): MultisigStorage {
  return {
    nextOrderSeqno: s.loadUintBig(256),
    threshold: s.loadUint(8),
    signers: loadSigners(s),
    signersNum: s.loadUint(8),
    proposers: s.loadDict(Dictionary.Keys.Uint(8), Dictionary.Values.Address()),
    allowArbitraryOrderSeqno: s.loadBit(),
  };
}

export const storeMultisigStorage = (src: MultisigStorage) => (b: Builder) =>
  b.storeUint(src.nextOrderSeqno, 256).storeUint(src.threshold, 8).store(storeSigners(src.signers)).storeUint(src.signersNum, 8).storeDict(src.proposers).storeBit(src.allowArbitraryOrderSeqno);

/**
 * An order: multisig_address:MsgAddressInt order_seqno:uint256, then once initialised threshold:uint8
 * sent_for_execution:Bool signers:^(Hashmap 8 MsgAddressInt) approvals_mask:uint256 approvals_num:uint8
 * expiration_date:uint48 order:^MultisigOrder.
 */
export interface MultisigOrderStorage {
  multisigAddress: Address;
  orderSeqno: bigint;
  init: {
    threshold: number;
    sentForExecution: boolean;
    signers: MultisigAddresses;
    /** Bit i set: signer i approved. */
    approvalsMask: bigint;
    approvalsNum: number;
    expirationDate: number;
    order: MultisigOrder;
  } | null;
}

export function loadMultisigOrderStorage(s: Slice): MultisigOrderStorage {
  const multisigAddress = s.loadAddress();
  const orderSeqno = s.loadUintBig(256);
  if (s.remainingBits === 0) return { multisigAddress, orderSeqno, init: null };
  return {
    multisigAddress,
    orderSeqno,
    init: {
      threshold: s.loadUint(8),
      sentForExecution: s.loadBit(),
      signers: loadSigners(s),
      approvalsMask: s.loadUintBig(256),
      approvalsNum: s.loadUint(8),
      expirationDate: s.loadUint(48),
      order: loadMultisigOrder(s),
    },
  };
}

export function storeMultisigOrderStorage(src: MultisigOrderStorage): (b: Builder) => void {
  return (b) => {
    b.storeAddress(src.multisigAddress).storeUint(src.orderSeqno, 256);
    const i = src.init;
    if (i)
      b.storeUint(i.threshold, 8)
        .storeBit(i.sentForExecution)
        .store(storeSigners(i.signers))
        .storeUint(i.approvalsMask, 256)
        .storeUint(i.approvalsNum, 8)
        .storeUint(i.expirationDate, 48)
        .store(storeMultisigOrder(i.order));
  };
}
