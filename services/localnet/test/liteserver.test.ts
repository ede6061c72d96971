// ton-lite-client from npm, unmodified, against localnet over ADNL TCP: it reads
// blocks and accounts, sends a signed transfer, sees the transactions, the new
// balance and the wallet's seqno through runSmcMethod.
import { once } from "node:events";
import { Address, beginCell, Cell, external, internal, loadTransaction, storeMessage, toNano } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { LiteClient, LiteSingleEngine } from "ton-lite-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildShardState } from "../src/chain/state.js";
import { deriveKeyPair } from "../src/keys.js";
import { Localnet } from "../src/localnet.js";
import { localnetProofs } from "../src/proofs.js";

let net: Localnet;
let client: LiteClient;
let engine: LiteSingleEngine;

beforeAll(async () => {
  net = await Localnet.start({ seed: "liteserver", wallets: 1, listen: [{ host: "127.0.0.1", port: 0 }], buildState: buildShardState, proofs: localnetProofs });
  const ls = net.liteservers[0]!;
  engine = new LiteSingleEngine({ host: `tcp://${ls.host}:${ls.port}`, publicKey: ls.publicKey });
  await once(engine, "ready");
  client = new LiteClient({ engine });
});

afterAll(async () => {
  engine?.close();
  await net?.close();
});

describe("localnet liteserver with ton-lite-client", () => {
  it("answers time, version and masterchain info", async () => {
    const info = await client.getMasterchainInfo();
    expect(info.last.seqno).toBe(net.chain.lastMasterchain!.id.seqno);
    expect(Buffer.from(info.last.rootHash)).toEqual(net.chain.lastMasterchain!.id.rootHash);
    expect(Math.abs((await client.getCurrentTime()) - Date.now() / 1000)).toBeLessThan(5);
    const ext = await client.getMasterchainInfoExt();
    expect(ext.last.seqno).toBe(info.last.seqno);
  });

  it("deploys and transfers from a faucet wallet, then reads the results", async () => {
    const w = net.genesis.wallets.find((x) => x.version === "v4r2")!;
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: w.keyPair.publicKey });
    const fresh = WalletContractV4.create({ workchain: 0, publicKey: deriveKeyPair("liteserver", "fresh").publicKey });

    let mc = (await client.getMasterchainInfo()).last;
    const before = await client.getAccountState(wallet.address, mc);
    expect(before.balance.coins).toBe(1_000_000n * 1_000_000_000n);

    const body = wallet.createTransfer({ seqno: 0, secretKey: w.keyPair.secretKey, messages: [internal({ to: fresh.address, value: toNano(7), init: fresh.init, bounce: false })] });
    const msg = beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell();
    expect((await client.sendMessage(msg.toBoc())).status).toBe(1);
    await net.chain.seal();

    mc = (await client.getMasterchainInfo()).last;
    const after = await client.getAccountState(wallet.address, mc);
    expect(after.balance.coins).toBeLessThan(before.balance.coins - toNano(7));
    const freshState = await client.getAccountState(fresh.address, mc);
    expect(freshState.balance.coins).toBeGreaterThan(toNano(6.9));
    expect(freshState.state?.storage.state.type).toBe("active");

    const last = after.lastTx!;
    const txs = await client.getAccountTransactions(wallet.address, last.lt.toString(), Buffer.from(last.hash.toString(16).padStart(64, "0"), "hex"), 10);
    const parsed = Cell.fromBoc(txs.transactions).map((c) => loadTransaction(c.beginParse()));
    expect(parsed[0]!.lt).toBe(last.lt);
    expect(parsed[0]!.inMessage?.info.type).toBe("external-in");

    const seqno = await client.runMethod(wallet.address, "seqno", Buffer.alloc(0), mc);
    expect(seqno.exitCode).toBe(0);
    const stack = Cell.fromBase64(seqno.result!);
    const { parseTuple } = await import("@ton/core");
    expect(parseTuple(stack)[0]).toMatchObject({ type: "int", value: 1n });
  });

  it("deploys a new wallet from faucet funds with its own signed message", async () => {
    const key = deriveKeyPair("liteserver", "own");
    const mine = WalletContractV4.create({ workchain: 0, publicKey: key.publicKey });
    await net.faucet(mine.address, toNano(10));
    // The first external message carries the wallet's StateInit: it deploys and pays at once.
    const body = mine.createTransfer({ seqno: 0, secretKey: key.secretKey, messages: [internal({ to: net.genesis.wallets[0]!.address, value: toNano(1), bounce: false })] });
    const deploy = beginCell().store(storeMessage(external({ to: mine.address, init: mine.init, body }))).endCell();
    expect((await client.sendMessage(deploy.toBoc())).status).toBe(1);
    await net.chain.seal();
    const mc = (await client.getMasterchainInfo()).last;
    const state = await client.getAccountState(mine.address, mc);
    expect(state.state?.storage.state.type).toBe("active");
    expect(state.balance.coins).toBeLessThan(toNano(9));
    const seqno = await client.runMethod(mine.address, "seqno", Buffer.alloc(0), mc);
    const { parseTuple } = await import("@ton/core");
    expect(parseTuple(Cell.fromBase64(seqno.result!))[0]).toMatchObject({ type: "int", value: 1n });
    // A replayed (same seqno) message is refused by the contract: sendMessage says so.
    await expect(client.sendMessage(deploy.toBoc())).rejects.toThrow(/not accepted|exitcode/i);
  });

  it("answers every other wrapper method of ton-lite-client", async () => {
    const mc = (await client.getMasterchainInfo()).last;
    const w = net.genesis.wallets[0]!.address;
    const version = await client.getVersion();
    expect(version.version).toBeGreaterThan(0);
    const config = await client.getConfig(mc);
    expect(config.config.get(34)).toBeDefined();
    const raw = await client.getAccountStateRaw(w, mc);
    expect(raw.balance.coins).toBeGreaterThan(0n);
    const pruned = await client.getAccountStatePrunned(w, mc);
    expect(pruned.stateHash).not.toBeNull();
    const lastTx = raw.lastTx!;
    const txBlock = net.chain.shardchain.find((b) => b.transactions.some((t) => t.lt === lastTx.lt))!;
    const one = await client.getAccountTransaction(w, lastTx.lt.toString(), { workchain: 0, shard: "-9223372036854775808", seqno: txBlock.id.seqno, rootHash: txBlock.id.rootHash, fileHash: txBlock.id.fileHash });
    expect(Cell.fromBoc(one.transaction)[0]!.hash()).toEqual(txBlock.transactions.find((t) => t.lt === lastTx.lt)!.hash);
    const byUtime = await client.lookupBlockByUtime({ workchain: -1, shard: "-9223372036854775808", utime: net.chain.masterchain[0]!.genUtime });
    expect(byUtime.id.seqno).toBeGreaterThanOrEqual(1);
    const byLt = await client.lookupBlockByLt({ workchain: 0, shard: "-9223372036854775808", lt: lastTx.lt });
    expect(byLt.id.seqno).toBe(txBlock.id.seqno);
    const txs = await client.listBlockTransactions({ workchain: 0, shard: "-9223372036854775808", seqno: txBlock.id.seqno, rootHash: txBlock.id.rootHash, fileHash: txBlock.id.fileHash });
    expect(txs.ids.length).toBe(txBlock.transactions.length);
    const libs = await client.getLibraries([Buffer.alloc(32, 1)]);
    expect(libs.result).toEqual([]);
  });

  it("serves blocks, headers, shards and block transactions", async () => {
    const mc = (await client.getMasterchainInfo()).last;
    const header = await client.getBlockHeader(mc);
    expect(header.id.seqno).toBe(mc.seqno);
    const shards = await client.getAllShardsInfo(mc);
    expect(Object.keys(shards.shards)).toEqual(["0"]);
    const full = await client.getFullBlock(mc.seqno);
    expect(full.shards.length).toBeGreaterThanOrEqual(2);
    const looked = await client.lookupBlockByID({ workchain: -1, shard: "-9223372036854775808", seqno: mc.seqno });
    expect(looked.id.seqno).toBe(mc.seqno);
    void Address;
  });
});
