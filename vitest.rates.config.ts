import { defineConfig } from "vitest/config";
import base, { RATE_TESTS } from "./vitest.config.js";

// The rate tests alone and one at a time (`npm run test:rates`, a step of `npm test`): each starts
// several tongate processes and load generators and checks the requests admitted per second, which
// a neighbouring test file on the same 2 cores would skew.
export default defineConfig({ test: { ...base.test, include: RATE_TESTS, exclude: ["**/node_modules/**"], fileParallelism: false, maxWorkers: 1 } });
