// A process with guardProcess installed that then throws where no code catches and rejects where no code
// handles: an exception from a timer, an Error rejection, and a rejection with a value too deep to write.
// It goes on, says so on stderr with its counter, and ends by itself.
import { createLogger, guardProcess, processRegistry } from "../../src/index.js";

guardProcess(createLogger({ format: "json", level: "info" }));
setTimeout(() => {
  throw new Error("thrown from a timer");
}, 10);
void Promise.reject(new Error("rejected, never handled"));
let deep: unknown[] = [];
for (let i = 0; i < 100_000; i++) deep = [deep];
void Promise.reject(deep);
setTimeout(async () => {
  const text = await processRegistry.metrics();
  process.stderr.write(`still serving\n${text}`);
}, 200);
