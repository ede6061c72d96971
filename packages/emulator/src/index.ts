// @tongate/emulator: one wrapper of TON's emulator (@ton/sandbox's Executor, the C++ emulator
// compiled to WebAssembly) — get-methods (c7 with the previous-blocks info), transactions and
// tick-tocks with every input passed explicitly, on this thread or a pool of worker threads.
// Used by localnet (collation, sendMessage checks, runSmcMethod) and lite-proxy (runGetMethod,
// estimateFee).
export * from "./executor.js";
export { ExecutorPool } from "./executor-pool.js";
export { bocBase64, withBoc } from "./boc-cache.js";
export { emulateOn, outMessagesCount, type Emulation, type EmulationJob } from "./emulate.mjs";
export { emulator, runGetMethod, runTransaction, type GetMethodRun, type GetMethodRunResult, type TransactionRun, type TransactionRunResult } from "./shared.js";
export type { PrevBlocksInfo, TickOrTock } from "@ton/sandbox";
