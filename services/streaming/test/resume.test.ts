// Resumable streams and backpressure on real buses: a client cut at random points (inside one bus
// event's notifications too) while events are published, reconnecting with its last id each time,
// receives exactly the uninterrupted stream; an id past the retention window or never given is one
// resume_gap event, then live events; a client that does not read is cut off with the id to
// resume from, and its resume picks up there. On the in-process bus and on NATS JetStream, where
// two service instances (two gateway processes) on one NATS see the same events with the same ids.
import type { Notification, SseRequest } from "@tongate/proto/gen/tongate/streaming/v2/streaming_pb.js";
import { Finality } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { type EventBus, InProcessBus, openBus } from "@tongate/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasNats, startNatsServer, type NatsServer } from "../../../tests/support/nats.js";
import { blockEvent, collect, dataOf, publish, startStreaming, traceEvent, until, WALLET, type Started } from "./support.js";

type Req = Partial<Omit<SseRequest, "$typeName">>;
/** trace events give this subscriber two notifications each (transactions, actions), blocks one */
const REQ: Req = { types: ["transactions", "actions", "blocks"], addresses: [WALLET], minFinality: "pending" };

/** Publishes alternately a trace (at a rotating finality) and a block until stopped. */
function traffic(bus: EventBus, everyMs: number): { stop(): Promise<number> } {
  let stopped = false;
  let n = 0;
  const loop = (async () => {
    while (!stopped) {
      await publish(bus, n % 2 === 0 ? traceEvent(((n / 2) % 3) + 1) : blockEvent(n));
      n++;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return n;
    },
  };
}

const key = (n: Notification) => `${n.id} ${n.event} ${n.data}`;

/** Reads up to `want` events from a fresh connection (resuming after `lastEventId`), then cuts it. */
async function readSome(s: Started, want: number, lastEventId: string | undefined): Promise<Notification[]> {
  const got: Notification[] = [];
  for await (const n of s.client.sse({ ...REQ, ...(lastEventId ? { lastEventId } : {}) })) {
    if (n.event === "connected") continue;
    got.push(n);
    if (got.length >= want) break;
  }
  return got;
}

/** Waits until `list` has not grown for 150 ms. */
async function settled(list: unknown[]): Promise<void> {
  for (let n = -1; n !== list.length; ) {
    n = list.length;
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Reads from a fresh connection resuming after `lastEventId` until the event `target`. */
async function readUntil(s: Started, lastEventId: string | undefined, target: string): Promise<Notification[]> {
  const got: Notification[] = [];
  for await (const n of s.client.sse({ ...REQ, ...(lastEventId ? { lastEventId } : {}) }, { timeoutMs: 5000 })) {
    if (n.event === "connected") continue;
    got.push(n);
    if (n.id === target) break;
  }
  return got;
}

async function resumesExactly(bus: EventBus, s: Started, rounds: number): Promise<void> {
  const reference: Notification[] = [];
  const abort = new AbortController();
  const refDone = collect(s.client.sse(REQ, { signal: abort.signal }), reference);
  await until(() => reference.length === 1);
  const t = traffic(bus, 2);
  const union: Notification[] = [];
  let last: string | undefined;
  for (let i = 0; i < rounds; i++) {
    const got = await readSome(s, 1 + Math.floor(Math.random() * 7), last);
    union.push(...got);
    last = got.at(-1)?.id ?? last;
    await new Promise((r) => setTimeout(r, Math.random() * 15));
  }
  await t.stop();
  // the rest, once the reference has the last event
  await settled(reference);
  const target = reference.at(-1)!.id;
  if (union.at(-1)?.id !== target) union.push(...(await readUntil(s, last, target)));
  abort.abort();
  await refDone;
  expect(union.some((n) => n.event !== "event")).toBe(false);
  // the union is the reference from the first event the resumer got: no gap, no duplicate
  const start = reference.findIndex((n) => n.id === union[0]!.id);
  expect(start).toBeGreaterThan(0);
  expect(union.map(key)).toEqual(reference.slice(start).map(key));
  expect(new Set(union.map((n) => n.id)).size).toBe(union.length);
  // cuts fell inside a bus event's notifications too
  expect(union.some((n) => n.id.endsWith(".1"))).toBe(true);
}

describe("in-process bus", () => {
  it("a client cut 20 times while events are published gets the uninterrupted stream", async () => {
    const bus = new InProcessBus();
    const s = await startStreaming(bus);
    await resumesExactly(bus, s, 20);
    await s.close();
    await bus.close();
  });

  it("an id past --stream-retention, or one never given: one resume_gap event, then live events", async () => {
    const bus = new InProcessBus();
    const s = await startStreaming(bus, { "stream-retention": "1" });
    await publish(bus, blockEvent(1));
    const resumeAt = async (lastEventId: string) => {
      const got: Notification[] = [];
      const abort = new AbortController();
      const done = collect(s.client.sse({ types: ["blocks"], lastEventId }, { signal: abort.signal }), got);
      await until(() => got.length >= 2);
      const before = got.length;
      await publish(bus, blockEvent(9));
      await until(() => got.length === before + 1);
      abort.abort();
      await done;
      return got.slice(1).map((n) => ({ id: n.id, event: n.event, data: dataOf(n) }));
    };
    const never = await resumeAt("5000");
    expect(never[0]).toMatchObject({ id: "", event: "resume_gap", data: { type: "resume_gap", last_event_id: "5000" } });
    expect(String(never[0]!.data.error)).toMatch(/event 5000 was never given by this stream \(its newest is 1\)/);
    expect(never[1]).toMatchObject({ id: "2", event: "event", data: { type: "blocks" } });
    expect((await resumeAt("x1"))[0]!.data.error).toBe('"x1" is not an event id of this stream (<number> or <number>.<number>)');
    expect((await resumeAt("0"))[0]!.data.error).toBe('"0" is not an event id of this stream (<number> or <number>.<number>)');
    // within the window: what followed, then live
    const within = await resumeAt("1");
    expect(within.map((n) => n.id)).toEqual(["2", "3", "4", "5"]);
    await new Promise((r) => setTimeout(r, 1100));
    const past = await resumeAt("2");
    // the in-process bus keeps the stream for the window only: the event is gone
    expect(past[0]).toMatchObject({
      event: "resume_gap",
      data: { type: "resume_gap", last_event_id: "2", error: "event 2 is no longer kept (the stream keeps 1 s), or is not one of this stream's; events after it may have been missed: re-read them from API v3" },
    });
    expect(past[1]!.event).toBe("event");
    expect((s.running.health?.().detail as { resumeGaps: number }).resumeGaps).toBe(4);
    await s.close();
    await bus.close();
  });

  it("a client that does not read is cut off past --stream-buffer with the id to resume from, and resumes there", async () => {
    const bus = new InProcessBus();
    const s = await startStreaming(bus, { "stream-buffer": "5" });
    const it = s.client.sse({ types: ["blocks"] })[Symbol.asyncIterator]();
    expect((await it.next()).value?.event).toBe("connected");
    await publish(bus, blockEvent(1));
    await publish(bus, blockEvent(2));
    expect((await it.next()).value?.id).toBe("1");
    expect((await it.next()).value?.id).toBe("2");
    // it stops reading: the server keeps 5 notifications for it, not more
    for (let i = 3; i <= 12; i++) await publish(bus, blockEvent(i));
    await until(() => (s.running.health?.().detail as { slowConsumers: number }).slowConsumers === 1);
    const error = (await it.next()).value!;
    expect(error.event).toBe("error");
    expect(dataOf(error)).toEqual({ type: "error", error: "slow consumer: 5 notifications waiting (at most 5 or 16777216 bytes); resume from 2", last_event_id: "2" });
    expect((await it.next()).done).toBe(true);
    expect((s.running.health?.().detail as { subscribers: number }).subscribers).toBe(0);
    const again = await readSome(s, 10, "2");
    expect(again.map((n) => n.id)).toEqual(["3", "4", "5", "6", "7", "8", "9", "10", "11", "12"]);
    await s.close();
    await bus.close();
  });
});

describe.skipIf(!hasNats)("NATS JetStream", () => {
  let server: NatsServer;
  beforeAll(async () => {
    server = await startNatsServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("two service instances on one NATS give the same events with the same ids; a client resumes on either", async () => {
    const bus1 = await openBus({ natsUrl: server.url });
    const bus2 = await openBus({ natsUrl: server.url });
    const s1 = await startStreaming(bus1);
    const s2 = await startStreaming(bus2);
    const a: Notification[] = [];
    const b: Notification[] = [];
    const abort = new AbortController();
    const da = collect(s1.client.sse(REQ, { signal: abort.signal }), a);
    const db = collect(s2.client.sse(REQ, { signal: abort.signal }), b);
    await until(() => a.length === 1 && b.length === 1);
    await publish(bus1, traceEvent(Finality.PENDING));
    await publish(bus2, blockEvent(5));
    await until(() => a.length === 4 && b.length === 4);
    expect(b.map(key)).toEqual(a.map(key));
    // resume on the other instance from the first event's first notification
    const first = a[1]!.id;
    expect(first).toMatch(/^\d+\.1$/);
    expect((await readSome(s2, 2, first)).map(key)).toEqual(a.slice(2).map(key));
    abort.abort();
    await Promise.all([da, db]);
    await resumesExactly(bus1, s2, 6);
    await s1.close();
    await s2.close();
    await bus1.close();
    await bus2.close();
  });
});
