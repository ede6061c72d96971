// Token buckets through the service: keyless 1 rps, plans, bursts, leases, accounts, custom rates.
import { Decision_Outcome as O } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryBucketStore } from "../src/bucket-store.js";
import { takeExactly } from "../src/token-bucket.js";
import { client, FakeClock, startRateLimit, type ClientInit, type Started } from "./support.js";

let s: Started;
afterEach(async () => s?.close());

/** Requests sent every `stepMs` for `seconds`; how many were admitted. */
async function admittedOver(s: Started, c: ClientInit, seconds: number, stepMs: number): Promise<number> {
  let ok = 0;
  for (let t = 0; t < seconds * 1000; t += stepMs) {
    const { decision } = await s.rl.check({ client: c, cost: 1 });
    if (decision!.outcome === O.ALLOWED) ok++;
    else expect(decision!.outcome).toBe(O.LIMITED);
    s.clock.advance(stepMs);
  }
  return ok;
}

describe("keyless", () => {
  it("admits 1 request per second per client address, exactly", async () => {
    s = await startRateLimit();
    const c = client({ address: "10.1.2.3" });
    const first = (await s.rl.check({ client: c })).decision!;
    expect(first).toMatchObject({ outcome: O.ALLOWED, limit: 1, burst: 1, remaining: 0, resetMs: 1000, bucket: "ip:10.1.2.3" });
    s.clock.advance(500);
    const second = (await s.rl.check({ client: c })).decision!;
    expect(second).toMatchObject({ outcome: O.LIMITED, retryAfterMs: 500, remaining: 0, resetMs: 500, limit: 1 });
    expect(second.reason).toMatch(/rate limit/);
    s.clock.advance(499);
    expect((await s.rl.check({ client: c })).decision!).toMatchObject({ outcome: O.LIMITED, retryAfterMs: 1 });
    s.clock.advance(1);
    expect((await s.rl.check({ client: c })).decision!.outcome).toBe(O.ALLOWED);
    // Another address has its own bucket.
    expect((await s.rl.check({ client: client({ address: "10.1.2.4" }) })).decision!.outcome).toBe(O.ALLOWED);
  });

  it("counts an IPv4 client on a dual-stack socket as its IPv4 address", async () => {
    s = await startRateLimit();
    expect((await s.rl.check({ client: client({ address: "::ffff:10.9.9.9" }) })).decision!).toMatchObject({ outcome: O.ALLOWED, bucket: "ip:10.9.9.9" });
    expect((await s.rl.check({ client: client({ address: "10.9.9.9" }) })).decision!.outcome).toBe(O.LIMITED);
  });

  it("over 10 seconds admits 10 (+1 for the full bucket at the start)", async () => {
    s = await startRateLimit();
    expect(await admittedOver(s, client(), 10, 100)).toBe(10);
  });

  it("takes its rate from --keyless-rps", async () => {
    s = await startRateLimit({ "keyless-rps": "3" });
    // The full bucket (3), then 3 per second for the 9.99 s after it.
    expect(await admittedOver(s, client(), 10, 10)).toBe(3 + 29);
  });
});

describe("plans", () => {
  for (const [plan, rps] of [["free", 10], ["plus", 25], ["advanced", 100]] as const) {
    it(`${plan}: ${rps} rps over 10 simulated seconds, bursts up to ${rps}`, async () => {
      s = await startRateLimit();
      const { secret } = await s.key({ plan });
      const c = client({ apiKey: secret });
      // A full bucket: `rps` at once, then nothing.
      for (let i = 0; i < rps; i++) expect((await s.rl.check({ client: c })).decision!.outcome).toBe(O.ALLOWED);
      const over = (await s.rl.check({ client: c })).decision!;
      expect(over).toMatchObject({ outcome: O.LIMITED, limit: rps, burst: rps, remaining: 0, retryAfterMs: Math.ceil(1000 / rps) });
      // Then, hammering every ms for 10 s: the rate exactly.
      s.clock.advance(1000);
      const n = await admittedOver(s, c, 10, 1);
      expect(n).toBeGreaterThanOrEqual(rps * 10);
      expect(n).toBeLessThanOrEqual(rps * 10 + rps);
    });
  }

  it("custom: the key's own rps", async () => {
    s = await startRateLimit();
    const { secret } = await s.key({ plan: "custom", rps: 7 });
    const c = client({ apiKey: secret });
    expect((await s.rl.check({ client: c })).decision!).toMatchObject({ outcome: O.ALLOWED, limit: 7, burst: 7, remaining: 6, bucket: expect.stringMatching(/^key:[0-9a-f]{12}$/) });
    s.clock.advance(1000);
    // The full bucket (7), then 7 per second for the 9.995 s after it.
    expect(await admittedOver(s, c, 10, 5)).toBe(7 + 69);
  });

  it("a cost above 1 takes that many tokens, or nothing", async () => {
    s = await startRateLimit();
    const { secret } = await s.key({ plan: "free" });
    const c = client({ apiKey: secret });
    expect((await s.rl.check({ client: c, cost: 8 })).decision!).toMatchObject({ outcome: O.ALLOWED, remaining: 2 });
    expect((await s.rl.check({ client: c, cost: 3 })).decision!).toMatchObject({ outcome: O.LIMITED, remaining: 2, retryAfterMs: 100 });
    expect((await s.rl.check({ client: c, cost: 2 })).decision!).toMatchObject({ outcome: O.ALLOWED, remaining: 0 });
  });

  it("a cost above the burst is admitted from a full bucket and leaves it in debt", async () => {
    s = await startRateLimit();
    const c = client();
    expect((await s.rl.check({ client: c, cost: 3 })).decision!.outcome).toBe(O.ALLOWED);
    s.clock.advance(2999);
    expect((await s.rl.check({ client: c })).decision!).toMatchObject({ outcome: O.LIMITED, retryAfterMs: 1 });
    s.clock.advance(1);
    expect((await s.rl.check({ client: c })).decision!.outcome).toBe(O.ALLOWED);
  });
});

describe("lease", () => {
  it("grants min(want, tokens held, a tenth of the rate), valid 1 s; unused tokens lapse", async () => {
    s = await startRateLimit();
    const { secret } = await s.key({ plan: "advanced" });
    const c = client({ apiKey: secret });
    const a = await s.rl.lease({ client: c, want: 50 });
    expect(a).toMatchObject({ granted: 10, validMs: 1000 });
    expect(a.decision).toMatchObject({ outcome: O.ALLOWED, limit: 100, burst: 100, remaining: 90, resetMs: 100 });
    expect((await s.rl.lease({ client: c, want: 3 })).granted).toBe(3);
    expect((await s.rl.lease({ client: c, want: 0 })).granted).toBe(1);
    // Drain: 86 left, in leases of 10 and then what is left.
    const grants: number[] = [];
    for (;;) {
      const l = await s.rl.lease({ client: c, want: 10 });
      if (l.decision!.outcome !== O.ALLOWED) {
        expect(l).toMatchObject({ granted: 0, validMs: 0 });
        expect(l.decision).toMatchObject({ outcome: O.LIMITED, retryAfterMs: 10, remaining: 0 });
        break;
      }
      grants.push(l.granted);
    }
    expect(grants).toEqual([10, 10, 10, 10, 10, 10, 10, 10, 6]);
    // Leased tokens are never given back: after 1 s only what refilled is there.
    s.clock.advance(1000);
    let total = 0;
    for (let i = 0; i < 20; i++) total += (await s.rl.lease({ client: c, want: 10 })).granted;
    expect(total).toBe(100);
  });

  it("keyless: one token at a time, 1 per second", async () => {
    s = await startRateLimit();
    expect(await s.rl.lease({ client: client(), want: 5 })).toMatchObject({ granted: 1, validMs: 1000 });
    s.clock.advance(250);
    const l = await s.rl.lease({ client: client(), want: 5 });
    expect(l).toMatchObject({ granted: 0 });
    expect(l.decision).toMatchObject({ outcome: O.LIMITED, retryAfterMs: 750 });
  });

  it("several gateways leasing one limit never exceed it", async () => {
    s = await startRateLimit();
    const { secret } = await s.key({ plan: "plus" });
    const c = client({ apiKey: secret });
    let granted = 0;
    for (let t = 0; t < 10_000; t += 20) {
      // Three gateways, each wanting more than it gets.
      for (let g = 0; g < 3; g++) granted += (await s.rl.lease({ client: c, want: 8 })).granted;
      s.clock.advance(20);
    }
    expect(granted).toBeLessThanOrEqual(25 * 10 + 25);
    expect(granted).toBeGreaterThanOrEqual(25 * 10);
  });
});

describe("accounts", () => {
  it("keys of one account share one bucket, at the highest plan among its live keys", async () => {
    s = await startRateLimit();
    const a = await s.key({ plan: "free", account: "acme" });
    const b = await s.key({ plan: "plus", account: "acme" });
    const other = await s.key({ plan: "plus" });
    const first = (await s.rl.check({ client: client({ apiKey: a.secret }) })).decision!;
    expect(first).toMatchObject({ outcome: O.ALLOWED, bucket: "account:acme", limit: 25 });
    let ok = 1;
    for (let i = 0; i < 40; i++) {
      const d = (await s.rl.check({ client: client({ apiKey: i % 2 ? a.secret : b.secret }) })).decision!;
      if (d.outcome === O.ALLOWED) ok++;
    }
    expect(ok).toBe(25);
    // A key outside the account is not affected.
    expect((await s.rl.check({ client: client({ apiKey: other.secret }) })).decision!).toMatchObject({ outcome: O.ALLOWED, bucket: `key:${other.id}` });
    // Revoking the plus key: the account is back to free's rate.
    await s.rl.revokeKey({ adminToken: "test-admin-token", id: b.id });
    s.clock.advance(5000);
    expect((await s.rl.check({ client: client({ apiKey: a.secret }) })).decision!).toMatchObject({ outcome: O.ALLOWED, limit: 10, remaining: 9 });
  });
});

describe("memory buckets", () => {
  it("forgets buckets that have refilled (keyless clients come and go)", async () => {
    const clock = new FakeClock();
    const store = new MemoryBucketStore(clock.now, 60_000);
    const rate = { rps: 1, burst: 1 };
    for (let i = 0; i < 100; i++) await store.update(`ip:10.0.0.${i}`, rate, (st) => takeExactly(st, rate, clock.now(), 1));
    expect(store.size).toBe(100);
    clock.advance(60_000);
    await store.update("ip:10.0.1.1", rate, (st) => takeExactly(st, rate, clock.now(), 1));
    expect(store.size).toBe(1);
  });
});
