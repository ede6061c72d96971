// A subscription from a sequence number (a stream client that resumes): the kept messages from it,
// then the live ones without a gap or a repeat; what the bus still keeps (kept) on both buses, the
// in-process bus's history bounded by count, bytes and age.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasNats, startNatsServer, type NatsServer } from "../../../tests/support/nats.js";
import { type BusMessage, type EventBus, InProcessBus, openBus } from "../src/index.js";

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (m: BusMessage) => new TextDecoder().decode(m.data);

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Publishes 0..n-1 on `subject` with a message on another subject between each, answering the seqs of `subject`'s. */
async function publishMixed(bus: EventBus, subject: string, other: string, n: number, from = 0): Promise<void> {
  for (let i = from; i < from + n; i++) {
    await bus.publish(subject, bytes(String(i)), { id: `${subject}:${i}` });
    await bus.publish(other, bytes(`o${i}`), { id: `${other}:${i}` });
  }
}

/** Subscribes from `fromSeq` while more is published, and checks the union is in order without a gap or a repeat. */
async function resumesWithoutGap(bus: EventBus, subject: string, other: string): Promise<void> {
  await publishMixed(bus, subject, other, 10);
  const all: BusMessage[] = [];
  const s0 = await bus.subscribe(subject, (m) => void all.push(m), { fromSeq: 1 });
  await until(() => all.length === 10);
  expect(all.map(text)).toEqual(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
  expect(all.every((m) => m.timeMs > Date.now() - 60_000 && m.timeMs <= Date.now())).toBe(true);
  const fifth = all[4]!;
  const k = await bus.kept(subject, fifth.seq);
  expect(k.timeMs).toBe(fifth.timeMs);
  expect(k.lastSeq).toBe(all[9]!.seq + 1);
  expect((await bus.kept(subject, fifth.seq + 1)).timeMs).toBeUndefined(); // another subject's
  expect(await bus.kept(subject, 10_000)).toEqual({ lastSeq: all[9]!.seq + 1 });
  // from the fifth (inclusive) while the publisher goes on: the kept ones, then live, in order
  const resumed: string[] = [];
  const publishing = publishMixed(bus, subject, other, 10, 10);
  const s1 = await bus.subscribe(subject, (m) => void resumed.push(text(m)), { fromSeq: fifth.seq });
  await publishing;
  await until(() => resumed.length === 16);
  expect(resumed).toEqual(Array.from({ length: 16 }, (_, i) => String(i + 4)));
  await s0.unsubscribe();
  await s1.unsubscribe();
}

describe("in-process bus from a sequence number", () => {
  it("delivers the kept messages from it, then live ones, with no gap and no repeat", async () => {
    const bus = new InProcessBus();
    bus.keepHistory({ subjects: ["tongate.*.stream.events"], maxMessages: 1000, maxBytes: 1 << 20, maxAgeMs: 60_000 });
    await resumesWithoutGap(bus, "tongate.localnet.stream.events", "tongate.localnet.blocks.indexed");
    // a subject not kept: live only
    const other: string[] = [];
    await bus.subscribe("tongate.localnet.blocks.indexed", (m) => void other.push(text(m)), { fromSeq: 1 });
    await bus.publish("tongate.localnet.blocks.indexed", bytes("new"));
    await until(() => other.length === 1);
    expect(other).toEqual(["new"]);
    await bus.close();
  });

  it("keeps at most maxMessages, maxBytes and maxAgeMs", async () => {
    let now = 1_000_000;
    const bus = new InProcessBus(undefined, () => now);
    const subject = "tongate.l.stream.events";
    bus.keepHistory({ subjects: [subject], maxMessages: 5, maxBytes: 30, maxAgeMs: 10_000 });
    for (let i = 1; i <= 8; i++) await bus.publish(subject, bytes("x"));
    expect((await bus.kept(subject, 3)).timeMs).toBeUndefined();
    expect((await bus.kept(subject, 4)).timeMs).toBe(now);
    await bus.publish(subject, new Uint8Array(29)); // seq 9: with 8, 7 and 6, past 30 bytes
    expect((await bus.kept(subject, 7)).timeMs).toBeUndefined();
    expect((await bus.kept(subject, 8)).timeMs).toBe(now);
    now += 10_001;
    expect(await bus.kept(subject, 9)).toEqual({ lastSeq: 9 });
    // another subject asked for later is kept too, within the larger bounds asked for
    bus.keepHistory({ subjects: ["tongate.other.stream.events"], maxMessages: 3, maxBytes: 10, maxAgeMs: 1 });
    await bus.publish("tongate.other.stream.events", bytes("o"));
    expect((await bus.kept("tongate.other.stream.events", 10)).timeMs).toBe(now);
    // many messages: memory stays bounded (the dropped head is cut off)
    for (let i = 0; i < 5000; i++) await bus.publish(subject, bytes("y"));
    const got: number[] = [];
    await bus.subscribe(subject, (m) => void got.push(m.seq), { fromSeq: 1 });
    await until(() => got.length === 5);
    expect(got).toEqual([5006, 5007, 5008, 5009, 5010]);
    await bus.close();
  });
});

describe.skipIf(!hasNats)("NATS JetStream bus from a sequence number", () => {
  let server: NatsServer;
  beforeAll(async () => {
    server = await startNatsServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("delivers the stored messages from it, then live ones, with no gap and no repeat", async () => {
    const bus = await openBus({ natsUrl: server.url });
    await resumesWithoutGap(bus, "tongate.n1.stream.events", "tongate.n1.blocks.indexed");
    await bus.close();
  });
});
