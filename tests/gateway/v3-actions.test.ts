// API v3 actions over HTTP through the gateway: a localnet's traffic (a transfer with a comment, a
// bounce, a deploy, a transfer of two messages) indexed by the indexer into ClickHouse (chDB behind
// ClickHouse's HTTP interface), and the decoder's actions tables filled for those traces as the
// decoder writes them (tests/support/action-rows.ts): classifications with versions, one replaced by
// a later one, one past the decoder's checkpoint, an action inside another. Every filter of
// /api/v3/actions, paging both ways by offset and cursor, the supported-types rule and the
// X-Actions-Version header, /traces with actions and classification states, /events,
// /balanceChanges against the balances the transactions show, 422s naming the parameter; every
// answer validates against v3.yaml.
import { Address, beginCell, type Transaction as ChainTransaction, toNano } from "@ton/core";
import { WalletContractV3R2 } from "@ton/ton";
import type { ActionRow } from "@tongate/actions";
import type { Localnet } from "@tongate/localnet";
import { openStore, select, setCheckpoint, type Store } from "@tongate/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actionOf, holdActionMerges, type TraceEnd, writeClassification } from "../support/action-rows.js";
import { startClickHouseHttp, type ClickHouseHttp } from "../support/clickhouse-http.js";
import { applyDecoderSchema, insert, raw } from "../support/decoded-rows.js";
import { getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { LocalnetSender } from "../support/localnet-deploy.js";
import { startTestLocalnet } from "../support/localnet.js";
import { v3ResponseErrors } from "../support/v3-schema.js";

let clickhouse: ClickHouseHttp;
let store: Store;
let net: Localnet;
let t: Embedded;
let checkpoint: number;

const alice = new Address(0, Buffer.alloc(32, 0xa1));
const bob = new Address(0, Buffer.alloc(32, 0xb0)); // never deployed: a bounceable transfer bounces back
const JETTON = new Address(0, Buffer.alloc(32, 0x7e));
const id = (n: number) => Buffer.alloc(32, n).toString("base64");

type StoredTx = { hash: string; account: string; lt: string; now: number; in_msg_hash: string | null; trace_id: string };
/** A trace of the chain, its transactions in lt order, and its end as the action rows carry it. */
type ChainTrace = TraceEnd & { txs: StoredTx[] };
let traces: Record<"comment" | "bounce" | "deploy" | "two", ChainTrace>;
/** Every action listed at the checkpoint under `latest`, by name. */
const A: Record<string, ActionRow> = {};
let walletAddress: string;
let v5Address: string;
let deployedAddress: string;

const rootHash = (txs: ChainTransaction[], wallet: Address) => txs.find((x) => x.inMessage?.info.type === "external-in" && x.address === BigInt("0x" + wallet.hash.toString("hex")))!.hash().toString("base64");

async function chainTrace(traceId: string): Promise<ChainTrace> {
  const [tr] = await select<{ trace_id: string; end_lt: string; end_utime: number; mc_seqno_end: number; external_hash: string | null; state: string }>(
    store,
    "SELECT trace_id, end_lt, end_utime, mc_seqno_end, external_hash, state FROM traces FINAL WHERE trace_id = {t:String}",
    { t: traceId },
  );
  expect(tr?.state, traceId).toBe("complete");
  const txs = await select<StoredTx>(store, "SELECT hash, account, lt, now, in_msg_hash, trace_id FROM transactions FINAL WHERE trace_id = {t:String} ORDER BY lt", { t: traceId });
  return { trace_id: traceId, trace_end_lt: BigInt(tr!.end_lt), trace_end_utime: tr!.end_utime, trace_mc_seqno_end: tr!.mc_seqno_end, trace_external_hash: tr!.external_hash, txs };
}

/** A trace's transactions of an account. */
const txOf = (tr: ChainTrace, account: string) => tr.txs.filter((x) => x.account === account);

beforeAll(async () => {
  clickhouse = await startClickHouseHttp();
  net = await startTestLocalnet({ seed: "v3-actions" });
  const genesis = net.genesis.wallets.find((w) => w.version === "v4r2")!;
  const sender = new LocalnetSender(net, genesis);
  walletAddress = raw(genesis.address);
  const v5 = net.genesis.wallets.find((w) => w.version === "v5r1")!.address;
  v5Address = raw(v5);
  const v3w = WalletContractV3R2.create({ workchain: 0, publicKey: Buffer.alloc(32, 7) });
  const roots = {
    comment: rootHash(await sender.send({ to: alice, value: toNano("2"), bounce: false, body: beginCell().storeUint(0, 32).storeStringTail("hello actions").endCell() }), genesis.address),
    bounce: rootHash(await sender.send({ to: bob, value: toNano("1"), bounce: true }), genesis.address),
    two: "",
  };
  deployedAddress = raw(await sender.deploy(v3w.init, toNano("0.5")));
  roots.two = rootHash(
    await sender.send({ to: v5, value: toNano("0.1"), body: beginCell().storeUint(0x12345678, 32).storeUint(7, 64).endCell() }, { to: alice, value: toNano("0.1"), bounce: false }),
    genesis.address,
  );
  await net.chain.seal();
  await net.chain.seal();
  const head = net.chain.lastMasterchain!.id.seqno;
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on", decode: "off", "clickhouse-url": clickhouse.url, "key-index": "off" });
  for (let i = 0; ; i++) {
    const r = await getJson(`${t.url}/api/v3/masterchainInfo`);
    if (r.status === 200 && r.body.last.seqno >= head) break;
    if (i > 300) throw new Error(`not indexed up to ${head}: ${JSON.stringify(r.body)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
  store = await openStore({ url: clickhouse.url });
  await applyDecoderSchema(store);
  await holdActionMerges(store);
  const [deployTx] = await select<{ trace_id: string }>(store, "SELECT trace_id FROM transactions FINAL WHERE account = {a:String} ORDER BY lt LIMIT 1", { a: deployedAddress });
  traces = {
    comment: await chainTrace(roots.comment),
    bounce: await chainTrace(roots.bounce),
    deploy: await chainTrace(deployTx!.trace_id),
    two: await chainTrace(roots.two),
  };
  checkpoint = head;
  await classify();
  await setCheckpoint(store, "decoder", checkpoint);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await store?.close();
  await net?.close();
  await clickhouse?.close();
});

/** The decoder's rows for the four traces. */
async function classify(): Promise<void> {
  const span = (tr: ChainTrace, txs: StoredTx[]) => ({ tx_hashes: txs.map((x) => x.hash), start_lt: BigInt(txs[0]!.lt), end_lt: BigInt(txs[txs.length - 1]!.lt), start_utime: txs[0]!.now, end_utime: txs[txs.length - 1]!.now, trace_id: tr.trace_id });
  const c = traces.comment;
  A.comment = actionOf(c, {
    action_id: id(1),
    type: "ton_transfer",
    ...span(c, c.txs),
    accounts: [walletAddress, raw(alice)],
    source: walletAddress,
    destination: raw(alice),
    value: toNano("2"),
    ton_transfer_data: { content: "hello actions", encrypted: false },
  });
  await writeClassification(store, { trace: c, version: c.trace_mc_seqno_end, state: "ok", actions: [A.comment] });

  // first unknown (a wallet not yet known), then classified again in the checkpoint's block
  const b = traces.bounce;
  const unknown = actionOf(b, { action_id: b.trace_id, type: "unknown", ...span(b, b.txs), accounts: [walletAddress, raw(bob)] });
  await writeClassification(store, { trace: b, version: b.trace_mc_seqno_end, state: "failed", actions: [unknown] });
  A.bounce = actionOf(b, { action_id: id(2), type: "ton_transfer", ...span(b, b.txs), success: false, accounts: [walletAddress, raw(bob)], source: walletAddress, destination: raw(bob), value: toNano("1") });
  await writeClassification(store, { trace: b, version: checkpoint, state: "ok", actions: [A.bounce], replaces: [unknown] });

  const d = traces.deploy;
  A.deploy = actionOf(d, { action_id: id(3), type: "contract_deploy", ...span(d, d.txs), accounts: [walletAddress, deployedAddress], source: walletAddress, destination: deployedAddress, value: toNano("0.5") });
  await writeClassification(store, { trace: d, version: d.trace_mc_seqno_end, state: "ok", actions: [A.deploy] });
  // a classification the decoder wrote past its checkpoint: not shown yet
  await writeClassification(store, { trace: d, version: checkpoint + 5, state: "ok", actions: [{ ...A.deploy, type: "call_contract" }] });

  // two messages: a call and, inside a purchase (a v3 type), a transfer
  const w = traces.two;
  const walletTx = txOf(w, walletAddress);
  A.call = actionOf(w, { action_id: id(4), type: "call_contract", ...span(w, [...walletTx, ...txOf(w, v5Address)]), accounts: [walletAddress, v5Address], source: walletAddress, destination: v5Address, opcode: 0x12345678, value: toNano("0.1") });
  A.purchase = actionOf(w, { action_id: id(5), type: "nft_purchase", ...span(w, [...walletTx, ...txOf(w, raw(alice))]), accounts: [walletAddress, raw(alice)], source: walletAddress, destination: raw(alice) });
  const inner = actionOf(w, {
    action_id: id(6),
    type: "ton_transfer",
    ...span(w, [...walletTx, ...txOf(w, raw(alice))]),
    accounts: [walletAddress, raw(alice)],
    source: walletAddress,
    destination: raw(alice),
    value: toNano("0.1"),
    parent_action_id: id(5),
    ancestor_type: ["nft_purchase"],
    ton_transfer_data: { content: null, encrypted: false },
  });
  A.inner = inner;
  await writeClassification(store, { trace: w, version: w.trace_mc_seqno_end, state: "ok", actions: [A.call, A.purchase, inner] });
  // a jetton transfer the decoder recorded in the trace (alice's transaction): its balance change
  await insert(store, "jetton_transfers", [
    {
      jetton_master: raw(JETTON),
      jetton_wallet: raw(new Address(0, Buffer.alloc(32, 0x7f))),
      transaction_lt: txOf(w, raw(alice))[0]!.lt,
      transaction_hash: txOf(w, raw(alice))[0]!.hash,
      transaction_now: w.trace_end_utime,
      transaction_aborted: false,
      mc_seqno: w.trace_mc_seqno_end,
      trace_id: w.trace_id,
      query_id: "1",
      amount: "750",
      source: raw(alice),
      destination: raw(bob),
      response_destination: null,
      custom_payload: null,
      forward_ton_amount: "0",
      forward_payload: null,
      comment: null,
      confirmed: 1,
    },
  ]);
}

async function v3(path: string, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(`${t.url}/api/v3/${path}`, { headers });
  const body: any = await res.json();
  expect(res.status, `${path}: ${JSON.stringify(body)}`).toBe(200);
  const p = `/api/v3/${path.split("?")[0]}`;
  expect(v3ResponseErrors(p, body), p).toBeNull();
  return body;
}

async function refused(path: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${t.url}/api/v3/${path}`, { headers });
  const body: any = await res.json();
  expect(res.status, `${path}: ${JSON.stringify(body)}`).toBe(422);
  expect(Object.keys(body)).toEqual(["error"]);
  return body.error;
}

/** toncenter's order of actions: (trace_end_lt, trace_id, end_lt, action_id). */
const order = (asc: boolean) => (a: ActionRow, b: ActionRow) => {
  const c =
    a.trace_end_lt !== b.trace_end_lt
      ? (a.trace_end_lt < b.trace_end_lt ? -1 : 1)
      : a.trace_id !== b.trace_id
        ? (a.trace_id < b.trace_id ? -1 : 1)
        : a.end_lt !== b.end_lt
          ? (a.end_lt < b.end_lt ? -1 : 1)
          : a.action_id < b.action_id
            ? -1
            : 1;
  return asc ? c : -c;
};
const ids = (body: { actions: { action_id: string }[] }) => body.actions.map((a) => a.action_id);
const expected = (list: ActionRow[], asc = false) => [...list].sort(order(asc)).map((a) => a.action_id);
/** What `latest` lists: everything but the transfer inside the purchase. */
const LATEST = () => [A.comment!, A.bounce!, A.deploy!, A.call!, A.purchase!];

describe("/api/v3/actions", () => {
  it("lists the actions current at the decoder's checkpoint, newest trace first, with toncenter's fields", async () => {
    const body = await v3("actions?limit=100");
    expect(ids(body)).toEqual(expected(LATEST()));
    const comment = body.actions.find((a: any) => a.action_id === A.comment!.action_id);
    expect(comment).toMatchObject({
      trace_id: traces.comment.trace_id,
      start_lt: String(A.comment!.start_lt),
      end_lt: String(A.comment!.end_lt),
      trace_end_lt: String(traces.comment.trace_end_lt),
      trace_end_utime: traces.comment.trace_end_utime,
      trace_mc_seqno_end: traces.comment.trace_mc_seqno_end,
      transactions: traces.comment.txs.map((x) => x.hash),
      success: true,
      type: "ton_transfer",
      trace_external_hash: traces.comment.trace_external_hash,
      finality: "finalized",
    });
    expect(comment.details).toMatchObject({ source: walletAddress, destination: raw(alice), value: "2000000000" });
    expect(comment).not.toHaveProperty("accounts");
    expect(comment).not.toHaveProperty("transactions_full");
    // the replaced classification's unknown action is gone; the one past the checkpoint is not there yet
    expect(ids(body)).not.toContain(traces.bounce.trace_id);
    expect(body.actions.find((a: any) => a.action_id === A.deploy!.action_id).type).toBe("contract_deploy");
    // the details' addresses are in the address book
    expect(Object.keys(body.address_book)).toEqual(expect.arrayContaining([walletAddress, raw(alice), raw(bob), v5Address]));
  });

  it("filters by account (any form), transaction, message, block, time and lt", async () => {
    const byAccount = await v3(`actions?account=${alice.toString({ bounceable: false })}`);
    expect(ids(byAccount)).toEqual(expected([A.comment!, A.purchase!]));
    const aliceTx = txOf(traces.comment, raw(alice))[0]!;
    expect(ids(await v3(`actions?tx_hash=${encodeURIComponent(aliceTx.hash)}`))).toEqual([A.comment!.action_id]);
    expect(ids(await v3(`actions?tx_hash=${Buffer.from(aliceTx.hash, "base64").toString("hex")}`))).toEqual([A.comment!.action_id]);
    expect(ids(await v3(`actions?msg_hash=${encodeURIComponent(aliceTx.in_msg_hash!)}`))).toEqual([A.comment!.action_id]);
    const sameBlock = LATEST().filter((a) => a.trace_mc_seqno_end === traces.two.trace_mc_seqno_end);
    expect(ids(await v3(`actions?mc_seqno=${traces.two.trace_mc_seqno_end}`))).toEqual(expected(sameBlock));
    const lt = traces.bounce.trace_end_lt;
    expect(ids(await v3(`actions?start_lt=${lt}&sort=asc`))).toEqual(expected(LATEST().filter((a) => a.trace_end_lt >= lt), true));
    expect(ids(await v3(`actions?end_lt=${lt}`))).toEqual(expected(LATEST().filter((a) => a.trace_end_lt <= lt)));
    const u = traces.deploy.trace_end_utime;
    const byTime = await v3(`actions?start_utime=${u}&end_utime=${u}`);
    expect(new Set(ids(byTime))).toEqual(new Set(LATEST().filter((a) => a.trace_end_utime === u).map((a) => a.action_id)));
  });

  it("takes action_id, or trace_id without account, in place of every other filter but the types (toncenter's rule)", async () => {
    expect(ids(await v3(`actions?action_id=${encodeURIComponent(A.deploy!.action_id)}&account=${raw(bob)}&mc_seqno=1`))).toEqual([A.deploy!.action_id]);
    expect(ids(await v3(`actions?trace_id=${encodeURIComponent(traces.two.trace_id)}&start_lt=1&end_lt=2`))).toEqual(expected([A.call!, A.purchase!]));
    // with account, trace_id is one more filter
    expect(ids(await v3(`actions?trace_id=${encodeURIComponent(traces.two.trace_id)}&account=${v5Address}`))).toEqual([A.call!.action_id]);
    expect(ids(await v3(`actions?trace_id=${encodeURIComponent(traces.comment.trace_id)}&account=${v5Address}`))).toEqual([]);
  });

  it("filters by type, and hides an action inside one of a supported type", async () => {
    expect(ids(await v3("actions?action_type=ton_transfer"))).toEqual(expected([A.comment!, A.bounce!]));
    expect(ids(await v3("actions?exclude_action_type=ton_transfer&exclude_action_type=nft_purchase"))).toEqual(expected([A.deploy!, A.call!]));
    // v2 does not know nft_purchase: the transfer inside it is listed instead
    const v2 = expected([A.comment!, A.bounce!, A.deploy!, A.call!, A.inner!]);
    expect(ids(await v3("actions?supported_action_types=v2"))).toEqual(v2);
    expect(ids(await v3("actions", { "X-Actions-Version": "v2" }))).toEqual(v2);
    // the header replaces the parameter, as toncenter reads it
    expect(ids(await v3("actions?supported_action_types=v2", { "X-Actions-Version": "latest" }))).toEqual(expected(LATEST()));
    expect(ids(await v3("actions?supported_action_types=nft_purchase"))).toEqual(expected(LATEST()));
  });

  it("gives accounts and transactions when asked", async () => {
    const body = await v3(`actions?action_id=${encodeURIComponent(A.comment!.action_id)}&include_accounts=true&include_transactions=true`);
    const [a] = body.actions;
    expect(a.accounts).toEqual(A.comment!.accounts);
    expect(a.transactions_full.map((x: any) => x.hash)).toEqual(A.comment!.tx_hashes);
    expect(a.transactions_full[1].in_msg.hash).toBe(txOf(traces.comment, raw(alice))[0]!.in_msg_hash);
  });

  it("pages by offset and by cursor, both ways, without repeating or skipping", async () => {
    for (const sort of ["asc", "desc"]) {
      const all = ids(await v3(`actions?sort=${sort}&limit=100`));
      expect(all).toEqual(expected(LATEST(), sort === "asc"));
      const byOffset: string[] = [];
      for (let offset = 0; offset < all.length; offset += 2) byOffset.push(...ids(await v3(`actions?sort=${sort}&limit=2&offset=${offset}`)));
      expect(byOffset).toEqual(all);
      const byCursor: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await v3(`actions?sort=${sort}&limit=2${cursor ? `&cursor=${cursor}` : ""}`);
        byCursor.push(...ids(page));
        cursor = page.next_cursor;
        if (!cursor) break;
      }
      expect(byCursor).toEqual(all);
    }
    // by account, from the account's own order
    const first = await v3(`actions?account=${walletAddress}&limit=3&sort=asc`);
    const rest = await v3(`actions?account=${walletAddress}&limit=100&sort=asc&cursor=${first.next_cursor}`);
    expect([...ids(first), ...ids(rest)]).toEqual(expected(LATEST(), true));
  });

  it("refuses bad input with 422 naming the parameter", async () => {
    expect(await refused("actions?action_type=ton-transfer")).toMatch(/^action_type\[0\]: contains invalid characters/);
    expect(await refused("actions?exclude_action_type=a%20b")).toMatch(/^exclude_action_type\[0\]/);
    expect(await refused("actions", { "X-Actions-Version": "v2;drop" })).toMatch(/^X-Actions-Version header/);
    expect(await refused("actions?limit=0")).toMatch(/^limit/);
    expect(await refused("actions?limit=1001")).toMatch(/^limit/);
    expect(await refused("actions?account=nobody")).toMatch(/^account/);
    expect(await refused("actions?action_id=xyz")).toMatch(/^action_id\[0\]/);
    expect(await refused("actions?sort=up")).toMatch(/^sort/);
    expect(await refused("actions?offset=1&cursor=abc")).toMatch(/offset, cursor/);
    expect(await refused("actions?cursor=abc")).toMatch(/^cursor/);
    const traceCursor = (await v3("traces?limit=1")).next_cursor;
    expect(await refused(`actions?cursor=${traceCursor}`)).toMatch(/^cursor: not a cursor of \/api\/v3\/actions/);
    expect(await refused("actions?owner_address=x")).toMatch(/unknown parameter "owner_address"/);
  });
});

describe("/api/v3/traces and /api/v3/events", () => {
  it("give each trace's classification state, and its actions with include_actions", async () => {
    const plain = await v3(`traces?trace_id=${encodeURIComponent(traces.two.trace_id)}`);
    expect(plain.traces[0].trace_info.classification_state).toBe("ok");
    expect(plain.traces[0]).not.toHaveProperty("actions");
    const withActions = await v3(`traces?trace_id=${encodeURIComponent(traces.two.trace_id)}&include_actions=true`);
    const inTrace = (list: ActionRow[]) =>
      [...list].sort((a, b) => (a.start_lt !== b.start_lt ? (a.start_lt < b.start_lt ? -1 : 1) : a.end_lt !== b.end_lt ? (a.end_lt < b.end_lt ? -1 : 1) : a.action_id < b.action_id ? -1 : 1)).map((a) => a.action_id);
    expect(withActions.traces[0].actions.map((a: any) => a.action_id)).toEqual(inTrace([A.call!, A.purchase!]));
    const v2 = await v3(`traces?trace_id=${encodeURIComponent(traces.two.trace_id)}&include_actions=true`, { "X-Actions-Version": "v2" });
    expect(v2.traces[0].actions.map((a: any) => a.action_id)).toEqual(inTrace([A.call!, A.inner!]));
    // the replaced classification's state is not the one shown
    const bounce = await v3(`traces?trace_id=${encodeURIComponent(traces.bounce.trace_id)}&include_actions=true`);
    expect(bounce.traces[0].trace_info.classification_state).toBe("ok");
    expect(bounce.traces[0].actions.map((a: any) => a.type)).toEqual(["ton_transfer"]);
  });

  it("leave a trace the decoder has not classified unclassified, without actions", async () => {
    const all = await v3("traces?limit=100&include_actions=true");
    const known = new Set(Object.values(traces).map((x) => x.trace_id));
    const others = all.traces.filter((x: any) => !known.has(x.trace_id));
    expect(others.length).toBeGreaterThan(0);
    for (const x of others) {
      expect(x.trace_info.classification_state).toBe("unclassified");
      expect(x).not.toHaveProperty("actions");
    }
  });

  it("/events is /traces with actions, under `events`", async () => {
    const q = `trace_id=${encodeURIComponent(traces.comment.trace_id)}`;
    const events = await v3(`events?${q}`);
    const tr = await v3(`traces?${q}&include_actions=true`);
    expect(Object.keys(events)).toEqual(["events", "address_book", "metadata"]);
    expect(events.events).toEqual(tr.traces);
    expect(events.events[0].actions.map((a: any) => a.action_id)).toEqual([A.comment!.action_id]);
  });
});

describe("/api/v3/balanceChanges", () => {
  /** What each account's balance did over its transactions in the trace, as the transactions show it. */
  async function balanceDeltas(traceId: string): Promise<Record<string, string>> {
    const { traces: [tr] } = await v3(`traces?trace_id=${encodeURIComponent(traceId)}`);
    const byAccount = new Map<string, any[]>();
    for (const h of tr.transactions_order) {
      const x = tr.transactions[h];
      byAccount.set(x.account, [...(byAccount.get(x.account) ?? []), x]);
    }
    const out: Record<string, string> = {};
    for (const [account, txs] of byAccount) out[account] = String(BigInt(txs[txs.length - 1].account_state_after.balance ?? 0) - BigInt(txs[0].account_state_before.balance ?? 0));
    return out;
  }

  it("gives a trace's TON changes as the balances moved, its fees, and its jetton transfers", async () => {
    for (const tr of [traces.comment, traces.bounce, traces.two]) {
      const body = await v3(`balanceChanges?trace_id=${encodeURIComponent(tr.trace_id)}`);
      expect(body.changes, tr.trace_id).toEqual(await balanceDeltas(tr.trace_id));
      expect(BigInt(body.fees[walletAddress])).toBeGreaterThan(0n);
    }
    const two = await v3(`balanceChanges?trace_id=${encodeURIComponent(traces.two.trace_id)}`);
    expect(two.jettons).toEqual({ [raw(alice)]: { [raw(JETTON)]: "-750" }, [raw(bob)]: { [raw(JETTON)]: "750" } });
  });

  it("gives one action's changes, by its transactions", async () => {
    const call = await v3(`balanceChanges?action_id=${encodeURIComponent(A.call!.action_id)}`);
    expect(Object.keys(call.changes).sort()).toEqual([v5Address, walletAddress].sort());
    expect(call.changes[v5Address]).toBe((await balanceDeltas(traces.two.trace_id))[v5Address]);
    expect(call.jettons).toEqual({});
    // a deploy has none (toncenter's rule)
    expect(await v3(`balanceChanges?action_id=${encodeURIComponent(A.deploy!.action_id)}`)).toEqual({ changes: {}, fees: {}, jettons: {} });
  });

  it("answers 404 for what is not known and 422 for a request without exactly one id", async () => {
    const res = await getJson(`${t.url}/api/v3/balanceChanges?trace_id=${encodeURIComponent(id(99))}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/^trace_id/);
    const act = await getJson(`${t.url}/api/v3/balanceChanges?action_id=${encodeURIComponent(id(99))}`);
    expect(act.status).toBe(404);
    expect(act.body.error).toMatch(/^action_id/);
    expect(await refused("balanceChanges")).toMatch(/exactly one of trace_id, action_id/);
    expect(await refused(`balanceChanges?trace_id=${id(1)}&action_id=${id(1)}`)).toMatch(/exactly one of trace_id, action_id/);
  });
});
