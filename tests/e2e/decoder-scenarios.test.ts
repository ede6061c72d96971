// The decoder on the real code of ../shared/fixtures/contracts (tests/support/token-scenarios.ts):
// the legacy, Jetton 2.0 (library wallet code) and stablecoin jettons minted, transferred with a
// comment and a binary payload, burned; a getgems collection with items minted, transferred, sold
// at a fixed price and by auction; a telemint username auctioned and transferred; wallets their
// master denies, and one seen before its master. Every API v3 answer equals what the contracts'
// get-methods gave on the chain at the same block, and validates against v3.yaml.
import type { Address, Cell } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodedTo, getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { startTestLocalnet } from "../support/localnet.js";
import { runTokenScenarios, type JettonKind, type TokenScenarios } from "../support/token-scenarios.js";
import { v3ResponseErrors } from "../support/v3-schema.js";

let net: Localnet;
let t: Embedded;
let s: TokenScenarios;

const raw = (a: Address) => a.toRawString().toUpperCase();
const rawOrNull = (a: Address | null) => (a ? raw(a) : null);
const b64 = (h: Buffer) => h.toString("base64");
const hashOf = (c: Cell) => c.hash().toString("base64");

async function v3(path: string, query: string) {
  const r = await getJson(`${t.url}/api/v3/${path}?${query}`);
  expect(r.status, `${path}?${query}: ${JSON.stringify(r.body)}`).toBe(200);
  expect(v3ResponseErrors(`/api/v3/${path}`, r.body), `${path} against v3.yaml`).toBeNull();
  return r.body;
}

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "decoder-scenarios", wallets: 3 });
  s = await runTokenScenarios(net);
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on" });
  await decodedTo(t.url, s.mcSeqno);
}, 300_000);

afterAll(async () => {
  await t?.close();
  await net?.close();
});

describe.each(["legacy", "jetton2", "stablecoin"] satisfies JettonKind[])("%s jetton (fixture code)", (kind) => {
  it("master: as get_jetton_data gives it", async () => {
    const j = s.jettons[kind].master;
    const body = await v3("jetton/masters", `address=${raw(j.address)}`);
    expect(body.jetton_masters).toHaveLength(1);
    expect(body.jetton_masters[0]).toMatchObject({
      address: raw(j.address),
      total_supply: j.totalSupply.toString(),
      mintable: j.mintable,
      admin_address: rawOrNull(j.admin),
      jetton_wallet_code_hash: hashOf(j.walletCode),
    });
    expect(body.address_book[raw(j.address)].interfaces.length).toBeGreaterThan(0);
  });

  it("wallets: every confirmed one with get_wallet_data's balance and owner; impostors never", async () => {
    const j = s.jettons[kind];
    const body = await v3("jetton/wallets", `jetton_address=${raw(j.master.address)}&limit=100`);
    const listed = new Map(body.jetton_wallets.map((w: { address: string }) => [w.address, w]));
    for (const w of j.wallets) {
      expect(listed.get(raw(w.address)), `wallet of ${w.owner?.toString()}`).toMatchObject({ balance: w.balance.toString(), owner: rawOrNull(w.owner), jetton: raw(j.master.address) });
    }
    for (const i of s.impostors) expect(listed.has(raw(i.wallet.address))).toBe(false);
    expect(listed.size).toBe(j.wallets.filter((w) => w.confirmed).length);
  });

  it("transfers: each one's transaction, query id, amount, parties, forward TON and payload", async () => {
    const j = s.jettons[kind];
    const body = await v3("jetton/transfers", `jetton_master=${raw(j.master.address)}&sort=asc&limit=100`);
    expect(body.jetton_transfers.map((x: { transaction_hash: string }) => x.transaction_hash)).toEqual(j.transfers.map((x) => b64(x.tx.hash)));
    for (const [i, x] of j.transfers.entries()) {
      expect(body.jetton_transfers[i]).toMatchObject({
        query_id: x.queryId.toString(),
        amount: x.amount.toString(),
        source: raw(x.source),
        destination: raw(x.destination),
        source_wallet: raw(x.sourceWallet),
        jetton_master: raw(j.master.address),
        transaction_lt: x.tx.lt.toString(),
        transaction_now: x.tx.utime,
        transaction_aborted: x.tx.aborted,
        forward_ton_amount: x.forwardTonAmount.toString(),
        trace_id: b64(x.tx.traceId),
      });
      if (x.forwardPayload) expect(body.jetton_transfers[i].forward_payload).toBe(x.forwardPayload.toBoc().toString("base64"));
    }
  });

  it("burns: the owner's burn on its wallet", async () => {
    const j = s.jettons[kind];
    const body = await v3("jetton/burns", `jetton_master=${raw(j.master.address)}&limit=100`);
    expect(body.jetton_burns.map((b: { transaction_hash: string }) => b.transaction_hash).sort()).toEqual(j.burns.map((b) => b64(b.tx.hash)).sort());
    for (const b of j.burns) {
      const row = body.jetton_burns.find((r: { transaction_hash: string }) => r.transaction_hash === b64(b.tx.hash));
      expect(row).toMatchObject({ query_id: b.queryId.toString(), amount: b.amount.toString(), jetton_wallet: raw(b.wallet), jetton_master: raw(j.master.address) });
    }
  });
});

describe("jetton wallets the master denies or confirms late", () => {
  it("an impostor (legacy, and Jetton 2.0 library code) is not listed, even by its own address", async () => {
    for (const i of s.impostors) {
      const body = await v3("jetton/wallets", `address=${raw(i.wallet.address)}`);
      expect(body.jetton_wallets).toEqual([]);
    }
  });

  it("a wallet deployed before its master is listed once the master is decoded", async () => {
    const e = s.earlyWallet;
    const body = await v3("jetton/wallets", `address=${raw(e.wallet.address)}`);
    expect(body.jetton_wallets).toHaveLength(1);
    expect(body.jetton_wallets[0]).toMatchObject({ jetton: raw(e.master.address), owner: rawOrNull(e.wallet.owner), balance: e.wallet.balance.toString() });
  });
});

describe("getgems collection (fixture code)", () => {
  it("collection: next index and owner as get_collection_data gives them", async () => {
    const c = s.getgems.collection;
    const body = await v3("nft/collections", `collection_address=${raw(c.address)}`);
    expect(body.nft_collections[0]).toMatchObject({ address: raw(c.address), next_item_index: c.nextItemIndex.toString(), owner_address: rawOrNull(c.owner) });
  });

  it("items: index and owner as get_nft_data gives them; one in an open sale or auction is on sale, owned behind it by its seller", async () => {
    const g = s.getgems;
    const body = await v3("nft/items", `collection_address=${raw(g.collection.address)}&limit=100`);
    expect(body.nft_items.map((i: { address: string }) => i.address)).toEqual(g.items.map((i) => raw(i.address)));
    for (const [n, item] of g.items.entries()) {
      expect(body.nft_items[n]).toMatchObject({ index: item.index.toString(), owner_address: rawOrNull(item.owner), collection_address: raw(g.collection.address), init: item.init });
    }
    const open = body.nft_items.find((i: { address: string }) => i.address === raw(g.sales.open.item));
    expect(open).toMatchObject({ on_sale: true, sale_contract_address: raw(g.sales.open.address), real_owner: raw(g.sales.open.seller) });
    const auctioned = body.nft_items.find((i: { address: string }) => i.address === raw(g.auctions.open.item));
    expect(auctioned).toMatchObject({ on_sale: true, auction_contract_address: raw(g.auctions.open.address), real_owner: raw(g.auctions.open.seller) });
  });

  it("transfers: every nft_transfer in chain order, with old and new owner and query id", async () => {
    const g = s.getgems;
    const body = await v3("nft/transfers", `collection_address=${raw(g.collection.address)}&sort=asc&limit=100`);
    expect(body.nft_transfers.map((x: { transaction_hash: string }) => x.transaction_hash)).toEqual(g.transfers.map((x) => b64(x.tx.hash)));
    for (const [i, x] of g.transfers.entries()) {
      expect(body.nft_transfers[i]).toMatchObject({ nft_address: raw(x.item), old_owner: raw(x.oldOwner), new_owner: raw(x.newOwner), query_id: x.queryId.toString(), forward_amount: x.forwardAmount.toString() });
    }
  });

  it("sales: the open sale and the running auction as get_sale_data and get_auction_data give them", async () => {
    const g = s.getgems;
    const body = await v3("nft/sales", `address=${raw(g.sales.open.address)}&address=${raw(g.auctions.open.address)}`);
    const sale = body.nft_sales.find((x: { address: string }) => x.address === raw(g.sales.open.address));
    expect(sale).toMatchObject({ nft_address: raw(g.sales.open.item), nft_owner_address: raw(g.sales.open.seller) });
    const auction = body.nft_sales.find((x: { address: string }) => x.address === raw(g.auctions.open.address));
    expect(auction).toMatchObject({ nft_address: raw(g.auctions.open.item), nft_owner_address: raw(g.auctions.open.seller) });
  });
});

describe("telemint username (fixture code)", () => {
  it("the item with its owner after the auction and the transfer; its sale row carries the token name", async () => {
    const tm = s.telemint;
    const items = await v3("nft/items", `address=${raw(tm.item.address)}`);
    expect(items.nft_items[0]).toMatchObject({ owner_address: rawOrNull(tm.item.owner), index: tm.item.index.toString(), collection_address: raw(tm.collection.address) });
    const sales = await v3("nft/sales", `address=${raw(tm.item.address)}`);
    expect(JSON.stringify(sales.nft_sales)).toContain(tm.item.tokenName);
    const transfers = await v3("nft/transfers", `item_address=${raw(tm.item.address)}&sort=asc`);
    expect(transfers.nft_transfers.map((x: { transaction_hash: string }) => x.transaction_hash)).toEqual(tm.transfers.map((x) => b64(x.tx.hash)));
  });
});
