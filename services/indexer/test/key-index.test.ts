// The key index answers the v3 key lookups exactly as ClickHouse does: a localnet chain with traffic
// (transfers between wallets, to fresh addresses, bounces, some off masterchain accounts: traces over
// several blocks) indexed into chDB with the key index on; then every account's /transactions pages
// (both orders, offsets, lt bounds, cursors), every transaction by hash, by message and by
// masterchain block, /adjacentTransactions, /messages, the latest states, and every trace by id, by
// each of its transactions and messages and every account's /traces pages, asked of both paths and
// compared as the JSON a client sees. Indexing block by block (a trace's record replaced as it
// grows) writes the same index as in groups; an index rebuilt from ClickHouse equals the one the
// indexer wrote.
import { create, toJson, type MessageInitShape } from "@bufbuild/protobuf";
import type { Localnet } from "@tongate/localnet";
import { LiteserverPool } from "@tongate/liteclient";
import {
  AdjacentTransactionsRequestSchema,
  GetMessagesRequestSchema,
  MessagesResponseSchema,
  GetTransactionsRequestSchema,
  TransactionsByMasterchainBlockRequestSchema,
  TransactionsByMessageRequestSchema,
  TransactionsResponseSchema,
} from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import {
  AccountStatesRequestSchema,
  AccountStatesResponseSchema,
  AddressBookRequestSchema,
  AddressBookResponseSchema,
  WalletStatesRequestSchema,
  WalletStatesResponseSchema,
} from "@tongate/proto/gen/tongate/v3/accounts_pb.js";
import { GetTracesRequestSchema, TracesResponseSchema } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import {
  AddressInformationRequestSchema,
  AddressInformationResponseSchema,
  WalletInformationRequestSchema,
  WalletInformationResponseSchema,
} from "@tongate/proto/gen/tongate/v3/apiv2_pb.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestLocalnet } from "../../../tests/support/localnet.js";
import { freshAddress, keyIndexTraffic } from "../../../tests/support/traffic.js";
import { v3Api, indexRange, KeyIndex, openIndexStore, ParsePool, prepareKeyIndex, type IndexStore as Store } from "../src/index.js";
import { tracesFromKeys } from "../src/api/actions/key-lookups.js";

let net: Localnet;
let pool: LiteserverPool;
let store: Store;
/** the same store without its key index: every read goes to ClickHouse */
let clickhouse: Store;
const dirs: string[] = [];

const fresh = freshAddress;
const noLiteProxy = () => {
  throw new Error("no lite-proxy here");
};
/** Every v3 method of a store, through the book step as the service serves them. */
const indexImpl = (s: Store, liteProxy: typeof noLiteProxy) => {
  const api = v3Api(s, liteProxy);
  return { ...api.blockchain, ...api.accounts, ...api.apiV2 };
};

async function rows<T>(query: string): Promise<T[]> {
  return (await store.client.query({ query, format: "JSONEachRow" })).json<T>();
}

type Call<I> = (s: Store, req: I) => MessageInitShape<typeof TransactionsResponseSchema> | Promise<MessageInitShape<typeof TransactionsResponseSchema>>;
const ctx = undefined as never;

/** The answer of both paths as a client sees it (or the error's message). */
async function both<I>(call: Call<I>, req: I): Promise<[unknown, unknown]> {
  const run = (s: Store) =>
    Promise.resolve()
      .then(() => call(s, req))
      .then(
      (r) => toJson(TransactionsResponseSchema, create(TransactionsResponseSchema, r)),
      (e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }),
    );
  return [await run(store), await run(clickhouse)];
}

const transactions: Call<MessageInitShape<typeof GetTransactionsRequestSchema>> = (s, req) => indexImpl(s, noLiteProxy).getTransactions!(create(GetTransactionsRequestSchema, req), ctx);

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "key-index", wallets: 2 });
  pool = LiteserverPool.fromGlobalConfig(net.globalConfig(), { probeIntervalMs: 200 });
  store = await openIndexStore({ keyIndex: true });
  clickhouse = { ...store, keys: undefined };
  await prepareKeyIndex(store, store.keys!);
  await pool.ready(5000);
  await keyIndexTraffic(net);
  await indexRange(pool, store, { to: net.chain.lastMasterchain!.id.seqno });
}, 120_000);

afterAll(async () => {
  await pool?.close();
  await store?.close();
  await net?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("the key index answers as ClickHouse does", () => {
  it("is complete and used", () => {
    expect(store.keys?.complete).toBe(true);
  });

  it("every account's /transactions pages: both orders, offsets, lt bounds and cursors", async () => {
    let followed = 0;
    const accounts = (await rows<{ account: string; n: string; lo: string; hi: string }>("SELECT account, count() AS n, min(lt) AS lo, max(lt) AS hi FROM transactions FINAL GROUP BY account")).filter((a) => a.account);
    expect(accounts.length).toBeGreaterThan(10);
    let compared = 0;
    for (const a of accounts) {
      const mid = (BigInt(a.lo) + BigInt(a.hi)) / 2n;
      for (const sort of ["asc", "desc"]) {
        for (const req of [
          { account: [a.account], sort },
          { account: [a.account], sort, limit: 2 },
          { account: [a.account], sort, limit: 3, offset: 1 },
          { account: [a.account], sort, startLt: mid },
          { account: [a.account], sort, endLt: mid, limit: 2 },
          { account: [a.account], sort, lt: BigInt(a.hi) },
          { account: [a.account], sort, offset: Number(a.n) },
        ]) {
          const [k, c] = await both(transactions, req);
          expect(k, JSON.stringify({ ...req, startLt: String(req.startLt), endLt: String(req.endLt), lt: String(req.lt) })).toEqual(c);
          compared++;
        }
        // walk every page by cursor on both paths
        let cursor: string | undefined;
        for (let pages = 0; pages < 50; pages++) {
          const [k, c] = await both(transactions, { account: [a.account], sort, limit: 2, cursor });
          expect(k).toEqual(c);
          cursor = (k as { nextCursor?: string }).nextCursor;
          if (cursor) followed++;
          if (!cursor) break;
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
    // pages past the first, by cursor
    expect(followed).toBeGreaterThan(20);
  }, 120_000); // thousands of pages compared on a machine the rest of the suite shares

  it("by hash, by message, by masterchain block, adjacent", async () => {
    const txs = await rows<{ hash: string; account: string; in_msg_hash: string | null; out_msg_hashes: string[]; mc_seqno: number }>(
      "SELECT hash, account, in_msg_hash, out_msg_hashes, mc_seqno FROM transactions FINAL",
    );
    const impl = (s: Store) => indexImpl(s, noLiteProxy);
    for (const t of txs) {
      for (const req of [{ hash: t.hash }, { hash: t.hash, account: [t.account] }, { hash: t.hash, account: [fresh(0xee).toRawString()] }]) {
        const [k, c] = await both(transactions, req);
        expect(k).toEqual(c);
      }
      for (const direction of [undefined, "in", "out"]) {
        const [k, c] = await both((s, req: MessageInitShape<typeof AdjacentTransactionsRequestSchema>) => impl(s).adjacentTransactions!(create(AdjacentTransactionsRequestSchema, req), ctx), { hash: t.hash, direction });
        expect(k, `adjacent ${t.hash} ${direction}`).toEqual(c);
      }
      for (const m of [t.in_msg_hash, ...t.out_msg_hashes]) {
        if (!m) continue;
        for (const direction of [undefined, "in", "out"]) {
          const [k, c] = await both((s, req: MessageInitShape<typeof TransactionsByMessageRequestSchema>) => impl(s).transactionsByMessage!(create(TransactionsByMessageRequestSchema, req), ctx), {
            msgHash: m,
            direction,
          });
          expect(k, `by message ${m} ${direction}`).toEqual(c);
        }
      }
    }
    const mcs = [...new Set(txs.map((t) => t.mc_seqno))];
    for (const seqno of [...mcs, Math.max(...mcs) + 1000]) {
      for (const req of [{ seqno }, { seqno, sort: "asc", limit: 1, offset: 1 }, { seqno, sort: "desc", limit: 2 }]) {
        const [k, c] = await both((s, r: MessageInitShape<typeof TransactionsByMasterchainBlockRequestSchema>) => impl(s).transactionsByMasterchainBlock!(create(TransactionsByMasterchainBlockRequestSchema, r), ctx), req);
        expect(k, `mc block ${JSON.stringify(req)}`).toEqual(c);
      }
    }
  }, 120_000); // thousands of pages compared on a machine the rest of the suite shares

  it("/messages by hash, by source and by destination: both orders, offsets, lt bounds and cursors", async () => {
    let followed = 0;
    const impl = (s: Store) => indexImpl(s, noLiteProxy);
    const call = (req: MessageInitShape<typeof GetMessagesRequestSchema>) =>
      Promise.all(
        [store, clickhouse].map(async (s) => {
          try {
            return toJson(MessagesResponseSchema, create(MessagesResponseSchema, await impl(s).getMessages!(create(GetMessagesRequestSchema, req), ctx)));
          } catch (e) {
            return { error: e instanceof Error ? e.message : String(e) };
          }
        }),
      );
    const msgs = await rows<{ msg_hash: string; source: string | null; destination: string | null; created_lt: string | null }>("SELECT DISTINCT msg_hash, source, destination, created_lt FROM messages FINAL");
    expect(msgs.length).toBeGreaterThan(20);
    const hashes = msgs.map((m) => m.msg_hash);
    for (const sort of ["asc", "desc"]) {
      const [k, c] = await call({ msgHash: hashes.slice(0, 12), sort, limit: 5, offset: 2 });
      expect(k).toEqual(c);
    }
    for (const m of msgs) {
      const [k, c] = await call({ msgHash: [m.msg_hash] });
      expect(k, m.msg_hash).toEqual(c);
    }
    const addresses = [...new Set(msgs.flatMap((m) => [m.source, m.destination]).filter((a): a is string => !!a))];
    let compared = 0;
    for (const a of addresses) {
      const lts = msgs.filter((m) => m.created_lt !== null && (m.source === a || m.destination === a)).map((m) => BigInt(m.created_lt!));
      const mid = lts.length ? lts.reduce((x, y) => x + y) / BigInt(lts.length) : 0n;
      for (const side of ["source", "destination"] as const) {
        for (const sort of ["asc", "desc"]) {
          for (const req of [{ sort }, { sort, limit: 2, offset: 1 }, { sort, startLt: mid }, { sort, endLt: mid, limit: 3 }]) {
            const [k, c] = await call({ [side]: a, ...req });
            expect(k, `${side} ${a} ${JSON.stringify({ ...req, startLt: String(req.startLt), endLt: String(req.endLt) })}`).toEqual(c);
            compared++;
          }
          let cursor: string | undefined;
          for (let pages = 0; pages < 50; pages++) {
            const [k, c] = await call({ [side]: a, sort, limit: 2, cursor });
            expect(k).toEqual(c);
            cursor = (k as { nextCursor?: string }).nextCursor;
            if (cursor) followed++;
            if (!cursor) break;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
    // pages past the first, by cursor
    expect(followed).toBeGreaterThan(20);
  }, 120_000); // thousands of pages compared on a machine the rest of the suite shares

  it("latest states: the address book, /accountStates, /walletStates, /addressInformation, /walletInformation", async () => {
    const accounts = (await rows<{ account: string }>("SELECT DISTINCT account FROM latest_account_states FINAL")).map((r) => r.account);
    expect(accounts.length).toBeGreaterThan(10);
    const address = [...accounts, fresh(0xef).toRawString()];
    const impl = (s: Store) => indexImpl(s, noLiteProxy);
    const calls = [
      async (s: Store) => toJson(AddressBookResponseSchema, create(AddressBookResponseSchema, await impl(s).addressBook!(create(AddressBookRequestSchema, { address }), ctx))),
      async (s: Store) => toJson(AccountStatesResponseSchema, create(AccountStatesResponseSchema, await impl(s).accountStates!(create(AccountStatesRequestSchema, { address }), ctx))),
      async (s: Store) => toJson(AccountStatesResponseSchema, create(AccountStatesResponseSchema, await impl(s).accountStates!(create(AccountStatesRequestSchema, { address, includeBoc: false }), ctx))),
      async (s: Store) => toJson(WalletStatesResponseSchema, create(WalletStatesResponseSchema, await impl(s).walletStates!(create(WalletStatesRequestSchema, { address }), ctx))),
    ];
    for (const call of calls) expect(await call(store)).toEqual(await call(clickhouse));
    for (const a of address) {
      const info = async (s: Store) =>
        Promise.resolve(impl(s).addressInformation!(create(AddressInformationRequestSchema, { address: a, useV2: false }), ctx)).then((r) => toJson(AddressInformationResponseSchema, create(AddressInformationResponseSchema, r)), (e: Error) => e.message);
      const wallet = async (s: Store) =>
        Promise.resolve(impl(s).walletInformation!(create(WalletInformationRequestSchema, { address: a, useV2: false }), ctx)).then((r) => toJson(WalletInformationResponseSchema, create(WalletInformationResponseSchema, r)), (e: Error) => e.message);
      expect(await info(store)).toEqual(await info(clickhouse));
      expect(await wallet(store)).toEqual(await wallet(clickhouse));
    }
  });

  it("/traces by id, by each transaction and message, every account's and masterchain block's pages: both orders, offsets, bounds and cursors", async () => {
    const impl = (s: Store) => v3Api(s, noLiteProxy).actions;
    type Req = MessageInitShape<typeof GetTracesRequestSchema>;
    let fromKeys = 0;
    let followed = 0;
    const call = (req: Req) => {
      // the key index answers the key lookups itself (no fallback to ClickHouse)
      if (tracesFromKeys(store, create(GetTracesRequestSchema, req))) fromKeys++;
      return Promise.all(
        [store, clickhouse].map(async (s) => {
          try {
            return toJson(TracesResponseSchema, create(TracesResponseSchema, await impl(s).getTraces!(create(GetTracesRequestSchema, req), ctx)));
          } catch (e) {
            return { error: e instanceof Error ? e.message : String(e) };
          }
        }),
      );
    };
    const same = async (req: Req, what: string) => {
      const [k, c] = await call(req);
      expect(k, what).toEqual(c);
      return k as { traces?: unknown[]; nextCursor?: string };
    };
    const traces = await rows<{ trace_id: string; end_lt: string; end_utime: number; nodes: number; mc_seqno_start: number; mc_seqno_end: number }>(
      "SELECT trace_id, end_lt, end_utime, nodes, mc_seqno_start, mc_seqno_end FROM traces FINAL",
    );
    expect(traces.length).toBeGreaterThan(10);
    expect(traces.some((t) => t.nodes >= 3)).toBe(true);
    // some traces grew over several masterchain blocks (their records were replaced)
    expect(traces.some((t) => t.mc_seqno_end > t.mc_seqno_start)).toBe(true);
    const ids = traces.map((t) => t.trace_id);
    for (const t of traces) {
      const got = (await same({ traceId: [t.trace_id] }, `trace ${t.trace_id}`)) as { traces: { transactionsOrder: string[]; trace?: { children?: unknown[] }; warning?: string }[] };
      expect(got.traces).toHaveLength(1);
      // every transaction listed and placed in the tree
      expect(got.traces[0]!.transactionsOrder).toHaveLength(t.nodes);
      expect(got.traces[0]!.warning).toBeUndefined();
      if (t.nodes > 1) expect(got.traces[0]!.trace?.children?.length).toBeGreaterThan(0);
    }
    await same({ traceId: [Buffer.alloc(32, 0xee).toString("base64")] }, "unknown trace");
    const lts = traces.map((t) => BigInt(t.end_lt)).sort((a, b) => (a < b ? -1 : 1));
    const utimes = traces.map((t) => t.end_utime).sort((a, b) => a - b);
    const midLt = lts[lts.length >> 1]!;
    const midUtime = utimes[utimes.length >> 1]!;
    for (const sort of ["asc", "desc"]) {
      for (const req of [{}, { limit: 5, offset: 2 }, { startLt: midLt }, { endLt: midLt, limit: 3 }, { startUtime: midUtime }, { endUtime: midUtime, limit: 4 }]) {
        await same({ traceId: ids, sort, ...req }, `ids ${sort} ${JSON.stringify({ ...req, startLt: String(req.startLt), endLt: String(req.endLt) })}`);
      }
      let cursor: string | undefined;
      for (let pages = 0; pages < 100; pages++) {
        cursor = (await same({ traceId: ids, sort, limit: 3, cursor }, `ids ${sort} page ${pages}`)).nextCursor;
        if (cursor) followed++;
        if (!cursor) break;
      }
    }
    const txs = await rows<{ hash: string; account: string; trace_id: string | null }>("SELECT hash, account, trace_id FROM transactions FINAL");
    for (const t of txs) await same({ txHash: [t.hash] }, `by transaction ${t.hash}`);
    await same({ txHash: txs.slice(0, 20).map((t) => t.hash), sort: "asc", limit: 4, offset: 1 }, "by 20 transactions");
    const msgs = await rows<{ msg_hash: string; hash_norm: string | null }>("SELECT DISTINCT msg_hash, hash_norm FROM messages FINAL");
    for (const m of msgs) {
      await same({ msgHash: [m.msg_hash] }, `by message ${m.msg_hash}`);
      if (m.hash_norm) await same({ msgHash: [m.hash_norm] }, `by normalised hash ${m.hash_norm}`);
    }
    await same({ msgHash: msgs.slice(0, 20).map((m) => m.msg_hash), sort: "desc", limit: 5 }, "by 20 messages");
    const accounts = [...new Set(txs.map((t) => t.account))];
    let compared = 0;
    for (const account of [...accounts, fresh(0xef).toRawString()]) {
      for (const sort of ["asc", "desc"]) {
        for (const req of [{}, { limit: 2, offset: 1 }, { startLt: midLt }, { endLt: midLt, limit: 3 }, { startLt: midLt, endLt: midLt }]) {
          await same({ account, sort, ...req }, `account ${account} ${sort} ${JSON.stringify({ ...req, startLt: String(req.startLt), endLt: String(req.endLt) })}`);
          compared++;
        }
        // a time range by account goes to ClickHouse: still the same answer
        await same({ account, sort, startUtime: midUtime }, `account ${account} ${sort} from ${midUtime}`);
        let cursor: string | undefined;
        for (let pages = 0; pages < 100; pages++) {
          cursor = (await same({ account, sort, limit: 2, cursor }, `account ${account} ${sort} page ${pages}`)).nextCursor;
          if (cursor) followed++;
          if (!cursor) break;
        }
      }
    }
    // a masterchain block's traces: those it completed (a trace that grew over blocks only in its last)
    const blocks = [...new Set(traces.map((t) => t.mc_seqno_end))];
    const [first, last] = [Math.min(...blocks), Math.max(...blocks)];
    let listed = 0;
    for (let seqno = first - 1; seqno <= last + 1; seqno++) {
      for (const sort of ["asc", "desc"]) {
        for (const req of [{}, { limit: 1, offset: 1 }, { startLt: midLt }, { endLt: midLt, limit: 2 }]) {
          const got = await same({ mcSeqno: seqno, sort, ...req }, `mc block ${seqno} ${sort} ${JSON.stringify({ ...req, startLt: String(req.startLt), endLt: String(req.endLt) })}`);
          if (!Object.keys(req).length && sort === "asc") listed += got.traces?.length ?? 0;
          compared++;
        }
        await same({ mcSeqno: seqno, sort, endUtime: midUtime }, `mc block ${seqno} ${sort} to ${midUtime}`);
        let cursor: string | undefined;
        for (let pages = 0; pages < 100; pages++) {
          cursor = (await same({ mcSeqno: seqno, sort, limit: 1, cursor }, `mc block ${seqno} ${sort} page ${pages}`)).nextCursor;
          if (cursor) followed++;
          if (!cursor) break;
        }
      }
    }
    const complete = await rows<{ n: string }>("SELECT count() AS n FROM traces FINAL WHERE state = 'complete'");
    expect(listed).toBe(Number(complete[0]!.n));
    expect(compared).toBeGreaterThan(100);
    // pages past the first, by cursor
    expect(followed).toBeGreaterThan(20);
    expect(fromKeys).toBeGreaterThan(ids.length + txs.length + compared);
  }, 120_000); // thousands of pages compared on a machine the rest of the suite shares

  it("indexing block by block (trace records replaced as traces grow) writes the same index as in groups", async () => {
    const dir = mkdtempSync(join(tmpdir(), "key-index-blocks-"));
    dirs.push(dir);
    const keys = await KeyIndex.open(dir);
    try {
      await indexRange(pool, { ...store, keys }, { from: 1, to: net.chain.lastMasterchain!.id.seqno, checkpoint: "one-by-one", prefetch: 1, maxGroupTransactions: 1 });
      const entries = (k: KeyIndex) => [...k.contents()].filter((e) => e.table !== "meta");
      const written = entries(store.keys!);
      expect(written.filter((e) => e.table === "traces_by_account").length).toBeGreaterThan(20);
      expect(written.filter((e) => e.table === "traces_by_mc_block").length).toBeGreaterThan(10);
      expect(entries(keys)).toEqual(written);
    } finally {
      await keys.close();
    }
  });

  it("indexing again through a parse pool (transactions rendered in the workers) writes the same bytes", async () => {
    const before = [...store.keys!.contents()];
    expect(before.filter((e) => e.table === "transactions").length).toBeGreaterThan(20);
    const parsePool = ParsePool.create(2);
    try {
      await indexRange(pool, store, { from: 1, to: net.chain.lastMasterchain!.id.seqno, parse: parsePool.parse, checkpoint: "pool" });
    } finally {
      await parsePool.close();
    }
    expect([...store.keys!.contents()]).toEqual(before);
  });

  it("a rebuild from ClickHouse writes the same index the indexer wrote", async () => {
    const dir = mkdtempSync(join(tmpdir(), "key-index-rebuild-"));
    dirs.push(dir);
    const rebuilt = await KeyIndex.open(dir);
    try {
      expect(rebuilt.complete).toBe(false);
      const progress: number[] = [];
      expect(await prepareKeyIndex(store, rebuilt, (p) => progress.push(p.transactions))).toBe(true);
      expect(rebuilt.complete).toBe(true);
      expect(progress.at(-1)).toBe(Number((await rows<{ n: string }>("SELECT count() AS n FROM transactions FINAL"))[0]!.n));
      const accounts = (await rows<{ account: string }>("SELECT DISTINCT account FROM transactions FINAL")).map((r) => r.account);
      for (const a of accounts) {
        for (const asc of [true, false]) {
          const o = { asc, limit: 1000, offset: 0 };
          expect(rebuilt.accountPage(a, o).map((t) => toJson(TransactionsResponseSchema, create(TransactionsResponseSchema, { transactions: [t] })))).toEqual(
            store.keys!.accountPage(a, o).map((t) => toJson(TransactionsResponseSchema, create(TransactionsResponseSchema, { transactions: [t] }))),
          );
        }
      }
      expect([...rebuilt.codeHashes(accounts)]).toEqual([...store.keys!.codeHashes(accounts)]);
      expect([...rebuilt.latestStates(accounts)]).toEqual([...store.keys!.latestStates(accounts)]);
      // trace records, their transactions and the accounts' traces: byte for byte
      const traceTables = (k: KeyIndex) => [...k.contents()].filter((e) => ["traces", "trace_transactions", "traces_by_account", "traces_by_mc_block"].includes(e.table));
      const written = traceTables(store.keys!);
      expect(written.filter((e) => e.table === "traces").length).toBe(Number((await rows<{ n: string }>("SELECT count() AS n FROM traces FINAL"))[0]!.n));
      expect(traceTables(rebuilt)).toEqual(written);
    } finally {
      await rebuilt.close();
    }
  });
});
