// The WebSocket method (bidirectional) on a real in-process bus: ping, subscribe (replacing the
// subscription), unsubscribe, toncenter's acks and errors by id, notifications carrying "event_id",
// a subscribe's resume_from, and the address limit's wording.
import { create } from "@bufbuild/protobuf";
import { type Notification, type WsRequest, WsRequestSchema } from "@tongate/proto/gen/tongate/streaming/v2/streaming_pb.js";
import { Finality } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { InProcessBus } from "@tongate/runtime";
import { afterEach, beforeEach, expect, it } from "vitest";
import { blockEvent, collect, dataOf, NOBODY, NORM, OTHER, publish, startStreaming, traceEvent, until, WALLET, type Started } from "./support.js";

/** The frames a client sends, as an async iterable it pushes into. */
class Outbox implements AsyncIterable<WsRequest> {
  private readonly items: WsRequest[] = [];
  private wake: (() => void) | undefined;
  private closed = false;
  send(r: Partial<Omit<WsRequest, "$typeName">>): void {
    this.items.push(create(WsRequestSchema, r));
    this.wake?.();
  }
  close(): void {
    this.closed = true;
    this.wake?.();
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<WsRequest> {
    for (;;) {
      const r = this.items.shift();
      if (r) {
        yield r;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((w) => (this.wake = w));
    }
  }
}

let bus: InProcessBus;
let s: Started;
beforeEach(async () => {
  bus = new InProcessBus();
  s = await startStreaming(bus, { "stream-max-addresses": "2" });
});
afterEach(async () => {
  await s.close();
  await bus.close();
});

function open(): { out: Outbox; got: Notification[]; done: Promise<unknown> } {
  const out = new Outbox();
  const got: Notification[] = [];
  return { out, got, done: collect(s.client.ws(out), got) };
}

it("ping, subscribe, unsubscribe and their errors, as toncenter answers them", async () => {
  const { out, got, done } = open();
  const next = async (n: number) => {
    await until(() => got.length >= n);
    return dataOf(got[n - 1]!);
  };
  out.send({ operation: "ping", id: "p1" });
  expect(await next(1)).toEqual({ id: "p1", status: "pong" });
  out.send({ operation: "ping" });
  expect(await next(2)).toEqual({ status: "pong" });
  out.send({ operation: "subscribe", id: "s0", addresses: [WALLET] });
  expect(await next(3)).toEqual({ id: "s0", error: "types are required" });
  out.send({ operation: "subscribe", id: "s1", types: ["transactions"] });
  expect(await next(4)).toEqual({ id: "s1", error: "addresses are required" });
  out.send({ operation: "subscribe", id: "s2", types: ["transactions"], addresses: [WALLET, OTHER, NOBODY] });
  expect(await next(5)).toEqual({ id: "s2", error: "address limit exceeded: current 0 + new 3 > max 2" });
  out.send({ operation: "subscribe", id: "s3", types: ["transactions", "blocks"], addresses: [WALLET], minFinality: "pending" });
  expect(await next(6)).toEqual({ id: "s3", status: "subscribed" });
  await publish(bus, traceEvent(Finality.PENDING));
  const ev = await next(7);
  // a WebSocket notification carries its id in its JSON (what resume_from takes)
  expect(ev).toMatchObject({ event_id: "1", type: "transactions", finality: "pending", trace_external_hash_norm: NORM });
  expect(got[6]!.id).toBe("1");
  out.send({ operation: "unsubscribe", id: "u0" });
  expect(await next(8)).toEqual({ id: "u0", error: "addresses or trace_external_hash_norms are required" });
  out.send({ operation: "unsubscribe", id: "u1", addresses: [WALLET] });
  expect(await next(9)).toEqual({ id: "u1", status: "unsubscribed" });
  // the account is no longer watched; blocks still are
  await publish(bus, traceEvent(Finality.FINALIZED));
  await publish(bus, blockEvent(3));
  expect(await next(10)).toMatchObject({ event_id: "3", type: "blocks" });
  out.send({ operation: "launch", id: "x" });
  expect(await next(11)).toEqual({ id: "x", error: "unknown operation: launch" });
  // a subscribe replaces the subscription; min_finality stays what the last one said
  out.send({ operation: "subscribe", id: "s4", types: ["transactions"], addresses: [OTHER] });
  expect(await next(12)).toEqual({ id: "s4", status: "subscribed" });
  await publish(bus, blockEvent(4));
  await publish(bus, traceEvent(Finality.PENDING));
  expect(await next(13)).toMatchObject({ event_id: "5", type: "transactions", finality: "pending" });
  expect(((await next(13)).transactions as { account: string }[]).map((t) => t.account)).toEqual([OTHER]);
  out.close();
  expect(await done).toBeUndefined();
  await until(() => (s.running.health?.().detail as { subscribers: number }).subscribers === 0);
});

it("a subscribe with resume_from gets what followed that event, then live ones", async () => {
  for (let i = 1; i <= 4; i++) await publish(bus, blockEvent(i));
  const { out, got, done } = open();
  out.send({ operation: "subscribe", id: "r", types: ["blocks"], resumeFrom: "2" });
  await until(() => got.length === 3);
  await publish(bus, blockEvent(5));
  await until(() => got.length === 4);
  expect(got.map((n) => dataOf(n).event_id ?? dataOf(n).status)).toEqual(["subscribed", "3", "4", "5"]);
  out.close();
  await done;
});

it("a WebSocket that does not read is cut off with an error naming the id to resume from, and its stream ends", async () => {
  await s.close();
  s = await startStreaming(bus, { "stream-buffer": "4" });
  const out = new Outbox();
  const it = s.client.ws(out)[Symbol.asyncIterator]();
  out.send({ operation: "subscribe", id: "s", types: ["blocks"] });
  expect(dataOf((await it.next()).value!)).toEqual({ id: "s", status: "subscribed" });
  await publish(bus, blockEvent(1));
  expect(dataOf((await it.next()).value!)).toMatchObject({ event_id: "1" });
  for (let i = 2; i <= 10; i++) await publish(bus, blockEvent(i));
  await until(() => (s.running.health?.().detail as { slowConsumers: number }).slowConsumers === 1);
  const error = (await it.next()).value!;
  expect(dataOf(error)).toEqual({ type: "error", error: "slow consumer: 4 notifications waiting (at most 4 or 16777216 bytes); resume from 1", last_event_id: "1" });
  expect((await it.next()).done).toBe(true);
  out.close();
});
