// --keyless-loopback off (what `tongate start` sets on a localnet): keyless clients on loopback are
// admitted without a bucket; other keyless clients keep the keyless rate.
import { describe, expect, it } from "vitest";
import { Decision_Outcome } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import { KeyStore, Limiter, limitsFromOptions, MemoryBucketStore } from "../src/index.js";
import { isLoopback } from "../src/policy.js";

const client = (address: string, apiKey = "") => ({ apiKey, address, origin: "", network: "localnet" }) as Parameters<Limiter["check"]>[0];

function limiter(keylessLoopback?: string): Limiter {
  const now = () => 1_000_000;
  return new Limiter(new KeyStore({ now }), new MemoryBucketStore(now), limitsFromOptions({ keylessLoopback }), now);
}

describe("keyless clients on loopback", () => {
  it("are limited by default", async () => {
    const l = limiter();
    expect((await l.check(client("127.0.0.1"), 1)).outcome).toBe(Decision_Outcome.ALLOWED);
    expect((await l.check(client("127.0.0.1"), 1)).outcome).toBe(Decision_Outcome.LIMITED);
  });

  it("are not limited with keyless-loopback off; other addresses and keys are", async () => {
    const l = limiter("off");
    for (const address of ["127.0.0.1", "::1", "::ffff:127.0.0.2"]) {
      for (let i = 0; i < 5; i++) expect((await l.check(client(address), 1)).outcome).toBe(Decision_Outcome.ALLOWED);
      expect((await l.lease(client(address), 50)).granted).toBe(50);
    }
    expect((await l.check(client("10.0.0.1"), 1)).outcome).toBe(Decision_Outcome.ALLOWED);
    expect((await l.check(client("10.0.0.1"), 1)).outcome).toBe(Decision_Outcome.LIMITED);
    expect((await l.check(client("127.0.0.1", "no-such-key"), 1)).outcome).toBe(Decision_Outcome.UNKNOWN_KEY);
  });

  it("rejects a value other than on or off", () => {
    expect(() => limitsFromOptions({ keylessLoopback: "maybe" })).toThrow(/expected on or off/);
    expect(isLoopback("127.9.9.9") && isLoopback("::1") && !isLoopback("192.168.0.1") && !isLoopback("")).toBe(true);
  });
});
