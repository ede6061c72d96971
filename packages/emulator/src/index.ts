// @tongate/emulator: one wrapper of TON's emulator (@ton/sandbox's Executor, the C++ emulator
// compiled to WebAssembly), always run in child processes with a time and a memory bound
// (EmulatorPool): get-methods (c7 with the previous-blocks info), transactions and tick-tocks with
// every input passed explicitly. Used by localnet (collation, sendMessage checks, runSmcMethod) and
// lite-proxy (runGetMethod, estimateFee); traces (trace.ts) for the send service and the Emulate API.
export * from "./executor.js";
export { EmulatorFailure, EmulatorPool, type EmulatorFailureReason, type EmulatorPoolHealth, type EmulatorPoolOptions, type GetMethodAnswer, type GetMethodJob } from "./emulator-pool.js";
export { emulatorFlags, emulatorKey, emulatorPoolOptionsOf, emulatorProvision } from "./resource.js";
export { prevBlocksInfoBoc } from "./prev-blocks.js";
export { bocBase64, withBoc } from "./boc-cache.js";
export { emulateOn, outMessagesCount, type Emulation, type EmulationJob } from "./emulate.mjs";
export { emptyLibraries, librariesCell, libraryRefs, type Libraries } from "./libraries.js";
export { getMethodJob, runGetMethod, runTransaction, type GetMethodRun, type GetMethodRunResult, type TransactionRun, type TransactionRunResult } from "./shared.js";
export type { PrevBlocksInfo, TickOrTock } from "@ton/sandbox";
export { emulateTrace, TRACE_DEFAULTS, TraceEmulationError, type EmulatedTrace, type EmulatedTransaction, type TraceAccount, type TraceBounds, type TraceEmulationFailure, type TraceEmulationInput } from "./trace.js";
