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

  it("an unreachable NATS is a configuration error at start", async () => {
    await expect(startRateLimit({ natsUrl: "nats://127.0.0.1:9" })).rejects.toThrow(/--nats-url nats:\/\/127\.0\.0\.1:9/);
  });
});
