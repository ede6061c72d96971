// TON transfers as a person makes them from a wallet: one with a text comment, a contract deploy
// (the 2022 reference jetton minter, real code), and a transfer that bounces (a comment to that
// minter, which throws on any opcode it does not know, sent bounceable).
import { beginCell, contractAddress, toNano, type Address, type Cell } from "@ton/core";
import { storeJettonMinterStorage, storeTextComment } from "@tongate/contracts";
import type { Localnet } from "@tongate/localnet";
import { accountNow, inMessageHash, txByBody, txByExternal, txRef, type Actors, type TxRef } from "./chain.js";
import { fixtureCode } from "./fixtures.js";

/** One wallet-to-account transfer: the receiver's transaction and the message it took. */
export interface TonTransferEvent {
  /** The receiver's transaction on the transfer. */
  tx: TxRef;
  /** The transfer's message (toncenter's msg_hash). */
  msgHash: Buffer;
  source: Address;
  destination: Address;
  /** nanotons */
  value: bigint;
  /** The text comment; null when the body is empty. */
  comment: string | null;
}

export interface TransferScenario {
  /** alice pays bob with a text comment. */
  comment: TonTransferEvent;
  /** alice deploys a legacy jetton minter: the minter's first transaction. */
  deploy: TonTransferEvent & { contract: "jetton_minter_legacy"; code: Cell };
  /**
   * alice sends the minter a comment, bounceable: the minter's transaction aborts (exit code
   * `exitCode`) and alice's wallet gets the bounce (`bounceTx`).
   */
  bounced: TonTransferEvent & { exitCode: number; bounceTx: TxRef };
}

const COMMENT = "tongate actions: thanks for lunch ✓";
const BOUNCED_COMMENT = "a jetton minter takes no comments";

export async function transferScenario(net: Localnet, actors: Actors): Promise<TransferScenario> {
  const { alice, bob } = actors;

  const commentBody = textBody(COMMENT);
  const paid = toNano("1.25");
  const b1 = await alice.send({ to: bob.address, value: paid, body: commentBody });
  const t1 = txByBody(b1, bob.address, commentBody);
  const comment = { tx: txRef(net, b1, t1), msgHash: inMessageHash(t1), source: alice.address, destination: bob.address, value: paid, comment: COMMENT };

  // the minter's admin is alice; it mints nothing here
  const code = fixtureCode("jetton_minter_legacy");
  const data = beginCell()
    .store(storeJettonMinterStorage({ totalSupply: 0n, adminAddress: alice.address, content: textBody("actions scenario minter"), jettonWalletCode: fixtureCode("jetton_wallet_legacy") }))
    .endCell();
  const deployValue = toNano("0.5");
  const minter = contractAddress(0, { code, data });
  const empty = beginCell().endCell();
  const b2 = await alice.send({ to: minter, value: deployValue, init: { code, data }, body: empty });
  const t2 = txByBody(b2, minter, empty);
  const minterNow = accountNow(net, minter);
  if (minterNow.status !== "active") throw new Error(`the minter ${minter.toRawString()} was not deployed (${minterNow.status})`);
  const deploy = { tx: txRef(net, b2, t2), msgHash: inMessageHash(t2), source: alice.address, destination: minter, value: deployValue, comment: null, contract: "jetton_minter_legacy" as const, code };

  const bouncedBody = textBody(BOUNCED_COMMENT);
  const sent = toNano("0.3");
  const b3 = await alice.sendExpectingFailure({ to: minter, value: sent, body: bouncedBody, bounce: true });
  const t3 = txByBody(b3, minter, bouncedBody);
  const d = t3.description;
  if (d.type !== "generic" || d.computePhase.type !== "vm" || d.computePhase.success) throw new Error(`the minter took the comment: ${d.type}`);
  const exitCode = d.computePhase.exitCode;
  // the bounced message: alice's wallet's transaction on an internal message from the minter
  const back = b3.find((t) => t.inMessage?.info.type === "internal" && t.inMessage.info.bounced && t.inMessage.info.src.equals(minter));
  if (!back) throw new Error(`the minter's comment did not bounce back to alice`);
  txByExternal(b3, alice.address);

  return {
    comment,
    deploy,
    bounced: { tx: txRef(net, b3, t3), msgHash: inMessageHash(t3), source: alice.address, destination: minter, value: sent, comment: BOUNCED_COMMENT, exitCode, bounceTx: txRef(net, b3, back) },
  };
}

const textBody = (text: string): Cell => beginCell().store(storeTextComment({ text })).endCell();
