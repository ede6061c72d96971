// Resumable streams: while wallets keep sending, one SSE subscriber's connection is cut at random
// points twenty times and reconnected each time with the id of the last event it got (the
// Last-Event-ID header, as EventSource sends it); another stays connected throughout. What the cut
// one received, all connections together, equals the uninterrupted stream: same events, same order,
// no gap, no duplicate. The same for the WebSocket's resume_from; and an id past the retention window
// is answered with a resume_gap event, then live events.
import { toNano } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodedTo, startEmbedded, type Embedded } from "../support/embedded.js";
import { LocalnetSender } from "../support/localnet-deploy.js";
import { startTestLocalnet } from "../support/localnet.js";
import { rng as seeded } from "../support/rng.js";
import { SseClient, WsClient, type SseEvent } from "../support/stream-client.js";
import { freshAddress } from "../support/traffic.js";

let net: Localnet;
let t: Embedded;
let w1: LocalnetSender;
let w2: LocalnetSender;

type Json = any;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "streaming-resume", wallets: 2 });
  await net.chain.seal();
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on" });
  await decodedTo(t.url, net.chain.lastMasterchain!.id.seqno, { timeoutMs: 60_000 });
  w1 = new LocalnetSender(net, net.genesis.wallets[1]!);
  w2 = new LocalnetSender(net, net.genesis.wallets[2]!);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await net?.close();
});

/** Transfers between the two wallets (and to fresh accounts), a block sealed after each, until `stop()`. */
function traffic(): { stop(): Promise<number> } {
  let running = true;
  let n = 0;
  const loop = (async () => {
    while (running) {
      n++;
      await w1.send({ to: w2.address, value: toNano("0.01") }, { to: freshAddress(n % 200), value: toNano("0.01"), bounce: false });
      await w2.send({ to: w1.address, value: toNano("0.01") });
      await net.chain.seal();
      await sleep(20);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return n;
    },
  };
}

const SUBSCRIPTION = () => ({ types: ["transactions", "account_state_change", "blocks"], addresses: [w1.address.toRawString(), w2.address.toString()] });
const key = (e: SseEvent) => `${e.id}|${e.data}`;

describe("SSE with Last-Event-ID", () => {
  it("a connection cut at random points ×20 and resumed each time receives exactly the uninterrupted stream", async () => {
    const url = `${t.url}/api/streaming/v2/sse`;
    const whole = await SseClient.open(url, SUBSCRIPTION());
    let cut = await SseClient.open(url, SUBSCRIPTION());
    await Promise.all([whole.waitFor((e) => e.event === "connected"), cut.waitFor((e) => e.event === "connected")]);
    const got: SseEvent[] = [];
    const rng = seeded(27);
    const load = traffic();
    let resumes = 0;
    for (let i = 0; i < 20; i++) {
      // wait for at least one event on this connection, then cut it at a random moment
      await cut.waitFor((e) => e.event === "event", 30_000);
      await sleep(Math.floor(rng() * 400));
      cut.close();
      got.push(...cut.events.filter((e) => e.event === "event"));
      const last = got.at(-1)!.id!;
      cut = await SseClient.open(url, SUBSCRIPTION(), { "Last-Event-ID": last });
      expect(cut.status).toBe(200);
      resumes++;
    }
    const blocks = await load.stop();
    // let the last blocks reach both, then compare up to the last event of the uninterrupted stream
    await decodedTo(t.url, net.chain.lastMasterchain!.id.seqno, { timeoutMs: 60_000 });
    const lastWhole = (await whole.waitFor((e) => e.event === "event" && JSON.parse(e.data).type === "blocks" && JSON.parse(e.data).block.seqno === net.chain.lastMasterchain!.id.seqno, 30_000)).id!;
    await cut.waitFor((e) => e.id === lastWhole, 30_000);
    got.push(...cut.events.filter((e) => e.event === "event"));
    cut.close();
    whole.close();
    const expected = whole.events.filter((e) => e.event === "event");
    const upTo = (list: SseEvent[]) => list.slice(0, list.findIndex((e) => e.id === lastWhole) + 1);
    expect(resumes).toBe(20);
    expect(got.some((e) => e.event === "resume_gap")).toBe(false);
    expect(new Set(got.map((e) => e.id)).size, "no duplicate").toBe(got.length);
    expect(upTo(got).map(key)).toEqual(upTo(expected).map(key));
    expect(expected.length).toBeGreaterThan(blocks);
    console.log(`streaming-resume: ${blocks} blocks of traffic, ${expected.length} events, 20 cuts, union = uninterrupted`);
  }, 240_000);

  it("an id the stream no longer keeps (or never had) is told with resume_gap, then live events follow", async () => {
    const sub = await SseClient.open(`${t.url}/api/streaming/v2/sse`, SUBSCRIPTION(), { "Last-Event-ID": "1" });
    expect(sub.status).toBe(200);
    // seq 1 is kept in memory by the embedded bus only within the retention window: either it is
    // replayed, or the gap is said; an id from the future is a gap either way
    sub.close();
    const future = await SseClient.open(`${t.url}/api/streaming/v2/sse`, SUBSCRIPTION(), { "Last-Event-ID": "999999999" });
    const gap = await future.waitFor((e) => e.event === "resume_gap", 10_000);
    expect(JSON.parse(gap.data)).toMatchObject({ type: "resume_gap", last_event_id: "999999999" });
    const load = traffic();
    await future.waitFor((e) => e.event === "event", 30_000);
    await load.stop();
    future.close();
  }, 60_000);
});

describe("WebSocket with resume_from", () => {
  it("resubscribing with the last event_id after a cut gives what was missed, then live", async () => {
    const url = `${t.url}/api/streaming/v2/ws`;
    const whole = await WsClient.open(url);
    expect((await whole.request({ operation: "subscribe", ...SUBSCRIPTION() })).status).toBe("subscribed");
    let ws = await WsClient.open(url);
    expect((await ws.request({ operation: "subscribe", ...SUBSCRIPTION() })).status).toBe("subscribed");
    const got: Json[] = [];
    const load = traffic();
    for (let i = 0; i < 5; i++) {
      await ws.waitFor((n) => typeof n.event_id === "string", 30_000, ws.events.length);
      await sleep(150);
      ws.close();
      got.push(...ws.notifications());
      ws = await WsClient.open(url);
      expect((await ws.request({ operation: "subscribe", ...SUBSCRIPTION(), resume_from: got.at(-1).event_id })).status).toBe("subscribed");
    }
    await load.stop();
    await decodedTo(t.url, net.chain.lastMasterchain!.id.seqno, { timeoutMs: 60_000 });
    const last = (await whole.waitFor((n) => n.type === "blocks" && n.block.seqno === net.chain.lastMasterchain!.id.seqno, 30_000)).event_id;
    await ws.waitFor((n) => n.event_id === last, 30_000);
    got.push(...ws.notifications());
    // from the first event the cut client got (the uninterrupted one subscribed a moment earlier and
    // may have seen an event more of the traffic before) to the last block
    const first = got[0].event_id;
    const window = (list: Json[]) => {
      const start = list.findIndex((n) => n.event_id === first);
      expect(start, `event ${first} in the uninterrupted stream`).toBeGreaterThanOrEqual(0);
      return list.slice(start, list.findIndex((n) => n.event_id === last) + 1).map((n) => JSON.stringify(n));
    };
    expect(new Set(got.map((n) => n.event_id)).size).toBe(got.length);
    expect(window(got)).toEqual(window(whole.notifications()));
    ws.close();
    whole.close();
  }, 120_000);
});
