// API v3 NFTs over HTTP through the gateway, on the decoder's tables in ClickHouse (chDB's engine
// behind ClickHouse's HTTP interface, the indexer's API answering from it): rows as the decoder
// will write them (tests/support/decoded-rows.ts) — a getgems collection with items owned, sold by
// a fixed-price sale and an auction, a telemint item with its auction, a standalone item, an item
// its collection denies, one it confirms later, rows decoded after the checkpoint. Every answer
// validates against v3.yaml; filters, orders and tie-breakers, paging, 422s naming the parameter;
// and 2,000 requests with one broken parameter on the Jettons and NFTs endpoints answer 4xx only.
import { createHash } from "node:crypto";
import type { Address } from "@ton/core";
import { registerIndexer } from "@tongate/indexer";
import { openStore, setCheckpoint, type Store } from "@tongate/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startClickHouseHttp, type ClickHouseHttp } from "../support/clickhouse-http.js";
import {
  accountState,
  applyDecoderSchema,
  auctionOf,
  commentBoc,
  dataHash,
  GEMS_COLLECTION,
  GETGEMS,
  HASHES,
  holdMerges,
  insert,
  nftItemOf,
  owner,
  raw,
  saleOf,
  telemintItemOf,
  TON_DNS,
  txHash,
  USERNAMES,
} from "../support/decoded-rows.js";
import { getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { brokenCases, runFuzz } from "../support/fuzz.js";
import { v3Parameters, v3ResponseErrors } from "../support/v3-schema.js";

let clickhouse: ClickHouseHttp;
let store: Store;
let t: Embedded;

const [alice, bob, carol, dave, mallory, creator] = [1, 2, 3, 4, 5, 9].map(owner) as [Address, Address, Address, Address, Address, Address];
const item = (index: number) => nftItemOf(GEMS_COLLECTION, BigInt(index));
const NAME_INDEX = BigInt("0x" + createHash("sha256").update("alice").digest("hex"));
const TELEITEM = telemintItemOf(USERNAMES, NAME_INDEX);
const STANDALONE = nftItemOf(owner(12), 0n);
// an item of another collection's code that claims to be GEMS_COLLECTION's 9th
const FAKE = nftItemOf(mallory, 9n);
const SALE = saleOf(GETGEMS, item(1), alice, 5_000_000_000n);
const AUCTION = auctionOf(GETGEMS, item(3), bob);
const LATE_SALE = saleOf(GETGEMS, item(0), alice, 1n);
const CHECKPOINT = 20;
const NOW = 1_700_000_000;

const collection = (address: Address, lt: number, mc: number, o: Record<string, unknown>) => ({
  address: raw(address),
  next_item_index: "0",
  owner_address: raw(creator),
  code_hash: HASHES.collection,
  data_hash: dataHash(lt),
  last_transaction_lt: String(lt),
  last_transaction_now: NOW + lt,
  mc_seqno: mc,
  ...o,
});

const nft = (address: Address, coll: Address | null, index: bigint, holder: Address, lt: number, mc: number, o: Record<string, unknown> = {}) => ({
  collection_address: coll ? raw(coll) : "",
  nft_index: String(index),
  address: raw(address),
  init: true,
  owner_address: raw(holder),
  verdict: "confirmed",
  on_sale: false,
  sale_contract_address: null,
  auction_contract_address: null,
  real_owner: raw(holder),
  code_hash: HASHES.item,
  data_hash: dataHash(lt),
  last_transaction_lt: String(lt),
  last_transaction_now: NOW + lt,
  mc_seqno: mc,
  ...o,
});

/** A transfer#5fcc3d14 received by an item from its owner. */
const transfer = (n: number, address: Address, coll: Address | null, index: bigint, from: Address, to: Address, lt: number, mc: number, o: Record<string, unknown> = {}) => ({
  nft_collection: coll ? raw(coll) : "",
  nft_address: raw(address),
  transaction_lt: String(lt),
  transaction_hash: txHash(n),
  transaction_now: NOW + lt,
  transaction_aborted: false,
  mc_seqno: mc,
  trace_id: txHash(2000 + n),
  query_id: String(n),
  nft_index: String(index),
  old_owner: raw(from),
  new_owner: raw(to),
  response_destination: raw(from),
  custom_payload: null,
  forward_amount: "1",
  forward_payload: null,
  comment: null,
  confirmed: 1,
  ...o,
});

const sale = (address: Address, type: string, lt: number, mc: number, o: Record<string, unknown>) => ({
  address: raw(address),
  type,
  code_hash: type === "getgems_sale" ? HASHES.sale : type === "getgems_auction" ? HASHES.auction : HASHES.telemintItem,
  data_hash: dataHash(lt),
  last_transaction_lt: String(lt),
  last_transaction_now: NOW + lt,
  mc_seqno: mc,
  ...o,
});

const T = { n8: txHash(8), n3: txHash(3), n1: txHash(1), n4: txHash(4), n2: txHash(2) };

beforeAll(async () => {
  clickhouse = await startClickHouseHttp();
  store = await openStore({ url: clickhouse.url });
  await registerIndexer(store);
  await applyDecoderSchema(store);
  await holdMerges(store);
  await insert(store, "nft_collections", [
    collection(GEMS_COLLECTION, 100, 2, { next_item_index: "4" }),
    collection(GEMS_COLLECTION, 180, 10, { next_item_index: "5" }),
    collection(GEMS_COLLECTION, 400, 21, { next_item_index: "9" }),
    collection(USERNAMES, 120, 3, { owner_address: null, code_hash: HASHES.telemintCollection }),
    // decoded after the checkpoint
    collection(TON_DNS, 500, 25, {}),
  ]);
  await insert(store, "nft_items", [
    nft(item(0), GEMS_COLLECTION, 0n, alice, 110, 2),
    nft(item(0), GEMS_COLLECTION, 0n, carol, 410, 21),
    nft(item(1), GEMS_COLLECTION, 1n, alice, 111, 2),
    nft(item(1), GEMS_COLLECTION, 1n, SALE_OWNER(), 130, 4, { on_sale: true, sale_contract_address: raw(SALE), real_owner: raw(alice) }),
    nft(item(2), GEMS_COLLECTION, 2n, alice, 112, 2),
    nft(item(2), GEMS_COLLECTION, 2n, bob, 140, 5),
    nft(item(3), GEMS_COLLECTION, 3n, AUCTION, 150, 6, { on_sale: true, auction_contract_address: raw(AUCTION), real_owner: raw(bob) }),
    // seen before its collection was decoded, confirmed when it was (same lt, a later block)
    nft(item(4), GEMS_COLLECTION, 4n, dave, 160, 7, { verdict: "pending" }),
    nft(item(4), GEMS_COLLECTION, 4n, alice, 161, 9, { verdict: "confirmed" }),
    nft(item(5), GEMS_COLLECTION, 5n, dave, 420, 22),
    nft(FAKE, GEMS_COLLECTION, 9n, mallory, 165, 8, { verdict: "denied" }),
    nft(STANDALONE, null, 0n, carol, 141, 5, { code_hash: HASHES.item }),
    nft(TELEITEM, USERNAMES, NAME_INDEX, bob, 170, 8, { code_hash: HASHES.telemintItem }),
  ]);
  await insert(store, "nft_sales", [
    sale(SALE, "getgems_sale", 131, 4, {
      nft_address: raw(item(1)),
      nft_owner_address: raw(alice),
      marketplace_address: raw(GETGEMS),
      created_at: NOW + 129,
      is_complete: false,
      full_price: "5000000000",
      marketplace_fee_address: raw(GETGEMS),
      marketplace_fee: "250000000",
      royalty_address: raw(creator),
      royalty_amount: "250000000",
    }),
    sale(AUCTION, "getgems_auction", 151, 6, {
      nft_address: raw(item(3)),
      nft_owner_address: raw(bob),
      marketplace_address: raw(GETGEMS),
      created_at: NOW + 149,
      end_flag: false,
      end_time: NOW + 86_400,
      last_bid: "1100000000",
      last_member: raw(carol),
      min_step: "100000000",
      mp_fee_address: raw(GETGEMS),
      mp_fee_factor: 5,
      mp_fee_base: 100,
      royalty_fee_address: raw(creator),
      royalty_fee_factor: 5,
      royalty_fee_base: 100,
      max_bid: "10000000000",
      min_bid: "1000000000",
      last_bid_at: NOW + 151,
      is_canceled: false,
    }),
    sale(TELEITEM, "telemint", 170, 8, {
      nft_address: raw(TELEITEM),
      token_name: "alice",
      bidder_address: raw(bob),
      bid: "5000000000",
      bid_ts: NOW + 170,
      min_bid: "5250000000",
      end_time: NOW + 3600,
      beneficiary_address: raw(creator),
      initial_min_bid: "1000000000",
      max_bid: "0",
      min_bid_step: 5,
      min_extend_time: 3600,
      duration: 604_800,
      royalty_numerator: 5,
      royalty_denominator: 100,
      royalty_destination: raw(creator),
    }),
    sale(LATE_SALE, "getgems_sale", 430, 23, { nft_address: raw(item(0)), nft_owner_address: raw(alice), full_price: "1" }),
  ]);
  await insert(store, "nft_transfers", [
    transfer(1, item(2), GEMS_COLLECTION, 2n, alice, bob, 140, 5, { forward_payload: commentBoc("it's yours"), comment: "it's yours", forward_amount: "50000000" }),
    transfer(2, item(1), GEMS_COLLECTION, 1n, alice, SALE, 130, 4),
    transfer(3, item(3), GEMS_COLLECTION, 3n, bob, AUCTION, 150, 6),
    // another account's transaction at the same lt: the hash orders them
    transfer(4, STANDALONE, null, 0n, dave, carol, 140, 5),
    transfer(5, item(0), GEMS_COLLECTION, 0n, alice, dave, 115, 2, { transaction_aborted: true }),
    transfer(6, FAKE, GEMS_COLLECTION, 9n, mallory, alice, 166, 8, { confirmed: 0 }),
    transfer(7, item(0), GEMS_COLLECTION, 0n, alice, carol, 410, 21),
    transfer(8, item(4), GEMS_COLLECTION, 4n, dave, alice, 161, 7, { confirmed: 0 }),
    transfer(8, item(4), GEMS_COLLECTION, 4n, dave, alice, 161, 9, { confirmed: 1 }),
  ]);
  await insert(store, "latest_account_states", [
    accountState(alice, HASHES.walletV4, 200),
    accountState(item(1), HASHES.item, 130),
    accountState(SALE, HASHES.sale, 131),
  ]);
  await insert(store, "account_interfaces", [
    { address: raw(item(1)), interfaces: ["nft_item"], code_hash: HASHES.item, last_transaction_lt: "130", mc_seqno: 4 },
    { address: raw(SALE), interfaces: ["nft_sale_getgems_v3"], code_hash: HASHES.sale, last_transaction_lt: "131", mc_seqno: 4 },
  ]);
  await setCheckpoint(store, "decoder", CHECKPOINT);
  t = await startEmbedded({ index: "off", "clickhouse-url": clickhouse.url, "key-index": "off" });
}, 60_000);

/** The sale contract holds item 1. */
function SALE_OWNER(): Address {
  return SALE;
}

afterAll(async () => {
  await t?.close();
  await store?.close();
  await clickhouse?.close();
});

async function v3(path: string): Promise<any> {
  const r = await getJson(`${t.url}/api/v3/${path}`);
  expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
  const p = `/api/v3/${path.split("?")[0]}`;
  expect(v3ResponseErrors(p, r.body), p).toBeNull();
  return r.body;
}

async function allPages(path: string, key: string, limit: number): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 50; i++) {
    const page = await v3(`${path}${path.includes("?") ? "&" : "?"}limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
    out.push(...page[key]);
    cursor = page.next_cursor;
    if (!cursor) return out;
  }
  throw new Error("more than 50 pages");
}

const addresses = (list: any[]) => list.map((x) => x.address);

describe("/nft/collections", () => {
  it("lists decoded collections in address order at their state at the checkpoint", async () => {
    const { nft_collections } = await v3("nft/collections");
    expect(addresses(nft_collections)).toEqual([GEMS_COLLECTION, USERNAMES].map(raw).sort());
    expect(nft_collections.find((c: any) => c.address === raw(GEMS_COLLECTION))).toEqual({
      address: raw(GEMS_COLLECTION),
      owner_address: raw(creator),
      last_transaction_lt: "180",
      next_item_index: "5",
      collection_content: {},
      data_hash: dataHash(180),
      code_hash: HASHES.collection,
    });
    expect(nft_collections.find((c: any) => c.address === raw(USERNAMES)).owner_address).toBeUndefined();
    expect(addresses((await v3(`nft/collections?owner_address=${creator.toString()}`)).nft_collections)).toEqual([raw(GEMS_COLLECTION)]);
    expect(addresses((await v3(`nft/collections?collection_address=${USERNAMES.toString()}&collection_address=${TON_DNS.toString()}`)).nft_collections)).toEqual([raw(USERNAMES)]);
    expect(addresses(await allPages("nft/collections", "nft_collections", 1))).toEqual(addresses(nft_collections));
  });
});

describe("/nft/items", () => {
  it("lists confirmed items by (collection, index, address), each with its collection, on sale with its contract and real owner", async () => {
    const { nft_items, address_book } = await v3("nft/items?limit=100");
    // the standalone item ('' collection) first, then GEMS_COLLECTION's and USERNAMES' in address order
    const gems = [0, 1, 2, 3, 4].map((i) => raw(item(i)));
    const collections = [raw(GEMS_COLLECTION), raw(USERNAMES)].sort();
    const expected = [raw(STANDALONE), ...collections.flatMap((c) => (c === raw(GEMS_COLLECTION) ? gems : [raw(TELEITEM)]))];
    expect(addresses(nft_items)).toEqual(expected);
    const onSale = nft_items.find((i: any) => i.address === raw(item(1)));
    expect(onSale).toMatchObject({
      init: true,
      index: "1",
      collection_address: raw(GEMS_COLLECTION),
      owner_address: raw(SALE),
      content: {},
      last_transaction_lt: "130",
      on_sale: true,
      sale_contract_address: raw(SALE),
      real_owner: raw(alice),
      collection: { address: raw(GEMS_COLLECTION), next_item_index: "5" },
    });
    expect(onSale.auction_contract_address).toBeUndefined();
    expect(nft_items.find((i: any) => i.address === raw(TELEITEM)).index).toBe(NAME_INDEX.toString());
    const standalone = nft_items.find((i: any) => i.address === raw(STANDALONE));
    expect(standalone.collection_address).toBeUndefined();
    expect(standalone.collection).toBeUndefined();
    expect(address_book[raw(item(1))].interfaces).toEqual(["nft_item"]);
    expect(address_book[raw(SALE)].interfaces).toEqual(["nft_sale_getgems_v3"]);
  });

  it("filters by owner as of the checkpoint, with the items on sale on request", async () => {
    const of = async (q: string) => addresses((await v3(`nft/items?${q}`)).nft_items);
    // item 0 goes to carol after the checkpoint; item 2 went to bob; item 1 is on sale
    expect(await of(`owner_address=${alice.toString()}`)).toEqual([item(0), item(4)].map(raw));
    expect(await of(`owner_address=${alice.toString()}&include_on_sale=true`)).toEqual([item(0), item(1), item(4)].map(raw));
    expect((await of(`owner_address=${bob.toString()}`)).sort()).toEqual([item(2), TELEITEM].map(raw).sort());
    expect((await of(`owner_address=${bob.toString()}&include_on_sale=true`)).sort()).toEqual([item(2), item(3), TELEITEM].map(raw).sort());
    expect(await of(`owner_address=${carol.toString()}`)).toEqual([raw(STANDALONE)]);
    expect(await of(`owner_address=${mallory.toString()}`)).toEqual([]);
    expect(await of(`address=${FAKE.toString()}`)).toEqual([]);
    expect(await of(`address=${item(5).toString()}`)).toEqual([]);
  });

  it("filters by collection and index, and sorts by last transaction", async () => {
    const of = async (q: string) => addresses((await v3(`nft/items?${q}`)).nft_items);
    expect(await of(`collection_address=${GEMS_COLLECTION.toString()}&index=1`)).toEqual([raw(item(1))]);
    expect(await of(`collection_address=${GEMS_COLLECTION.toString()}&index=3&index=2&index=9`)).toEqual([item(2), item(3)].map(raw));
    expect(await of(`collection_address=${USERNAMES.toString()}&index=${NAME_INDEX}`)).toEqual([raw(TELEITEM)]);
    // one owner's items of two collections, by (owner, collection, index)
    const byCollection = [
      [raw(GEMS_COLLECTION), raw(item(2))],
      [raw(USERNAMES), raw(TELEITEM)],
    ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
    expect(await of(`collection_address=${GEMS_COLLECTION.toString()}&collection_address=${USERNAMES.toString()}&owner_address=${bob.toString()}`)).toEqual(byCollection.map((x) => x[1]));
    const byLt = (await v3("nft/items?sort_by_last_transaction_lt=true&limit=100")).nft_items.map((i: any) => Number(i.last_transaction_lt));
    expect(byLt).toEqual([...byLt].sort((a, b) => b - a));
  });

  it("pages by cursor as one page does, in every order", async () => {
    for (const q of ["nft/items", "nft/items?sort_by_last_transaction_lt=true", `nft/items?owner_address=${alice.toString()}&owner_address=${bob.toString()}&include_on_sale=true`]) {
      const whole = addresses((await v3(`${q}${q.includes("?") ? "&" : "?"}limit=100`)).nft_items);
      expect(whole.length, q).toBeGreaterThan(3);
      expect(addresses(await allPages(q, "nft_items", 2)), q).toEqual(whole);
    }
  });
});

describe("/nft/transfers", () => {
  it("lists confirmed, not aborted transfers up to the checkpoint, newest first, the hash breaking an lt tie", async () => {
    const { nft_transfers, address_book } = await v3("nft/transfers");
    expect(nft_transfers.map((x: any) => x.transaction_hash)).toEqual([T.n8, T.n3, ...[T.n1, T.n4].sort().reverse(), T.n2]);
    expect(nft_transfers.find((x: any) => x.transaction_hash === T.n1)).toEqual({
      query_id: "1",
      nft_address: raw(item(2)),
      nft_collection: raw(GEMS_COLLECTION),
      transaction_hash: T.n1,
      transaction_lt: "140",
      transaction_now: NOW + 140,
      transaction_aborted: false,
      old_owner: raw(alice),
      new_owner: raw(bob),
      response_destination: raw(alice),
      forward_amount: "50000000",
      forward_payload: commentBoc("it's yours"),
      trace_id: txHash(2001),
    });
    expect(nft_transfers.find((x: any) => x.transaction_hash === T.n4).nft_collection).toBeUndefined();
    for (const x of nft_transfers) for (const a of [x.nft_address, x.old_owner, x.new_owner]) expect(address_book[a], a).toBeDefined();
  });

  it("filters by owner and direction, item, collection, lt and time; pages by cursor", async () => {
    const hashes = async (q: string) => (await v3(`nft/transfers?${q}`)).nft_transfers.map((x: any) => x.transaction_hash).sort();
    expect(await hashes(`owner_address=${alice.toString()}`)).toEqual([T.n1, T.n2, T.n8].sort());
    expect(await hashes(`address=${alice.toString()}&direction=in`)).toEqual([T.n8]);
    expect(await hashes(`owner_address=${alice.toString()}&direction=out`)).toEqual([T.n1, T.n2].sort());
    expect(await hashes(`item_address=${item(2).toString()}`)).toEqual([T.n1]);
    expect(await hashes(`collection_address=${GEMS_COLLECTION.toString()}`)).toEqual([T.n1, T.n2, T.n3, T.n8].sort());
    expect(await hashes(`start_lt=131&end_lt=150`)).toEqual([T.n1, T.n3, T.n4].sort());
    expect(await hashes(`start_utime=${NOW + 140}&end_utime=${NOW + 140}`)).toEqual([T.n1, T.n4].sort());
    for (const q of ["nft/transfers", "nft/transfers?sort=asc", `nft/transfers?start_utime=${NOW}`]) {
      const whole = (await v3(q)).nft_transfers.map((x: any) => x.transaction_hash);
      expect((await allPages(q, "nft_transfers", 1)).map((x: any) => x.transaction_hash), q).toEqual(whole);
    }
  });
});

describe("/nft/sales", () => {
  it("answers getgems sales and auctions and telemint items with their details and the item they hold", async () => {
    const { nft_sales, address_book } = await v3(`nft/sales?address=${SALE.toString()}&address=${AUCTION.toString()}&address=${raw(TELEITEM)}&address=${LATE_SALE.toString()}`);
    expect(addresses(nft_sales)).toEqual([SALE, AUCTION, TELEITEM].map(raw).sort());
    const byType = new Map(nft_sales.map((s: any) => [s.type, s]));
    expect(byType.get("getgems_sale")).toMatchObject({
      address: raw(SALE),
      nft_address: raw(item(1)),
      nft_owner_address: raw(alice),
      marketplace_address: raw(GETGEMS),
      created_at: NOW + 129,
      last_transaction_lt: "131",
      code_hash: HASHES.sale,
      details: { is_complete: false, full_price: "5000000000", marketplace_fee_address: raw(GETGEMS), marketplace_fee: "250000000", royalty_address: raw(creator), royalty_amount: "250000000" },
      nft_item: { address: raw(item(1)), on_sale: true, real_owner: raw(alice), collection: { address: raw(GEMS_COLLECTION) } },
    });
    expect((byType.get("getgems_auction") as any).details).toEqual({
      end_flag: false,
      end_time: NOW + 86_400,
      last_bid: "1100000000",
      last_member: raw(carol),
      min_step: 100000000,
      mp_fee_address: raw(GETGEMS),
      mp_fee_factor: 5,
      mp_fee_base: 100,
      royalty_fee_address: raw(creator),
      royalty_fee_factor: 5,
      royalty_fee_base: 100,
      max_bid: "10000000000",
      min_bid: "1000000000",
      last_bid_at: NOW + 151,
      is_canceled: false,
    });
    const tele = byType.get("telemint") as any;
    expect(tele.details).toMatchObject({ token_name: "alice", bidder_address: raw(bob), bid: "5000000000", bid_ts: String(NOW + 170), min_bid_step: "5", min_extend_time: "3600", duration: "604800", royalty_numerator: 5 });
    expect(tele.nft_item).toMatchObject({ address: raw(TELEITEM), index: NAME_INDEX.toString(), collection: { address: raw(USERNAMES) } });
    for (const a of [raw(GETGEMS), raw(carol), raw(creator), raw(bob)]) expect(address_book[a], a).toBeDefined();
  });
});

describe("strict requests", () => {
  it("refuses toncenter's invalid combinations and unknown parameters with 422 naming the parameter", async () => {
    const cases: [string, RegExp][] = [
      ["nft/items?index=1", /index: needs collection_address/],
      [`nft/items?collection_address=${GEMS_COLLECTION.toString()}&index=abc`, /index\[0\]: expected an item index in decimal digits/],
      [`nft/items?collection_address=${GEMS_COLLECTION.toString()}&index=${"9".repeat(79)}`, /index\[0\]/],
      [`nft/items?collection_address=${GEMS_COLLECTION.toString()}&collection_address=${USERNAMES.toString()}`, /collection_address: more than one .* needs exactly one owner_address/],
      ["nft/items?include_on_sale=yes", /include_on_sale/],
      ["nft/items?owner=1", /unknown parameter "owner"/],
      ["nft/transfers?direction=out", /direction: applies only with owner_address/],
      ["nft/transfers?collection_address=nope", /collection_address/],
      ["nft/sales", /address: required parameter is missing/],
      ["nft/sales?address=x", /address\[0\]/],
      ["nft/sales?address=" + raw(SALE) + "&limit=5", /unknown parameter "limit"/],
      ["nft/collections?owner_address=", /owner_address\[0\]/],
    ];
    for (const [path, message] of cases) {
      const r = await getJson(`${t.url}/api/v3/${path}`);
      expect(r.status, path).toBe(422);
      expect(r.body.error, path).toMatch(message);
    }
  });

  it("documents every parameter v3.yaml declares for these paths", async () => {
    const doc = (await getJson(`${t.url}/api/v3/openapi.json`)).body;
    for (const path of ["nft/collections", "nft/items", "nft/transfers", "nft/sales"]) {
      const ours = (doc.paths[`/api/v3/${path}`].get.parameters as { name: string }[]).map((p) => p.name);
      expect(ours, path).toEqual(expect.arrayContaining([...v3Parameters(`/api/v3/${path}`).keys()]));
      expect(doc.paths[`/api/v3/${path}`].get.tags, path).toEqual(["NFTs"]);
    }
  });

  it("answers 2,000 requests with one broken parameter on the Jettons and NFTs endpoints with 4xx only, each 422 naming it", async () => {
    const routes = [...t.gateway.routes.byPath.values()].flatMap((m) => [...m.values()]).filter((r) => /^\/api\/v3\/(jetton|nft)\//.test(r.path));
    expect(routes).toHaveLength(8);
    const { failures, statuses } = await runFuzz(t.url, brokenCases(t.gateway, routes, alice.toString(), 20261127, 2000));
    expect(failures.slice(0, 20)).toEqual([]);
    expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
    expect(statuses.get(422)).toBeGreaterThan(1000);
  }, 120_000);
});
