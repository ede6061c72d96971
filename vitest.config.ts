import { defineConfig } from "vitest/config";

/** Tests that measure rates (rate limits across processes, through NATS outages). */
export const RATE_TESTS = ["tests/e2e/ratelimit-distributed.test.ts", "tests/e2e/ratelimit-nats-outage.test.ts", "tests/e2e/nats-down-at-start.test.ts"];

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "cli/test/**/*.test.ts", "gateway/test/**/*.test.ts", "services/*/test/**/*.test.ts", "tests/**/*.test.ts"],
    // The adversarial fuzz suite bounds tongate's answer times: it runs alone, after the rest
    // (`npm run test:fuzz`, vitest.fuzz.config.ts), not beside other files on the same 2 cores.
    // The rate tests measure admitted requests per second with load generators on the same
    // machine: they run one at a time after the rest (`npm run test:rates`, vitest.rates.config.ts).
    exclude: ["**/node_modules/**", "tests/e2e/adversarial-fuzz.test.ts", ...RATE_TESTS],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Tests start real servers and processes; keep files in separate workers but few at once on 2 cores.
    maxWorkers: 2,
    // What `tongate` does at startup: native SHA-256 for @ton/core's cell hashes.
    setupFiles: ["tests/support/setup.ts"],
  },
});
