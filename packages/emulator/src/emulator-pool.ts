// Emulators in child processes (emulator-process.mjs), each run with a time and a memory bound.
// A run that traps, aborts, outgrows its memory bound or its time costs that run only: it fails
// with an EmulatorFailure, its process is replaced, and the calling process notices nothing else.
// Why processes and not threads: docs/architecture.md ("The emulator runs in child processes").
import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import type { DependencyHealth } from "@tongate/runtime";
import type { Emulation, EmulationJob } from "./emulate.mjs";

/** Why a run did not give the emulator's answer. */
export type EmulatorFailureReason =
  /** The WebAssembly trapped (e.g. an out-of-bounds access on a cell deeper than its stack allows). */
  | "trap"
  /** The emulator aborted (a C++ assertion failed). */
  | "abort"
  /** The emulator threw a C++ exception it did not catch: it could not process this input (e.g. an exotic cell where it expects an ordinary one). */
  | "exception"
  /** The run reached the memory bound. */
  | "memory"
  /** The run reached the time bound; its process was killed. */
  | "timeout"
  /** The process ended during the run (killed, out of JavaScript heap, a crash). */
  | "crash"
  /** Too many runs waiting: the pool refused this one. */
  | "busy"
  /** The pool was closed, or the caller gave up before the run started. */
  | "closed"
  /** The emulator's JavaScript wrapper failed on the input. */
  | "error";

export class EmulatorFailure extends Error {
  constructor(
    readonly reason: EmulatorFailureReason,
    message: string,
  ) {
    super(message);
    this.name = "EmulatorFailure";
  }

  /**
   * The HTTP status an API answers this run's failure with: 504 past its time bound, 503 when too
   * many runs wait or the pool is closing, 422 for an input TON's emulator threw a C++ exception on
   * (an exotic cell in a message body: the client's to change), else 500 (only the run failed, its
   * process is replaced).
   */
  get httpStatus(): number {
    return this.reason === "timeout" ? 504 : this.reason === "busy" || this.reason === "closed" ? 503 : this.reason === "exception" ? 422 : 500;
  }
}

export interface EmulatorPoolOptions {
  /** Processes (default: the machine's cores, 1 to 4). */
  size?: number;
  /** A run longer than this is stopped: its process is killed (default 10 s). */
  timeoutMs?: number;
  /** The WebAssembly memory one emulator may grow to, MiB (default 512). */
  memoryMb?: number;
  /** The JavaScript heap of one process, MiB (default 256). */
  heapMb?: number;
  /** Runs that may wait for a process (default 1024); past it a run fails "busy". */
  maxQueued?: number;
}

/** A get-method's inputs as the emulator takes them: the params JSON (code, data, libraries, c7) and the stack BoC. */
export interface GetMethodJob {
  config: string;
  params: string;
  stack: string;
}

/** The emulator's answer to a get-method, its stack still a BoC (base64). */
export type GetMethodAnswer =
  | { success: true; exitCode: number; gasUsed: string; stack: string | null; missingLibrary: string | null }
  | { success: false; error: string };

export interface EmulatorPoolHealth {
  /** up: a process is ready; idle: none started yet (no run asked for one); starting; down: processes fail to start. */
  state: "up" | "idle" | "starting" | "down";
  size: number;
  ready: number;
  busy: number;
  queued: number;
  runs: number;
  /** Failed runs by reason, since the pool started. */
  failures: Partial<Record<EmulatorFailureReason, number>>;
  /** Processes started to replace ones that ended. */
  replaced: number;
  lastFailure?: { reason: EmulatorFailureReason; message: string; at: string };
  /** Why processes fail to start (state down). */
  startError?: string;
}

type Message = { kind: "transaction"; job: Omit<EmulationJob, "config" | "libs"> } | { kind: "getMethod"; params: string; stack: string };

interface Run {
  id: number;
  message: Message;
  config: string;
  /** The libraries of a transaction (held by the process like the config); get-methods carry theirs in params. */
  libs: string | null;
  resolve(answer: unknown): void;
  reject(e: EmulatorFailure): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Slot {
  child: ChildProcess;
  ready: boolean;
  run?: Run;
  timer?: NodeJS.Timeout;
  /** Why the pool is ending it (the run's failure reason), when it is. */
  ending?: EmulatorFailureReason;
  held?: { config: string; libs: string | null };
  /** The last lines the process wrote to stderr (the emulator's own abort message). */
  stderr: string;
}

interface Reply {
  id?: number;
  ready?: boolean;
  result?: unknown;
  failure?: { reason: EmulatorFailureReason; message: string };
  memoryBytes?: number;
}

const PROCESS_URL = new URL("./emulator-process.mjs", import.meta.url);
/** Where emulator processes keep the emulator's WebAssembly once decoded (emulator-process.mjs), per @ton/sandbox version. */
const WASM_CACHE = join(tmpdir(), `tongate-emulator-${sandboxVersion()}.wasm`);
const MiB = 1024 * 1024;
/** The restart delay after processes failed to start, doubling up to the last. */
const RESTART_DELAYS_MS = [100, 500, 2000, 10_000];

export class EmulatorPool {
  readonly size: number;
  readonly timeoutMs: number;
  private readonly memoryBytes: number;
  private readonly heapMb: number;
  private readonly maxQueued: number;
  private readonly slots = new Set<Slot>();
  private readonly queue: Run[] = [];
  private nextId = 1;
  private closed = false;
  private runs = 0;
  private replaced = 0;
  private readonly failures: Partial<Record<EmulatorFailureReason, number>> = {};
  private lastFailure?: EmulatorPoolHealth["lastFailure"];
  /** Processes that ended before they were ready, in a row. */
  private startFailures = 0;
  private startError?: string;
  private restartTimer?: NodeJS.Timeout;
  private readonly waiters: { resolve(): void; reject(e: Error): void }[] = [];

  constructor(o: EmulatorPoolOptions = {}) {
    this.size = Math.max(1, o.size ?? Math.min(4, availableParallelism()));
    this.timeoutMs = o.timeoutMs ?? 10_000;
    this.memoryBytes = (o.memoryMb ?? 512) * MiB;
    this.heapMb = o.heapMb ?? 256;
    this.maxQueued = o.maxQueued ?? 1024;
  }

  /**
   * Starts the processes (the first run does it otherwise; loading the emulator takes a process
   * a few hundred ms) and resolves when one is ready, or rejects when they fail to start.
   */
  warm(): Promise<void> {
    this.fill();
    if (this.idleSlot() || [...this.slots].some((s) => s.ready)) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** Emulates one transaction (a message, or a tick-tock with an empty message). */
  emulate(job: EmulationJob, signal?: AbortSignal): Promise<Emulation> {
    const { config, libs, ...rest } = job;
    return this.submit<Emulation>({ kind: "transaction", job: rest }, config, libs, signal);
  }

  /** Runs one get-method. */
  getMethod(job: GetMethodJob, signal?: AbortSignal): Promise<GetMethodAnswer> {
    return this.submit<GetMethodAnswer>({ kind: "getMethod", params: job.params, stack: job.stack }, job.config, null, signal);
  }

  /** The pool as /healthz shows it among the dependencies: failing only when processes cannot start. */
  health(): DependencyHealth {
    const status = this.status();
    const down = status.state === "down";
    return {
      name: "emulator",
      ok: !down,
      ...(down ? { reason: `emulator: no process can start (${status.startError ?? "unknown"}); get-methods and fee estimates cannot run` } : {}),
      detail: { ...status, failures: { ...status.failures } },
    };
  }

  status(): EmulatorPoolHealth {
    let ready = 0;
    let busy = 0;
    for (const s of this.slots) {
      if (s.ready) ready++;
      if (s.run) busy++;
    }
    const state = ready > 0 ? "up" : this.startFailures > 0 ? "down" : this.slots.size > 0 ? "starting" : "idle";
    return {
      state,
      size: this.size,
      ready,
      busy,
      queued: this.queue.length,
      runs: this.runs,
      failures: { ...this.failures },
      replaced: this.replaced,
      ...(this.lastFailure ? { lastFailure: this.lastFailure } : {}),
      ...(state === "down" && this.startError ? { startError: this.startError } : {}),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.restartTimer);
    const closed = new EmulatorFailure("closed", "the emulator pool was closed");
    for (const r of this.queue.splice(0)) this.settle(r, closed);
    for (const w of this.waiters.splice(0)) w.reject(closed);
    const ended = [...this.slots].map((s) => new Promise<void>((resolve) => (s.child.exitCode !== null || s.child.signalCode !== null ? resolve() : s.child.once("exit", () => resolve()))));
    for (const s of this.slots) this.end(s, "closed");
    await Promise.all(ended);
  }

  private submit<T>(message: Message, config: string, libs: string | null, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.closed) return reject(new EmulatorFailure("closed", "the emulator pool was closed"));
      if (signal?.aborted) return reject(new EmulatorFailure("closed", "the caller gave up before the run started"));
      if (this.queue.length >= this.maxQueued) return this.fail(reject, new EmulatorFailure("busy", `${this.queue.length} emulator runs are waiting already`));
      // Processes fail to start and the next try is not due yet: say so now rather than hold the run.
      if (this.restartTimer && !this.idleSlot()) return this.fail(reject, new EmulatorFailure("crash", `no emulator process can start: ${this.startError}`));
      // `resolve` takes what the process answered for this kind of message (T)
      const run: Run = { id: this.nextId++, message, config, libs, resolve: resolve as (a: unknown) => void, reject, signal };
      if (signal) {
        run.onAbort = () => {
          const i = this.queue.indexOf(run);
          if (i >= 0) {
            this.queue.splice(i, 1);
            this.settle(run, new EmulatorFailure("closed", "the caller gave up before the run started"));
          }
        };
        signal.addEventListener("abort", run.onAbort, { once: true });
      }
      this.fill();
      const idle = this.idleSlot();
      if (idle) return this.start(idle, run);
      this.queue.push(run);
      for (const s of this.slots) if (!s.ready) this.holdOpen(s, true);
    });
  }

  private idleSlot(): Slot | undefined {
    for (const s of this.slots) if (s.ready && !s.run && !s.ending) return s;
    return undefined;
  }

  /** Starts processes up to the pool's size (not while restarts wait after failed starts). */
  private fill(): void {
    if (this.restartTimer) return;
    for (let i = this.slots.size; i < this.size; i++) this.spawn();
  }

  private spawn(): void {
    if (this.closed) return;
    const child = fork(PROCESS_URL, [], {
      execArgv: [`--max-old-space-size=${this.heapMb}`],
      env: { ...process.env, TONGATE_EMULATOR_MEMORY_BYTES: String(this.memoryBytes), TONGATE_EMULATOR_WASM: WASM_CACHE, NODE_OPTIONS: "" },
      serialization: "advanced",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    const slot: Slot = { child, ready: false, stderr: "" };
    this.slots.add(slot);
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (d: string) => (slot.stderr = (slot.stderr + d).slice(-2048)));
    child.on("message", (m: Reply) => this.onReply(slot, m));
    child.on("error", (e) => {
      this.startError = e.message;
      // a process that could not be started at all emits no "exit"
      if (child.pid === undefined) this.onExit(slot, null, null);
    });
    child.on("exit", (code, sig) => this.onExit(slot, code, sig));
    this.holdOpen(slot, this.queue.length > 0);
  }

  /**
   * Idle processes do not keep the caller's process alive; one that runs, or starts while runs
   * wait for it, does (else a run queued behind a replacement would be dropped at exit).
   */
  private holdOpen(slot: Slot, hold: boolean): void {
    if (hold) {
      slot.child.ref();
      slot.child.channel?.ref();
    } else {
      slot.child.unref();
      slot.child.channel?.unref();
    }
  }

  private onReply(slot: Slot, m: Reply): void {
    if (m.ready) {
      slot.ready = true;
      this.startFailures = 0;
      this.startError = undefined;
      for (const w of this.waiters.splice(0)) w.resolve();
      return this.next(slot);
    }
    const run = slot.run;
    if (!run || run.id !== m.id) return;
    clearTimeout(slot.timer);
    slot.run = undefined;
    this.runs++;
    if (m.failure) {
      // After a trap, an abort or the memory bound the process exits by itself: it is replaced then.
      if (m.failure.reason !== "error") slot.ending = m.failure.reason;
      this.settle(run, new EmulatorFailure(m.failure.reason, this.describe(m.failure.reason, m.failure.message)));
    } else {
      this.settle(run, undefined, m.result);
      // A process whose emulator grew past half its bound is replaced before it reaches it.
      if ((m.memoryBytes ?? 0) > this.memoryBytes / 2) this.end(slot, "memory");
    }
    if (!slot.ending) this.next(slot);
  }

  private onExit(slot: Slot, code: number | null, sig: NodeJS.Signals | null): void {
    clearTimeout(slot.timer);
    this.slots.delete(slot);
    if (!slot.ready && !slot.ending) {
      this.startFailures++;
      this.startError ??= `the emulator process ended before it was ready (${sig ?? `exit code ${code}`})${slot.stderr ? `: ${slot.stderr.trim().split("\n").pop()}` : ""}`;
    }
    if (slot.run) {
      const reason = slot.ending ?? "crash";
      const how = slot.ending === "timeout" ? "" : ` (${sig ?? `exit code ${code}`}${/heap out of memory/i.test(slot.stderr) ? ": out of JavaScript heap" : ""})`;
      this.settle(slot.run, new EmulatorFailure(reason, this.describe(reason, `the emulator process ended during the run${how}`)));
      slot.run = undefined;
    }
    if (this.closed) return;
    this.replaced++;
    if (this.startFailures === 0) return this.spawn();
    // Processes that cannot start: try again later, and fail what waits meanwhile.
    const down = new EmulatorFailure("crash", `no emulator process can start: ${this.startError}`);
    for (const r of this.queue.splice(0)) this.settle(r, down);
    for (const w of this.waiters.splice(0)) w.reject(down);
    if (this.restartTimer) return;
    const delay = RESTART_DELAYS_MS[Math.min(this.startFailures, RESTART_DELAYS_MS.length) - 1]!;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.fill();
    }, delay);
    this.restartTimer.unref();
  }

  private next(slot: Slot): void {
    const run = this.queue.shift();
    if (run) this.start(slot, run);
    else this.holdOpen(slot, false);
  }

  private start(slot: Slot, run: Run): void {
    if (run.signal && run.onAbort) run.signal.removeEventListener("abort", run.onAbort);
    slot.run = run;
    this.holdOpen(slot, true);
    // The config is tens of kilobytes: a process gets it (and a transaction's libraries) only when it changes.
    const fresh = slot.held?.config !== run.config || (run.message.kind === "transaction" && slot.held.libs !== run.libs);
    if (fresh) slot.held = { config: run.config, libs: run.libs };
    slot.timer = setTimeout(() => this.end(slot, "timeout"), this.timeoutMs);
    slot.child.send({ id: run.id, ...run.message, ...(fresh ? { config: run.config, libs: run.libs } : {}) }, (e) => {
      if (e) this.end(slot, "crash");
    });
  }

  /** Kills a process for `reason` (its run fails with it when it exits). */
  private end(slot: Slot, reason: EmulatorFailureReason): void {
    if (slot.ending && reason !== "closed") return;
    slot.ending = reason;
    slot.child.kill("SIGKILL");
  }

  private describe(reason: EmulatorFailureReason, message: string): string {
    switch (reason) {
      case "timeout":
        return `the run took longer than its time bound (${this.timeoutMs} ms) and was stopped`;
      case "memory":
        return `the run reached the emulator's memory bound (${this.memoryBytes / MiB} MiB) and was stopped`;
      case "trap":
        return `the emulator trapped (${message}); the run was stopped`;
      case "abort":
        return `the emulator aborted (${message}); the run was stopped`;
      case "exception":
        return "TON's emulator could not process this input (it threw a C++ exception it did not catch, e.g. on an exotic cell where it expects an ordinary one)";
      default:
        return message;
    }
  }

  private fail(reject: (e: EmulatorFailure) => void, e: EmulatorFailure): void {
    this.count(e);
    reject(e);
  }

  private count(e: EmulatorFailure): void {
    this.failures[e.reason] = (this.failures[e.reason] ?? 0) + 1;
    this.lastFailure = { reason: e.reason, message: e.message, at: new Date().toISOString() };
  }

  private settle(run: Run, failure: EmulatorFailure | undefined, answer?: unknown): void {
    if (run.signal && run.onAbort) run.signal.removeEventListener("abort", run.onAbort);
    if (failure) this.fail(run.reject, failure);
    else run.resolve(answer);
  }
}

/** @ton/sandbox's version, whose emulator the processes run. */
function sandboxVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(createRequire(import.meta.url).resolve("@ton/sandbox/package.json"), "utf8"));
  return typeof pkg === "object" && pkg !== null && "version" in pkg && typeof pkg.version === "string" ? pkg.version : "unknown";
}
