// Buckets in NATS JetStream KV: two ratelimit services on one nats-server share one limit.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Decision_Outcome as O } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { client, FakeClock, startRateLimit, type Started } from "./support.js";

const hasNats = spawnSync("nats-server", ["--version"]).status === 0;
let server: ChildProcess | undefined;
let url = "";
let dir = "";
let n = 0;

beforeAll(async () => {
  if (!hasNats) return;
  dir = mkdtempSync(join(tmpdir(), "tongate-nats-"));
  server = spawn("nats-server", ["-js", "-a", "127.0.0.1", "-p", "-1", "-sd", dir], { stdio: ["ignore", "pipe", "pipe"] });
  url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`nats-server did not start:\n${out}`)), 10_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /Listening for client connections on ([\d.]+:\d+)/.exec(out);
      if (m && /Server is ready/.test(out)) {
        clearTimeout(timer);
        resolve(`nats://${m[1]}`);
      }
    };
    server!.stdout!.on("data", onData);
    server!.stderr!.on("data", onData);
  });
});

afterAll(async () => {
  if (server) {
    const exited = new Promise((r) => server!.once("exit", r));
    server.kill("SIGTERM");
    await exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
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
