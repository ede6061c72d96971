// A multisig v2 wallet (ton-blockchain/multisig-contract-v2, real code; its order contract's code is
// a library cell, as on mainnet) with two signers and a threshold of two: alice creates an order
// that pays carol (approving it as she creates it), bob approves it, and the order has the
// multisig execute it. Every step's transactions are read back from the sealed block.
import { beginCell, internal, toNano, type Address, type Cell } from "@ton/core";
import {
  emptyMultisigAddresses,
  emptyMultisigOrder,
  MULTISIG_OPCODES,
  storeMultisigApprove,
  storeMultisigNewOrder,
  storeMultisigOrder,
  storeMultisigStorage,
  storeTextComment,
  type MultisigOrder,
} from "@tongate/contracts";
import type { Localnet } from "@tongate/localnet";
import { accountNow, getMethod, inMessageHash, intArg, txByBody, txByOp, txRef, type Actors, type TxRef } from "./chain.js";
import { fixtureCode } from "./fixtures.js";

export interface MultisigScenario {
  multisig: Address;
  /** The order contract the multisig deployed (its code: the order's library cell). */
  order: Address;
  /** By index: alice (0), bob (1). */
  signers: Address[];
  threshold: number;
  /** The order's actions as the chain holds them (order:^MultisigOrder): what order_boc carries. */
  orderCell: Cell;
  orderSeqno: bigint;
  expirationDate: number;
  /** alice's new_order: the multisig's transaction, and the order's on its init. */
  create: { tx: TxRef; msgHash: Buffer; orderInitTx: TxRef; queryId: bigint; creator: Address; creatorIndex: number };
  /** bob's approval: the order's transaction. */
  approve: { tx: TxRef; msgHash: Buffer; signer: Address; signerIndex: number };
  /** The execution the approval triggered: the multisig's transaction on the order's execute, and carol's on the payment. */
  execute: { tx: TxRef; msgHash: Buffer; approvalsNum: number; signersHash: Buffer; payment: { tx: TxRef; destination: Address; value: bigint; comment: string } };
}

const PAYMENT = { value: toNano("1"), comment: "paid by the multisig" };
const QUERY_ID = { create: 7001n, approve: 7002n };

export async function multisigScenario(net: Localnet, actors: Actors): Promise<MultisigScenario> {
  const { admin, alice, bob, carol } = actors;
  await net.publishLibrary(fixtureCode("multisig_order_v2"));

  const signers = emptyMultisigAddresses();
  signers.set(0, alice.address).set(1, bob.address);
  const threshold = 2;
  const data = beginCell()
    .store(storeMultisigStorage({ nextOrderSeqno: 0n, threshold, signers, signersNum: 2, proposers: emptyMultisigAddresses(), allowArbitraryOrderSeqno: false }))
    .endCell();
  const multisig = await admin.deploy({ code: fixtureCode("multisig_v2"), data }, toNano("3"));

  const paymentBody = beginCell().store(storeTextComment({ text: PAYMENT.comment })).endCell();
  const order: MultisigOrder = emptyMultisigOrder();
  order.set(0, { type: "send_message", mode: 3, message: internal({ to: carol.address, value: PAYMENT.value, body: paymentBody, bounce: false }) });
  const orderCell = beginCell().store(storeMultisigOrder(order)).endCell().refs[0]!;
  const orderSeqno = 0n;
  const expirationDate = net.now() + 3600;

  const orderAddress = (await getMethod(net, multisig, "get_order_address", [intArg(orderSeqno)]))[0];
  if (orderAddress?.type !== "slice") throw new Error(`get_order_address answered ${orderAddress?.type}`);
  const orderAddr = orderAddress.cell.beginParse().loadAddress();

  const createBody = beginCell().store(storeMultisigNewOrder({ queryId: QUERY_ID.create, orderSeqno, signer: true, index: 0, expirationDate, order })).endCell();
  const b1 = await alice.send({ to: multisig, value: toNano("0.5"), body: createBody });
  const created = txByOp(b1, multisig, MULTISIG_OPCODES.multisig_new_order);
  const init = txByOp(b1, orderAddr, MULTISIG_OPCODES.multisig_order_init);
  if (accountNow(net, orderAddr).status !== "active") throw new Error(`the order ${orderAddr.toRawString()} was not deployed`);

  const approveBody = beginCell().store(storeMultisigApprove({ queryId: QUERY_ID.approve, signerIndex: 1 })).endCell();
  const b2 = await bob.send({ to: orderAddr, value: toNano("0.2"), body: approveBody });
  const approved = txByOp(b2, orderAddr, MULTISIG_OPCODES.multisig_approve);
  txByOp(b2, bob.address, MULTISIG_OPCODES.multisig_approve_accepted);
  const executed = txByOp(b2, multisig, MULTISIG_OPCODES.multisig_execute);
  const paid = txByBody(b2, carol.address, paymentBody);

  return {
    multisig,
    order: orderAddr,
    signers: [alice.address, bob.address],
    threshold,
    orderCell,
    orderSeqno,
    expirationDate,
    create: { tx: txRef(net, b1, created), msgHash: inMessageHash(created), orderInitTx: txRef(net, b1, init), queryId: QUERY_ID.create, creator: alice.address, creatorIndex: 0 },
    approve: { tx: txRef(net, b2, approved), msgHash: inMessageHash(approved), signer: bob.address, signerIndex: 1 },
    execute: {
      tx: txRef(net, b2, executed),
      msgHash: inMessageHash(executed),
      approvalsNum: 2,
      signersHash: beginCell().storeDictDirect(signers).endCell().hash(),
      payment: { tx: txRef(net, b2, paid), destination: carol.address, value: PAYMENT.value, comment: PAYMENT.comment },
    },
  };
}
