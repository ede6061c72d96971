// One TON emulator (WebAssembly) in a process of its own, run by EmulatorPool (emulator-pool.ts).
//
// Why a process and not a thread: in a process that has loaded libchdb (embedded ClickHouse),
// ClickHouse's SIGSEGV handler replaces the one V8 relies on to turn a WebAssembly out-of-bounds
// access into an exception, so the emulator's trap on a deep cell parked the thread and took
// ClickHouse down with it. Here no native library but Node's is loaded, a trap is an exception, and
// an abort, an out-of-memory or a runaway run ends this process only (docs/architecture.md).
//
// Jobs come over the IPC channel: { id, kind: "transaction" | "getMethod", ... }, the chain config
// (and a transaction's libraries) only when they change. The answer is { id, result } or
// { id, failure: { reason, message } }. After a failure of the WebAssembly module (a trap, an abort,
// its memory bound) its state cannot be trusted: the process answers and exits, and the pool starts
// another.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Cell } from "@ton/core";
// @ton/sandbox's entry point loads its whole Blockchain; the emulator needs only these (pinned
// with its version in package.json).
import { Executor } from "@ton/sandbox/dist/executor/Executor.js";
import EmulatorModule from "@ton/sandbox/dist/executor/emulator-emscripten.js";
import { emulateOn, outMessagesCount } from "./emulate.mjs";

const memoryBound = Number(process.env.TONGATE_EMULATOR_MEMORY_BYTES) || 512 * 1024 * 1024;

// The bound on the emulator's memory: emscripten grows its heap through Memory.grow and treats a
// refusal as malloc failing, which aborts the run (a RuntimeError here) instead of taking the host's
// memory up to the module's 2 GiB maximum.
let boundHit = false;
/** The size of the module's memory once it grew (the pool replaces a process that grew large). */
let grownTo = 0;
const grow = WebAssembly.Memory.prototype.grow;
WebAssembly.Memory.prototype.grow = function (delta) {
  const size = this.buffer.byteLength + delta * 65536;
  if (size > memoryBound) {
    boundHit = true;
    throw new RangeError(`the emulator's memory bound (${memoryBound} bytes) was reached`);
  }
  grownTo = Math.max(grownTo, size);
  return grow.call(this, delta);
};
const memoryBytes = () => grownTo;

/**
 * The emulator's WebAssembly: @ton/sandbox ships it as 6.7 MB of base64 in a JavaScript file, which
 * takes a process ~350 ms to parse and decode; the first process writes the binary to the file the
 * pool names (per @ton/sandbox version) and the next ones read it.
 */
function wasmBinary() {
  const cache = process.env.TONGATE_EMULATOR_WASM;
  if (cache) {
    try {
      return readFileSync(cache);
    } catch {
      // not written yet
    }
  }
  const require = createRequire(import.meta.url);
  const binary = Buffer.from(require("@ton/sandbox/dist/executor/emulator-emscripten.wasm.js").EmulatorEmscriptenWasm, "base64");
  if (cache) {
    try {
      const tmp = `${cache}.${process.pid}`;
      writeFileSync(tmp, binary);
      renameSync(tmp, cache);
    } catch {
      // a read-only temp dir: every process decodes it
    }
  }
  return binary;
}

const executor = new Executor(await EmulatorModule({ wasmBinary: wasmBinary() }));

let held = { config: "", libs: null };

/** A get-method with its inputs serialized by the pool: the params JSON, the stack BoC, the config. */
function runGetMethod(params, stack, config) {
  const out = JSON.parse(executor.extractString(executor.invoke("_run_get_method", [params, stack, config])));
  if (out.fail) return { success: false, error: String(out.message ?? out.error ?? "the emulator failed") };
  const o = out.output;
  if (!o.success) return { success: false, error: String(o.error) };
  return { success: true, exitCode: o.vm_exit_code, gasUsed: String(o.gas_used), stack: o.stack ?? null, missingLibrary: o.missing_library ?? null };
}

function reasonOf(e) {
  if (boundHit) return "memory";
  if (e instanceof WebAssembly.RuntimeError) return /^Aborted\(/.test(e.message) ? "abort" : "trap";
  if (e instanceof RangeError && /call stack/i.test(e.message)) return "trap";
  // Emscripten throws a C++ exception nothing caught as its pointer (a number); the module's stack
  // is left where the throw was, so the process is replaced like after a trap.
  if (!(e instanceof Error)) return "exception";
  return "error";
}

process.on("message", (m) => {
  if (m.config !== undefined) held = { config: m.config, libs: m.libs ?? null };
  try {
    let result;
    if (m.kind === "getMethod") {
      result = runGetMethod(m.params, m.stack, held.config);
    } else {
      result = emulateOn(executor, { ...m.job, config: held.config, libs: held.libs });
      if (result.success && m.job.countOutMessages) result.outMessages = outMessagesCount(Cell.fromBase64(result.transaction));
    }
    process.send({ id: m.id, result, memoryBytes: memoryBytes() });
  } catch (e) {
    const reason = reasonOf(e);
    const message = e instanceof Error ? e.message : String(e);
    // A plain JavaScript error (a bad input the pool should not have sent) leaves the module sound.
    if (reason === "error") process.send({ id: m.id, failure: { reason, message } });
    else process.send({ id: m.id, failure: { reason, message } }, () => process.exit(70));
  }
});
// The pool's process went away (ended or killed): nothing is left to answer.
process.on("disconnect", () => process.exit(0));
process.send({ ready: true, memoryBytes: memoryBytes() });
