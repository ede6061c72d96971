// The standard get-methods of real contracts (the fixtures' compiled code, data cells made by
// @tongate/contracts' storers) in TON's emulator: typed values, the master's and the collection's
// confirmations, libraries, and every way a run can give no value, each a ReadFailure.
import { readFileSync } from "node:fs";
import { compileFunc } from "@ton-community/func-js";
import { Address, beginCell, Cell, contractAddress, getMethodId, parseTuple } from "@ton/core";
import { defaultConfig } from "@ton/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as C from "@tongate/contracts";
import { emptyLibraries, EmulatorPool, librariesCell, runGetMethod } from "@tongate/emulator";
import {
  callGetMethod,
  confirmJettonWallet,
  confirmNftItem,
  getCollectionData,
  getJettonData,
  getNftContent,
  getNftData,
  getWalletData,
  isClaimed,
  readVmStack,
  type AccountState,
  type GetMethodContext,
  type Read,
} from "@tongate/get-methods";

const fixture = (file: string) => Cell.fromBoc(readFileSync(new URL(`../../../../shared/fixtures/contracts/${file}`, import.meta.url)))[0]!;
const addr = (n: number) => new Address(0, Buffer.alloc(32, n));
const offchain = (uri: string) => beginCell().storeUint(1, 8).storeStringTail(uri).endCell();
const data = (store: (b: ReturnType<typeof beginCell>) => void) => beginCell().store(store).endCell();
const state = (address: Address, code: Cell, d: Cell): AccountState => ({ address, code, data: d, balance: 10n ** 9n });
const value = <T>(r: Read<T>): T => {
  if (!r.ok) throw new Error(`${r.failure.method}: ${r.failure.message}`);
  return r.value;
};

const pool = new EmulatorPool({ size: 1 });
afterAll(() => pool.close());
const ctx: GetMethodContext = { pool, config: defaultConfig, now: 1_700_000_000 };

const owner = addr(1);
const admin = addr(2);

describe("jettons: the 2022 reference minter and wallet", () => {
  const walletCode = fixture("jetton_wallet_legacy.code.boc");
  const masterData = data(C.storeJettonMinterStorage({ totalSupply: 10n ** 15n, adminAddress: admin, content: offchain("https://example.org/jetton.json"), jettonWalletCode: walletCode }));
  const master = state(contractAddress(0, { code: fixture("jetton_minter_legacy.code.boc"), data: masterData }), fixture("jetton_minter_legacy.code.boc"), masterData);
  const walletData = (balance: bigint) => data(C.storeJettonWalletStorage({ balance, ownerAddress: owner, jettonMasterAddress: master.address, jettonWalletCode: walletCode }));
  // The address the master deploys the owner's wallet at: the StateInit of the wallet with nothing in it yet.
  const walletAddress = contractAddress(0, { code: walletCode, data: walletData(0n) });

  it("get_jetton_data: what the storage holds", async () => {
    const d = value(await getJettonData(ctx, master));
    expect([d.totalSupply, d.mintable, d.admin?.equals(admin), d.walletCode.equals(walletCode)]).toEqual([10n ** 15n, true, true, true]);
    expect(C.parseTokenContent(d.content, "jetton_content")).toEqual({ type: "offchain", data: "https://example.org/jetton.json" });
  });

  it("get_wallet_data, and the master confirms the wallet at its own address and denies one elsewhere", async () => {
    const wallet = state(walletAddress, walletCode, walletData(777n));
    const d = value(await getWalletData(ctx, wallet));
    expect([d.balance, d.owner?.equals(owner), d.jetton?.equals(master.address)]).toEqual([777n, true, true]);
    expect(await confirmJettonWallet(ctx, master, owner, walletAddress)).toEqual({ verdict: "confirmed" });
    // The same code and data at an address the master did not derive: a wallet it does not recognise.
    const elsewhere = await confirmJettonWallet(ctx, master, owner, addr(9));
    expect(elsewhere.verdict).toBe("denied");
    expect(elsewhere.verdict === "denied" && elsewhere.answered?.equals(walletAddress)).toBe(true);
  });

  it("a master that is no jetton master (a wallet v4r2) cannot answer: denied, with its exit code", async () => {
    const notMaster = state(addr(5), fixture("wallet_v4r2.code.boc"), beginCell().storeUint(0, 32).storeUint(698983191, 32).storeBuffer(Buffer.alloc(32)).storeBit(0).endCell());
    const r = await confirmJettonWallet(ctx, notMaster, owner, walletAddress);
    expect(r).toMatchObject({ verdict: "denied", answered: null, failure: { reason: "exit_code", exitCode: 11, method: "get_wallet_address" } });
  });
});

describe("jettons: Jetton 2.0, the wallet's code a library cell", () => {
  const walletCode = fixture("jetton2_wallet.code.boc");
  const library = fixture("jetton2_wallet.library.boc");
  const minterCode = fixture("jetton2_minter.code.boc");
  const masterData = data(C.storeJettonMinterV2Storage({ totalSupply: 5n, adminAddress: admin, nextAdminAddress: null, jettonWalletCode: library, metadataUri: beginCell().storeStringTail("https://example.org/j2.json").endCell() }));
  const master = state(contractAddress(0, { code: minterCode, data: masterData }), minterCode, masterData);
  const libs = emptyLibraries();
  libs.set(walletCode.hash(), walletCode);
  const withLibraries: GetMethodContext = { ...ctx, libraries: librariesCell(libs) };

  it("get_wallet_data needs the library: without it a missing_library failure naming it, with it the balance", async () => {
    const wallet = state(addr(7), library, data(C.storeJettonWalletV2Storage({ status: 0, balance: 42n, ownerAddress: owner, jettonMasterAddress: master.address })));
    const without = await getWalletData(ctx, wallet);
    expect(without).toMatchObject({ ok: false, failure: { reason: "missing_library", library: walletCode.hash().toString("hex").toUpperCase() } });
    expect(value(await getWalletData(withLibraries, wallet)).balance).toBe(42n);
  });

  it("the master derives wallets from the library cell: confirmed at that address", async () => {
    const d = value(await getJettonData(ctx, master));
    expect(d.walletCode.equals(library)).toBe(true);
    const walletAddress = contractAddress(0, { code: library, data: data(C.storeJettonWalletV2Storage({ status: 0, balance: 0n, ownerAddress: owner, jettonMasterAddress: master.address })) });
    expect(await confirmJettonWallet(ctx, master, owner, walletAddress)).toEqual({ verdict: "confirmed" });
  });
});

describe("jettons: a mintless wallet's is_claimed", () => {
  it("answers whether the airdrop was claimed", async () => {
    const st = { status: 0, balance: 5n, ownerAddress: owner, jettonMasterAddress: addr(3), mintless: { merkleRoot: 7n, salt: 1000 } };
    const wallet = state(addr(8), fixture("mintless_wallet.code.boc"), data(C.storeJettonWalletV2Storage(st)));
    expect(value(await isClaimed(ctx, wallet))).toBe(false);
    // A wallet without is_claimed: method not found.
    const legacy = state(addr(8), fixture("jetton_wallet_legacy.code.boc"), data(C.storeJettonWalletStorage({ balance: 1n, ownerAddress: owner, jettonMasterAddress: addr(3), jettonWalletCode: Cell.EMPTY })));
    expect(await isClaimed(ctx, legacy)).toMatchObject({ ok: false, failure: { reason: "exit_code", exitCode: 11 } });
  });
});

describe("NFTs: the getgems editable collection and its item", () => {
  const itemCode = fixture("nft_item.code.boc");
  const collectionCode = fixture("nft_collection_editable.code.boc");
  const common = beginCell().storeStringTail("https://example.org/nft/").endCell();
  const collectionData = data(
    C.storeNftCollectionStorage({
      ownerAddress: owner,
      nextItemIndex: 10n,
      content: { collectionContent: offchain("https://example.org/collection.json"), commonContent: common },
      nftItemCode: itemCode,
      royaltyParams: { numerator: 5, denominator: 100, destination: owner },
    }),
  );
  const collection = state(contractAddress(0, { code: collectionCode, data: collectionData }), collectionCode, collectionData);
  // The collection deploys item i with data index:uint64 collection_address.
  const itemAddress = (index: bigint) => contractAddress(0, { code: itemCode, data: data(C.storeNftItemStorage({ index, collectionAddress: collection.address, init: null })) });
  const individual = beginCell().storeStringTail("3.json").endCell();
  const item = state(itemAddress(3n), itemCode, data(C.storeNftItemStorage({ index: 3n, collectionAddress: collection.address, init: { ownerAddress: admin, content: individual } })));

  it("get_collection_data and get_nft_data: what the storage holds", async () => {
    const c = value(await getCollectionData(ctx, collection));
    expect([c.nextItemIndex, c.owner?.equals(owner), C.parseTokenContent(c.content, "collection_content").data]).toEqual([10n, true, "https://example.org/collection.json"]);
    const d = value(await getNftData(ctx, item));
    expect([d.init, d.index, d.collection?.equals(collection.address), d.owner?.equals(admin), d.individualContent?.equals(individual)]).toEqual([true, 3n, true, true, true]);
  });

  it("get_nft_content: the collection's common content and the item's", async () => {
    const full = value(await getNftContent(ctx, collection, 3n, individual));
    expect(C.parseTokenContent(full, "content")).toMatchObject({ type: "offchain", data: "https://example.org/nft/3.json" });
  });

  it("the collection confirms the item as its number 3, and denies it as number 4", async () => {
    expect(await confirmNftItem(ctx, collection, 3n, item.address)).toEqual({ verdict: "confirmed" });
    const r = await confirmNftItem(ctx, collection, 4n, item.address);
    expect(r.verdict === "denied" && r.answered?.equals(itemAddress(4n))).toBe(true);
  });

  it("content too deep to pass as an argument: a result failure, not a run", async () => {
    let deep = Cell.EMPTY;
    for (let i = 0; i < 300; i++) deep = beginCell().storeRef(deep).endCell();
    expect(await getNftContent(ctx, collection, 3n, deep)).toMatchObject({ ok: false, failure: { reason: "result", method: "get_nft_content" } });
  });
});

describe("hostile contracts: every run that gives no value is a ReadFailure", () => {
  const HOSTILE = `
    forall X -> tuple cons(X head, tuple tail) asm "CONS";
    tuple empty_tuple() asm "NIL";
    forall X -> (tuple, ()) ~tpush(tuple t, X value) asm "TPUSH";
    () recv_internal() impure { }
    int runaway() method_id { int i = 0; while (true) { i += 1; } return i; }
    ;; get_jetton_data's five values, each a tuple of the one before: a result that does not fit
    (tuple, tuple, tuple, tuple, tuple) get_jetton_data() method_id {
      tuple t = empty_tuple(); t~tpush(1);
      tuple u = empty_tuple(); u~tpush(t); u~tpush(t);
      return (u, u, u, u, u);
    }
    ;; get_wallet_address answering an integer where an address is expected
    int get_wallet_address(slice owner) method_id { return 5; }
  `;
  let hostile: AccountState;
  beforeAll(async () => {
    const r = await compileFunc({ targets: ["hostile.fc"], sources: { "hostile.fc": HOSTILE } });
    if (r.status === "error") throw new Error(r.message);
    hostile = state(addr(11), Cell.fromBase64(r.codeBoc), Cell.EMPTY);
  });

  it("out of gas: exit code -14", async () => {
    expect(await callGetMethod({ ...ctx, gasLimit: 100_000n }, hostile, "runaway")).toMatchObject({ ok: false, failure: { reason: "exit_code", exitCode: -14 } });
  });

  it("past the pool's time bound: an emulator failure, and the next run answers", async () => {
    const slow = new EmulatorPool({ size: 1, timeoutMs: 3000 });
    try {
      const r = await callGetMethod({ ...ctx, pool: slow, gasLimit: 2n ** 62n }, hostile, "runaway");
      expect(r).toMatchObject({ ok: false, failure: { reason: "emulator", emulator: "timeout" } });
      expect(await callGetMethod({ ...ctx, pool: slow }, hostile, "get_wallet_address", [{ type: "slice", cell: beginCell().storeAddress(owner).endCell() }])).toMatchObject({ ok: true });
    } finally {
      await slow.close();
    }
  });

  it("tuples where get_jetton_data has values, an integer where an address is: result failures; a master that answers so denies", async () => {
    expect(await getJettonData(ctx, hostile)).toMatchObject({ ok: false, failure: { reason: "result", method: "get_jetton_data" } });
    expect(await confirmJettonWallet(ctx, hostile, owner, addr(3))).toMatchObject({ verdict: "denied", failure: { reason: "result" } });
  });

  it("a method the code does not have, code that is not code, a closed pool", async () => {
    expect(await getNftData(ctx, hostile)).toMatchObject({ ok: false, failure: { reason: "exit_code", exitCode: 11 } });
    expect((await getNftData(ctx, state(addr(12), beginCell().storeUint(0xdeadbeef, 32).endCell(), Cell.EMPTY))).ok).toBe(false);
    const closed = new EmulatorPool({ size: 1 });
    await closed.close();
    expect(await getNftData({ ...ctx, pool: closed }, hostile)).toMatchObject({ ok: false, failure: { reason: "emulator", emulator: "closed" } });
  });

  it("readVmStack reads what @ton/core's parseTuple reads (ints, a slice, cells, a null), and refuses more entries than it reads", async () => {
    const walletCode = fixture("jetton_wallet_legacy.code.boc");
    const masterData = data(C.storeJettonMinterStorage({ totalSupply: 1n, adminAddress: null, content: offchain("x"), jettonWalletCode: walletCode }));
    const r = await runGetMethod(pool, { code: fixture("jetton_minter_legacy.code.boc"), data: masterData, methodId: getMethodId("get_jetton_data"), stack: [], config: defaultConfig, address: addr(11), now: 1, balance: 1n, randomSeed: Buffer.alloc(32), gasLimit: 10n ** 6n });
    if (!r.success || !r.stack) throw new Error("get_jetton_data did not run");
    const comparable = (items: { type: string }[]) => items.map((i) => ("cell" in i && i.cell instanceof Cell ? { type: i.type, hash: i.cell.hash().toString("hex") } : i));
    expect(comparable(readVmStack(r.stack))).toEqual(comparable(parseTuple(r.stack)));
    expect(readVmStack(r.stack).map((i) => i.type)).toEqual(["int", "int", "slice", "cell", "cell"]);
    const wide = beginCell().storeUint(300, 24).endCell();
    expect(() => readVmStack(wide)).toThrow(/300 entries/);
  });
});
