// Traces emulated on real contracts (wallets v4r2/v5r1 and the TEP-74 reference jetton wallet of
// the fixtures): every message delivered in lt order across accounts, each account's state carried
// from its previous transaction, bounces delivered, and the bounds saying which one was reached.
import { beginCell, Dictionary, loadShardAccount, type Cell } from "@ton/core";
import { afterAll, describe, expect, it } from "vitest";
import { emulateTrace, EmulatorPool, TraceEmulationError, type EmulatedTrace, type TraceEmulationInput } from "@tongate/emulator";
import { inputOf, internal, jettonTransferBody, jettonWallet, toNano, walletV4, walletV5 } from "../../../tests/support/trace-accounts.js";

const pool = new EmulatorPool({ size: 1 });
afterAll(() => pool.close());

/** Out message `i` of a Transaction cell as it holds it (…^[ in_msg:(Maybe ^Message) out_msgs:(HashmapE 15 ^Message) ]…). */
function outMessageCell(tx: Cell, i: number): Cell {
  const s = tx.refs[0]!.beginParse();
  s.loadMaybeRef();
  return s.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell()).get(i)!;
}

const opcodeOf = (body: Cell) => (body.beginParse().remainingBits >= 32 ? body.beginParse().loadUint(32) : null);

/** Each transaction's account, its depth and its in-message's opcode, in order. */
const shape = (t: EmulatedTrace) =>
  t.transactions.map((x) => ({ account: x.address.toRawString(), depth: x.depth, op: x.transaction.inMessage ? opcodeOf(x.transaction.inMessage.body) : null, bounced: x.transaction.inMessage?.info.type === "internal" ? x.transaction.inMessage.info.bounced : false }));

/** Every transaction's lt is past its in-message's created lt, and each account's lts increase past the previous one's out messages. */
function expectLtsConsistent(t: EmulatedTrace) {
  const endOf = new Map<string, bigint>();
  let prev = -1n;
  for (const x of t.transactions) {
    const tx = x.transaction;
    expect(tx.lt).toBeGreaterThanOrEqual(prev);
    prev = tx.lt;
    if (tx.inMessage?.info.type === "internal") expect(tx.lt).toBeGreaterThan(tx.inMessage.info.createdLt);
    const key = x.address.toRawString();
    if (endOf.has(key)) expect(tx.lt).toBeGreaterThanOrEqual(endOf.get(key)!);
    endOf.set(key, tx.lt + BigInt(tx.outMessagesCount) + 1n);
  }
}

describe("emulateTrace", () => {
  it("a wallet v4 sends to a wallet v5 with a comment: two transactions, the second on the message the first sent", async () => {
    const a = walletV4(1);
    const b = walletV5(2);
    const msg = a.transfer([internal({ to: b.address, value: toNano(1), bounce: true, body: "hello" })]);
    const { input, reads } = inputOf(msg, [a, b]);
    const t = await emulateTrace(pool, input);
    expect(t.isIncomplete).toBe(false);
    expect(t.randomSeed).toEqual(Buffer.alloc(32, 1));
    expect(shape(t)).toEqual([
      { account: a.address.toRawString(), depth: 0, op: expect.any(Number), bounced: false },
      { account: b.address.toRawString(), depth: 1, op: 0, bounced: false },
    ]);
    const [root, child] = t.transactions;
    expect(root!.inMsgHash).toEqual(msg.hash());
    expect(root!.transaction.lt).toBe(50_001n);
    // the message the root sent is the one the child processed, by the hash of its cell
    const sent = root!.transaction.outMessages.get(0)!;
    expect(child!.inMsgHash).toEqual(outMessageCell(root!.cell, 0).hash());
    expect(child!.inMsgHash).toEqual(child!.cell.refs[0]!.refs[0]!.hash());
    expect(child!.transaction.inMessage!.body.hash()).toEqual(sent.body.hash());
    expect(child!.transaction.lt).toBeGreaterThan(sent.info.type === "internal" ? sent.info.createdLt : 0n);
    expect(root!.shardAccountBefore.hash()).toEqual(a.state.shardAccount.hash());
    expect(child!.shardAccountBefore.hash()).toEqual(b.state.shardAccount.hash());
    const balance = (c: Cell) => loadShardAccount(c.beginParse()).account!.storage.balance.coins;
    expect(balance(child!.shardAccountAfter) - balance(child!.shardAccountBefore)).toBeGreaterThan(toNano("0.99"));
    // the sender's seqno went from 0 to 1 in the state the trace leaves
    const data = loadShardAccount(root!.shardAccountAfter.beginParse()).account!.storage.state;
    expect(data.type === "active" && data.state.data!.beginParse().loadUint(32)).toBe(1);
    expect([...reads.values()]).toEqual([1, 1]);
    expectLtsConsistent(t);
  });

  it("a jetton transfer: wallet → jetton wallet → the receiver's jetton wallet (deployed) → notification and excess", async () => {
    const sender = walletV4(3);
    const receiver = walletV5(4);
    const from = jettonWallet(sender.address, 1_000n);
    const to = jettonWallet(receiver.address, 0n);
    const body = jettonTransferBody({ amount: 400n, destination: receiver.address, responseDestination: sender.address, forwardTonAmount: toNano("0.01") });
    const msg = sender.transfer([internal({ to: from.address, value: toNano("0.2"), bounce: true, body })]);
    // the receiver's jetton wallet does not exist yet: the internal transfer deploys it
    const { input, reads } = inputOf(msg, [sender, receiver, from]);
    const t = await emulateTrace(pool, input);
    expect(shape(t).map(({ account, depth, op }) => ({ account, depth, op }))).toEqual([
      { account: sender.address.toRawString(), depth: 0, op: expect.any(Number) },
      { account: from.address.toRawString(), depth: 1, op: 0x0f8a7ea5 },
      { account: to.address.toRawString(), depth: 2, op: 0x178d4519 },
      // notification first: the receiver's jetton wallet sends it before the excess
      { account: receiver.address.toRawString(), depth: 3, op: 0x7362d09c },
      { account: sender.address.toRawString(), depth: 3, op: 0xd53276db },
    ]);
    for (const x of t.transactions) {
      const d = x.transaction.description;
      expect(d.type === "generic" && !d.aborted).toBe(true);
    }
    const jettonBalance = (c: Cell) => {
      const st = loadShardAccount(c.beginParse()).account!.storage.state;
      return st.type === "active" ? st.state.data!.beginParse().loadCoins() : null;
    };
    expect(jettonBalance(t.transactions[1]!.shardAccountAfter)).toBe(600n);
    expect(jettonBalance(t.transactions[2]!.shardAccountAfter)).toBe(400n);
    // the sender's excess runs on the state its first transaction left
    expect(t.transactions[4]!.shardAccountBefore.hash()).toEqual(t.transactions[0]!.shardAccountAfter.hash());
    expect([...reads.values()].every((n) => n === 1)).toBe(true);
    expect(reads.size).toBe(4);
    expectLtsConsistent(t);
  });

  it("a bounceable message the contract refuses bounces back to the sender, and the bounce is delivered", async () => {
    const sender = walletV4(5);
    const jw = jettonWallet(sender.address, 10n);
    const msg = sender.transfer([internal({ to: jw.address, value: toNano("0.1"), bounce: true, body: beginCell().storeUint(0x12345678, 32).storeUint(0, 64).endCell() })]);
    const t = await emulateTrace(pool, inputOf(msg, [sender, jw]).input);
    expect(shape(t)).toEqual([
      { account: sender.address.toRawString(), depth: 0, op: expect.any(Number), bounced: false },
      { account: jw.address.toRawString(), depth: 1, op: 0x12345678, bounced: false },
      { account: sender.address.toRawString(), depth: 2, op: 0xffffffff, bounced: true },
    ]);
    const d = t.transactions[1]!.transaction.description;
    expect(d.type === "generic" && d.aborted && d.computePhase.type === "vm" && d.computePhase.exitCode).toBe(0xffff);
    expectLtsConsistent(t);
  });

  it("a message past the depth bound: TraceEmulationError depth with the trace up to it", async () => {
    const sender = walletV4(6);
    const receiver = walletV5(7);
    const from = jettonWallet(sender.address, 1_000n);
    const body = jettonTransferBody({ amount: 1n, destination: receiver.address, responseDestination: sender.address, forwardTonAmount: 1n });
    const msg = sender.transfer([internal({ to: from.address, value: toNano("0.2"), body })]);
    const e = await emulateTrace(pool, { ...inputOf(msg, [sender, receiver, from]).input, bounds: { maxDepth: 2 } }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TraceEmulationError);
    const err = e as TraceEmulationError;
    expect(err.reason).toBe("depth");
    expect(err.message).toMatch(/^the trace is deeper than 2 messages/);
    expect(err.partial!.isIncomplete).toBe(true);
    expect(err.partial!.transactions.map((x) => x.depth)).toEqual([0, 1, 2]);

    const c = await emulateTrace(pool, { ...inputOf(msg, [sender, receiver, from]).input, bounds: { maxTransactions: 3 } }).catch((x: unknown) => x);
    expect(c).toBeInstanceOf(TraceEmulationError);
    expect((c as TraceEmulationError).reason).toBe("count");
    expect((c as TraceEmulationError).message).toBe("the trace has more than 3 transactions");
    expect((c as TraceEmulationError).partial!.transactions).toHaveLength(3);
  });

  it("an external message the wallet does not accept is rejected with the exit code; ignoreChksig accepts a wrong signature", async () => {
    const a = walletV4(8);
    const b = walletV5(9);
    const wrongSeqno = a.transfer([internal({ to: b.address, value: toNano(1) })], { seqno: 5 });
    const e = await emulateTrace(pool, inputOf(wrongSeqno, [a, b]).input).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TraceEmulationError);
    expect((e as TraceEmulationError).reason).toBe("rejected");
    expect((e as TraceEmulationError).exitCode).toBe(33);
    expect((e as TraceEmulationError).message).toContain(`the contract at ${a.address.toString()} did not accept the external message (exit code 33)`);

    const unsigned = a.transfer([internal({ to: b.address, value: toNano(1) })], { secretKey: walletV4(99).key.secretKey });
    const bad = await emulateTrace(pool, inputOf(unsigned, [a, b]).input).catch((x: unknown) => x);
    expect((bad as TraceEmulationError).exitCode).toBe(35);
    const t = await emulateTrace(pool, { ...inputOf(unsigned, [a, b]).input, ignoreChksig: true });
    expect(t.transactions).toHaveLength(2);
  });

  it("the time bound: TraceEmulationError timeout", async () => {
    const a = walletV4(10);
    const b = walletV5(11);
    const msg = a.transfer([internal({ to: b.address, value: toNano(1) })]);
    const { input } = inputOf(msg, [a, b]);
    const slow: TraceEmulationInput = {
      ...input,
      bounds: { timeoutMs: 50 },
      account: async (address) => {
        await new Promise((r) => setTimeout(r, 60));
        return input.account(address);
      },
    };
    const e = await emulateTrace(pool, slow).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TraceEmulationError);
    expect((e as TraceEmulationError).reason).toBe("timeout");
    expect((e as TraceEmulationError).message).toMatch(/^the trace took longer than 50 ms to emulate/);
  });
});
