// Public libraries (issue 13): the library keeper publishes a cell in the masterchain state's
// libraries; transactions and get-methods of an account whose code is that library cell resolve
// it from the next block on; getLibraries and getLibrariesWithProof serve it over ADNL.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beginCell, Cell, Dictionary, loadShardAccount } from "@ton/core";
import { compileFunc } from "@ton-community/func-js";
import { KEY_256, libDescrValue, loadShardStateUnsplitHeader } from "@tongate/block";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountHistory } from "../src/chain/account-history.js";
import { LIBRARY_KEEPER_CODE, libraryKeeperAddress } from "../src/libraries.js";
import { hasLibrary } from "../src/library-publisher.js";
import type { Localnet } from "../src/localnet.js";
import { LocalnetSender, runGetMethod } from "../../../tests/support/localnet-deploy.js";
import { startTestLocalnet } from "../../../tests/support/localnet.js";
import { accountWithCode, jetton2WalletCode, jetton2WalletData, jetton2WalletLibrary } from "../../../tests/support/libraries.js";

let net: Localnet;
let sender: LocalnetSender;

beforeAll(async () => {
  // Emulators on worker threads: collation and checks of external messages get the libraries there too.
  net = await startTestLocalnet({ seed: "libraries", wallets: 2, emulator: { size: 2 } });
  sender = new LocalnetSender(net, net.genesis.wallets[1]!);
});
afterAll(async () => net?.close());

const mcLibraries = () => {
  const root = loadShardStateUnsplitHeader(net.chain.lastMasterchain!.stateRoot.beginParse()).other!.libraries;
  return root ? Dictionary.loadDirect(KEY_256, libDescrValue, root) : undefined;
};

describe("library keeper", () => {
  it("assets/library-keeper.fc compiles to the code localnet uses", async () => {
    const r = await compileFunc({ targets: ["library-keeper.fc"], sources: (p) => readFileSync(new URL(`../assets/${p}`, import.meta.url), "utf8") });
    if (r.status === "error") throw new Error(r.message);
    expect(Cell.fromBase64(r.codeBoc).hash().toString("hex")).toBe(LIBRARY_KEEPER_CODE.hash().toString("hex"));
  });

  it("an account whose code is an unpublished library cannot run; once published it can", async () => {
    const code = jetton2WalletCode();
    const owner = sender.address;
    const wallet = await accountWithCode(sender, jetton2WalletLibrary(), jetton2WalletData({ balance: 12345n, owner, master: owner }), 1);
    await expect(runGetMethod(net, wallet, "get_wallet_data")).rejects.toThrow(/exited with code 9/);

    const r = await net.publishLibrary(code);
    expect(r).toEqual({ hash: code.hash(), mcSeqno: net.chain.lastMasterchain!.id.seqno, published: true });
    const again = await net.publishLibrary(code);
    expect(again.published).toBe(false);

    // The state: a LibDescr published by the keeper, whose StateInit holds the cell as public.
    const keeper = libraryKeeperAddress(net.faucetAddress!);
    const descr = mcLibraries()!.get(BigInt(`0x${code.hash().toString("hex")}`))!;
    expect(descr.lib.hash()).toEqual(code.hash());
    expect([...descr.publishers.keys()]).toEqual([BigInt(`0x${keeper.hash.toString("hex")}`)]);
    const acc = loadShardAccount(net.chain.history.latest(AccountHistory.key(-1, keeper.hash))!.beginParse()).account!;
    expect(acc.storage.state.type === "active" && acc.storage.state.state.libraries?.get(BigInt(`0x${code.hash().toString("hex")}`))?.public).toBe(true);

    const data = await runGetMethod(net, wallet, "get_wallet_data");
    expect(data.readBigNumber()).toBe(12345n);
    expect(data.readAddress().equals(owner)).toBe(true);
    // Transactions resolve it too: a top_up#d372158c query_id:uint64 the wallet accepts.
    await sender.send({ to: wallet, value: 100_000_000n, body: beginCell().storeUint(0xd372158c, 32).storeUint(7, 64).endCell() });
  });
});

describe("--library and --data-dir", () => {
  const dir = mkdtempSync(join(tmpdir(), "localnet-libraries-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const start = (libraries: Cell[]) => startTestLocalnet({ seed: "libraries-persist", wallets: 2, dataDir: dir, libraries });

  it("publishes at start, and a restart keeps the library (the publication is a transaction in the stored chain)", async () => {
    const code = jetton2WalletCode();
    const first = await start([code]);
    let wallet;
    try {
      expect(hasLibrary(first.chain.lastMasterchain!.stateRoot, code.hash())).toBe(true);
      const sender = new LocalnetSender(first, first.genesis.wallets[1]!);
      wallet = await accountWithCode(sender, jetton2WalletLibrary(), jetton2WalletData({ balance: 5n, owner: sender.address, master: sender.address }), 2);
      expect((await runGetMethod(first, wallet, "get_wallet_data")).readBigNumber()).toBe(5n);
    } finally {
      await first.close();
    }
    const head = first.chain.lastMasterchain!.id;

    // Restarted with the same --library: already there, nothing is sent; the chain is the same.
    const second = await start([code]);
    try {
      expect(second.chain.lastMasterchain!.id).toEqual(head);
      expect(hasLibrary(second.chain.lastMasterchain!.stateRoot, code.hash())).toBe(true);
      expect((await runGetMethod(second, wallet, "get_wallet_data")).readBigNumber()).toBe(5n);
    } finally {
      await second.close();
    }
    // And without it.
    const third = await start([]);
    try {
      expect(hasLibrary(third.chain.lastMasterchain!.stateRoot, code.hash())).toBe(true);
    } finally {
      await third.close();
    }
  });
});
