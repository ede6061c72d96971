// The classifier's input from transactions as cells: an emulated trace of real contracts (the
// fixture wallets and the reference jetton wallet) classified as the indexed trace would be — a
// wallet → wallet transfer with a comment is a ton_transfer with the comment, a jetton transfer a
// jetton_transfer — and the fields the indexer's rows hold (hashes, raw addresses, signed opcodes,
// StateInits, description fields).
import { beginCell, Cell, toNano } from "@ton/core";
import { emulateTrace, EmulatorPool } from "@tongate/emulator";
import { afterAll, describe, expect, it } from "vitest";
import { inputOf, internal, JETTON_MASTER, jettonTransferBody, jettonWallet, walletV4, walletV5 } from "../../../tests/support/trace-accounts.js";
import { classifyTrace, MapInterfaceLookup, traceInputFromTransactions, type ContractFacts } from "../src/index.js";

const pool = new EmulatorPool({ size: 1 });
afterAll(() => pool.close());

const raw = (a: { toRawString(): string }) => a.toRawString().toUpperCase();

describe("traceInputFromTransactions", () => {
  it("a wallet v4 → wallet v5 transfer with a comment: a ton_transfer with the comment", async () => {
    const a = walletV4(21);
    const b = walletV5(22);
    const msg = a.transfer([internal({ to: b.address, value: toNano("1.5"), bounce: true, body: "thanks for lunch" })]);
    const trace = await emulateTrace(pool, inputOf(msg, [a, b]).input);
    const input = traceInputFromTransactions(trace.transactions, { mcSeqno: 42, externalHashNorm: "bm9ybWFsaXplZA==" });

    const [root, child] = input.transactions;
    expect(input.traceId).toBe(trace.transactions[0]!.cell.hash().toString("base64"));
    expect(input.externalHash).toBe(msg.hash().toString("base64"));
    expect(input.externalHashNorm).toBe("bm9ybWFsaXplZA==");
    expect([input.mcSeqnoStart, input.mcSeqnoEnd, input.startLt, input.endLt]).toEqual([42, 42, root!.lt, child!.lt]);
    expect(root).toMatchObject({ account: raw(a.address), mcBlockSeqno: 42, origStatus: "active", endStatus: "active", descr: "ord", aborted: false, computeSkipped: false, computeExitCode: 0, actionResultCode: 0, bounce: null });
    expect(root!.inMsg).toMatchObject({ hash: msg.hash().toString("base64"), hashNorm: "bm9ybWFsaXplZA==", source: null, destination: raw(a.address), value: null, createdLt: null });
    expect(child!.inMsg).toEqual(root!.outMsgs[0]);
    expect(child!.inMsg).toMatchObject({ source: raw(a.address), destination: raw(b.address), value: toNano("1.5"), opcode: 0, bounce: true, bounced: false, hashNorm: null, valueExtraCurrencies: null, initState: null });
    expect(Cell.fromBase64(child!.inMsg!.body).hash().toString("base64")).toBe(child!.inMsg!.bodyHash);

    const c = classifyTrace(input, new MapInterfaceLookup(new Map()));
    expect(c.state).toBe("ok");
    expect(c.actions.map((x) => ({ type: x.type, success: x.success, source: x.source, destination: x.destination, value: x.value, data: x.ton_transfer_data }))).toEqual([
      { type: "ton_transfer", success: true, source: raw(a.address), destination: raw(b.address), value: toNano("1.5"), data: { content: "thanks for lunch", encrypted: false } },
    ]);
    expect(c.actions[0]!.trace_external_hash_norm).toBe("bm9ybWFsaXplZA==");
  });

  it("a jetton transfer: a jetton_transfer from the sender to the receiver, the deploying StateInit in the input", async () => {
    const sender = walletV4(23);
    const receiver = walletV5(24);
    const from = jettonWallet(sender.address, 1_000n);
    const to = jettonWallet(receiver.address, 0n);
    const body = jettonTransferBody({ amount: 250n, destination: receiver.address, responseDestination: sender.address, forwardTonAmount: toNano("0.01"), forwardPayload: beginCell().storeUint(0, 32).storeStringTail("for the book").endCell() });
    const msg = sender.transfer([internal({ to: from.address, value: toNano("0.2"), bounce: true, body })]);
    const trace = await emulateTrace(pool, inputOf(msg, [sender, receiver, from]).input);
    const input = traceInputFromTransactions(trace.transactions, { mcSeqno: 7 });
    expect(input.transactions.map((t) => t.inMsg?.opcode)).toEqual([expect.any(Number), 0x0f8a7ea5, 0x178d4519, 0x7362d09c, 0xd53276db | 0]);
    // the internal transfer deploys the receiver's jetton wallet: its StateInit is in the input
    const deploy = input.transactions[2]!;
    expect(deploy).toMatchObject({ account: raw(to.address), origStatus: "nonexist", endStatus: "active" });
    expect(deploy.inMsg!.initState).not.toBeNull();
    expect(Cell.fromBase64(deploy.inMsg!.initState!).hash().toString("base64")).toBe(deploy.inMsg!.initStateHash);

    const jw = (owner: string, address: string): ContractFacts => ({ jettonWallet: { address, owner, jetton: raw(JETTON_MASTER), balance: 0n }, interfaces: ["jetton_wallet"] });
    const facts = new Map([
      [raw(from.address), jw(raw(sender.address), raw(from.address))],
      [raw(to.address), jw(raw(receiver.address), raw(to.address))],
    ]);
    const c = classifyTrace(input, new MapInterfaceLookup(facts));
    expect(c.state).toBe("ok");
    const transfer = c.actions.find((x) => x.type === "jetton_transfer");
    expect(transfer).toMatchObject({ success: true, source: raw(sender.address), destination: raw(receiver.address), source_secondary: raw(from.address), destination_secondary: raw(to.address), asset: raw(JETTON_MASTER), amount: 250n });
    expect(transfer!.jetton_transfer_data).toMatchObject({ comment: "for the book", forward_amount: toNano("0.01"), response_destination: raw(sender.address) });
  });
});
