// The event bus: subject matching, the in-process bus (order, fan-out, unsubscribe, a failing
// handler), and the JetStream bus on a real nats-server (replay, dedup by message id).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasNats, startNatsServer, type NatsServer } from "../../../tests/support/nats.js";
import { type BusMessage, type EventBus, InProcessBus, openBus, subjectMatches } from "../src/index.js";

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (m: BusMessage) => new TextDecoder().decode(m.data);

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("subjects", () => {
  it("match tokens, * one token and > the rest", () => {
    expect(subjectMatches("tongate.mainnet.blocks.indexed", "tongate.mainnet.blocks.indexed")).toBe(true);
    expect(subjectMatches("tongate.*.blocks.indexed", "tongate.testnet.blocks.indexed")).toBe(true);
    expect(subjectMatches("tongate.>", "tongate.testnet.blocks.indexed")).toBe(true);
    expect(subjectMatches("tongate.>", "tongate")).toBe(false);
    expect(subjectMatches("tongate.*", "tongate.a.b")).toBe(false);
    expect(subjectMatches("tongate.mainnet.blocks", "tongate.mainnet.blocks.indexed")).toBe(false);
  });
});

describe("in-process bus", () => {
  it("delivers in order to every matching subscriber, and nothing after unsubscribe", async () => {
    const errors: unknown[] = [];
    const bus = new InProcessBus((e) => errors.push(e));
    const a: string[] = [];
    const b: string[] = [];
    const sa = await bus.subscribe("tongate.*.blocks.indexed", async (m) => {
      await new Promise((r) => setTimeout(r, Number(text(m)) % 3));
      a.push(text(m));
    });
    await bus.subscribe("tongate.>", (m) => {
      if (text(m) === "2") throw new Error("handler failed");
      b.push(text(m));
    });
    for (let i = 0; i < 10; i++) await bus.publish("tongate.localnet.blocks.indexed", bytes(String(i)));
    await bus.publish("other.subject", bytes("x"));
    await until(() => a.length === 10 && b.length === 9);
    expect(a).toEqual(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
    expect(b).toEqual(["0", "1", "3", "4", "5", "6", "7", "8", "9"]);
    expect(errors.map((e) => (e as Error).message)).toEqual(["handler failed"]);
    await sa.unsubscribe();
    await bus.publish("tongate.localnet.blocks.indexed", bytes("10"));
    await until(() => b.length === 10);
    expect(a).toHaveLength(10);
    await bus.close();
    await expect(bus.publish("tongate.x", bytes("y"))).rejects.toThrow(/closed/);
  });

  it("openBus without a NATS URL is the in-process bus", async () => {
    const bus = await openBus();
    expect(bus).toBeInstanceOf(InProcessBus);
    await bus.close();
  });
});

describe.skipIf(!hasNats)("NATS JetStream bus", () => {
  let server: NatsServer;
  beforeAll(async () => {
    server = await startNatsServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("stores, replays from the start, delivers new messages, and drops a re-published id", async () => {
    const pub: EventBus = await openBus({ natsUrl: server.url });
    for (let i = 1; i <= 3; i++) await pub.publish(`tongate.t1.blocks.indexed`, bytes(String(i)), { id: `tongate.t1.blocks.indexed:${i}` });
    await pub.publish(`tongate.t1.blocks.indexed`, bytes("3"), { id: `tongate.t1.blocks.indexed:3` }); // a crash's re-publish
    const sub = await openBus({ natsUrl: server.url });
    const all: BusMessage[] = [];
    const live: string[] = [];
    const s1 = await sub.subscribe("tongate.t1.>", (m) => void all.push(m), { deliver: "all" });
    const s2 = await sub.subscribe("tongate.*.blocks.indexed", (m) => void live.push(text(m)));
    await until(() => all.length === 3);
    await pub.publish(`tongate.t1.blocks.indexed`, bytes("4"), { id: `tongate.t1.blocks.indexed:4` });
    await until(() => all.length === 4 && live.length === 1);
    expect(all.map(text)).toEqual(["1", "2", "3", "4"]);
    expect(all.map((m) => m.seq)).toEqual([1, 2, 3, 4]);
    expect(all[0]!.subject).toBe("tongate.t1.blocks.indexed");
    expect(live).toEqual(["4"]);
    await s1.unsubscribe();
    await s2.unsubscribe();
    await sub.close();
    await pub.close();
  });

  it("while NATS is down publish fails at once; it reconnects by itself and recreates the stream on a fresh store", async () => {
    const bus = await openBus({ natsUrl: server.url });
    const health = () => {
      const h = bus.health?.();
      return { ok: h?.ok ?? false, state: typeof h?.detail === "object" && h.detail !== null && "state" in h.detail ? h.detail.state : undefined, h };
    };
    expect(health()).toMatchObject({ ok: true, state: "up", h: { name: "nats" } });
    await bus.publish("tongate.t2.blocks.indexed", bytes("before"), { id: "t2:0" });
    await server.halt();
    await until(() => health().state === "reconnecting");
    const t0 = performance.now();
    await expect(bus.publish("tongate.t2.blocks.indexed", bytes("down"), { id: "t2:1" })).rejects.toThrow(/NATS is unreachable/);
    expect(performance.now() - t0).toBeLessThan(100);
    // a fresh store: the stream is gone and comes back with the connection
    await server.resume({ fresh: true });
    await until(() => health().ok, 10_000);
    await bus.publish("tongate.t2.blocks.indexed", bytes("after"), { id: "t2:2" });
    const seen: string[] = [];
    const s = await bus.subscribe("tongate.t2.>", (m) => void seen.push(text(m)), { deliver: "all" });
    await until(() => seen.length === 1);
    expect(seen).toEqual(["after"]);
    expect(health().h?.detail).toMatchObject({ outages: 1 });
    await s.unsubscribe();
    await bus.close();
  });

  it("startDown: a bus opened while NATS is down connects in the background", async () => {
    await server.halt();
    const bus = await openBus({ natsUrl: server.url, startDown: true });
    expect(bus.health?.()).toMatchObject({ ok: false, detail: { state: "reconnecting" } });
    await expect(bus.publish("tongate.t3.blocks.indexed", bytes("down"))).rejects.toThrow(/NATS is unreachable/);
    await server.resume();
    await until(() => bus.health?.().ok === true, 10_000);
    await bus.publish("tongate.t3.blocks.indexed", bytes("up"), { id: "t3:1" });
    await bus.close();
  });

  it("an unreachable server is a configuration error naming the URL", async () => {
    await expect(openBus({ natsUrl: "nats://127.0.0.1:9" })).rejects.toThrow(/--nats-url nats:\/\/127\.0\.0\.1:9/);
  });
});
