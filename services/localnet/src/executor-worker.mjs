// A worker thread holding one TON emulator (WebAssembly): runs the transactions
// it is sent and answers the emulator's raw result. Plain JavaScript, so it loads
// without a TypeScript loader in any process.
import { parentPort } from "node:worker_threads";
import { Cell } from "@ton/core";
import { Executor } from "@ton/sandbox";

const executor = await Executor.create();
parentPort.on("message", async ({ id, args }) => {
  try {
    const res = await executor.runTransaction({ ...args, message: Cell.fromBase64(args.message), lt: BigInt(args.lt), randomSeed: Buffer.from(args.randomSeed, "base64"), libs: args.libs ? Cell.fromBase64(args.libs) : null });
    parentPort.postMessage({ id, result: res.result });
  } catch (e) {
    parentPort.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
});
parentPort.postMessage({ ready: true });
