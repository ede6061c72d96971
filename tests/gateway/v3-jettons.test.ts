// API v3 Jettons over HTTP through the gateway, on the decoder's tables in ClickHouse (chDB's engine
// behind ClickHouse's HTTP interface, the indexer's API answering from it): the rows are written as
// the decoder will write them (tests/support/decoded-rows.ts), with versions, verdicts and blocks
// past its checkpoint. Every answer validates against v3.yaml; filters, orders and their
// tie-breakers, paging by offset and by cursor, 422s naming the parameter; a wallet its master
// denies is never listed, one confirmed later is listed from the block that confirmed it; nothing
// decoded after the checkpoint shows.
import type { Address } from "@ton/core";
import { registerIndexer } from "@tongate/indexer";
import { openStore, setCheckpoint, type Store } from "@tongate/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startClickHouseHttp, type ClickHouseHttp } from "../support/clickhouse-http.js";
import {
  accountState,
  applyDecoderSchema,
  commentBoc,
  dataHash,
  DOGS,
  HASHES,
  holdMerges,
  insert,
  jettonWalletOf,
  legacyMasterOf,
  NOT,
  owner,
  raw,
  txHash,
  USDT,
} from "../support/decoded-rows.js";
import { getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { v3Parameters, v3ResponseErrors } from "../support/v3-schema.js";

let clickhouse: ClickHouseHttp;
let store: Store;
let t: Embedded;

const [alice, bob, carol, dave, mallory] = [1, 2, 3, 4, 5].map(owner) as [Address, Address, Address, Address, Address];
const wallet = (holder: Address, master: Address) => raw(jettonWalletOf(holder, master));
const FUTURE_MASTER = legacyMasterOf(owner(70));
const CHECKPOINT = 20;
const NOW = 1_700_000_000;

const master = (address: Address, lt: number, mc: number, o: Record<string, unknown>) => ({
  address: raw(address),
  total_supply: "0",
  mintable: true,
  admin_address: null,
  jetton_wallet_code_hash: HASHES.usdtWallet,
  code_hash: HASHES.usdtMinter,
  data_hash: dataHash(lt),
  last_transaction_lt: String(lt),
  last_transaction_now: NOW + lt,
  mc_seqno: mc,
  ...o,
});

const jettonWallet = (holder: Address, jetton: Address, lt: number, mc: number, o: Record<string, unknown>) => ({
  address: wallet(holder, jetton),
  owner: raw(holder),
  jetton: raw(jetton),
  balance: "0",
  verdict: "confirmed",
  code_hash: HASHES.legacyWallet,
  data_hash: dataHash(lt),
  last_transaction_lt: String(lt),
  last_transaction_now: NOW + lt,
  mc_seqno: mc,
  ...o,
});

/** A transfer#0f8a7ea5 received by `from`'s wallet of `jetton` (the in-message's sender is `from`). */
const transfer = (n: number, from: Address, to: Address, jetton: Address, lt: number, mc: number, o: Record<string, unknown> = {}) => ({
  jetton_master: raw(jetton),
  jetton_wallet: wallet(from, jetton),
  transaction_lt: String(lt),
  transaction_hash: txHash(n),
  transaction_now: NOW + lt,
  transaction_aborted: false,
  mc_seqno: mc,
  trace_id: txHash(1000 + n),
  query_id: String(n),
  amount: "1000000",
  source: raw(from),
  destination: raw(to),
  response_destination: raw(from),
  custom_payload: null,
  forward_ton_amount: "1",
  forward_payload: null,
  comment: null,
  confirmed: 1,
  ...o,
});

const burn = (n: number, holder: Address, jetton: Address, lt: number, mc: number, o: Record<string, unknown> = {}) => ({
  jetton_master: raw(jetton),
  jetton_wallet: wallet(holder, jetton),
  transaction_lt: String(lt),
  transaction_hash: txHash(n),
  transaction_now: NOW + lt,
  transaction_aborted: false,
  mc_seqno: mc,
  trace_id: txHash(1000 + n),
  query_id: String(n),
  owner: raw(holder),
  amount: "500000",
  response_destination: raw(holder),
  custom_payload: null,
  confirmed: 1,
  ...o,
});

/** Transfers listed at the checkpoint, newest first: (lt, hash) descending. */
const LISTED = { t8: txHash(8), t6: txHash(6), t3: txHash(3), t2: txHash(2), t1: txHash(1) };

beforeAll(async () => {
  clickhouse = await startClickHouseHttp();
  store = await openStore({ url: clickhouse.url });
  await registerIndexer(store);
  await applyDecoderSchema(store);
  await holdMerges(store);
  await insert(store, "jetton_masters", [
    master(USDT, 100, 3, { total_supply: "1000000", admin_address: raw(alice) }),
    master(USDT, 200, 12, { total_supply: "2500000000000", admin_address: raw(alice) }),
    // decoded in a block after the checkpoint: not shown yet
    master(USDT, 300, 21, { total_supply: "999", admin_address: raw(bob) }),
    master(NOT, 150, 5, { total_supply: "102701033442799999999", mintable: false, code_hash: HASHES.legacyMinter, jetton_wallet_code_hash: HASHES.legacyWallet }),
    master(DOGS, 160, 6, { total_supply: "550000000000000000", code_hash: HASHES.mintlessMinter, jetton_wallet_code_hash: HASHES.mintlessWallet, custom_payload_api_uri: ["https://claim.example.org/dogs/"] }),
    master(FUTURE_MASTER, 400, 25, {}),
  ]);
  await insert(store, "jetton_wallets", [
    jettonWallet(alice, USDT, 110, 3, { balance: "1000000" }),
    jettonWallet(alice, USDT, 210, 12, { balance: "5000000" }),
    jettonWallet(alice, USDT, 310, 21, { balance: "1" }),
    jettonWallet(bob, USDT, 220, 12, { balance: "0" }),
    jettonWallet(carol, USDT, 230, 13, { balance: "7000000" }),
    // a real jetton wallet's code that claims USDT, whose master gives another address for mallory
    { ...jettonWallet(mallory, NOT, 240, 13, { balance: "999999999000000", verdict: "denied" }), jetton: raw(USDT) },
    // seen before its master was decoded, confirmed when it was (same lt, a later block)
    jettonWallet(dave, NOT, 250, 14, { balance: "77", verdict: "pending" }),
    jettonWallet(dave, NOT, 250, 16, { balance: "77", verdict: "confirmed" }),
    jettonWallet(alice, DOGS, 260, 15, { code_hash: HASHES.mintlessWallet, mintless_is_claimed: false, mintless_amount: "1500000000", mintless_start_from: "1720000000", mintless_expire_at: "1760000000" }),
    jettonWallet(bob, DOGS, 261, 15, { balance: "100", code_hash: HASHES.mintlessWallet, mintless_is_claimed: true, mintless_amount: "100", mintless_start_from: "1720000000", mintless_expire_at: "1760000000" }),
    jettonWallet(alice, NOT, 270, 15, { balance: "42" }),
  ]);
  await insert(store, "jetton_transfers", [
    transfer(1, alice, bob, USDT, 211, 12, { forward_payload: commentBoc("thanks for lunch"), comment: "thanks for lunch", forward_ton_amount: "10000000" }),
    transfer(2, bob, alice, USDT, 221, 12),
    // another account's transaction at the same lt: the hash orders them
    transfer(3, carol, alice, USDT, 221, 13),
    transfer(4, alice, carol, USDT, 212, 12, { transaction_aborted: true }),
    { ...transfer(5, mallory, alice, USDT, 241, 13, { confirmed: 0 }), jetton_wallet: wallet(mallory, NOT) },
    transfer(6, dave, alice, NOT, 251, 14, { confirmed: 0 }),
    transfer(6, dave, alice, NOT, 251, 16, { confirmed: 1 }),
    transfer(7, alice, bob, USDT, 311, 21),
    transfer(8, alice, bob, NOT, 271, 15, { amount: "2" }),
    // re-decoding a block writes the same rows again
    transfer(2, bob, alice, USDT, 221, 12),
  ]);
  await insert(store, "jetton_burns", [
    burn(11, alice, USDT, 213, 12),
    burn(12, bob, USDT, 222, 12, { transaction_aborted: true }),
    burn(13, carol, USDT, 312, 22),
    { ...burn(14, mallory, USDT, 242, 13, { confirmed: 0 }), jetton_wallet: wallet(mallory, NOT) },
    burn(15, carol, USDT, 231, 13, { amount: "7" }),
  ]);
  await insert(store, "latest_account_states", [
    accountState(alice, HASHES.walletV4, 212),
    accountState(jettonWalletOf(alice, USDT), HASHES.legacyWallet, 210),
    accountState(jettonWalletOf(carol, USDT), HASHES.legacyWallet, 230),
    accountState(USDT, HASHES.usdtMinter, 200),
  ]);
  await insert(store, "account_interfaces", [
    { address: wallet(alice, USDT), interfaces: ["jetton_wallet"], code_hash: HASHES.legacyWallet, last_transaction_lt: "210", mc_seqno: 12 },
    { address: raw(USDT), interfaces: ["jetton_master"], code_hash: HASHES.usdtMinter, last_transaction_lt: "200", mc_seqno: 12 },
    // detected in a block after the checkpoint
    { address: wallet(carol, USDT), interfaces: ["jetton_wallet"], code_hash: HASHES.legacyWallet, last_transaction_lt: "230", mc_seqno: 24 },
  ]);
  await setCheckpoint(store, "decoder", CHECKPOINT);
  t = await startEmbedded({ index: "off", "clickhouse-url": clickhouse.url, "key-index": "off" });
}, 60_000);

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

/** Every page of a list by cursor, `limit` at a time. */
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

/** Moves the decoder's checkpoint and waits until the API reads it (it reuses a read for 100 ms). */
async function checkpointAt(seqno: number): Promise<void> {
  await setCheckpoint(store, "decoder", seqno);
  await new Promise((r) => setTimeout(r, 150));
}

describe("/jetton/masters", () => {
  it("lists every decoded master in address order, each at its latest state up to the checkpoint", async () => {
    const { jetton_masters, address_book, metadata } = await v3("jetton/masters");
    expect(jetton_masters.map((m: any) => m.address)).toEqual([USDT, NOT, DOGS].map(raw).sort());
    const usdt = jetton_masters.find((m: any) => m.address === raw(USDT));
    expect(usdt).toEqual({
      address: raw(USDT),
      total_supply: "2500000000000",
      mintable: true,
      admin_address: raw(alice),
      jetton_content: {},
      jetton_wallet_code_hash: HASHES.usdtWallet,
      code_hash: HASHES.usdtMinter,
      data_hash: dataHash(200),
      last_transaction_lt: "200",
    });
    expect(jetton_masters.find((m: any) => m.address === raw(NOT)).admin_address).toBeUndefined();
    expect(address_book[raw(USDT)]).toEqual({ user_friendly: USDT.toString({ bounceable: true }), interfaces: ["jetton_master"] });
    expect(address_book[raw(alice)].interfaces).toEqual(["wallet_v4r2"]);
    expect(metadata).toEqual({});
  });

  it("filters by address and administrator", async () => {
    expect((await v3(`jetton/masters?address=${USDT.toString()}&address=${raw(NOT)}`)).jetton_masters.map((m: any) => m.address)).toEqual([USDT, NOT].map(raw).sort());
    expect((await v3(`jetton/masters?admin_address=${alice.toString()}`)).jetton_masters.map((m: any) => m.address)).toEqual([raw(USDT)]);
    // the administrator USDT has after the checkpoint is not its administrator yet
    expect((await v3(`jetton/masters?admin_address=${bob.toString()}`)).jetton_masters).toEqual([]);
    expect((await v3(`jetton/masters?address=${FUTURE_MASTER.toString()}`)).jetton_masters).toEqual([]);
  });

  it("pages by offset and by cursor", async () => {
    const all = (await v3("jetton/masters")).jetton_masters.map((m: any) => m.address);
    expect((await v3("jetton/masters?limit=1&offset=1")).jetton_masters.map((m: any) => m.address)).toEqual([all[1]]);
    expect((await allPages("jetton/masters", "jetton_masters", 2)).map((m: any) => m.address)).toEqual(all);
  });
});

describe("/jetton/wallets", () => {
  it("lists an owner's confirmed wallets at their latest balance, the unclaimed mintless airdrop with its master's claim API", async () => {
    const { jetton_wallets, address_book } = await v3(`jetton/wallets?owner_address=${alice.toString()}`);
    expect(jetton_wallets.map((w: any) => w.address)).toEqual([wallet(alice, USDT), wallet(alice, NOT), wallet(alice, DOGS)].sort());
    const byJetton = new Map(jetton_wallets.map((w: any) => [w.jetton, w]));
    expect(byJetton.get(raw(USDT))).toEqual({
      address: wallet(alice, USDT),
      balance: "5000000",
      owner: raw(alice),
      jetton: raw(USDT),
      last_transaction_lt: "210",
      code_hash: HASHES.legacyWallet,
      data_hash: dataHash(210),
    });
    expect((byJetton.get(raw(DOGS)) as any).mintless_info).toEqual({ amount: "1500000000", start_from: 1720000000, expire_at: 1760000000, custom_payload_api_uri: ["https://claim.example.org/dogs/"] });
    // every address of the answer is in the book; a jetton wallet's interfaces are the decoder's
    for (const w of jetton_wallets) for (const a of [w.address, w.owner, w.jetton]) expect(address_book[a], a).toBeDefined();
    expect(address_book[wallet(alice, USDT)].interfaces).toEqual(["jetton_wallet"]);
    // a claimed airdrop shows no mintless_info
    const bobs = (await v3(`jetton/wallets?owner_address=${bob.toString()}&jetton_address=${DOGS.toString()}`)).jetton_wallets;
    expect(bobs).toHaveLength(1);
    expect(bobs[0].mintless_info).toBeUndefined();
  });

  it("never lists a wallet its master denies", async () => {
    expect((await v3(`jetton/wallets?owner_address=${mallory.toString()}`)).jetton_wallets).toEqual([]);
    expect((await v3(`jetton/wallets?address=${wallet(mallory, NOT)}`)).jetton_wallets).toEqual([]);
    const holders = (await v3(`jetton/wallets?jetton_address=${USDT.toString()}&limit=100`)).jetton_wallets;
    expect(holders.map((w: any) => w.owner).sort()).toEqual([alice, bob, carol].map(raw).sort());
  });

  it("lists a wallet seen before its master from the block that confirmed it", async () => {
    await checkpointAt(15);
    expect((await v3(`jetton/wallets?owner_address=${dave.toString()}`)).jetton_wallets).toEqual([]);
    expect((await v3(`jetton/transfers?owner_address=${dave.toString()}`)).jetton_transfers).toEqual([]);
    await checkpointAt(CHECKPOINT);
    expect((await v3(`jetton/wallets?owner_address=${dave.toString()}`)).jetton_wallets.map((w: any) => [w.address, w.balance])).toEqual([[wallet(dave, NOT), "77"]]);
    expect((await v3(`jetton/transfers?owner_address=${dave.toString()}`)).jetton_transfers.map((x: any) => x.transaction_hash)).toEqual([txHash(6)]);
  });

  it("sorts by balance with the address breaking ties, and leaves out empty wallets on request", async () => {
    const desc = (await v3(`jetton/wallets?jetton_address=${USDT.toString()}&sort=desc`)).jetton_wallets;
    expect(desc.map((w: any) => w.balance)).toEqual(["7000000", "5000000", "0"]);
    const asc = (await v3(`jetton/wallets?jetton_address=${USDT.toString()}&sort=asc`)).jetton_wallets;
    expect(asc.map((w: any) => w.balance)).toEqual(["0", "5000000", "7000000"]);
    const nonEmpty = (await v3(`jetton/wallets?jetton_address=${USDT.toString()}&exclude_zero_balance=true`)).jetton_wallets;
    expect(nonEmpty.map((w: any) => w.owner).sort()).toEqual([alice, carol].map(raw).sort());
    // an unclaimed airdrop is not an empty wallet
    const alices = (await v3(`jetton/wallets?owner_address=${alice.toString()}&exclude_zero_balance=true`)).jetton_wallets;
    expect(alices.map((w: any) => w.jetton).sort()).toEqual([USDT, NOT, DOGS].map(raw).sort());
    // several jettons of one owner
    const two = (await v3(`jetton/wallets?owner_address=${alice.toString()}&jetton_address=${USDT.toString()}&jetton_address=${raw(NOT)}`)).jetton_wallets;
    expect(two.map((w: any) => w.jetton).sort()).toEqual([USDT, NOT].map(raw).sort());
  });

  it("pages by cursor in balance order as one page does", async () => {
    const whole = (await v3(`jetton/wallets?sort=desc&limit=1000`)).jetton_wallets.map((w: any) => w.address);
    expect(whole.length).toBeGreaterThanOrEqual(7);
    expect((await allPages("jetton/wallets?sort=desc", "jetton_wallets", 2)).map((w: any) => w.address)).toEqual(whole);
    const byAddress = (await v3(`jetton/wallets?limit=1000`)).jetton_wallets.map((w: any) => w.address);
    expect(byAddress).toEqual([...byAddress].sort());
    expect((await allPages("jetton/wallets", "jetton_wallets", 3)).map((w: any) => w.address)).toEqual(byAddress);
    expect((await v3(`jetton/wallets?limit=2&offset=2`)).jetton_wallets.map((w: any) => w.address)).toEqual(byAddress.slice(2, 4));
  });
});

describe("/jetton/transfers", () => {
  it("lists confirmed, not aborted transfers up to the checkpoint, newest first, the hash breaking an lt tie", async () => {
    const { jetton_transfers, address_book } = await v3("jetton/transfers");
    expect(jetton_transfers.map((x: any) => x.transaction_hash)).toEqual([LISTED.t8, LISTED.t6, ...[LISTED.t3, LISTED.t2].sort().reverse(), LISTED.t1]);
    const t1 = jetton_transfers.find((x: any) => x.transaction_hash === LISTED.t1);
    expect(t1).toEqual({
      query_id: "1",
      source: raw(alice),
      destination: raw(bob),
      amount: "1000000",
      source_wallet: wallet(alice, USDT),
      jetton_master: raw(USDT),
      transaction_hash: txHash(1),
      transaction_lt: "211",
      transaction_now: NOW + 211,
      transaction_aborted: false,
      response_destination: raw(alice),
      forward_ton_amount: "10000000",
      forward_payload: commentBoc("thanks for lunch"),
      trace_id: txHash(1001),
    });
    for (const x of jetton_transfers) for (const a of [x.source, x.destination, x.source_wallet, x.jetton_master]) expect(address_book[a], a).toBeDefined();
    const asc = (await v3("jetton/transfers?sort=asc")).jetton_transfers.map((x: any) => x.transaction_hash);
    expect(asc).toEqual(jetton_transfers.map((x: any) => x.transaction_hash).reverse());
  });

  it("filters by owner and direction, wallet, master, lt and time", async () => {
    const hashes = async (q: string) => (await v3(`jetton/transfers?${q}`)).jetton_transfers.map((x: any) => x.transaction_hash).sort();
    expect(await hashes(`owner_address=${alice.toString()}`)).toEqual(Object.values(LISTED).sort());
    // toncenter's alias of owner_address
    expect(await hashes(`address=${alice.toString()}`)).toEqual(Object.values(LISTED).sort());
    expect(await hashes(`owner_address=${alice.toString()}&direction=in`)).toEqual([LISTED.t2, LISTED.t3, LISTED.t6].sort());
    expect(await hashes(`owner_address=${alice.toString()}&direction=out`)).toEqual([LISTED.t1, LISTED.t8].sort());
    expect(await hashes(`owner_address=${alice.toString()}&direction=both`)).toEqual(Object.values(LISTED).sort());
    expect(await hashes(`jetton_master=${USDT.toString()}`)).toEqual([LISTED.t1, LISTED.t2, LISTED.t3].sort());
    expect(await hashes(`jetton_wallet=${wallet(bob, USDT)}`)).toEqual([LISTED.t2]);
    expect(await hashes(`jetton_wallet=${wallet(mallory, NOT)}`)).toEqual([]);
    expect(await hashes(`start_lt=212&end_lt=251`)).toEqual([LISTED.t2, LISTED.t3, LISTED.t6].sort());
    expect(await hashes(`start_utime=${NOW + 221}&end_utime=${NOW + 221}`)).toEqual([LISTED.t2, LISTED.t3].sort());
  });

  it("pages by cursor through lt ties, with and without a time range, as one page does", async () => {
    for (const q of ["jetton/transfers", "jetton/transfers?sort=asc", `jetton/transfers?start_utime=${NOW}`, `jetton/transfers?start_utime=${NOW}&sort=asc`]) {
      const whole = (await v3(q)).jetton_transfers.map((x: any) => x.transaction_hash);
      expect(whole).toHaveLength(5);
      expect((await allPages(q, "jetton_transfers", 1)).map((x: any) => x.transaction_hash), q).toEqual(whole);
    }
    const whole = (await v3("jetton/transfers")).jetton_transfers.map((x: any) => x.transaction_hash);
    expect((await v3("jetton/transfers?limit=2&offset=2")).jetton_transfers.map((x: any) => x.transaction_hash)).toEqual(whole.slice(2, 4));
  });
});

describe("/jetton/burns", () => {
  it("lists confirmed, not aborted burns up to the checkpoint, filtered by owner, wallet and master", async () => {
    const { jetton_burns } = await v3("jetton/burns");
    expect(jetton_burns.map((b: any) => b.transaction_hash)).toEqual([txHash(15), txHash(11)]);
    expect(jetton_burns[1]).toEqual({
      query_id: "11",
      owner: raw(alice),
      jetton_wallet: wallet(alice, USDT),
      jetton_master: raw(USDT),
      transaction_hash: txHash(11),
      transaction_lt: "213",
      transaction_now: NOW + 213,
      transaction_aborted: false,
      amount: "500000",
      response_destination: raw(alice),
      trace_id: txHash(1011),
    });
    const hashes = async (q: string) => (await v3(`jetton/burns?${q}`)).jetton_burns.map((x: any) => x.transaction_hash);
    expect(await hashes(`address=${alice.toString()}`)).toEqual([txHash(11)]);
    expect(await hashes(`owner_address=${carol.toString()}`)).toEqual([txHash(15)]);
    expect(await hashes(`jetton_wallet=${wallet(carol, USDT)}`)).toEqual([txHash(15)]);
    expect(await hashes(`jetton_master=${NOT.toString()}`)).toEqual([]);
    expect(await hashes(`sort=asc&limit=1`)).toEqual([txHash(11)]);
    expect((await allPages("jetton/burns", "jetton_burns", 1)).map((b: any) => b.transaction_hash)).toEqual([txHash(15), txHash(11)]);
  });
});

describe("strict requests", () => {
  it("refuses what toncenter refuses, and what it silently ignores, with 422 naming the parameter", async () => {
    const cases: [string, RegExp][] = [
      ["jetton/wallets?owner_id=1", /unknown parameter "owner_id"/],
      [`jetton/wallets?jetton_address=${USDT.toString()}&jetton_address=${NOT.toString()}`, /jetton_address: more than one .* needs exactly one owner_address/],
      [`jetton/wallets?jetton_address=${USDT.toString()}&jetton_address=${NOT.toString()}&owner_address=${alice.toString()}&owner_address=${bob.toString()}`, /jetton_address/],
      ["jetton/wallets?sort=up", /sort: expected one of asc, desc/],
      ["jetton/wallets?owner_address=nope", /owner_address\[0\]/],
      ["jetton/wallets?exclude_zero_balance=maybe", /exclude_zero_balance/],
      ["jetton/transfers?direction=in", /direction: applies only with owner_address/],
      ["jetton/transfers?direction=sideways", /direction: expected one of/],
      ["jetton/transfers?limit=1001", /limit: must be at most 1000/],
      ["jetton/transfers?offset=1&cursor=abc", /at most one of offset, cursor/],
      ["jetton/transfers?cursor=abc", /cursor: not a cursor/],
      ["jetton/transfers?jetton_master=x", /jetton_master/],
      ["jetton/burns?start_lt=-1", /start_lt/],
      ["jetton/masters?admin_address=0:zz", /admin_address\[0\]/],
      ["jetton/masters?sort=asc", /unknown parameter "sort"/],
    ];
    for (const [path, message] of cases) {
      const r = await getJson(`${t.url}/api/v3/${path}`);
      expect(r.status, path).toBe(422);
      expect(r.body.error, path).toMatch(message);
    }
    // a cursor continues the order it was given for, on its endpoint only
    const page = await v3("jetton/transfers?limit=1");
    for (const other of [`jetton/burns?cursor=${page.next_cursor}`, `jetton/transfers?sort=asc&cursor=${page.next_cursor}`, `jetton/transfers?start_utime=1&cursor=${page.next_cursor}`]) {
      const r = await getJson(`${t.url}/api/v3/${other}`);
      expect(r.status, other).toBe(422);
      expect(r.body.error, other).toMatch(/cursor/);
    }
    // a cursor made up with keys of the wrong kind is refused, not sent to ClickHouse
    const forged = Buffer.from(JSON.stringify({ e: "jetton/transfers", s: "desc", k: ["abc", "x"] })).toString("base64url");
    const r = await getJson(`${t.url}/api/v3/jetton/transfers?cursor=${forged}`);
    expect(r.status).toBe(422);
    expect(r.body.error).toMatch(/cursor: not a cursor/);
  });

  it("accepts every parameter v3.yaml declares for these paths, and documents them", async () => {
    const doc = (await getJson(`${t.url}/api/v3/openapi.json`)).body;
    for (const path of ["jetton/masters", "jetton/wallets", "jetton/transfers", "jetton/burns"]) {
      const declared = v3Parameters(`/api/v3/${path}`);
      expect(declared.get("limit")?.default, path).toBe(10);
      const ours = (doc.paths[`/api/v3/${path}`].get.parameters as { name: string }[]).map((p) => p.name);
      expect(ours, path).toEqual(expect.arrayContaining([...declared.keys()]));
      expect(doc.paths[`/api/v3/${path}`].get.tags, path).toEqual(["Jettons"]);
    }
  });
});
