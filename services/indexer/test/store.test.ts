// The ClickHouse store on real chDB (in this test process): migrations, idempotent inserts,
// parameter-bound reads, 64-bit round trips, a persistent directory across reopen.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCheckpoint, openStore, setCheckpoint, splitStatements, type Store } from "@tongate/store";
import { insertBlockRows, loadMigrations, messagesBySource, migrate, transactionsByAccount, transactionsByHash, type StoreRows } from "../src/index.js";

const A = "0:" + "A1".repeat(32);
const B = "0:" + "B2".repeat(32);
const h = (n: number) => Buffer.alloc(32, n).toString("base64");
const MAX_U64 = "18446744073709551615";
const MIN_I64 = "-9223372036854775808";
const BIG_COINS = "1329227995784915872903807060280344575"; // 2^120 - 1

function blockRows(): StoreRows {
  const shard = "-9223372036854775808";
  const block = {
    workchain: 0, shard, seqno: 100, root_hash: h(1), file_hash: h(2), mc_seqno: 50, global_id: -239, version: 0,
    after_merge: false, before_split: false, after_split: false, want_split: false, want_merge: true, key_block: false,
    vert_seqno_incr: false, flags: 1, gen_utime: 1_700_000_000, start_lt: "4000000000000", end_lt: "4000000000005",
    validator_list_hash_short: 4_000_000_000, gen_catchain_seqno: 7, min_ref_mc_seqno: 49, prev_key_block_seqno: 10,
    vert_seqno: 1, master_ref_seqno: 50,
    prev_blocks: [{ workchain: 0, shard, seqno: 99, root_hash: h(3), file_hash: h(4), end_lt: "3999999999999" }],
    tx_count: 3, rand_seed: h(5), created_by: h(6),
  };
  const mcBlock = { ...block, workchain: -1, seqno: 50, root_hash: h(7), file_hash: h(8), master_ref_seqno: null, tx_count: 0, prev_blocks: [] };
  const description = {
    type: "ord", aborted: false, destroyed: false, credit_first: true,
    storage_ph: { storage_fees_collected: "1", status_change: "unchanged" as const },
    compute_ph: { skipped: false, success: true, gas_used: "1000", exit_code: 0, vm_steps: 40 },
    action: {
      success: true, valid: true, no_funds: false, status_change: "unchanged" as const, result_code: 0, tot_actions: 1,
      spec_actions: 0, skipped_actions: 0, msgs_created: 1, action_list_hash: h(9), tot_msg_size: { cells: "1", bits: "700" },
    },
  };
  const tx = (account: string, lt: string, hash: string, inMsg: string | null, outs: string[]) => ({
    account, hash, lt, prev_trans_hash: h(0), prev_trans_lt: "0", now: 1_700_000_000, mc_seqno: 50,
    block_workchain: 0, block_shard: shard, block_seqno: 100, orig_status: "active" as const, end_status: "active" as const,
    total_fees: MAX_U64, total_fees_extra_currencies: { "239": BIG_COINS }, account_state_hash_before: h(10),
    account_state_hash_after: h(11), description, in_msg_hash: inMsg, out_msg_hashes: outs, trace_id: h(20),
    states: [{ hash: h(11), balance: BIG_COINS, balance_extra_currencies: { "239": BIG_COINS }, account_status: "active" as const, frozen_hash: null, code_hash: h(12), data_hash: h(13) }],
  });
  const msg = (msg_hash: string, tx_hash: string, tx_lt: string, direction: "in" | "out", source: string | null, destination: string | null, created_lt: string | null) => ({
    msg_hash, tx_hash, tx_lt, direction, source, destination, value: source ? BIG_COINS : null, value_extra_currencies: {},
    fwd_fee: source ? "1000" : null, ihr_fee: source ? "0" : null, extra_flags: source ? "0" : null, created_lt,
    created_at: created_lt ? 1_700_000_000 : null, opcode: source ? -1 : null, ihr_disabled: source ? true : null,
    bounce: source ? true : null, bounced: source ? false : null, import_fee: source ? null : "0", body_hash: h(30),
    init_state_hash: null, hash_norm: source ? null : h(31),
  });
  return {
    blocks: [mcBlock, block],
    transactions: [
      tx(A, "4000000000001", h(20), h(40), [h(41)]),
      tx(B, "4000000000003", h(21), h(41), []),
      { ...tx(A, "4000000000004", h(22), null, []), trace_id: null },
    ],
    messages: [
      msg(h(40), h(20), "4000000000001", "in", null, A, null),
      msg(h(41), h(20), "4000000000001", "out", A, B, "4000000000002"),
      msg(h(41), h(21), "4000000000003", "in", A, B, "4000000000002"),
    ],
    contents: [{ hash: h(30), boc: "te6cckEBAQEAAgAAAEysuc0=" }, { hash: h(30), boc: "te6cckEBAQEAAgAAAEysuc0=" }],
    accountStates: [
      { hash: h(11), account: A, balance: BIG_COINS, balance_extra_currencies: {}, account_status: "active", frozen_hash: null,
        code_hash: h(12), data_hash: h(13), code_boc: "te6c", data_boc: "te6c", last_trans_hash: h(20), last_trans_lt: "4000000000001", timestamp: 1_700_000_000 },
      { hash: h(14), account: A, balance: "5", balance_extra_currencies: {}, account_status: "active", frozen_hash: null,
        code_hash: h(12), data_hash: h(15), code_boc: "te6c", data_boc: "te6d", last_trans_hash: h(22), last_trans_lt: "4000000000004", timestamp: 1_700_000_001 },
    ],
    shardState: [{ mc_seqno: 50, workchain: 0, shard, seqno: 100, root_hash: h(1), file_hash: h(2) }],
  };
}

const TABLES = [
  "blocks", "masterchain_block_shards", "shard_state", "transactions", "transactions_by_hash", "transactions_by_block",
  "transactions_by_trace", "messages", "messages_by_source", "messages_by_destination", "message_contents",
  "account_states", "latest_account_states",
];

async function counts(store: Store): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) {
    // table names are identifiers, bound as such
    const rs = await store.client.query({ query: "SELECT count() AS n FROM {t:Identifier} FINAL", query_params: { t }, format: "JSONEachRow" });
    out[t] = Number((await rs.json<{ n: string }>())[0]!.n);
  }
  return out;
}

describe("indexer store (chDB)", () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore();
  });
  afterAll(async () => {
    await store?.close();
  });

  it("splits migration files into statements", () => {
    expect(splitStatements("-- c\nCREATE TABLE a (x UInt8)\nENGINE = Memory;\n\n-- d\nSELECT 1;\n")).toEqual([
      "CREATE TABLE a (x UInt8)\nENGINE = Memory",
      "SELECT 1",
    ]);
    const ms = loadMigrations();
    expect(ms.map((m) => m.version)).toEqual([...ms.map((m) => m.version)].sort((a, b) => a - b));
    expect(ms[0]!.version).toBe(1);
  });

  it("applies the migrations once; a second run is a no-op", async () => {
    const all = loadMigrations().map((m) => m.version);
    expect(await migrate(store)).toEqual({ applied: all, alreadyApplied: [] });
    expect(await migrate(store)).toEqual({ applied: [], alreadyApplied: all });
    const rs = await store.client.query({ query: "SELECT count() AS n FROM schema_migrations", format: "JSONEachRow" });
    expect((await rs.json<{ n: string }>())[0]!.n).toBe(String(all.length));
  });

  it("refuses an applied migration whose file changed", async () => {
    const [first] = loadMigrations();
    await expect(migrate(store, [{ ...first!, checksum: "different" }])).rejects.toThrow(/changed after it was applied/);
  });

  it("stores a block's rows; inserting them again changes nothing visible", async () => {
    await insertBlockRows(store, blockRows());
    const once = await counts(store);
    expect(once).toEqual({
      blocks: 2, masterchain_block_shards: 2, shard_state: 1, transactions: 3, transactions_by_hash: 3,
      transactions_by_block: 3, transactions_by_trace: 2, messages: 3, messages_by_source: 1, messages_by_destination: 2,
      message_contents: 1, account_states: 2, latest_account_states: 1,
    });
    await insertBlockRows(store, blockRows());
    expect(await counts(store)).toEqual(once);
    const rs = await store.client.query({
      query: "SELECT hash, balance, last_trans_lt FROM latest_account_states FINAL WHERE account = {a:String}",
      query_params: { a: A },
      format: "JSONEachRow",
    });
    expect(await rs.json()).toEqual([{ hash: h(14), balance: "5", last_trans_lt: "4000000000004" }]);
  });

  it("reads an account's transactions by lt desc, a transaction by hash, messages by source", async () => {
    const txs = await transactionsByAccount(store, A);
    expect(txs.map((t) => t.lt)).toEqual(["4000000000004", "4000000000001"]);
    expect((await transactionsByAccount(store, A, { limit: 1, offset: 1 })).map((t) => t.hash)).toEqual([h(20)]);
    expect((await transactionsByAccount(store, A, { beforeLt: "4000000000004" })).map((t) => t.hash)).toEqual([h(20)]);
    // a value that would break string-built SQL is just a value
    expect(await transactionsByAccount(store, "' OR 1=1 --")).toEqual([]);

    const [tx] = await transactionsByHash(store, h(21));
    expect(tx).toMatchObject({ account: B, lt: "4000000000003", in_msg_hash: h(41), out_msg_hashes: [], block_shard: MIN_I64 });
    expect(JSON.parse(tx!.description)).toEqual(blockRows().transactions[1]!.description);
    expect(await transactionsByHash(store, h(99))).toEqual([]);

    const msgs = await messagesBySource(store, A);
    expect(msgs.map((m) => [m.msg_hash, m.direction, m.tx_hash])).toEqual([
      [h(41), "in", h(21)],
      [h(41), "out", h(20)],
    ]);
    expect(msgs[0]).toMatchObject({ source: A, destination: B, created_lt: "4000000000002", opcode: -1, bounce: true, bounced: false });
    expect(await messagesBySource(store, B)).toEqual([]);
  });

  it("round-trips 64-bit and wider integers as strings", async () => {
    const [tx] = await transactionsByHash(store, h(20));
    expect(tx!.total_fees).toBe(MAX_U64);
    expect(tx!.total_fees_extra_currencies).toEqual({ "239": BIG_COINS });
    expect(tx!.block_shard).toBe(MIN_I64);
    const [m] = await messagesBySource(store, A);
    expect(m!.value).toBe(BIG_COINS);
    const rs = await store.client.query({
      query: "SELECT shard, start_lt, prev_blocks FROM blocks FINAL WHERE workchain = {wc:Int32} AND shard = {shard:Int64} AND seqno = {seqno:UInt32}",
      query_params: { wc: 0, shard: MIN_I64, seqno: 100 },
      format: "JSONEachRow",
    });
    expect(await rs.json()).toEqual([{
      shard: MIN_I64, start_lt: "4000000000000",
      prev_blocks: [{ workchain: 0, shard: MIN_I64, seqno: 99, root_hash: h(3), file_hash: h(4), end_lt: "3999999999999" }],
    }]);
    const bound = await store.client.query({ query: "SELECT {v:UInt64} AS v, {w:UInt128} AS w", query_params: { v: MAX_U64, w: BIG_COINS }, format: "JSONEachRow" });
    expect(await bound.json()).toEqual([{ v: MAX_U64, w: BIG_COINS }]);
  });

  it("keeps the latest checkpoint", async () => {
    expect(await getCheckpoint(store, "mainnet")).toBeNull();
    await setCheckpoint(store, "mainnet", 50);
    await setCheckpoint(store, "mainnet", 51);
    expect(await getCheckpoint(store, "mainnet")).toBe(51);
  });

  it("server mode: an unreachable ClickHouse URL is an error naming it (password redacted)", async () => {
    const err = await openStore({ url: "http://u:secret@127.0.0.1:1/db" }).then(() => null, (e: Error) => e);
    expect(err?.message).toMatch(/ClickHouse at http:\/\/u:\*\*\*@127\.0\.0\.1:1\/db is unreachable/);
    expect(err?.message).not.toContain("secret");
    await expect(openStore({ url: "http://127.0.0.1:1", path: "/tmp/x" })).rejects.toThrow(/not both/);
  });

  it("keeps data in a directory across close and reopen", async () => {
    await store.close();
    const dir = mkdtempSync(join(tmpdir(), "tongate-store-"));
    try {
      let s = await openStore({ path: dir });
      expect((await migrate(s)).applied.length).toBeGreaterThan(0);
      await insertBlockRows(s, blockRows());
      await setCheckpoint(s, "mainnet", 50);
      await s.close();
      s = await openStore({ path: dir });
      try {
        expect((await migrate(s)).applied).toEqual([]);
        expect((await counts(s)).transactions).toBe(3);
        expect(await getCheckpoint(s, "mainnet")).toBe(50);
      } finally {
        await s.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
