// The send service's pending traces on a localnet, through its RPCs as API v3 calls them (Connect,
// in process): a wallet's transfer sent with sendBocReturnHash is readable at once as a pending trace
// (by its hash, its normalized hash, its accounts, its trace id) with its transactions and actions,
// confirmed while its shard block waits for its masterchain block, gone once committed (no indexer
// here); a transfer that cannot land as emulated is invalidated; EmulateTrace emulates without
// sending; bad input is an InvalidArgument or FailedPrecondition naming the reason.
import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { Address, beginCell, Cell, external, internal, loadMessage, loadTransaction, SendMode, storeMessage, storeMessageRelaxed, toNano } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { provisionsOf } from "@tongate/cli";
import type { Localnet } from "@tongate/localnet";
import { Finality, Pending } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { Send } from "@tongate/proto/gen/tongate/v2/send_pb.js";
import { createLogger, ServiceHost } from "@tongate/runtime";
import { normalizedHash } from "@tongate/ton";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bocText, hostileBoc } from "../../../tests/support/hostile.js";
import { runGetMethod } from "../../../tests/support/localnet-deploy.js";
import { rng } from "../../../tests/support/rng.js";
import { startTestLocalnet } from "../../../tests/support/localnet.js";
import { sendService } from "../src/index.js";

let net: Localnet;
let host: ServiceHost;
let send: Client<typeof Send>;
let pending: Client<typeof Pending>;
let wallet: WalletContractV4;
let secretKey: Buffer;
const VALID_UNTIL = Math.floor(Date.now() / 1000) + 900;
const receiver = new Address(0, Buffer.alloc(32, 0x61));

beforeAll(async () => {
  // a pending window: each seal serves its shard blocks as signed but uncommitted for a while first
  net = await startTestLocalnet({ seed: "send-pending", wallets: 2, pendingWindowMs: 400 });
  await net.chain.seal();
  const g = net.genesis.wallets[2]!;
  wallet = WalletContractV4.create({ workchain: 0, publicKey: g.keyPair.publicKey });
  secretKey = g.keyPair.secretKey;
  const options = { globalConfig: net.globalConfig(), "emulator-processes": "1" };
  host = await ServiceHost.start([sendService], { log: createLogger({ level: process.env.TONGATE_TEST_LOG_LEVEL ?? "silent" }), options, provide: provisionsOf(options) });
  const transport = (desc: typeof Send | typeof Pending) => host.upstreams().find((u) => u.service.typeName === desc.typeName)!.transport;
  send = createClient(Send, transport(Send));
  pending = createClient(Pending, transport(Pending));
  // the emulator's first run of contract code compiles it (hundreds of ms on a loaded machine):
  // done here, so that "at once" below is the service's wait, not the compilation
  await pending.emulateTrace({ boc: (await transfer({ to: new Address(0, Buffer.alloc(32, 0x60)) })).boc });
});

afterAll(async () => {
  await host?.close();
  await net?.close();
});

const seqno = async () => (await runGetMethod(net, wallet.address, "seqno")).readNumber();

async function transfer(o: { to?: Address; key?: Buffer; seqno?: number } = {}): Promise<{ boc: string; root: Cell; hashNorm: Buffer }> {
  const body = wallet.createTransfer({ seqno: o.seqno ?? (await seqno()), timeout: VALID_UNTIL, secretKey: o.key ?? secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [internal({ to: o.to ?? receiver, value: toNano("0.25"), bounce: false })] });
  const root = beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell();
  return { boc: root.toBoc().toString("base64"), root, hashNorm: normalizedHash(loadMessage(root.beginParse())) };
}

async function rpcError(p: Promise<unknown>): Promise<ConnectError> {
  try {
    await p;
  } catch (e) {
    return ConnectError.from(e);
  }
  throw new Error("expected the call to fail");
}

describe("pending traces", () => {
  it("a transfer sent with sendBocReturnHash is a pending trace at once, with its transactions and actions", async () => {
    const m = await transfer();
    const sent = await send.sendBocReturnHash({ boc: m.boc });
    const t0 = performance.now();
    const { traces } = await pending.getPendingTraces({ extMsgHashes: [sent.hash] });
    const ms = performance.now() - t0;
    expect(traces).toHaveLength(1);
    const trace = traces[0]!;
    expect(Buffer.from(trace.externalHash)).toEqual(m.root.hash());
    expect(Buffer.from(trace.externalHashNorm)).toEqual(m.hashNorm);
    expect(trace.finality).toBe(Finality.PENDING);
    expect(trace.isIncomplete).toBe(false);
    expect(trace.mcBlockSeqno).toBe(net.chain.lastMasterchain!.id.seqno);
    // the wallet's transaction, then the receiver's
    expect(trace.transactions).toHaveLength(2);
    const [root, child] = trace.transactions.map((t) => ({ t, tx: loadTransaction(Cell.fromBase64(t.boc).beginParse()) }));
    expect(Buffer.from(trace.traceId)).toEqual(Cell.fromBase64(root!.t.boc).hash());
    expect(root!.tx.address).toBe(BigInt("0x" + wallet.address.hash.toString("hex")));
    expect(child!.tx.address).toBe(BigInt("0x" + receiver.hash.toString("hex")));
    expect(child!.t.inMsgHash.length).toBe(32);
    expect(root!.t.accountStateBefore?.status).toBe("active");
    expect(child!.t.accountStateBefore?.status).toBe("nonexist");
    expect(child!.t.accountStateAfter?.balance).toBeGreaterThan(0n);
    expect(trace.classificationState).toBe("ok");
    expect(trace.actionsJson.map((a) => (JSON.parse(a) as { type: string }).type)).toEqual(["ton_transfer"]);
    console.log(`pending trace readable ${ms.toFixed(1)} ms after sendBocReturnHash returned`);

    // the same trace by its normalized hash, by either account, by its id
    for (const q of [{ extMsgHashes: [m.hashNorm] }, { accounts: [wallet.address.toString()] }, { accounts: [receiver.toRawString()] }, { traceIds: [trace.traceId] }]) {
      const r = await pending.getPendingTraces(q);
      expect(r.traces.map((t) => Buffer.from(t.traceId).toString("hex")), JSON.stringify(q)).toEqual([Buffer.from(trace.traceId).toString("hex")]);
    }
    // the chain runs it as emulated
    const before = await seqno();
    await net.chain.seal();
    expect(await seqno()).toBe(before + 1);
    const real = net.chain.lastShard!.transactions.map((r) => r.cell).find((c) => loadTransaction(c.beginParse()).address === root!.tx.address)!;
    const realTx = loadTransaction(real.beginParse());
    expect(realTx.outMessagesCount).toBe(root!.tx.outMessagesCount);
    expect(realTx.description.type === "generic" && realTx.description.aborted).toBe(false);
  });

  it("a message sent twice is emulated once; one the chain refuses keeps nothing", async () => {
    const m = await transfer({ to: new Address(0, Buffer.alloc(32, 0x62)) });
    await send.sendBoc({ boc: m.boc });
    await send.sendBoc({ boc: m.boc });
    expect((await pending.getPendingTraces({ extMsgHashes: [m.hashNorm] })).traces).toHaveLength(1);
    await net.chain.seal();
    // signed with another key: the wallet refuses it, in emulation and on the liteserver
    const forged = await transfer({ key: Buffer.alloc(64, 7) });
    const refused = await rpcError(send.sendBocReturnHash({ boc: forged.boc }));
    expect(refused.code).toBe(Code.FailedPrecondition);
    expect((await pending.getPendingTraces({ extMsgHashes: [forged.hashNorm] })).traces).toEqual([]);
  });
});

const traceOf = async (hash: Uint8Array) => (await pending.getPendingTraces({ extMsgHashes: [hash] })).traces[0];

describe("finality", () => {
  it("pending → confirmed (its shard block signed, not committed) → gone once committed", async () => {
    const m = await transfer({ to: new Address(0, Buffer.alloc(32, 0x64)) });
    await send.sendBoc({ boc: m.boc });
    expect((await traceOf(m.hashNorm))!.finality).toBe(Finality.PENDING);
    const sealing = net.chain.seal();
    await expect.poll(async () => (await traceOf(m.hashNorm))?.finality, { timeout: 5000, interval: 20 }).toBe(Finality.CONFIRMED);
    const confirmed = (await traceOf(m.hashNorm))!;
    expect(confirmed.transactions.map((t) => t.finality)).toEqual([Finality.CONFIRMED, Finality.CONFIRMED]);
    expect(confirmed.transactions[0]!.blockSeqno).toBeGreaterThan(0);
    // the confirmed transactions are the chain's: the root is the one the shard block holds
    await sealing;
    const real = net.chain.lastShard!.transactions.map((r) => r.cell.hash().toString("base64"));
    expect(real).toContain(Cell.fromBase64(confirmed.transactions[0]!.boc).hash().toString("base64"));
    await expect.poll(() => traceOf(m.hashNorm), { timeout: 5000, interval: 20 }).toBeUndefined();
  });

  it("a transfer emulated on a state the chain leaves before it lands is invalidated", async () => {
    // two transfers of the same seqno: both emulate and broadcast, only the first can land
    const a = await transfer({ to: new Address(0, Buffer.alloc(32, 0x65)) });
    const b = await transfer({ to: new Address(0, Buffer.alloc(32, 0x66)) });
    await send.sendBoc({ boc: a.boc });
    await send.sendBoc({ boc: b.boc });
    expect((await traceOf(a.hashNorm))?.finality).toBe(Finality.PENDING);
    expect((await traceOf(b.hashNorm))?.finality).toBe(Finality.PENDING);
    const sealing = net.chain.seal();
    await expect.poll(async () => (await traceOf(a.hashNorm))?.finality, { timeout: 5000, interval: 20 }).toBe(Finality.CONFIRMED);
    expect(await traceOf(b.hashNorm)).toBeUndefined();
    await sealing;
  });
});

describe("EmulateTrace", () => {
  it("emulates a transfer without sending it", async () => {
    const before = await seqno();
    const m = await transfer({ to: new Address(0, Buffer.alloc(32, 0x63)) });
    const { trace } = await pending.emulateTrace({ boc: m.boc, withActions: true, includeCodeData: true });
    expect(trace!.transactions).toHaveLength(2);
    expect(trace!.actionsJson).toHaveLength(1);
    expect(trace!.transactions[0]!.accountStateBefore!.codeBoc).not.toBe("");
    await net.chain.seal();
    expect(await seqno()).toBe(before);
    expect((await pending.getPendingTraces({ extMsgHashes: [m.hashNorm] })).traces).toEqual([]);
  });

  it("answers bad input with the reason", async () => {
    const bad = await rpcError(pending.emulateTrace({ boc: "te6cc" }));
    expect(bad.code).toBe(Code.InvalidArgument);
    expect(bad.rawMessage).toMatch(/^boc: /);
    const notMessage = await rpcError(pending.emulateTrace({ boc: beginCell().storeUint(1, 8).endCell().toBoc().toString("base64") }));
    expect(notMessage.rawMessage).toMatch(/^boc: the cell is not a message/);
    // unsigned: the wallet refuses it, unless signature checks are taken as passing
    const unsigned = await transfer({ key: Buffer.alloc(64, 9) });
    const refused = await rpcError(pending.emulateTrace({ boc: unsigned.boc }));
    expect(refused.code).toBe(Code.FailedPrecondition);
    expect(refused.rawMessage).toMatch(/exit code|rejected|accept/i);
    expect((await pending.emulateTrace({ boc: unsigned.boc, ignoreChksig: true })).trace!.transactions).toHaveLength(2);
    const block = await rpcError(pending.emulateTrace({ boc: unsigned.boc, ignoreChksig: true, mcBlockSeqno: 1_000_000 }));
    expect(block.code).toBe(Code.InvalidArgument);
    expect(block.rawMessage).toMatch(/^mc_block_seqno: /);
    const none = await rpcError(pending.getPendingTraces({}));
    expect(none.rawMessage).toBe("one of accounts, ext_msg_hashes or trace_ids is required");
    const shortHash = await rpcError(pending.getPendingTraces({ extMsgHashes: [new Uint8Array(3)] }));
    expect(shortHash.rawMessage).toBe("ext_msg_hashes[0]: a hash is 32 bytes, this is 3");
  });
});

describe("malformed input", () => {
  it("1,000 malformed sends and emulations: only InvalidArgument or FailedPrecondition, nothing kept, the service keeps serving", async () => {
    const r = rng(26);
    const kept = async () => JSON.stringify((await host.health()()).detail).match(/"send":\{"pending":(\d+)/)?.[1];
    const before = await kept();
    expect(before).toBeDefined();
    const internalMessage = beginCell()
      .store(storeMessageRelaxed(internal({ to: receiver, value: 1n, bounce: false })))
      .endCell()
      .toBoc()
      .toString("base64");
    for (let i = 0; i < 1000; i++) {
      const boc = i % 10 === 0 ? internalMessage : bocText(r, hostileBoc(r).bytes);
      const call = i % 3 === 0 ? pending.emulateTrace({ boc, ignoreChksig: r() < 0.5, withActions: true }) : i % 3 === 1 ? send.sendBoc({ boc }) : send.sendBocReturnHash({ boc });
      const e = await rpcError(call);
      expect([Code.InvalidArgument, Code.FailedPrecondition], `${i}: ${e.rawMessage}`).toContain(e.code);
      expect(e.rawMessage.length).toBeGreaterThan(0);
    }
    expect(await kept()).toBe(before);
    // and a real transfer is still sent and kept
    const m = await transfer({ to: new Address(0, Buffer.alloc(32, 0x67)) });
    await send.sendBoc({ boc: m.boc });
    expect(await traceOf(m.hashNorm)).toBeDefined();
    await net.chain.seal();
  }, 120_000);
});

