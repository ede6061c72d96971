// The Streaming API on a localnet, as a wallet's backend would use it: a jetton transfer sent through
// API v2's sendBocReturnHash reaches an SSE subscriber to the sender as a pending jetton_transfer,
// then confirmed (its shard block signed, not yet committed), then finalized, in that order; the
// finalized actions are /api/v3/actions' for the trace. The same over the WebSocket, with subscribe,
// unsubscribe, ping and toncenter's errors.
import type { Address } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodedTo, getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { startTestLocalnet } from "../support/localnet.js";
import { actorsOf } from "../support/scenarios/chain.js";
import { jettonScenario, type JettonScenario } from "../support/scenarios/jettons.js";
import { genesisWalletOnTongate, sendJettonTransferReturnHash } from "../support/scenarios/wallet-send.js";
import { SseClient, WsClient } from "../support/stream-client.js";

let net: Localnet;
let t: Embedded;
let jetton: JettonScenario;

type Json = any;
const raw = (a: Address) => a.toRawString().toUpperCase();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const FINALITIES = ["pending", "confirmed", "finalized"];

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "streaming", wallets: 3 });
  jetton = await jettonScenario(net, actorsOf(net), "legacy");
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on" });
  await decodedTo(t.url, net.chain.lastMasterchain!.id.seqno, { timeoutMs: 120_000 });
}, 240_000);

afterAll(async () => {
  await t?.close();
  await net?.close();
});

/** Signs and sends a jetton transfer from alice (genesis wallet 2, the jetton scenario's first holder) to bob through sendBocReturnHash; its hashes. */
async function sendJettonTransfer(amount: bigint, comment: string): Promise<{ hash: string; hash_norm: string; sender: string }> {
  const sent = await sendJettonTransferReturnHash(net, t.url, 2, { jettonWallet: jetton.wallets[0]!.address, destination: jetton.wallets[1]!.owner!, amount, queryId: 1n, comment });
  return { ...sent, sender: raw(sent.sender) };
}

/** Seals the next block with its shard blocks signed for a while before they are committed (confirmed), then waits until it is decoded. */
async function sealWithConfirmation(): Promise<void> {
  net.chain.pendingWindowMs = 1500;
  await net.chain.seal();
  net.chain.pendingWindowMs = 0;
  await decodedTo(t.url, net.chain.lastMasterchain!.id.seqno, { timeoutMs: 60_000 });
}

/** The jetton_transfer notifications of a trace, in the order received. */
const jettonTransfers = (notes: Json[], norm: string) => notes.filter((n) => n.type === "actions" && n.trace_external_hash_norm === norm && n.actions.some((a: Json) => a.type === "jetton_transfer"));

/** What a finalized action of the stream must equal: /api/v3/actions of the trace (accounts aside: /actions shows them only when asked). */
async function expectFinalizedAsIndexed(finalized: Json): Promise<void> {
  const traceId = finalized.actions[0].trace_id;
  const r = await getJson(`${t.url}/api/v3/actions?trace_id=${encodeURIComponent(traceId)}`);
  expect(r.status).toBe(200);
  const byId = new Map(r.body.actions.map((a: Json) => [a.action_id, a]));
  for (const a of finalized.actions) {
    expect({ ...a, accounts: undefined }).toEqual({ ...(byId.get(a.action_id) as Json), accounts: undefined });
  }
}

describe("SSE", () => {
  it("a jetton transfer reaches the sender's subscriber pending, then confirmed, then finalized; finalized = /api/v3/actions", async () => {
    const account = raw(genesisWalletOnTongate(net, t.url, 2).wallet.address);
    const sub = await SseClient.open(`${t.url}/api/streaming/v2/sse`, { types: ["actions", "transactions"], addresses: [account], min_finality: "pending", include_address_book: true });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    const connected = await sub.waitFor((e) => e.event === "connected");
    expect(JSON.parse(connected.data)).toMatchObject({ status: "subscribed" });

    const sent = await sendJettonTransfer(4_321n, "streamed");
    await sub.waitFor((e) => e.event === "event" && JSON.parse(e.data).type === "actions" && JSON.parse(e.data).finality === "pending", 20_000);
    await sealWithConfirmation();
    await sub.waitFor((e) => e.event === "event" && JSON.parse(e.data).type === "actions" && JSON.parse(e.data).finality === "finalized" && JSON.parse(e.data).trace_external_hash_norm === sent.hash_norm, 30_000);

    const seen = jettonTransfers(sub.notifications(), sent.hash_norm);
    expect(seen.map((n) => n.finality)).toEqual(FINALITIES);
    const action = seen[0].actions.find((a: Json) => a.type === "jetton_transfer");
    expect(action.details).toMatchObject({ sender: account, receiver: raw(jetton.wallets[1]!.owner!), amount: "4321", comment: "streamed", asset: raw(jetton.master.address) });
    await expectFinalizedAsIndexed(seen[2]);
    // every event has an id to resume from, increasing
    const ids = sub.events.filter((e) => e.event === "event").map((e) => e.id!);
    expect(ids.every(Boolean)).toBe(true);
    // transactions came too, each trace's in descending lt, with the address book asked for
    const txs = sub.notifications().filter((n) => n.type === "transactions" && n.trace_external_hash_norm === sent.hash_norm);
    expect(txs.map((n) => n.finality)).toEqual(FINALITIES);
    for (const n of txs) {
      expect(n.transactions.every((x: Json) => x.account === account)).toBe(true);
      expect(n.address_book[account]).toBeDefined();
    }
    sub.close();
  }, 120_000);

  it("refuses what toncenter refuses, with 4xx naming the problem", async () => {
    const url = `${t.url}/api/streaming/v2/sse`;
    const cases: [Json, RegExp][] = [
      [{ addresses: [raw(jetton.master.address)] }, /types/],
      [{ types: ["transactions"] }, /addresses are required/],
      [{ types: ["trace"] }, /trace_external_hash_norms/],
      [{ types: ["bogus"], addresses: [raw(jetton.master.address)] }, /types/],
      [{ types: ["transactions"], addresses: ["not an address"] }, /addresses/],
      [{ types: ["transactions"], addresses: [raw(jetton.master.address)], min_finality: "soon" }, /min_finality/],
    ];
    for (const [body, message] of cases) {
      const sub = await SseClient.open(url, body);
      expect(sub.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(sub.status).toBeLessThan(500);
      expect(sub.body.error, JSON.stringify(body)).toMatch(message);
    }
  });
});

describe("WebSocket", () => {
  it("subscribe, ping, unsubscribe and errors by id; a jetton transfer pending → confirmed → finalized", async () => {
    const account = raw(genesisWalletOnTongate(net, t.url, 2).wallet.address);
    const ws = await WsClient.open(`${t.url}/api/streaming/v2/ws`);
    expect(await ws.request({ operation: "ping", id: "p1" })).toEqual({ id: "p1", status: "pong" });
    expect((await ws.request({ operation: "subscribe", id: "bad1", types: ["transactions"] })).error).toMatch(/addresses are required/);
    expect((await ws.request({ operation: "unsubscribe", id: "bad2" })).error).toMatch(/addresses or trace_external_hash_norms are required/);
    expect((await ws.request({ operation: "fly", id: "bad3" })).error).toMatch(/operation/);
    // a frame that is not JSON has no id to answer with: the error comes alone, the socket stays open
    const from = ws.events.length;
    ws.ws.send('{"operation":"ping","id":"x"');
    expect((await ws.waitFor((e) => e.error !== undefined, 10_000, from)).error).toMatch(/JSON/i);
    // a subscription to two accounts, then one of them dropped
    const other = raw(jetton.master.address);
    expect(await ws.request({ operation: "subscribe", id: "s1", types: ["actions"], addresses: [account, other], min_finality: "pending" })).toEqual({ id: "s1", status: "subscribed" });
    expect(await ws.request({ operation: "unsubscribe", id: "u1", addresses: [other] })).toEqual({ id: "u1", status: "unsubscribed" });

    const sent = await sendJettonTransfer(777n, "over ws");
    await ws.waitFor((n) => n.type === "actions" && n.trace_external_hash_norm === sent.hash_norm && n.finality === "pending", 20_000);
    await sealWithConfirmation();
    await ws.waitFor((n) => n.type === "actions" && n.trace_external_hash_norm === sent.hash_norm && n.finality === "finalized", 30_000);
    const seen = jettonTransfers(ws.notifications(), sent.hash_norm);
    expect(seen.map((n) => n.finality)).toEqual(FINALITIES);
    expect(seen.every((n) => typeof n.event_id === "string" && n.event_id.length > 0)).toBe(true);
    await expectFinalizedAsIndexed({ ...seen[2], event_id: undefined });
    // still open and answering
    expect(await ws.request({ operation: "ping", id: "p2" })).toEqual({ id: "p2", status: "pong" });
    ws.close();
    await sleep(10);
  }, 120_000);
});
