// The decoder's key-index tables as a reader sees them between the decoder's steps: a block's rows
// staged before its checkpoint are not seen until applied after it, and then all at once (a
// balance change, an item moving from one owner to another, a wallet confirmed late with its
// transfers); a later version never gives way to an earlier one; blocks staged by a run that stopped
// before their checkpoint are dropped, those checkpointed are applied on the next start; an
// account's actions walk in toncenter's action_accounts order, and a trace's newer classification
// replaces its entries whole.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DecodedKeys } from "../src/decoded-keys/decoded-keys.js";
import { DECODED_KEYS, DECODER_OWNER } from "../src/decoded-keys/layout.js";
import { emptyKeyRows, type DecodedKeyRows, type KeyActionRow, type KeyItemRow, type KeyTransferRow, type KeyWalletRow } from "../src/decoded-keys/rows.js";
import { type KeyIndexEnv, openKeyIndexEnv } from "../src/key-index/env.js";

const addr = (n: number, wc = 0) => `${wc}:${n.toString(16).toUpperCase().padStart(64, "0")}`;
const hash = (n: number) => Buffer.alloc(32, n).toString("base64");
const [alice, bob, jetton, walletA, walletB, collection, item] = [1, 2, 3, 4, 5, 6, 7].map((n) => addr(n));

const wallet = (address: string, owner: string, balance: string, lt: number, mc: number, verdict: KeyWalletRow["verdict"] = "confirmed"): KeyWalletRow => ({
  address,
  balance,
  owner,
  jetton,
  verdict,
  mintless_is_claimed: null,
  mintless_amount: null,
  mintless_start_from: null,
  mintless_expire_at: null,
  code_hash: hash(9),
  data_hash: hash(lt),
  last_transaction_lt: String(lt),
  mc_seqno: mc,
});

const nftItem = (owner: string, lt: number, mc: number): KeyItemRow => ({
  address: item,
  init: true,
  nft_index: "5",
  collection_address: collection,
  owner_address: owner,
  content: "{}",
  verdict: "confirmed",
  on_sale: false,
  sale_contract_address: null,
  auction_contract_address: null,
  real_owner: owner,
  code_hash: hash(8),
  data_hash: hash(lt),
  last_transaction_lt: String(lt),
  mc_seqno: mc,
});

const transfer = (n: number, from: string, to: string, lt: number, confirmed = 1): KeyTransferRow => ({
  transaction_hash: hash(100 + n),
  transaction_lt: String(lt),
  transaction_now: 1_700_000_000 + lt,
  transaction_aborted: false,
  query_id: String(n),
  amount: "10",
  jetton_wallet: walletA,
  jetton_master: jetton,
  response_destination: null,
  custom_payload: null,
  trace_id: null,
  source: from,
  destination: to,
  forward_ton_amount: "0",
  forward_payload: null,
  confirmed,
});

const rows = (o: Partial<DecodedKeyRows>): DecodedKeyRows => ({ ...emptyKeyRows(), ...o });

let dir: string;
let env: KeyIndexEnv;
let keys: DecodedKeys;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tongate-decoded-keys-"));
  env = openKeyIndexEnv(dir);
  keys = DecodedKeys.of(await env.open(DECODER_OWNER, DECODED_KEYS));
  await keys.tables.markComplete();
  await keys.setLive(true);
});

afterAll(async () => {
  await env.close();
  rmSync(dir, { recursive: true, force: true });
});

const balances = (owner: string) => [...keys.walletsBy("owner", owner)].map((w) => [w.address, w.balance, w.verdict]);
const items = (owner: string) => [...keys.itemsOf(owner, false)].map((i) => i.address);
const transfers = (owner: string) => [...keys.transferEntries("owner", owner, { reverse: false })].map((e) => [Number(e.lt), e.sides]);

describe("DecodedKeys", () => {
  it("show a block's rows once its checkpoint is applied, all at once", async () => {
    await keys.stage(10, rows({ jettonWallets: [wallet(walletA, alice, "100", 1000, 10)], nftItems: [nftItem(alice, 1001, 10)] }));
    expect(balances(alice)).toEqual([]);
    await keys.apply(10);
    expect(keys.decoded()).toBe(10);
    expect(balances(alice)).toEqual([[walletA, "100", "confirmed"]]);
    expect(items(alice)).toEqual([item]);

    // block 11 changes the balance and moves the item: until its checkpoint, readers see block 10
    await keys.stage(11, rows({ jettonWallets: [wallet(walletA, alice, "90", 1100, 11)], nftItems: [nftItem(bob, 1101, 11)], jettonTransfers: [transfer(1, alice, bob, 1100)] }));
    expect(balances(alice)).toEqual([[walletA, "100", "confirmed"]]);
    expect([items(alice), items(bob), transfers(bob)]).toEqual([[item], [], []]);
    await keys.apply(11);
    expect(balances(alice)).toEqual([[walletA, "90", "confirmed"]]);
    expect([items(alice), items(bob)]).toEqual([[], [item]]);
    expect([transfers(alice), transfers(bob)]).toEqual([[[1100, 1]], [[1100, 2]]]);
    expect(keys.transfer(hash(101))?.query_id).toBe("1");
  });

  it("keep the latest version: an earlier row written again (a rebuild's, a block decoded again) changes nothing", async () => {
    await keys.write(rows({ jettonWallets: [wallet(walletA, alice, "100", 1000, 10)], nftItems: [nftItem(alice, 1001, 10)] }));
    expect(balances(alice)).toEqual([[walletA, "90", "confirmed"]]);
    expect([items(alice), items(bob)]).toEqual([[], [item]]);
    // the same lt decided later (a verdict arriving with the master) replaces it
    await keys.write(rows({ jettonWallets: [wallet(walletB, bob, "7", 500, 9, "pending")] }));
    await keys.write(rows({ jettonWallets: [wallet(walletB, bob, "7", 500, 12, "confirmed")] }));
    expect(balances(bob)).toEqual([[walletB, "7", "confirmed"]]);
  });

  it("list transfers only when listed: confirmed and not aborted; a transfer of both sides' owner once", async () => {
    await keys.write(rows({ jettonTransfers: [transfer(2, alice, bob, 1200, 0), { ...transfer(3, alice, bob, 1300), transaction_aborted: true }, transfer(4, bob, bob, 1400)] }));
    expect(transfers(bob)).toEqual([[1100, 2], [1400, 3]]);
    expect([...keys.transferEntries("jetton", jetton, { reverse: true })].map((e) => Number(e.lt))).toEqual([1400, 1100]);
  });

  it("after a stop: staged blocks at or before the checkpoint applied, later ones dropped", async () => {
    await keys.stage(13, rows({ jettonWallets: [wallet(walletA, alice, "80", 1300, 13)] }));
    await keys.stage(14, rows({ jettonWallets: [wallet(walletA, alice, "70", 1400, 14)] }));
    // the decoder's checkpoint reached 13 before the stop
    await keys.apply(13);
    expect(balances(alice)).toEqual([[walletA, "80", "confirmed"]]);
    expect(keys.decoded()).toBe(13);
    expect([...keys.tables.table("staged").getKeys({})]).toEqual([]);
  });

  it("walk an account's actions in action_accounts order both ways, after a cursor, within trace_end_lt bounds", async () => {
    // two traces ending at one lt (ids ordered as ClickHouse orders Strings: "t1" < "t1x" < "t2"), one later
    const action = (traceId: string, actionId: string, traceEndLt: number, endLt: number): KeyActionRow => ({
      trace_id: traceId, action_id: actionId, version: 20, type: "ton_transfer", tx_hashes: [hash(endLt % 256)], accounts: [alice], success: true,
      start_lt: String(endLt - 1), end_lt: String(endLt), start_utime: 1, end_utime: 2, mc_seqno_end: 20, trace_end_lt: String(traceEndLt), trace_end_utime: 3,
      trace_mc_seqno_end: 20, trace_external_hash: null, trace_external_hash_norm: null, parent_action_id: null, ancestor_type: [], row: "{}",
    });
    const trace = (traceId: string, actions: KeyActionRow[], version = 20) => ({
      classification: { trace_id: traceId, version, classification_state: "ok" as const, action_ids: actions.map((a) => a.action_id), trace_end_lt: actions[0]!.trace_end_lt, trace_end_utime: 3, trace_mc_seqno_end: 20 },
      actions: actions.map((a) => ({ ...a, version })),
    });
    await keys.write(rows({ traces: [trace("t2", [action("t2", "b", 500, 480)]), trace("t1x", [action("t1x", "a", 500, 490)]), trace("t1", [action("t1", "z", 500, 495), action("t1", "y", 500, 470)]), trace("t3", [action("t3", "c", 600, 590)])] }));
    const walk = (o: Parameters<DecodedKeys["actionsOfAccount"]>[1]) => [...keys.actionsOfAccount(alice, o)].map((e) => `${e.traceId}/${e.actionId}`);
    expect(walk({ reverse: false })).toEqual(["t1/y", "t1/z", "t1x/a", "t2/b", "t3/c"]);
    expect(walk({ reverse: true })).toEqual(["t3/c", "t2/b", "t1x/a", "t1/z", "t1/y"]);
    const at = { traceEndLt: 500n, traceId: "t1x", endLt: 490n, actionId: "a" };
    expect(walk({ reverse: false, after: at })).toEqual(["t2/b", "t3/c"]);
    expect(walk({ reverse: true, after: at })).toEqual(["t1/z", "t1/y"]);
    expect(walk({ reverse: true, endLt: 599n })).toEqual(["t2/b", "t1x/a", "t1/z", "t1/y"]);
    expect(walk({ reverse: false, startLt: 501n })).toEqual(["t3/c"]);
    expect(walk({ reverse: false, after: at, endLt: 500n })).toEqual(["t2/b"]);
    expect(keys.actionsOfTraces(["t1", "none"]).get("t1")?.map((a) => a.action_id)).toEqual(["z", "y"]);
    expect(keys.actionsById(["b", "a"]).map((a) => a.trace_id)).toEqual(["t2", "t1x"]);
    // an older classification of a trace changes nothing; a newer one replaces the trace's entries
    await keys.write(rows({ traces: [trace("t3", [action("t3", "old", 600, 590)], 19)] }));
    expect(walk({ reverse: false, startLt: 501n })).toEqual(["t3/c"]);
    await keys.write(rows({ traces: [trace("t3", [action("t3", "d", 600, 590)], 21)] }));
    expect(walk({ reverse: false, startLt: 501n })).toEqual(["t3/d"]);
    expect(keys.actionsById(["c"])).toEqual([]);
  });
});
