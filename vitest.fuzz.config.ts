import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

// The adversarial fuzz suite alone (`npm run test:fuzz`, the last step of `npm test`): the base
// options but its one file (mergeConfig would add it to the base's include, not replace it).
export default defineConfig({ test: { ...base.test, include: ["tests/e2e/adversarial-fuzz.test.ts"], exclude: ["**/node_modules/**"] } });
