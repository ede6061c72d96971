// A worker thread holding one TON emulator (WebAssembly): runs the emulations it
// is sent (emulate.mjs) and answers with the emulator's BoCs, plus the number of
// messages the transaction sent (a collator plans logical times with it).
import { parentPort } from "node:worker_threads";
import { Cell } from "@ton/core";
import { Executor } from "@ton/sandbox";
import { emulateOn, outMessagesCount } from "./emulate.mjs";

const executor = await Executor.create();
// The config and libraries come with the first job and whenever they change (executor-pool.ts).
let held = { config: "", libs: null };
parentPort.on("message", ({ id, job, config, libs }) => {
  try {
    if (config !== undefined) held = { config, libs };
    const result = emulateOn(executor, { ...job, ...held });
    if (result.success && job.countOutMessages) result.outMessages = outMessagesCount(Cell.fromBase64(result.transaction));
    parentPort.postMessage({ id, result });
  } catch (e) {
    parentPort.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
});
parentPort.postMessage({ ready: true });
