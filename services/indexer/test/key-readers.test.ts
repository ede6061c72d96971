// The key readers (api/key-readers) answer API v3's key lookups in threads of their own, rendered as
// toncenter's JSON: byte for byte what the service answers on its own thread, for every account,
// transaction, message, masterchain block, trace and latest state of an indexed localnet chain; what only ClickHouse can
// answer goes back to the service's thread; a block indexed is seen by the next read; the readers
// run below the process's priority. Calls go through the in-process transport, as the gateway's do.
import type { DescMethodUnary, MessageInitShape } from "@bufbuild/protobuf";
import { createClient, createContextValues } from "@connectrpc/connect";
import { Address, toNano } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { LiteserverPool } from "@tongate/liteclient";
import { renderResult } from "@tongate/proto/json/render.js";
import { Accounts } from "@tongate/proto/gen/tongate/v3/accounts_pb.js";
import { Actions } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import { Blockchain } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { createLogger, implement, inProcessTransport, type RenderedAnswer, renderedAnswerKey } from "@tongate/runtime";
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalnetSender } from "../../../tests/support/localnet-deploy.js";
import { startTestLocalnet } from "../../../tests/support/localnet.js";
import { indexRange, KeyReaders, openIndexStore, prepareKeyIndex, v3Api, type IndexStore as Store } from "../src/index.js";

let net: Localnet;
let pool: LiteserverPool;
let store: Store;
let readers: KeyReaders;
let w1: LocalnetSender;
let w2: LocalnetSender;

const fresh = (n: number) => new Address(0, Buffer.alloc(32, n));
const noLiteProxy = () => {
  throw new Error("no lite-proxy here");
};

/** Clients of Blockchain, Actions and Accounts over the in-process transport to the services (with or without readers). */
function client(withReaders: boolean) {
  const api = v3Api(store, noLiteProxy, withReaders ? readers : undefined);
  return {
    [Blockchain.typeName]: createClient(Blockchain, inProcessTransport(Blockchain, { impls: [implement(Blockchain, api.blockchain)] })),
    [Actions.typeName]: createClient(Actions, inProcessTransport(Actions, { impls: [implement(Actions, api.actions)] })),
    [Accounts.typeName]: createClient(Accounts, inProcessTransport(Accounts, { impls: [implement(Accounts, api.accounts)] })),
  };
}

type Method = DescMethodUnary;
type Clients = ReturnType<typeof client>;
let main: Clients;
let threaded: Clients;
const tally = { rendered: 0, onMainThread: 0 };

/** The JSON a client gets from the service's own thread and with the readers (the slot offered, as the gateway does). */
async function both(method: Method, req: MessageInitShape<DescMethodUnary["input"]>): Promise<[unknown, unknown]> {
  const call = async (clients: Clients, slot?: RenderedAnswer) => {
    try {
      const c = clients[method.parent.typeName]!;
      const fn = c[method.localName as keyof typeof c] as (r: unknown, o?: { contextValues: ReturnType<typeof createContextValues> }) => Promise<Parameters<typeof renderResult>[1]>;
      const res = await fn(req, slot ? { contextValues: createContextValues().set(renderedAnswerKey, slot) } : undefined);
      if (slot?.json) {
        tally.rendered++;
        return JSON.parse(slot.json);
      }
      if (slot) tally.onMainThread++;
      return JSON.parse(JSON.stringify(renderResult(method.output, res)));
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  };
  return [await call(threaded, {}), await call(main)];
}

async function rows<T>(query: string): Promise<T[]> {
  return (await store.client.query({ query, format: "JSONEachRow" })).json<T>();
}

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "key-readers", wallets: 2 });
  pool = LiteserverPool.fromGlobalConfig(net.globalConfig(), { probeIntervalMs: 200 });
  store = await openIndexStore({ keyIndex: true });
  await prepareKeyIndex(store, store.keys!);
  await pool.ready(5000);
  w1 = new LocalnetSender(net, net.genesis.wallets[1]!);
  w2 = new LocalnetSender(net, net.genesis.wallets[2]!);
  for (let i = 0; i < 3; i++) {
    await w1.send({ to: w2.address, value: toNano("1") }, { to: fresh(0xd2 + i), value: toNano("0.3"), bounce: false });
    await w2.send({ to: w1.address, value: toNano("0.5") }, { to: fresh(0xe2 + i), value: toNano("0.2"), bounce: true });
  }
  await net.chain.seal();
  await indexRange(pool, store, { to: net.chain.lastMasterchain!.id.seqno });
  readers = KeyReaders.start({ dir: store.keys!.dir, threads: 2, nice: 7, log: createLogger({ level: "silent" }) });
  main = client(false);
  threaded = client(true);
}, 120_000);

afterAll(async () => {
  await readers?.close();
  await pool?.close();
  await store?.close();
  await net?.close();
});

describe("key readers", () => {
  it("answer every key lookup of an indexed chain with the bytes the service's thread renders", async () => {
    const m = Blockchain.method;
    const accounts = (await rows<{ account: string; lo: string; hi: string }>("SELECT account, min(lt) AS lo, max(lt) AS hi FROM transactions FINAL GROUP BY account")).filter((a) => a.account);
    expect(accounts.length).toBeGreaterThan(8);
    for (const a of accounts) {
      for (const sort of ["asc", "desc"]) {
        for (const req of [
          { account: [a.account], sort },
          { account: [a.account], sort, limit: 2, offset: 1 },
          { account: [a.account], sort, startLt: BigInt(a.lo) + 1n, endLt: BigInt(a.hi) },
        ]) {
          const [r, s] = await both(m.getTransactions, req);
          expect(r, `${a.account} ${sort}`).toEqual(s);
        }
        let cursor: string | undefined;
        for (let pages = 0; pages < 30; pages++) {
          const [r, s] = await both(m.getTransactions, { account: [a.account], sort, limit: 2, cursor });
          expect(r).toEqual(s);
          cursor = (r as { next_cursor?: string }).next_cursor;
          if (!cursor) break;
        }
        for (const side of ["source", "destination"]) {
          const [r, s] = await both(m.getMessages, { [side]: a.account, sort, limit: 3 });
          expect(r, `${side} ${a.account}`).toEqual(s);
        }
      }
    }
    const txs = await rows<{ hash: string; in_msg_hash: string | null; out_msg_hashes: string[]; mc_seqno: number }>("SELECT hash, in_msg_hash, out_msg_hashes, mc_seqno FROM transactions FINAL");
    for (const t of txs) {
      const [h1, h2] = await both(m.getTransactions, { hash: t.hash });
      expect(h1, `by hash ${t.hash}`).toEqual(h2);
      const [r, s] = await both(m.adjacentTransactions, { hash: t.hash });
      expect(r, `adjacent ${t.hash}`).toEqual(s);
      for (const h of [t.in_msg_hash, ...t.out_msg_hashes]) {
        if (!h) continue;
        const [x, y] = await both(m.transactionsByMessage, { msgHash: h });
        expect(x, `by message ${h}`).toEqual(y);
        const [p, q] = await both(m.getMessages, { msgHash: [h] });
        expect(p, `message ${h}`).toEqual(q);
      }
    }
    for (const seqno of [...new Set(txs.map((t) => t.mc_seqno))]) {
      const [r, s] = await both(m.transactionsByMasterchainBlock, { seqno, limit: 5 });
      expect(r, `mc block ${seqno}`).toEqual(s);
    }
    const traces = await rows<{ trace_id: string; mc_seqno_end: number }>("SELECT trace_id, mc_seqno_end FROM traces FINAL");
    expect(traces.length).toBeGreaterThan(5);
    for (const t of traces) {
      const [r, s] = await both(Actions.method.getTraces, { traceId: [t.trace_id] });
      expect(r, `trace ${t.trace_id}`).toEqual(s);
    }
    for (const mcSeqno of new Set(traces.map((t) => t.mc_seqno_end))) {
      const [r, s] = await both(Actions.method.getTraces, { mcSeqno, limit: 3 });
      expect(r, `traces of mc block ${mcSeqno}`).toEqual(s);
    }
    for (const a of accounts) {
      const [r, s] = await both(Actions.method.getTraces, { account: a.account, limit: 3 });
      expect(r, `traces of ${a.account}`).toEqual(s);
    }
    // latest states: one account, all of them at once (in the order asked, one never seen left out), without BoCs
    const all = [...accounts.map((a) => a.account), fresh(0x77).toRawString()];
    for (const address of [...accounts.map((a) => [a.account]), all, [...all].reverse()]) {
      for (const includeBoc of [undefined, false]) {
        const [r, s] = await both(Accounts.method.accountStates, { address, includeBoc });
        expect(r, `accountStates ${address.length} ${includeBoc}`).toEqual(s);
      }
      const [r, s] = await both(Accounts.method.walletStates, { address });
      expect(r, `walletStates ${address.length}`).toEqual(s);
    }
    const answered = readers.stats.answered;
    const states = (await both(Accounts.method.accountStates, { address: all }))[0] as { accounts: { address: string }[]; address_book: Record<string, unknown> };
    expect(states.accounts.map((a) => a.address)).toEqual(accounts.map((a) => a.account));
    expect(Object.keys(states.address_book).length).toBeGreaterThanOrEqual(accounts.length);
    expect(readers.stats.answered - answered, "/accountStates answered by a reader").toBe(1);
    const wallets = (await both(Accounts.method.walletStates, { address: [w1.address.toRawString()] }))[0] as { wallets: { is_wallet: boolean; seqno: number }[] };
    expect(wallets.wallets[0]).toMatchObject({ is_wallet: true, seqno: 3 });
    // the readers answered them (a 404 of /adjacentTransactions goes back to the service's thread)
    expect(tally.rendered, JSON.stringify(tally)).toBeGreaterThan(250);
    expect(tally.onMainThread).toBeLessThan(tally.rendered / 5);
  });

  it("send back what only ClickHouse answers, and errors, to the service's thread", async () => {
    const m = Blockchain.method;
    const before = { ...readers.stats };
    const account = (await rows<{ account: string }>("SELECT account FROM transactions FINAL WHERE account != '' LIMIT 1"))[0]!.account;
    for (const req of [
      { account: [account], startUtime: 1 }, // a filter the key index does not have
      { account: [account], cursor: "not a cursor" }, // a 400 the service's thread gives
    ]) {
      const [r, s] = await both(m.getTransactions, req);
      expect(r).toEqual(s);
    }
    expect(readers.stats.declined - before.declined).toBe(2);
    expect(((await both(m.getTransactions, { account: [account], cursor: "not a cursor" }))[0] as { error: string }).error).toMatch(/cursor/);
  });

  it("see a block as soon as it is indexed", async () => {
    const target = fresh(0xf7);
    for (let i = 0; i < 3; i++) {
      await net.faucet(target, toNano("0.1"));
      await net.chain.seal();
      await indexRange(pool, store, { to: net.chain.lastMasterchain!.id.seqno });
      const [r, s] = await both(Blockchain.method.getTransactions, { account: [target.toRawString()], limit: 10 });
      expect(r).toEqual(s);
      expect((r as { transactions: unknown[] }).transactions).toHaveLength(i + 1);
    }
  }, 60_000);

  it("run at their nice value (Linux: per thread), below the thread serving HTTP", () => {
    const nice = (tid: string) => Number(readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ")[16]);
    const values = readdirSync("/proc/self/task").map(nice);
    expect(values.filter((n) => n === 7)).toHaveLength(2);
    expect(nice(String(process.pid))).toBe(0);
  });
});
