// A vesting wallet (ton-blockchain/vesting-contract, real code) that admin funds for alice, half of
// it unlocked: admin whitelists bob, then alice has the vesting wallet send carol part of the
// unlocked amount (a destination that is not whitelisted, so the locked part stays reserved).
import { beginCell, internal, toNano, type Address, type Cell } from "@ton/core";
import { storeTextComment, storeVestingAddWhiteList, storeVestingSendMessage, storeVestingStorage, VESTING_OPCODES } from "@tongate/contracts";
import type { Localnet } from "@tongate/localnet";
import { inMessageHash, txByBody, txByOp, txRef, type Actors, type TxRef } from "./chain.js";
import { fixtureCode } from "./fixtures.js";

export interface VestingScenario {
  vesting: Address;
  owner: Address;
  /** The vesting sender (who funded it and may whitelist). */
  sender: Address;
  /** admin whitelists bob: the vesting wallet's transaction. */
  addWhitelist: { tx: TxRef; msgHash: Buffer; queryId: bigint; added: Address[] };
  /** alice's send: the vesting wallet's transaction, the message it sent (as a cell: message_boc) and carol's transaction on it. */
  send: { tx: TxRef; msgHash: Buffer; queryId: bigint; message: Cell; destination: Address; value: bigint; payment: TxRef };
}

const TOTAL = toNano("10");
const SENT = toNano("1");
const QUERY_ID = { whitelist: 8001n, send: 8002n };

export async function vestingScenario(net: Localnet, actors: Actors): Promise<VestingScenario> {
  const { admin, alice, bob, carol } = actors;
  const duration = 1000;
  const data = beginCell()
    .store(
      storeVestingStorage({
        seqno: 0,
        subwalletId: 0,
        publicKey: Buffer.alloc(32, 7),
        whitelist: [],
        // started half its duration ago: half of TOTAL is unlocked
        params: { vestingStartTime: net.now() - duration / 2, vestingTotalDuration: duration, unlockPeriod: 100, cliffDuration: 0, vestingTotalAmount: TOTAL, vestingSenderAddress: admin.address, ownerAddress: alice.address },
      }),
    )
    .endCell();
  const vesting = await admin.deploy({ code: fixtureCode("vesting_wallet"), data }, TOTAL + toNano("0.5"));

  const whitelistBody = beginCell().store(storeVestingAddWhiteList({ queryId: QUERY_ID.whitelist, addresses: [bob.address] })).endCell();
  const b1 = await admin.send({ to: vesting, value: toNano("0.1"), body: whitelistBody });
  const wl = txByOp(b1, vesting, VESTING_OPCODES.vesting_add_white_list);
  txByOp(b1, admin.address, VESTING_OPCODES.vesting_add_white_list_response);

  const paymentBody = beginCell().store(storeTextComment({ text: "from alice's vesting" })).endCell();
  const message = internal({ to: carol.address, value: SENT, body: paymentBody, bounce: true });
  const sendBody = beginCell().store(storeVestingSendMessage({ queryId: QUERY_ID.send, sendMode: 3, message })).endCell();
  const b2 = await alice.send({ to: vesting, value: toNano("0.2"), body: sendBody });
  const sent = txByOp(b2, vesting, VESTING_OPCODES.vesting_send_message);
  txByOp(b2, alice.address, VESTING_OPCODES.vesting_send_message_response);
  const paid = txByBody(b2, carol.address, paymentBody);

  return {
    vesting,
    owner: alice.address,
    sender: admin.address,
    addWhitelist: { tx: txRef(net, b1, wl), msgHash: inMessageHash(wl), queryId: QUERY_ID.whitelist, added: [bob.address] },
    send: { tx: txRef(net, b2, sent), msgHash: inMessageHash(sent), queryId: QUERY_ID.send, message: sendBody.refs[0]!, destination: carol.address, value: SENT, payment: txRef(net, b2, paid) },
  };
}
