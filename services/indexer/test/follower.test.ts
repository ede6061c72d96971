// The chain follower against a real localnet over ADNL (LiteserverPool) into embedded chDB: traffic
// (faucet transfers to fresh addresses, transfers between genesis wallets, a bounce), a range indexed
// and compared with what the localnet recorded; re-indexing changes nothing; a restart continues from
// the checkpoint with the next block only; followChain keeps up with new blocks and stops on abort.
import { Address, toNano } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { LiteserverPool } from "@tongate/liteclient";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalnetSender } from "../../../tests/support/localnet-deploy.js";
import { startTestLocalnet } from "../../../tests/support/localnet.js";
import { getCheckpoint, openStore, type Store } from "@tongate/store";
import { type IndexProgress, type LiteClient, ParsePool, followChain, indexRange, migrate } from "../src/index.js";
import { create, toJson } from "@bufbuild/protobuf";
import { GetMessagesRequestSchema, GetTransactionsRequestSchema, MessagesResponseSchema, TransactionsResponseSchema } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { v3Api } from "../src/index.js";
import { transactionState } from "../src/rows/account-state.js";
import type { AccountStateRow, TransactionStateRow } from "../src/rows/types.js";

let net: Localnet;
let pool: LiteserverPool;
let store: Store;

const fresh = (n: number) => new Address(0, Buffer.alloc(32, n));

async function rows<T>(query: string): Promise<T[]> {
  return (await store.client.query({ query, format: "JSONEachRow" })).json<T>();
}

async function counts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of ["blocks", "transactions", "messages", "message_contents", "account_states", "shard_state", "transactions_by_hash"]) {
    out[t] = Number((await rows<{ n: string }>(`SELECT count() AS n FROM ${t} FINAL`))[0]!.n);
  }
  return out;
}

/** What the localnet recorded up to masterchain block `mc`: transactions (base64 hash → lt) and blocks per workchain. */
function recorded(mc: number): { txs: Map<string, string>; blocks: Map<number, string[]> } {
  const txs = new Map<string, string>();
  const blocks = new Map<number, string[]>([[-1, []], [0, []]]);
  for (const b of [...net.chain.masterchain, ...net.chain.shardchain]) {
    if (b.mcSeqno > mc) continue;
    blocks.get(b.id.workchain)!.push(`${b.id.seqno}/${b.id.rootHash.toString("base64")}/${b.id.fileHash.toString("base64")}`);
    for (const t of b.transactions) txs.set(t.hash.toString("base64"), t.lt.toString());
  }
  return { txs, blocks };
}

async function stored(): Promise<{ txs: { hash: string; lt: string; n: string; traced: string }[]; blocks: Map<number, string[]> }> {
  const txs = await rows<{ hash: string; lt: string; n: string; traced: string }>(
    "SELECT hash, any(lt) AS lt, count() AS n, countIf(trace_id IS NOT NULL) AS traced FROM transactions FINAL GROUP BY hash",
  );
  const blocks = new Map<number, string[]>([[-1, []], [0, []]]);
  for (const b of await rows<{ workchain: number; seqno: number; root_hash: string; file_hash: string }>("SELECT workchain, seqno, root_hash, file_hash FROM blocks FINAL")) {
    blocks.get(b.workchain)!.push(`${b.seqno}/${b.root_hash}/${b.file_hash}`);
  }
  return { txs, blocks };
}

async function expectIndexed(mc: number): Promise<void> {
  const want = recorded(mc);
  const got = await stored();
  expect(got.txs.length).toBe(want.txs.size);
  for (const t of got.txs) {
    expect(want.txs.get(t.hash), t.hash).toBe(t.lt);
    expect(Number(t.n), t.hash).toBe(1);
    expect(Number(t.traced), t.hash).toBe(1);
  }
  for (const wc of [-1, 0]) expect(got.blocks.get(wc)!.sort(), `workchain ${wc}`).toEqual(want.blocks.get(wc)!.sort());
  expect(await getCheckpoint(store, "follower")).toBe(mc);
}

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "indexer-follower", wallets: 2 });
  pool = LiteserverPool.fromGlobalConfig(net.globalConfig(), { probeIntervalMs: 200 });
  store = await openStore();
  await migrate(store);
  await pool.ready(5000);
  // traffic: faucet transfers to fresh addresses, a v5r1 and a v4r2 genesis wallet sending to each
  // other and to fresh addresses (one bounceable to an empty account: it bounces), empty blocks
  await net.faucet(fresh(0xa1), toNano("5"));
  await net.faucet(fresh(0xa2), toNano("3"));
  const w1 = new LocalnetSender(net, net.genesis.wallets[1]!);
  const w2 = new LocalnetSender(net, net.genesis.wallets[2]!);
  await w1.send({ to: w2.address, value: toNano("1") }, { to: fresh(0xa3), value: toNano("2"), bounce: false });
  await w2.send({ to: w1.address, value: toNano("0.5") }, { to: fresh(0xa4), value: toNano("1"), bounce: true });
  await net.chain.seal();
  await net.chain.seal();
});

afterAll(async () => {
  await pool?.close();
  await store?.close();
  await net?.close();
});

describe("chain follower on a localnet", () => {
  let head = 0;

  it("indexes every block and transaction of a range from the start (no checkpoint yet)", async () => {
    head = net.chain.lastMasterchain!.id.seqno;
    expect(await getCheckpoint(store, "follower")).toBeNull();
    const seen: IndexProgress[] = [];
    const r = await indexRange(pool, store, { to: head, onProgress: (p) => seen.push(p) });
    expect(seen.map((p) => p.mcSeqno)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    expect(r).toMatchObject({ from: 1, last: head });
    expect(recorded(head).txs.size).toBeGreaterThanOrEqual(10);
    await expectIndexed(head);
  });

  it("the states stored with each transaction are its block's account states (before its first, after its last transaction)", async () => {
    const rs = await store.client.query({
      query: "SELECT account, lt, hash, account_state_hash_before AS before, account_state_hash_after AS after, states FROM transactions FINAL ORDER BY account, lt",
      format: "JSONEachRow",
    });
    const txs = await rs.json<{ account: string; lt: string; hash: string; before: string; after: string; states: string }>();
    const stored = await (await store.client.query({ query: "SELECT * FROM account_states FINAL", format: "JSONEachRow" })).json<AccountStateRow>();
    const byHash = new Map(stored.map((r) => [r.hash, r]));
    let embedded = 0;
    for (const [i, t] of txs.entries()) {
      const states = JSON.parse(t.states) as TransactionStateRow[];
      for (const st of states) {
        expect([t.before, t.after], t.hash).toContain(st.hash);
        // the same fields as the stored state of that hash (the first block's before-states are not stored)
        const row = byHash.get(st.hash);
        if (row) expect(st, t.hash).toEqual(transactionState(row));
      }
      embedded += states.length;
      // every state a lookup would find is there: the after-state of the account's last transaction of
      // a block, and the before-state of its first (= the after-state of its previous transaction)
      const own = new Set(states.map((x) => x.hash));
      if (byHash.get(t.after)?.last_trans_hash === t.hash) expect(own.has(t.after), `${t.hash} after`).toBe(true);
      const prev = txs[i - 1];
      if (prev?.account === t.account && byHash.get(t.before)?.last_trans_hash === prev.hash) expect(own.has(t.before), `${t.hash} before`).toBe(true);
    }
    expect(embedded).toBeGreaterThanOrEqual(txs.length);
  });

  it("indexing the same range again changes no count", async () => {
    const before = await counts();
    expect(before.shard_state).toBe(head);
    await indexRange(pool, store, { from: 1, to: head });
    expect(await counts()).toEqual(before);
    await expectIndexed(head);
  });

  it("the same range parsed in a worker pool, 3 batches ahead, stores the same rows", async () => {
    const before = await counts();
    const parsePool = ParsePool.create(2);
    try {
      const r = await indexRange(pool, store, { from: 1, to: head, parse: parsePool.parse, prefetch: 3, checkpoint: "pool" });
      expect(r).toMatchObject({ from: 1, last: head });
    } finally {
      await parsePool.close();
    }
    expect(await counts()).toEqual(before);
    await expectIndexed(head);
  });

  it("a restart continues from the checkpoint with the next block only", async () => {
    await net.faucet(fresh(0xa5), toNano("1"));
    await net.chain.seal();
    const seen: number[] = [];
    const r = await indexRange(pool, store, { onProgress: (p) => seen.push(p.mcSeqno) });
    expect(seen).toEqual([head + 1, head + 2]);
    expect(r.from).toBe(head + 1);
    head += 2;
    await expectIndexed(head);
  });

  it("followChain indexes new blocks as they are sealed and stops on abort", async () => {
    const ac = new AbortController();
    const lines: string[] = [];
    const errors: unknown[] = [];
    // a liteserver answer lost once mid-block: the follower retries that masterchain block
    let failures = 1;
    const flaky: LiteClient = {
      query: (fn, o) => (fn.kind === "liteServer.getBlock" && failures-- > 0 ? Promise.reject(new Error("lost answer")) : pool.query(fn, o)),
    };
    const done = followChain(flaky, store, { signal: ac.signal, waitMs: 2000, retryMs: 50, log: (l) => lines.push(l), logEveryMs: 0, onError: (e) => errors.push(e) });
    await net.faucet(fresh(0xa6), toNano("1"));
    await net.chain.seal();
    const target = head + 2;
    const deadline = Date.now() + 10_000;
    while (((await getCheckpoint(store, "follower")) ?? 0) < target) {
      if (Date.now() > deadline) throw new Error("followChain did not reach the head");
      await new Promise((r) => setTimeout(r, 50));
    }
    ac.abort();
    expect(await done).toBe(target);
    expect(lines.some((l) => l.startsWith(`mc ${target}/`))).toBe(true);
    expect(errors.map((e) => (e as Error).message)).toEqual(["lost answer"]);
    await expectIndexed(target);
  });
  it("rows stored before migration 0004 (no messages or states with them) answer the same through the lookup tables", async () => {
    const api = v3Api(store, () => {
      throw new Error("no lite-proxy here");
    }).blockchain;
    const accounts = (await (await store.client.query({ query: "SELECT DISTINCT account FROM transactions FINAL ORDER BY account", format: "JSONEachRow" })).json<{ account: string }>()).map((r) => r.account);
    const answers = async () => {
      const out: unknown[] = [];
      for (const account of accounts) {
        out.push(toJson(TransactionsResponseSchema, create(TransactionsResponseSchema, await api.getTransactions!(create(GetTransactionsRequestSchema, { account: [account], limit: 100 }), undefined as never))));
        out.push(toJson(MessagesResponseSchema, create(MessagesResponseSchema, await api.getMessages!(create(GetMessagesRequestSchema, { source: account, limit: 100 }), undefined as never))));
      }
      return out;
    };
    const now = await answers();
    expect(JSON.stringify(now)).toContain("accountStateBefore");
    expect(JSON.stringify(now)).toContain("inMsgTxHash");
    await store.client.command({ query: "ALTER TABLE transactions UPDATE messages = '', states = '' WHERE 1 SETTINGS mutations_sync = 2" });
    const n = await (await store.client.query({ query: "SELECT countIf(messages != '' OR states != '') AS n FROM transactions", format: "JSONEachRow" })).json<{ n: string }>();
    expect(Number(n[0]!.n)).toBe(0);
    const before = await answers();
    // the same, except that the states stored with a transaction also include those no
    // account_states row has: the first indexed block's before-states and "nonexist" before-states
    let more = 0;
    for (const [i, a] of before.entries()) {
      for (const [j, t] of (((a as { transactions?: Record<string, { hash: string }>[] }).transactions ?? []).entries())) {
        const n = (now[i] as { transactions: Record<string, { hash: string }>[] }).transactions[j]!;
        for (const k of ["accountStateBefore", "accountStateAfter"]) {
          if (Object.keys(t[k]!).length === 1 && Object.keys(n[k]!).length > 1) {
            expect(n[k]!.hash).toBe(t[k]!.hash);
            n[k] = { hash: t[k]!.hash };
            more++;
          }
        }
      }
    }
    expect(more).toBeGreaterThan(0);
    expect(before).toEqual(now);
  });
});
