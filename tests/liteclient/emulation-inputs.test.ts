// What a decoder does with an account it finds, against a real localnet over ADNL: a Jetton 2.0
// minter mints to an owner, whose wallet's code is the published library cell, as on mainnet.
// The account, the block's config and the libraries are read with their proofs checked
// (@tongate/liteclient), the interfaces come from the code hash and the get-method ids
// (@tongate/contracts), the wallet's state from its get-methods in the emulator pool
// (@tongate/get-methods), and the master confirms its wallet and denies a copy deployed elsewhere.
import { Address, beginCell, Cell, toNano } from "@ton/core";
import { readFileSync } from "node:fs";
import type { Localnet } from "@tongate/localnet";
import { detectInterfaces, getMethodIds, storeJettonInternalTransfer, storeJettonMinterV2Storage, storeJettonMint } from "@tongate/contracts";
import { emptyLibraries, EmulatorPool, libraryRefs, librariesCell } from "@tongate/emulator";
import { confirmJettonWallet, getJettonData, getWalletData, type AccountState, type GetMethodContext } from "@tongate/get-methods";
import { blockConfig, fetchLibraries, LiteserverPool, readAccount, type AccountAtBlock, type BlockIdExt, type PoolSession } from "@tongate/liteclient";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountWithCode, jetton2WalletCode, jetton2WalletData, jetton2WalletLibrary } from "../support/libraries.js";
import { LocalnetSender, runGetMethod } from "../support/localnet-deploy.js";
import { startTestLocalnet } from "../support/localnet.js";

const fixture = (file: string) => Cell.fromBoc(readFileSync(new URL(`../../../shared/fixtures/contracts/${file}`, import.meta.url)))[0]!;

let net: Localnet;
let pool: LiteserverPool;
let emulator: EmulatorPool;
let admin: LocalnetSender;
let master: Address;
let copy: Address;
const owner = new Address(0, Buffer.alloc(32, 0x0e));

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "emulation-inputs", wallets: 2, libraries: [jetton2WalletCode()] });
  admin = new LocalnetSender(net, net.genesis.wallets[1]!);
  const minterCode = fixture("jetton2_minter.code.boc");
  const minterData = beginCell()
    .store(storeJettonMinterV2Storage({ totalSupply: 0n, adminAddress: admin.address, nextAdminAddress: null, jettonWalletCode: jetton2WalletLibrary(), metadataUri: beginCell().storeStringTail("https://example.org/j.json").endCell() }))
    .endCell();
  // Deployed with a top_up (op 0xd372158c, query_id): the minter refuses a message without an op.
  master = await admin.deploy({ code: minterCode, data: minterData }, toNano("0.5"), beginCell().storeUint(0xd372158c, 32).storeUint(0, 64).endCell());
  const transfer = beginCell().store(storeJettonInternalTransfer({ queryId: 0n, amount: 1_000_000n, from: null, responseAddress: admin.address, forwardTonAmount: 0n, forwardPayload: { cell: Cell.EMPTY, inRef: false } })).endCell();
  await admin.send({ to: master, value: toNano("0.5"), body: beginCell().store(storeJettonMint({ queryId: 1n, toAddress: owner, tonAmount: toNano("0.1"), masterMsg: transfer })).endCell() });
  // The wallet's code and a data cell naming the same owner and master, deployed where the master would not put it.
  copy = await accountWithCode(admin, jetton2WalletLibrary(), jetton2WalletData({ balance: 5n, owner, master }), 1);
  pool = LiteserverPool.fromGlobalConfig(net.globalConfig());
  await pool.ready(5000);
  emulator = new EmulatorPool({ size: 1 });
});

afterAll(async () => {
  await emulator?.close();
  await pool?.close();
  await net?.close();
});

/** The inputs of one account's get-methods at one block, as a decoder gathers them. */
async function inputs(s: PoolSession, block: BlockIdExt, address: Address): Promise<{ acc: AccountAtBlock; state: AccountState; ctx: GetMethodContext; methodIds: number[] }> {
  const acc = await readAccount(s, address, block);
  const st = acc.account?.storage.state;
  if (st?.type !== "active" || !st.state.code) throw new Error(`${address.toString()} has no code`);
  const code = st.state.code;
  const data = st.state.data ?? Cell.EMPTY;
  const libs = emptyLibraries();
  await fetchLibraries(s, libraryRefs([code, data]), libs);
  const ctx: GetMethodContext = { pool: emulator, config: await blockConfig(s, block), libraries: librariesCell(libs), now: acc.genUtime };
  const methodIds = getMethodIds(code, (hash) => libs.get(hash));
  return { acc, state: { address, code, data, balance: acc.account!.storage.balance.coins }, ctx, methodIds };
}

describe("a jetton wallet found on the chain, read as a decoder reads it", () => {
  it("the master derives the owner's wallet; its code is the library cell: jetton_wallet_v2 by hash, get_wallet_data what the localnet's own run says", async () => {
    const s = pool.session();
    const block = (await s.query({ kind: "liteServer.getMasterchainInfo" })).last;
    const m = await inputs(s, block, master);
    expect(detectInterfaces({ codeHash: m.state.code.hash().toString("base64"), methodIds: m.methodIds })).toEqual(["jetton_master"]);
    const jetton = await getJettonData(m.ctx, m.state);
    expect(jetton.ok && jetton.value.totalSupply).toBe(1_000_000n);

    const walletAddress = (await runGetMethod(net, master, "get_wallet_address", [{ type: "slice", cell: beginCell().storeAddress(owner).endCell() }])).readAddress();
    const w = await inputs(s, block, walletAddress);
    expect(w.state.code.equals(jetton2WalletLibrary())).toBe(true);
    expect(detectInterfaces({ codeHash: w.state.code.hash().toString("base64"), methodIds: w.methodIds })).toEqual(["jetton_wallet_v2"]);
    // Without the library the code's methods cannot be read, and its interfaces are those of the hash alone.
    expect(getMethodIds(w.state.code)).toEqual([]);

    const d = await getWalletData(w.ctx, w.state);
    const own = (await runGetMethod(net, walletAddress, "get_wallet_data")).readBigNumber();
    expect(d.ok && [d.value.balance, d.value.owner?.equals(owner), d.value.jetton?.equals(master)]).toEqual([own, true, true]);
    expect(own).toBe(1_000_000n);
    expect(await confirmJettonWallet(m.ctx, m.state, owner, walletAddress)).toEqual({ verdict: "confirmed" });
  });

  it("a copy of the wallet elsewhere says the same master and owner, and the master denies it", async () => {
    const s = pool.session();
    const block = (await s.query({ kind: "liteServer.getMasterchainInfo" })).last;
    const c = await inputs(s, block, copy);
    expect(detectInterfaces({ codeHash: c.state.code.hash().toString("base64"), methodIds: c.methodIds })).toEqual(["jetton_wallet_v2"]);
    const d = await getWalletData(c.ctx, c.state);
    expect(d.ok && d.value.jetton?.equals(master)).toBe(true);
    const m = await inputs(s, block, master);
    const verdict = await confirmJettonWallet(m.ctx, m.state, owner, copy);
    expect(verdict.verdict).toBe("denied");
  });

  it("an address with no account: readAccount says so, with the block it read at", async () => {
    const s = pool.session();
    const block = (await s.query({ kind: "liteServer.getMasterchainInfo" })).last;
    const acc = await readAccount(s, new Address(0, Buffer.alloc(32, 0x77)), block);
    expect([acc.account, acc.lastTransLt, acc.block.seqno]).toEqual([null, 0n, block.seqno]);
  });
});
