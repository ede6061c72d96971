// The pool's consensus rules (the pool itself against a localnet: tests/liteclient/pool.test.ts, which may
// import @tongate/localnet; a package's tests may not).
import { describe, expect, it } from "vitest";
import { advanceConsensus, computeConsensus } from "@tongate/liteclient";

describe("consensus rules", () => {
  it("computes the consensus as toncenter's PY manager, with CPP's 3-block tolerance", () => {
    expect(computeConsensus([])).toBeNull();
    expect(computeConsensus([10, 10, 10])).toBe(10);
    // One liteserver a block ahead does not move the consensus: 60% of those within 4 blocks must have it.
    expect(computeConsensus([11, 10, 10])).toBe(10);
    expect(computeConsensus([11, 11, 10])).toBe(11);
    // A liteserver far behind is outside the window and does not count.
    expect(computeConsensus([20, 20, 2])).toBe(20);
    expect(computeConsensus([20, 2])).toBe(20);
    // Monotonic, unless nobody is within tolerance of the held value any more.
    expect(advanceConsensus(20, [19, 19])).toBe(20);
    expect(advanceConsensus(20, [5, 5])).toBe(5);
  });
});
