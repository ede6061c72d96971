// The action scenarios (tests/support/action-scenarios.ts) on one localnet: every transaction they
// report is the chain's, with the outcome a person expects — the comment delivered, the minter
// deployed, the bounce back, the multisig's order created, approved and executed (carol paid), the
// vesting wallet's whitelist and send, the pool's nominator stake, tick and tock transactions.
import { loadTransaction, toNano, type Address, type Transaction } from "@ton/core";
import { loadMultisigOrderStorage, loadTextComment, loadVestingStorage, readJettonData } from "@tongate/contracts";
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runActionScenarios, type ActionScenarios } from "../support/action-scenarios.js";
import { startTestLocalnet } from "../support/localnet.js";
import { accountNow, getMethod, type TxRef } from "../support/scenarios/chain.js";
import { fixtureCode, fixtureLibrary } from "../support/scenarios/fixtures.js";

let net: Localnet;
let s: ActionScenarios;
let ms = 0;

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "action-scenarios", wallets: 3 });
  const started = Date.now();
  s = await runActionScenarios(net);
  ms = Date.now() - started;
}, 120_000);

afterAll(async () => {
  await net?.close();
});

/** The transaction the chain stored for `ref`: the reported hash, time and block. */
function onChain(ref: TxRef): Transaction {
  const stored = net.chain.transaction(ref.account.workChain, ref.account.hash, ref.lt);
  expect(stored, `transaction ${ref.account.toRawString()} lt ${ref.lt}`).toBeDefined();
  const tx = loadTransaction(stored!.cell.beginParse());
  expect(tx.hash().equals(ref.hash)).toBe(true);
  expect([tx.now, stored!.mcSeqno]).toEqual([ref.utime, ref.mcSeqno]);
  expect(ref.mcSeqno).toBeLessThanOrEqual(s.mcSeqno);
  return tx;
}

function succeeded(tx: Transaction): void {
  const d = tx.description;
  expect(d.type).toBe("generic");
  if (d.type !== "generic") return;
  expect(d.aborted).toBe(false);
  expect(d.computePhase.type === "vm" && d.computePhase.success).toBe(true);
}

const eq = (a: Address | null | undefined, b: Address) => expect(a?.toRawString()).toBe(b.toRawString());
const commentOf = (tx: Transaction) => loadTextComment(tx.inMessage!.body.beginParse()).text;

describe("action scenarios", () => {
  it("run on one localnet in seconds", () => {
    console.log(`action scenarios: ${ms} ms, up to masterchain block ${s.mcSeqno}`);
    expect(ms).toBeLessThan(60_000);
  });

  it("TON transfer with a comment: bob's wallet takes it", () => {
    const c = s.transfers.comment;
    const tx = onChain(c.tx);
    succeeded(tx);
    expect(commentOf(tx)).toBe(c.comment);
    expect(tx.inMessage!.info.type === "internal" && tx.inMessage!.info.value.coins).toBe(c.value);
    eq(c.destination, c.tx.account);
  });

  it("contract deploy: the legacy minter is active with its code and answers get_jetton_data", async () => {
    const d = s.transfers.deploy;
    const tx = onChain(d.tx);
    succeeded(tx);
    expect(tx.oldStatus).not.toBe("active");
    expect(tx.endStatus).toBe("active");
    expect(accountNow(net, d.destination).code?.equals(fixtureCode("jetton_minter_legacy"))).toBe(true);
    eq(readJettonData(await getMethod(net, d.destination, "get_jetton_data")).admin, d.source);
  });

  it("bounced transfer: the minter throws on the comment and alice's wallet gets the bounce", () => {
    const b = s.transfers.bounced;
    const tx = onChain(b.tx);
    expect(b.tx.aborted).toBe(true);
    expect(b.exitCode).not.toBe(0);
    const d = tx.description;
    expect(d.type === "generic" && d.bouncePhase?.type).toBe("ok");
    const back = onChain(b.bounceTx);
    eq(b.bounceTx.account, b.source);
    expect(back.inMessage!.info.type === "internal" && back.inMessage!.info.bounced).toBe(true);
    expect(b.bounceTx.traceId.equals(b.tx.traceId)).toBe(true);
  });

  it("multisig v2: the order (library code) is created approved by alice, approved by bob, executed, and carol is paid", () => {
    const m = s.multisig;
    for (const t of [m.create.tx, m.create.orderInitTx, m.approve.tx, m.execute.tx, m.execute.payment.tx]) succeeded(onChain(t));
    expect(m.approve.tx.traceId.equals(m.execute.tx.traceId)).toBe(true);
    expect(m.create.tx.traceId.equals(m.approve.tx.traceId)).toBe(false);
    const order = accountNow(net, m.order);
    expect(order.code?.equals(fixtureLibrary("multisig_order_v2"))).toBe(true);
    const st = loadMultisigOrderStorage(order.data!.beginParse());
    eq(st.multisigAddress, m.multisig);
    expect(st.init).toMatchObject({ threshold: 2, sentForExecution: true, approvalsNum: 2, approvalsMask: 3n, expirationDate: m.expirationDate });
    expect(st.init!.order.get(0)?.type).toBe("send_message");
    expect(commentOf(onChain(m.execute.payment.tx))).toBe(m.execute.payment.comment);
  });

  it("vesting wallet: bob whitelisted, carol paid from the unlocked part, the locked part kept", () => {
    const v = s.vesting;
    for (const t of [v.addWhitelist.tx, v.send.tx, v.send.payment]) succeeded(onChain(t));
    const now = accountNow(net, v.vesting);
    const st = loadVestingStorage(now.data!.beginParse());
    expect(st.whitelist.map((a) => a.toRawString())).toEqual(v.addWhitelist.added.map((a) => a.toRawString()));
    expect(now.balance).toBeGreaterThan(toNano("9"));
    const paid = onChain(v.send.payment);
    expect(paid.inMessage!.info.type === "internal" && paid.inMessage!.info.value.coins).toBe(v.send.value);
  });

  it("nominator pool (masterchain): alice's deposit is her stake, less the pool's 1 TON fee", () => {
    const p = s.nominatorPool;
    expect(p.pool.workChain).toBe(-1);
    succeeded(onChain(p.deposit.tx));
    expect(p.stake).toBe(p.deposit.value - toNano("1"));
  });

  it("tick and tock: the elector's tick and the config's tock of one masterchain block", () => {
    const t = s.ticktock.transactions;
    expect(t.map((x) => x.kind).sort()).toEqual(["tick", "tock"]);
    for (const x of t) {
      const stored = net.chain.transaction(-1, x.account.hash, x.lt);
      expect(stored?.cell.hash().equals(x.hash)).toBe(true);
      expect(stored?.mcSeqno).toBe(x.mcSeqno);
    }
  });
});
