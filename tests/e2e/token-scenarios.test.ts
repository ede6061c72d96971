// The token scenarios (tests/support/token-scenarios.ts) on one localnet: what each reports holds
// on the chain — balances, supplies, owners, sales and auctions as the contracts' get-methods
// answer, and every reported transaction is in the chain with the body the scenario sent.
import { loadTransaction, toNano, type Address, type Transaction } from "@ton/core";
import { JETTON_OPCODES, loadJettonTransfer, loadNftTransfer, parseTokenContent } from "@tongate/contracts";
import { AccountHistory, type Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestLocalnet } from "../support/localnet.js";
import { fixtureCode, fixtureLibrary } from "../support/scenarios/fixtures.js";
import { runTokenScenarios, type TokenScenarios, type TxRef } from "../support/token-scenarios.js";

let net: Localnet;
let s: TokenScenarios;
let ms = 0;

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "token-scenarios", wallets: 3 });
  const started = Date.now();
  s = await runTokenScenarios(net);
  ms = Date.now() - started;
}, 120_000);

afterAll(async () => {
  await net?.close();
});

/** The transaction the chain stored for `ref` (its account's at that lt): the reported hash, time and block. */
function onChain(ref: TxRef): Transaction {
  const stored = net.chain.transaction(ref.account.workChain, ref.account.hash, ref.lt);
  expect(stored, `transaction ${ref.account.toRawString()} lt ${ref.lt}`).toBeDefined();
  const tx = loadTransaction(stored!.cell.beginParse());
  expect(tx.hash().equals(ref.hash)).toBe(true);
  expect([tx.now, stored!.mcSeqno]).toEqual([ref.utime, ref.mcSeqno]);
  expect(ref.mcSeqno).toBeLessThanOrEqual(s.mcSeqno);
  return tx;
}

const eq = (a: Address | null | undefined, b: Address) => expect(a?.toRawString()).toBe(b.toRawString());

describe("token scenarios", () => {
  it("run on one localnet within tens of seconds", () => {
    console.log(`token scenarios: ${ms} ms, up to masterchain block ${s.mcSeqno}`);
    expect(ms).toBeLessThan(90_000);
  });

  describe.each(["legacy", "jetton2", "stablecoin"] as const)("%s jetton", (kind) => {
    const j = () => s.jettons[kind];

    it("supply and balances: minted, transferred and burned as the get-methods say", () => {
      expect(j().master.totalSupply).toBe(1_500_000_000n - 40_000_000n);
      expect(j().master.mintable).toBe(true);
      eq(j().master.admin, s.actors.admin);
      expect(j().wallets.map((w) => [w.owner?.toRawString(), w.balance, w.confirmed])).toEqual([
        [s.actors.alice.toRawString(), 1_000_000_000n - 250_000_000n - 40_000_000n, true],
        [s.actors.bob.toRawString(), 500_000_000n + 250_000_000n - 100_000_000n, true],
        [s.actors.carol.toRawString(), 100_000_000n, true],
      ]);
      for (const w of j().wallets) eq(w.jetton, j().master.address);
    });

    it("wallet code: the library cell for Jetton 2.0 and the stablecoin, the plain code for the legacy pair", () => {
      const expected = kind === "legacy" ? fixtureCode("jetton_wallet_legacy") : fixtureLibrary(kind === "jetton2" ? "jetton2_wallet" : "stablecoin_wallet");
      for (const w of j().wallets) expect(w.code.equals(expected)).toBe(true);
      expect(j().master.walletCode.equals(expected)).toBe(true);
    });

    it("content: on-chain TEP-64 for the legacy master, a metadata URI for the others", () => {
      const content = parseTokenContent(j().master.content, "content");
      if (kind === "legacy") expect(content).toMatchObject({ type: "onchain", data: { name: "Scenario legacy jetton", decimals: "9" } });
      else expect(content).toMatchObject({ type: "onchain", data: { uri: `https://example.org/${kind}.json`, decimals: kind === "stablecoin" ? "6" : "9" } });
    });

    it("transfers: the source wallet's transaction on the owner's jetton_transfer, with the sent forward amount, payload and comment", () => {
      const [toBob, toCarol] = j().transfers;
      for (const t of j().transfers) {
        const tx = onChain(t.tx);
        expect(tx.inMessage!.body.equals(t.body)).toBe(true);
        eq(t.tx.account, t.sourceWallet);
        const body = loadJettonTransfer(t.body.beginParse());
        expect([body.queryId, body.amount, body.forwardTonAmount]).toEqual([t.queryId, t.amount, t.forwardTonAmount]);
        eq(body.destination, t.destination);
        expect(body.forwardPayload?.cell.equals(t.forwardPayload!)).toBe(true);
        expect(t.tx.aborted).toBe(false);
      }
      expect(toBob!.comment).toBe(`${kind}: alice pays bob ✓`);
      expect(toCarol!.comment).toBeNull();
      expect(toCarol!.forwardPayload!.beginParse().loadUint(32)).toBe(0xdeadbeef);
      expect(toBob!.tx.lt < toCarol!.tx.lt).toBe(true);
      eq(toCarol!.destinationWallet, j().wallets[2]!.address);
    });

    it("burn: the wallet's transaction on jetton_burn (from its owner, or the stablecoin's master)", () => {
      const [b] = j().burns;
      const tx = onChain(b!.tx);
      expect(tx.inMessage!.body.equals(b!.body)).toBe(true);
      expect(b!.body.beginParse().loadUint(32)).toBe(JETTON_OPCODES.jetton_burn);
      eq(b!.wallet, j().wallets[0]!.address);
      expect(b!.amount).toBe(40_000_000n);
      if (kind === "stablecoin") eq(tx.inMessage!.info.src as Address, j().master.address);
    });
  });

  describe("getgems collection", () => {
    const g = () => s.getgems;

    it("collection: five items minted (one alone, four in a batch), owner and royalty as the get-methods say", () => {
      expect(g().collection.nextItemIndex).toBe(5n);
      eq(g().collection.owner, s.actors.admin);
      expect(g().collection.royalty).toMatchObject({ numerator: 5, denominator: 100 });
      expect(parseTokenContent(g().collection.content, "content")).toMatchObject({ type: "onchain", data: { name: "Scenario collection" } });
    });

    it("items: owners at the end, full content from the collection, each named by the collection", () => {
      const owners = g().items.map((i) => i.owner?.toRawString());
      expect(owners).toEqual([s.actors.bob, g().auctions.open.address, s.actors.bob, g().sales.open.address, s.actors.bob].map((a) => a.toRawString()));
      for (const [n, i] of g().items.entries()) {
        expect([i.index, i.init, i.confirmed]).toEqual([BigInt(n), true, true]);
        expect(parseTokenContent(i.content!, "content")).toEqual({ type: "offchain", data: `https://example.org/scenario-nft/${n}.json` });
      }
    });

    it("transfers: every nft_transfer on the chain with the sent body, by owners, to and from sales and auctions", () => {
      const t = g().transfers;
      expect(t.map((x) => [g().items.findIndex((i) => i.address.equals(x.item)), x.oldOwner.toRawString(), x.newOwner.toRawString()])).toEqual(
        [
          [0, s.actors.alice, s.actors.bob],
          [1, s.actors.bob, s.actors.carol],
          [2, s.actors.alice, g().sales.sold.address],
          [2, g().sales.sold.address, s.actors.bob],
          [3, s.actors.bob, g().sales.open.address],
          [4, s.actors.carol, g().auctions.settled.address],
          [4, g().auctions.settled.address, s.actors.bob],
          [1, s.actors.carol, g().auctions.open.address],
        ].map(([i, a, b]) => [i, (a as Address).toRawString(), (b as Address).toRawString()]),
      );
      for (const x of t) {
        const tx = onChain(x.tx);
        expect(tx.inMessage!.body.equals(x.body)).toBe(true);
        const body = loadNftTransfer(x.body.beginParse());
        expect([body.queryId, body.forwardAmount]).toEqual([x.queryId, x.forwardAmount]);
      }
      expect(t[0]!.comment).toBe("item 0, from alice to bob");
      expect(t[1]!.forwardPayload!.beginParse().loadUint(32)).toBe(0xc0ffee);
      for (let i = 1; i < t.length; i++) expect(t[i - 1]!.tx.lt < t[i]!.tx.lt).toBe(true);
    });

    it("sales: the bought one complete, the open one holding bob's item at its price", () => {
      const { sold, open } = g().sales;
      expect(sold.data).toMatchObject({ isComplete: true, fullPrice: toNano("1"), marketplaceFee: toNano("0.05"), royaltyAmount: toNano("0.05") });
      eq(sold.data.nftOwner, s.actors.alice);
      eq(sold.buy!.buyer, s.actors.bob);
      onChain(sold.buy!.tx);
      expect(open.data).toMatchObject({ isComplete: false, fullPrice: toNano("2") });
      eq(open.data.nftOwner, s.actors.bob);
      eq(open.data.nft, g().items[3]!.address);
    });

    it("auctions: the settled one ended with bob's bid, the open one running with alice's", () => {
      const { settled, open } = g().auctions;
      expect(settled.data).toMatchObject({ activated: true, end: true, isCanceled: false, lastBid: toNano("1.2") });
      eq(settled.data.lastMember, s.actors.bob);
      eq(settled.data.nftOwner, s.actors.carol);
      expect(settled.bids.map((b) => [b.bidder.toRawString(), b.amount])).toEqual([
        [s.actors.alice.toRawString(), toNano("1")],
        [s.actors.bob.toRawString(), toNano("1.2")],
      ]);
      for (const b of settled.bids) onChain(b.tx);
      onChain(settled.settle!.tx);
      expect(open.data).toMatchObject({ activated: true, end: false, lastBid: toNano("1") });
      eq(open.data.lastMember, s.actors.alice);
      eq(open.data.nftOwner, s.actors.carol);
      expect(open.data.endTime).toBeGreaterThan(net.now());
    });
  });

  describe("telemint", () => {
    const t = () => s.telemint;

    it("the item: deployed on the collection's signed message, won at auction by bob, now carol's", () => {
      const i = t().item;
      eq(i.owner, s.actors.carol);
      expect([i.tokenName, i.init, i.confirmed, i.contract]).toEqual(["scenario", true, true, "telemint_item"]);
      expect(i.auctionConfig.beneficiary).toBeNull();
      expect(i.royalty).toMatchObject({ numerator: 5, denominator: 100 });
      expect(parseTokenContent(i.content!, "content")).toMatchObject({ type: "onchain", data: { name: "@scenario" } });
      expect(t().collection.nextItemIndex).toBe(-1n);
    });

    it("the auction and the transfer are on the chain", () => {
      const a = t().auction;
      for (const ref of [a.deploy.tx, ...a.bids.map((b) => b.tx), a.end.tx]) onChain(ref);
      eq(a.end.winner, s.actors.bob);
      expect(a.bids[0]!.bid > a.deploy.bid).toBe(true);
      const [x] = t().transfers;
      expect(onChain(x!.tx).inMessage!.body.equals(x!.body)).toBe(true);
      expect(x!.comment).toBe("a username for carol");
      eq(x!.oldOwner, s.actors.bob);
    });
  });

  it("impostors: a real wallet's code and data naming a master that computes another address for the owner", () => {
    expect(s.impostors.map((i) => i.contract)).toEqual(["jetton_wallet_legacy", "jetton2_wallet"]);
    for (const i of s.impostors) {
      expect(i.wallet.confirmed).toBe(false);
      expect(i.masterSays.equals(i.wallet.address)).toBe(false);
      eq(i.wallet.owner, s.actors.alice);
      expect(i.wallet.balance).toBe(10n ** 18n);
      onChain(i.deploy);
    }
    eq(s.impostors[0]!.wallet.jetton, s.jettons.legacy.master.address);
    eq(s.impostors[0]!.masterSays, s.jettons.legacy.wallets[0]!.address);
    eq(s.impostors[1]!.wallet.jetton, s.jettons.jetton2.master.address);
    expect(s.impostors[1]!.wallet.code.equals(fixtureLibrary("jetton2_wallet"))).toBe(true);
  });

  it("a wallet deployed before its master: named by the master deployed after it", () => {
    const e = s.earlyWallet;
    onChain(e.before.deploy);
    onChain(e.masterDeploy);
    expect(e.before.deploy.lt < e.masterDeploy.lt).toBe(true);
    eq(e.before.jetton, e.master.address);
    expect(e.wallet.confirmed).toBe(true);
    expect(e.wallet.balance).toBe(0n);
    expect(e.master.totalSupply).toBe(5_000_000n);
    expect(parseTokenContent(e.master.content, "content")).toEqual({ type: "offchain", data: "https://example.org/early-wallet-jetton.json" });
  });

  it("lists every deployed contract with its fixture code", () => {
    // 3 jettons × (master + 3 wallets), collection + 5 items + 2 sales + 2 auctions, telemint collection + item, 2 impostors, early master + wallet
    expect(s.contracts.length).toBe(3 * 4 + 10 + 2 + 2 + 2);
    expect(new Set(s.contracts.map((c) => c.address.toRawString())).size).toBe(s.contracts.length);
    for (const c of s.contracts) expect(net.chain.history.latest(AccountHistory.key(0, c.address.hash)), c.contract).toBeDefined();
  });
});
