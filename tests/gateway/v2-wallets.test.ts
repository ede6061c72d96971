// API v2 getWalletInformation and getExtendedAddressInformation over a localnet: the genesis v4r2 and
// v5r1 wallets, v1r3, v2r2 and v3r2 wallets deployed in the test, a contract that is not a
// wallet and an address with no account — each answer checked against the chain and against v2.json.
import { Address, beginCell, Cell, external, internal, loadShardAccount, storeMessage, toNano, type StateInit } from "@ton/core";
import { WalletContractV1R3, WalletContractV2R2, WalletContractV3R2 } from "@ton/ton";
import { deriveKeyPair, type Localnet } from "@tongate/localnet";
import { detectWallet, walletData } from "@tongate/contracts";
import { packAddress } from "@tongate/ton";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { LocalnetSender, runGetMethod } from "../support/localnet-deploy.js";
import { v2ErrorErrors, v2ResponseErrors } from "../support/v2-schema.js";
import { startTestLocalnet } from "../support/localnet.js";

let net: Localnet;
let t: Embedded;
const key = deriveKeyPair("v2-wallets", "deployed");
const v1 = WalletContractV1R3.create({ workchain: 0, publicKey: key.publicKey });
const v2 = WalletContractV2R2.create({ workchain: 0, publicKey: key.publicKey });
const v3 = WalletContractV3R2.create({ workchain: 0, publicKey: key.publicKey, walletId: 4242 });
/** A contract that is not a wallet: empty code (every message ends in an implicit RET). */
const plain: StateInit = { code: new Cell(), data: beginCell().storeUint(7, 16).endCell() };
let plainAddress: Address;
/** What each deploy message sends (older wallet codes expect at least one message). */
const tip = internal({ to: new Address(0, Buffer.alloc(32, 0x01)), value: 1n, bounce: false });

/** Funds `address` from the faucet, then deploys it with its first signed external message. */
async function deployWallet(address: Address, init: StateInit, body: Cell) {
  await net.faucet(address, toNano(5));
  await net.chain.sendExternal(beginCell().store(storeMessage(external({ to: address, init, body }))).endCell().toBoc());
  await net.chain.seal();
}

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "v2-wallets" });
  await net.chain.seal();
  const sk = key.secretKey;
  await deployWallet(v1.address, v1.init, v1.createTransfer({ seqno: 0, secretKey: sk, message: tip }));
  await deployWallet(v2.address, v2.init, v2.createTransfer({ seqno: 0, secretKey: sk, messages: [tip] }));
  await deployWallet(v3.address, v3.init, v3.createTransfer({ seqno: 0, secretKey: sk, messages: [tip] }));
  plainAddress = await new LocalnetSender(net, net.genesis.wallets[1]!).deploy(plain, toNano(1));
  t = await startEmbedded({ globalConfig: net.globalConfig() });
});

afterAll(async () => {
  await t?.close();
  await net?.close();
});

const get = (method: string, address: string, extra = "") => getJson(`${t.url}/api/v2/${method}?address=${encodeURIComponent(address)}${extra}`);

async function walletInfo(address: string, extra = "") {
  const r = await get("getWalletInformation", address, extra);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(v2ResponseErrors("/api/v2/getWalletInformation", r.body)).toBeNull();
  return r.body.result;
}

async function extendedInfo(address: string) {
  const r = await get("getExtendedAddressInformation", address);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(v2ResponseErrors("/api/v2/getExtendedAddressInformation", r.body)).toBeNull();
  return r.body.result;
}

describe("getWalletInformation", () => {
  it("recognizes each wallet kind with its seqno, wallet_id and v5 signature flag", async () => {
    const [g4, g5] = net.genesis.wallets;
    const cases: [Address, object][] = [
      [g4!.address, { wallet_type: "wallet v4 r2", wallet_id: 698983191 }],
      [g5!.address, { wallet_type: "wallet v5 r1", wallet_id: expect.any(Number), is_signature_allowed: true }],
      [v1.address, { wallet_type: "wallet v1 r3" }],
      [v2.address, { wallet_type: "wallet v2 r2" }],
      [v3.address, { wallet_type: "wallet v3 r2", wallet_id: 4242 }],
    ];
    for (const [address, expected] of cases) {
      const res = await walletInfo(address.toString());
      const seqno = (await runGetMethod(net, address, "seqno")).readNumber();
      expect(res, address.toString()).toMatchObject({ "@type": "ext.accounts.walletInformation", wallet: true, account_state: "active", seqno, ...expected });
      const onChain = await get("getAddressInformation", address.toString());
      expect(res.balance).toBe(onChain.body.result.balance);
      expect(res.last_transaction_id).toEqual(onChain.body.result.last_transaction_id);
      if (!("wallet_id" in expected)) expect(res.wallet_id).toBeUndefined();
    }
    // v5r1's wallet_id is the one @ton/ton computes for this chain's global id.
    const g5Data = (await get("getAddressInformation", g5!.address.toString())).body.result.data;
    expect((await walletInfo(g5!.address.toString())).wallet_id).toBe(Cell.fromBase64(g5Data).beginParse().skip(33).loadUint(32));
  });

  it("answers wallet: false for a contract that is not a wallet and for an address with no account", async () => {
    const res = await walletInfo(plainAddress.toRawString());
    expect(res).toMatchObject({ wallet: false, account_state: "active" });
    expect(res.wallet_type).toBeUndefined();
    expect(res.seqno).toBeUndefined();
    const none = await walletInfo(new Address(0, Buffer.alloc(32, 0x77)).toRawString());
    expect(none).toEqual({
      "@type": "ext.accounts.walletInformation",
      wallet: false,
      balance: "0",
      account_state: "uninitialized",
      last_transaction_id: { "@type": "internal.transactionId", lt: "0", hash: Buffer.alloc(32).toString("base64") },
    });
  });

  it("reads the state at a past block (seqno)", async () => {
    const before = net.chain.lastMasterchain!.id.seqno;
    const now = await walletInfo(v3.address.toString());
    await net.chain.sendExternal(beginCell().store(storeMessage(external({ to: v3.address, body: v3.createTransfer({ seqno: 1, secretKey: key.secretKey, messages: [] }) }))).endCell().toBoc());
    await net.chain.seal();
    expect((await walletInfo(v3.address.toString())).seqno).toBe(now.seqno + 1);
    expect((await walletInfo(v3.address.toString(), `&seqno=${before}`)).seqno).toBe(now.seqno);
  });

  it("rejects a malformed address with a 422 naming it", async () => {
    const r = await get("getWalletInformation", "not-an-address");
    expect(r.status).toBe(422);
    expect(v2ErrorErrors(r.body)).toBeNull();
    expect(r.body.error).toMatch(/address/);
  });
});

describe("getExtendedAddressInformation", () => {
  it("gives wallet.v3 and wallet.v4 account states with tonlib's revision", async () => {
    const v4 = net.genesis.wallets[0]!.address;
    const r4 = await extendedInfo(v4.toRawString());
    expect(r4).toMatchObject({ "@type": "fullAccountState", revision: 2, account_state: { "@type": "wallet.v4.accountState", wallet_id: 698983191, seqno: expect.any(Number) } });
    // tonlib's address: url-safe user-friendly, bounceable for raw input.
    expect(r4.address).toEqual({ "@type": "accountAddress", account_address: v4.toString({ urlSafe: true, bounceable: true }) });
    const info = (await get("getAddressInformation", v4.toRawString())).body.result;
    for (const k of ["balance", "last_transaction_id", "sync_utime"]) expect(r4[k]).toEqual(info[k]);
    expect(r4.block_id.seqno).toBe(info.block_id.seqno);

    const nonBounceable = v3.address.toString({ bounceable: false });
    const r3 = await extendedInfo(nonBounceable);
    expect(r3.account_state).toEqual({ "@type": "wallet.v3.accountState", wallet_id: 4242, seqno: expect.any(Number) });
    expect(r3.revision).toBe(2);
    expect(r3.address.account_address).toBe(packAddress(nonBounceable));
  });

  it("gives raw code and data for v1, v2 and v5 wallets and other contracts, uninited for no account", async () => {
    for (const [address, revision] of [[v1.address, 3], [v2.address, 2], [net.genesis.wallets[1]!.address, 0], [plainAddress, 0]] as const) {
      const r = await extendedInfo(address.toString());
      const info = (await get("getAddressInformation", address.toString())).body.result;
      expect(r.account_state).toEqual({ "@type": "raw.accountState", code: info.code, data: info.data, frozen_hash: "" });
      expect(r.revision).toBe(revision);
    }
    const none = await extendedInfo(new Address(0, Buffer.alloc(32, 0x78)).toRawString());
    expect(none.account_state).toEqual({ "@type": "uninited.accountState", frozen_hash: "" });
    expect(none.balance).toBe("0");
  });
});

describe("wallet detection on mainnet accounts (fixtures)", () => {
  it("recognizes real v3r2, v4r2 and v5r1 wallets and reads their mainnet default wallet ids", () => {
    const cases = [
      ["wallet_v3r2_0_04ae074added", "wallet v3 r2", { seqno: 387, walletId: 698983191 }],
      ["wallet_v4r2_0_0116acf81149", "wallet v4 r2", { seqno: 318, walletId: 698983191 }],
      ["wallet_v5r1_0_019cfcdc3bb4", "wallet v5 r1", { seqno: 7, walletId: 2147483409, isSignatureAllowed: true }],
      ["jetton_wallet_library_code_0_2a5871238e9d", undefined, undefined],
    ] as const;
    for (const [name, type, data] of cases) {
      const boc = readFileSync(new URL(`../../../shared/fixtures/accounts/${name}.shardaccount.boc`, import.meta.url));
      const state = loadShardAccount(Cell.fromBoc(boc)[0]!.beginParse()).account!.storage.state;
      if (state.type !== "active") throw new Error(`${name} is not active`);
      const kind = detectWallet(state.state.code!);
      expect(kind?.type, name).toBe(type);
      expect(kind && walletData(kind, state.state.data!)).toEqual(data);
    }
  });
});
