// Buckets in NATS JetStream KV: two ratelimit services on one nats-server share one limit.
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { Decision_Outcome as O } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { hasNats, startNatsServer, type NatsServer } from "../../../tests/support/nats.js";
import { client, FakeClock, startRateLimit, type Started } from "./support.js";

let server: NatsServer | undefined;
let url = "";
let dir = "";
let n = 0;

beforeAll(async () => {
  if (!hasNats) return;
  server = await startNatsServer();
  url = server.url;
  dir = server.dir;
});

afterAll(async () => {
  await server?.stop();
});

/** Two ratelimit services sharing a NATS KV bucket (a fresh one per test), one keys directory and one clock. */
async function pair(options: Record<string, unknown> = {}): Promise<[Started, Started]> {
  const clock = new FakeClock();
  const kv = `tongate_rl_test_${++n}`;
  const keys = mkdtempSync(join(dir, "keys-"));
  return [
    await startRateLimit({ natsUrl: url, natsKvBucket: kv, dataDir: keys, ...options }, clock),
    await startRateLimit({ "nats-url": url, "nats-kv-bucket": kv, "data-dir": keys, ...options }, clock),
  ];
}

describe.skipIf(!hasNats)("NATS JetStream KV buckets", () => {
  let a: Started | undefined;
  let b: Started | undefined;
  afterEach(async () => {
    await a?.close();
    await b?.close();
    a = b = undefined;
  });

  it("keyless 1 rps holds across two ratelimit processes", async () => {
    [a, b] = await pair();
    const c = client({ address: "2001:db8::5" });
    expect((await a.rl.check({ client: c })).decision).toMatchObject({ outcome: O.ALLOWED, bucket: "ip:2001:db8::5" });
    a.clock.advance(500);
    expect((await b.rl.check({ client: c })).decision).toMatchObject({ outcome: O.LIMITED, retryAfterMs: 500 });
    a.clock.advance(500);
    expect((await b.rl.check({ client: c })).decision!.outcome).toBe(O.ALLOWED);
    expect((await a.rl.check({ client: c })).decision!.outcome).toBe(O.LIMITED);
  });

  it("concurrent leases of one key from both never grant more than the bucket holds", async () => {
    [a, b] = await pair();
    const { secret } = await a.key({ plan: "custom", rps: 50 });
    a.clock.advance(1000); // b reads the keys file again
    const c = client({ apiKey: secret });
    // A bucket of 50, at most 5 per lease, 40 leases at once from both services.
    const leases = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a! : b!).rl.lease({ client: c, want: 5 })));
    expect(leases.reduce((s, l) => s + l.granted, 0)).toBe(50);
    expect(leases.filter((l) => l.decision!.outcome === O.LIMITED)).toHaveLength(30);
    expect(leases.find((l) => l.granted)!.decision!.bucket).toMatch(/^key:/);
  });

  it("a malformed NATS URL is a configuration error at start", async () => {
    await expect(startRateLimit({ natsUrl: "nats://127.0.0.1:99999" })).rejects.toThrow(/--nats-url nats:\/\/127\.0\.0\.1:99999/);
  });
});

/** The service's /healthz as the host shows it. */
function health(s: Started): { ok: boolean; degraded?: boolean; state: unknown } {
  const h = s.running.health?.();
  const detail = h?.detail;
  const nats = typeof detail === "object" && detail !== null && !Array.isArray(detail) ? detail.nats : undefined;
  const state = typeof nats === "object" && nats !== null && !Array.isArray(nats) ? nats.state : undefined;
  return { ok: h?.ok ?? false, degraded: h?.degraded, state };
}

async function until(what: string, cond: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// Each on a nats-server of its own: they stop and suspend it.
describe.skipIf(!hasNats)("NATS down or hanging (issue 16)", () => {
  let own: NatsServer | undefined;
  const running: Started[] = [];
  beforeAll(async () => {
    if (hasNats) own = await startNatsServer();
  });
  afterEach(async () => {
    for (const s of running.splice(0)) await s.close();
  });
  afterAll(async () => {
    await own?.stop();
  });

  it("started while NATS is down: answers by its policy at once, degraded; shares its buckets once NATS is up", async () => {
    await own!.halt();
    const kv = `tongate_rl_down_${++n}`;
    const keys = mkdtempSync(join(own!.dir, "keys-"));
    const clock = new FakeClock();
    const local = await startRateLimit({ natsUrl: own!.url, natsKvBucket: kv, dataDir: keys }, clock);
    running.push(local);
    const deny = await startRateLimit({ natsUrl: own!.url, natsKvBucket: kv, dataDir: keys, ratelimitOutage: "deny" }, clock);
    running.push(deny);
    expect(health(local)).toEqual({ ok: true, degraded: true, state: "reconnecting" });
    const c = client({ address: "10.9.9.9" });
    const t0 = performance.now();
    // local: this process's own bucket (1 rps keyless)
    expect((await local.rl.check({ client: c })).decision!.outcome).toBe(O.ALLOWED);
    expect((await local.rl.check({ client: c })).decision!.outcome).toBe(O.LIMITED);
    // deny: 503
    await expect(deny.rl.check({ client: c })).rejects.toThrow(/NATS, which is unreachable/);
    expect(performance.now() - t0).toBeLessThan(100);

    await own!.resume();
    await until("both connected", () => health(local).state === "up" && health(deny).state === "up");
    expect(health(local)).toEqual({ ok: true, degraded: false, state: "up" });
    // shared: what one takes, the other sees
    expect((await deny.rl.check({ client: c })).decision!.outcome).toBe(O.ALLOWED);
    expect((await local.rl.check({ client: c })).decision).toMatchObject({ outcome: O.LIMITED, retryAfterMs: 1000 });
  });

  it("while NATS is down, the local buckets go on from the shared states this process saw, not from full ones", async () => {
    const clock = new FakeClock();
    const s = await startRateLimit({ natsUrl: own!.url, natsKvBucket: `tongate_rl_mirror_${++n}` }, clock);
    running.push(s);
    await until("connected", () => health(s).state === "up");
    const c = client({ address: "10.7.7.7" });
    // keyless: 1 rps, a bucket of 1, spent through NATS
    expect((await s.rl.check({ client: c })).decision!.outcome).toBe(O.ALLOWED);
    await own!.halt();
    try {
      await until("NATS down", () => health(s).state === "reconnecting");
      expect((await s.rl.check({ client: c })).decision).toMatchObject({ outcome: O.LIMITED, retryAfterMs: 1000 });
      clock.advance(1000);
      expect((await s.rl.check({ client: c })).decision!.outcome).toBe(O.ALLOWED);
    } finally {
      await own!.resume();
    }
    await until("connected again", () => health(s).state === "up");
  });

  it("a bucket update NATS does not answer within the deadline is decided by the policy; shared again once it answers", async () => {
    const kv = `tongate_rl_hang_${++n}`;
    const clock = new FakeClock();
    const local = await startRateLimit({ natsUrl: own!.url, natsKvBucket: kv, ratelimitNatsDeadlineMs: 50 }, clock);
    running.push(local);
    const deny = await startRateLimit({ natsUrl: own!.url, natsKvBucket: kv, ratelimitOutage: "deny", ratelimitNatsDeadlineMs: 50 }, clock);
    running.push(deny);
    await until("both connected", () => health(local).state === "up" && health(deny).state === "up");
    const c = client({ address: "10.8.8.8" });
    expect((await local.rl.check({ client: c })).decision!.outcome).toBe(O.ALLOWED);
    // (a loaded machine may have made that first update miss its deadline: the link checks again)
    await until("both connected", () => health(local).state === "up" && health(deny).state === "up");
    await own!.freeze();
    try {
      const timed = async <T>(p: Promise<T>): Promise<[T | Error, number]> => {
        const t0 = performance.now();
        const r = await p.catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
        return [r, performance.now() - t0];
      };
      clock.advance(1000);
      // the first update waits for its deadline, then the policy decides it
      const [first, firstMs] = await timed(local.rl.check({ client: c }));
      expect(first).toMatchObject({ decision: { outcome: O.ALLOWED } });
      // (50 ms and the event loop's turns; tests/e2e/ratelimit-nats-outage.test.ts measures the 100 ms goal under load)
      expect(firstMs).toBeGreaterThanOrEqual(45);
      expect(firstMs).toBeLessThan(250);
      const [denied, deniedMs] = await timed(deny.rl.check({ client: c }));
      expect(String(denied)).toMatch(/NATS, which is unreachable/);
      expect(deniedMs).toBeLessThan(250);
      // the link checks the server again before anything else waits on it: at once from now on
      expect(health(local)).toMatchObject({ ok: true, degraded: true, state: "preparing" });
      const [second, secondMs] = await timed(local.rl.check({ client: c }));
      expect(second).toMatchObject({ decision: { outcome: O.LIMITED } });
      expect(secondMs).toBeLessThan(20);
    } finally {
      own!.thaw();
    }
    await until("both shared again", () => health(local).state === "up" && health(deny).state === "up");
    clock.advance(1000);
    expect((await deny.rl.check({ client: c })).decision!.outcome).toBe(O.ALLOWED);
    expect((await local.rl.check({ client: c })).decision!.outcome).toBe(O.LIMITED);
  });
});
