// API v2 sendBoc, sendBocReturnHash and estimateFee over a localnet: signed wallet messages go through
// the gateway to the liteserver, a sealed block shows their effect, and the estimated fees are
// compared with the fees of the transactions the chain then executed.
import { Address, beginCell, Cell, external, internal, loadTransaction, SendMode, storeMessage, toNano, type Message, type Transaction } from "@ton/core";
import { WalletContractV3R2, WalletContractV4 } from "@ton/ton";
import { deriveKeyPair, type Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, postJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { runGetMethod } from "../support/localnet-deploy.js";
import { v2ErrorErrors, v2ResponseErrors } from "../support/v2-schema.js";
import { startTestLocalnet } from "../support/localnet.js";

let net: Localnet;
let t: Embedded;
// wallets: [v4r2 #0 (the faucet), v5r1 #0, v4r2 #1 (ours), v5r1 #1]
let sender: { wallet: WalletContractV4; secretKey: Buffer };
let receiver: Address;

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "v2-send", wallets: 2 });
  await net.chain.seal();
  const g = net.genesis.wallets[2]!;
  sender = { wallet: WalletContractV4.create({ workchain: 0, publicKey: g.keyPair.publicKey }), secretKey: g.keyPair.secretKey };
  receiver = net.genesis.wallets[3]!.address;
  t = await startEmbedded({ globalConfig: net.globalConfig() });
});

afterAll(async () => {
  await t?.close();
  await net?.close();
});

const post = (method: string, body: object) => postJson(`${t.url}/api/v2/${method}`, body);
const balance = async (a: Address) => BigInt((await getJson(`${t.url}/api/v2/getAddressBalance?address=${a.toRawString()}`)).body.result);

/** A signed transfer from our v4 wallet at its current seqno, as an external message. */
/** One valid_until for every transfer: two built for the same seqno are the same body whatever second they are built in. */
const VALID_UNTIL = Math.floor(Date.now() / 1000) + 900;

async function transfer(to: Address, value: bigint, opts: { secretKey?: Buffer; forceRef?: boolean } = {}): Promise<{ message: Message; boc: string }> {
  const seqno = (await runGetMethod(net, sender.wallet.address, "seqno")).readNumber();
  const body = sender.wallet.createTransfer({ seqno, timeout: VALID_UNTIL, secretKey: opts.secretKey ?? sender.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [internal({ to, value, bounce: false })] });
  const message = external({ to: sender.wallet.address, body });
  return { message, boc: beginCell().store(storeMessage(message, { forceRef: opts.forceRef })).endCell().toBoc().toString("base64") };
}

/** The transaction of `account` in the last sealed shard block. */
function lastTx(account: Address): Transaction {
  const rec = net.chain.lastShard!.transactions.map((r) => loadTransaction(r.cell.beginParse())).find((tx) => tx.address === BigInt("0x" + account.hash.toString("hex")));
  if (!rec) throw new Error(`no transaction of ${account.toString()} in the last block`);
  return rec;
}

function phases(tx: Transaction) {
  const d = tx.description;
  if (d.type !== "generic") throw new Error("not an ordinary transaction");
  return {
    storage: d.storagePhase?.storageFeesCollected ?? 0n,
    gas: d.computePhase.type === "vm" ? d.computePhase.gasFees : 0n,
    fwd: d.actionPhase?.totalFwdFees ?? 0n,
    import: tx.totalFees.coins - (d.storagePhase?.storageFeesCollected ?? 0n) - (d.computePhase.type === "vm" ? d.computePhase.gasFees : 0n) - (d.actionPhase?.totalActionFees ?? 0n),
  };
}

describe("sendBoc and sendBocReturnHash", () => {
  it("broadcasts a signed transfer, returns its hash and TEP-467 normalized hash, and the transfer lands", async () => {
    const to = new Address(0, Buffer.alloc(32, 0x31));
    const seqno = (await runGetMethod(net, sender.wallet.address, "seqno")).readNumber();
    const a = await transfer(to, toNano(2));
    // The same message serialized with its body in a reference: another hash, the same normalized hash.
    const b = await transfer(to, toNano(2), { forceRef: true });
    const ra = await post("sendBocReturnHash", { boc: a.boc });
    expect(ra.status, JSON.stringify(ra.body)).toBe(200);
    expect(v2ResponseErrors("/api/v2/sendBocReturnHash", ra.body)).toBeNull();
    const rb = await post("sendBocReturnHash", { boc: b.boc });
    expect(rb.status, JSON.stringify(rb.body)).toBe(200);
    expect(ra.body.result["@type"]).toBe("raw.extMessageInfo");
    expect(ra.body.result.hash).toBe(Cell.fromBase64(a.boc).hash().toString("base64"));
    expect(rb.body.result.hash).toBe(Cell.fromBase64(b.boc).hash().toString("base64"));
    expect(ra.body.result.hash).not.toBe(rb.body.result.hash);
    expect(ra.body.result.hash_norm).toBe(rb.body.result.hash_norm);
    expect(ra.body.result.hash_norm).not.toBe(ra.body.result.hash);

    await net.chain.seal();
    expect(await balance(to)).toBe(toNano(2)); // only one of the two copies executed
    expect((await runGetMethod(net, sender.wallet.address, "seqno")).readNumber()).toBe(seqno + 1);
  });

  it("sendBoc answers {@type: ok}, also over JSON-RPC, and the transfer lands", async () => {
    const to = new Address(0, Buffer.alloc(32, 0x32));
    const r = await post("sendBoc", { boc: (await transfer(to, toNano(1))).boc });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(v2ResponseErrors("/api/v2/sendBoc", r.body)).toBeNull();
    expect(r.body.result).toMatchObject({ "@type": "ok" });
    await net.chain.seal();
    const rpc = await post("jsonRPC", { jsonrpc: "2.0", id: 7, method: "sendBoc", params: { boc: (await transfer(to, toNano(1))).boc } });
    expect(rpc.body, JSON.stringify(rpc.body)).toMatchObject({ ok: true, id: 7 });
    await net.chain.seal();
    // Both landed; the second receipt may pay a nanoton or so of storage fee when a second
    // has passed since the first (the account holds 1 TON meanwhile).
    const landed = await balance(to);
    expect(landed).toBeLessThanOrEqual(toNano(2));
    expect(landed).toBeGreaterThan(toNano(2) - 1000n);
  });

  it("a replayed message is refused with 409 and the contract's exit code", async () => {
    const { boc } = await transfer(new Address(0, Buffer.alloc(32, 0x33)), toNano(1));
    expect((await post("sendBoc", { boc })).status).toBe(200);
    await net.chain.seal();
    for (const method of ["sendBoc", "sendBocReturnHash"]) {
      const r = await post(method, { boc });
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(v2ErrorErrors(r.body)).toBeNull();
      expect(r.body.error).toMatch(/did not accept.*exit code 33/s); // v4 wallet: seqno mismatch
    }
  });

  it("rejects what is not an inbound external message with a 422 naming boc", async () => {
    const internalMsg = beginCell().store(storeMessage(internal({ to: receiver, value: 1n }) as Message)).endCell().toBoc().toString("base64");
    const notMessage = beginCell().storeUint(5, 3).endCell().toBoc().toString("base64");
    for (const boc of ["te6cc", "AAAA", internalMsg, notMessage]) {
      const r = await post("sendBoc", { boc });
      expect(r.status, `${boc}: ${JSON.stringify(r.body)}`).toBe(422);
      expect(v2ErrorErrors(r.body)).toBeNull();
      expect(r.body.error).toMatch(/^boc:/);
    }
  });
});

describe("estimateFee", () => {
  it("estimates a transfer as the chain then charges it, source and destination", async () => {
    const { message, boc } = await transfer(receiver, toNano(3));
    const r = await post("estimateFee", { address: sender.wallet.address.toString(), body: message.body.toBoc().toString("base64") });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(v2ResponseErrors("/api/v2/estimateFee", r.body)).toBeNull();
    const { source_fees: src, destination_fees: dst } = r.body.result;
    expect(src["@type"]).toBe("fees");
    expect(dst).toHaveLength(1);

    expect((await post("sendBoc", { boc })).status).toBe(200);
    await net.chain.seal();
    const s = phases(lastTx(sender.wallet.address));
    expect(src.gas_fee).toBe(Number(s.gas));
    expect(src.fwd_fee).toBe(Number(s.fwd));
    expect(src.in_fwd_fee).toBe(Number(s.import));
    expect(src.gas_fee).toBeGreaterThan(0);
    expect(src.in_fwd_fee).toBeGreaterThan(0);
    // Storage accrues with time: the estimate is at the state's time, the transaction a little later.
    expect(src.storage_fee).toBeLessThanOrEqual(Number(s.storage));
    const d = phases(lastTx(receiver));
    expect(dst[0].gas_fee).toBe(Number(d.gas));
    expect(dst[0].gas_fee).toBeGreaterThan(0);
    expect(dst[0]).toMatchObject({ in_fwd_fee: 0, fwd_fee: Number(d.fwd) });
  });

  it("ignore_chksig (default true) estimates a message signed with another key; false refuses it with 409", async () => {
    const { message } = await transfer(receiver, toNano(1), { secretKey: deriveKeyPair("v2-send", "stranger").secretKey });
    const body = message.body.toBoc().toString("base64");
    const address = sender.wallet.address.toString();
    const ok = await post("estimateFee", { address, body });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.result.source_fees.gas_fee).toBeGreaterThan(0);
    const strict = await post("estimateFee", { address, body, ignore_chksig: false });
    expect(strict.status, JSON.stringify(strict.body)).toBe(409);
    expect(v2ErrorErrors(strict.body)).toBeNull();
    expect(strict.body.error).toMatch(/exit code 35/); // v4 wallet: bad signature
  });

  it("estimates a deploy (init_code, init_data) as the chain then charges it", async () => {
    const key = deriveKeyPair("v2-send", "v3r2");
    const v3 = WalletContractV3R2.create({ workchain: 0, publicKey: key.publicKey });
    await net.faucet(v3.address, toNano(5));
    const body = v3.createTransfer({ seqno: 0, secretKey: key.secretKey, messages: [internal({ to: receiver, value: toNano(1), bounce: false })] });
    const req = { address: v3.address.toString({ bounceable: false }), body: body.toBoc().toString("base64"), init_code: v3.init.code.toBoc().toString("base64"), init_data: v3.init.data.toBoc().toString("base64") };
    const r = await post("estimateFee", req);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(v2ResponseErrors("/api/v2/estimateFee", r.body)).toBeNull();

    // Without its StateInit the uninitialized account cannot take the message; with another one it is a client error.
    expect((await post("estimateFee", { address: req.address, body: req.body })).status).toBe(409);
    const wrong = await post("estimateFee", { ...req, init_data: beginCell().storeUint(1, 32).endCell().toBoc().toString("base64") });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error).toMatch(/^init_code, init_data:/);

    const deploy = beginCell().store(storeMessage(external({ to: v3.address, init: v3.init, body }))).endCell().toBoc().toString("base64");
    expect((await post("sendBoc", { boc: deploy })).status).toBe(200);
    await net.chain.seal();
    const s = phases(lastTx(v3.address));
    const src = r.body.result.source_fees;
    expect(src).toMatchObject({ gas_fee: Number(s.gas), fwd_fee: Number(s.fwd), in_fwd_fee: Number(s.import) });
    const d = phases(lastTx(receiver));
    expect(r.body.result.destination_fees).toEqual([{ "@type": "fees", in_fwd_fee: 0, storage_fee: expect.any(Number), gas_fee: Number(d.gas), fwd_fee: Number(d.fwd) }]);
  });

  it("rejects malformed input with a 422 naming the parameter", async () => {
    const address = sender.wallet.address.toString();
    for (const [body, param] of [[{ address, body: "AAAA" }, "body"], [{ address, body: beginCell().endCell().toBoc().toString("base64"), init_code: "te6cc" }, "init_code"]] as const) {
      const r = await post("estimateFee", body);
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(r.body.error).toMatch(new RegExp(`^${param}`));
    }
  });
});
