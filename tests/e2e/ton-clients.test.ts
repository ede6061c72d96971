// Real TON clients, unmodified from npm, pointed at tongate's API v2 over a
// localnet: @ton/ton's TonClient deploys a wallet, sends a transfer and reads it
// back; tonweb's HttpProvider reads the same state. What they see must be what
// the liteserver holds.
import { Address, internal, toNano } from "@ton/core";
import { TonClient, WalletContractV4 } from "@ton/ton";
import { deriveKeyPair, type Localnet } from "@tongate/localnet";
import tonweb from "tonweb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbedded, type Embedded } from "../support/embedded.js";
import { startTestLocalnet } from "../support/localnet.js";

// tonweb is CommonJS whose module.exports is the class its types call the default export.
const TonWeb = tonweb as unknown as typeof tonweb.default;

let net: Localnet;
let t: Embedded;
let client: TonClient;
const key = deriveKeyPair("ton-clients", "mine");
const mine = WalletContractV4.create({ workchain: 0, publicKey: key.publicKey });
const friend = new Address(0, Buffer.alloc(32, 0x42));

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "ton-clients" });
  await net.chain.seal();
  t = await startEmbedded({ globalConfig: net.globalConfig() });
  client = new TonClient({ endpoint: `${t.url}/api/v2/jsonRPC` });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await net?.close();
});

describe("@ton/ton TonClient over /api/v2/jsonRPC", () => {
  it("deploys a wallet from faucet funds and sends a transfer", async () => {
    await net.faucet(mine.address, toNano(10));
    const funded = await client.getBalance(mine.address);
    expect(funded).toBeLessThanOrEqual(toNano(10)); // less the forwarding fee
    expect(funded).toBeGreaterThan(toNano(9.99));
    expect(await client.isContractDeployed(mine.address)).toBe(false);

    const wallet = client.open(mine);
    // seqno 0 of an undeployed wallet: TonClient attaches the StateInit itself.
    await wallet.sendTransfer({ seqno: 0, secretKey: key.secretKey, messages: [internal({ to: friend, value: toNano(1), bounce: false })] });
    await net.chain.seal();

    expect(await client.isContractDeployed(mine.address)).toBe(true);
    expect(await wallet.getSeqno()).toBe(1);
    const balance = await client.getBalance(mine.address);
    expect(balance).toBeLessThan(toNano(9));
    expect(balance).toBeGreaterThan(toNano(8.9));
    expect(await client.getBalance(friend)).toBeGreaterThan(toNano(0.99));

    const state = await client.getContractState(mine.address);
    expect(state.state).toBe("active");
    expect(state.balance).toBe(balance);
    expect(state.code?.toString("base64")).toBe(mine.init.code.toBoc({ idx: false, crc32: false }).toString("base64"));
  });

  it("reads the transactions, as the chain recorded them", async () => {
    const txs = await client.getTransactions(mine.address, { limit: 10 });
    expect(txs).toHaveLength(2); // the faucet's deposit, then the deploy + transfer
    const [last, first] = txs;
    expect(last!.inMessage?.info.type).toBe("external-in");
    expect(last!.outMessages.size).toBe(1);
    const out = last!.outMessages.get(0)!;
    expect(out.info.type === "internal" && out.info.dest.equals(friend)).toBe(true);
    expect(first!.inMessage?.info.type).toBe("internal");
    expect(last!.prevTransactionLt).toBe(first!.lt);
    // The hashes are those of the transaction cells the chain holds.
    const recorded = net.chain.shardchain.flatMap((b) => b.transactions).map((x) => x.hash.toString("hex"));
    for (const tx of txs) expect(recorded).toContain(tx.hash().toString("hex"));
    // Paging with the lt/hash cursor (TonClient drops the cursor's own transaction unless inclusive).
    const older = await client.getTransactions(mine.address, { limit: 1, lt: last!.lt.toString(), hash: last!.hash().toString("base64") });
    expect(older).toHaveLength(1);
    expect(older[0]!.hash().equals(first!.hash())).toBe(true);
    const same = await client.getTransactions(mine.address, { limit: 1, lt: first!.lt.toString(), hash: first!.hash().toString("base64"), inclusive: true });
    expect(same.map((x) => x.hash().toString("hex"))).toEqual([first!.hash().toString("hex")]);
  });

  it("runs get-methods and reads the masterchain", async () => {
    const pk = await client.runMethod(mine.address, "get_public_key");
    expect(pk.stack.readBigNumber()).toBe(BigInt("0x" + key.publicKey.toString("hex")));
    const id = await client.runMethod(mine.address, "get_subwallet_id");
    expect(id.stack.readNumber()).toBe(698983191);
    const info = await client.getMasterchainInfo();
    expect(info.latestSeqno).toBe(net.chain.lastMasterchain!.id.seqno);
    expect(info.workchain).toBe(-1);
  });

  it("estimates the fee of an external message", async () => {
    const wallet = client.open(mine);
    const body = mine.createTransfer({ seqno: await wallet.getSeqno(), secretKey: key.secretKey, messages: [internal({ to: friend, value: toNano(1) })] });
    const fee = await client.estimateExternalMessageFee(mine.address, { body, initCode: null, initData: null, ignoreSignature: true });
    expect(fee["@type"]).toBe("query.fees");
    expect(fee.source_fees.gas_fee).toBeGreaterThan(0);
    expect(fee.source_fees.in_fwd_fee).toBeGreaterThan(0);
  });
});

describe("tonweb HttpProvider over /api/v2/jsonRPC", () => {
  const provider = () => new TonWeb.HttpProvider(`${t.url}/api/v2/jsonRPC`);
  const address = () => mine.address.toString({ bounceable: true });

  it("reads balance, address and wallet information", async () => {
    const p = provider();
    const balance = await client.getBalance(mine.address);
    expect(await p.getBalance(address())).toBe(balance.toString());
    const info = await p.getAddressInfo(address());
    expect(info.state).toBe("active");
    expect(info.balance).toBe(balance.toString());
    const wallet = await p.getWalletInfo(address());
    expect(wallet.wallet).toBe(true);
    expect(wallet.wallet_type).toBe("wallet v4 r2");
    expect(wallet.seqno).toBe(1);
    expect(wallet.wallet_id).toBe(698983191);
  });

  it("reads transactions and runs get-methods", async () => {
    const p = provider();
    const txs = await p.getTransactions(address(), 10);
    expect(txs).toHaveLength(2);
    expect(txs[0].in_msg.source).toBe("");
    const value = BigInt(txs[0].out_msgs[0].value); // 1 TON less the forwarding fee
    expect(value).toBeLessThanOrEqual(toNano(1));
    expect(value).toBeGreaterThan(toNano(0.99));
    expect(txs[0].transaction_id.hash).toBe((await client.getTransactions(mine.address, { limit: 1 }))[0]!.hash().toString("base64"));
    const seqno = await p.call2(address(), "seqno");
    expect(seqno.toString()).toBe("1");
  });

  it("reads the masterchain, its shards and a block's transactions", async () => {
    const p = provider();
    const mc = await p.getMasterchainInfo();
    expect(mc.last.seqno).toBe(net.chain.lastMasterchain!.id.seqno);
    const shards = await p.getBlockShards(mc.last.seqno);
    expect(shards.shards).toHaveLength(1);
    const header = await p.getMasterchainBlockHeader(mc.last.seqno);
    expect(header.id.seqno).toBe(mc.last.seqno);
    const shard = shards.shards[0];
    const txs = await p.getBlockTransactions(shard.workchain, shard.shard, shard.seqno);
    expect(txs["@type"]).toBe("blocks.transactions");
  });
});
