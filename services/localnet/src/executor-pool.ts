// Emulators in worker threads, for work that can run beside collation: checking
// external messages as they arrive (sendMessage). Each check is a full emulation
// with signature checks, the costliest step, so checks spread over the cores.
import { Worker } from "node:worker_threads";
import type { Cell } from "@ton/core";

interface Job {
  id: number;
  args: Record<string, unknown>;
  resolve(r: EmulatorResult): void;
  reject(e: Error): void;
}

export type EmulatorResult = { success: true; transaction: string; shardAccount: string } | { success: false; error: string; vmResults?: { vmExitCode: number } };

export class ExecutorPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Job>();
  private readonly queue: Job[] = [];
  private nextId = 1;

  private constructor(private readonly workers: Worker[]) {
    for (const w of workers) {
      w.on("message", (m: { id: number; result?: EmulatorResult; error?: string }) => {
        const job = this.busy.get(w);
        if (!job || job.id !== m.id) return;
        this.busy.delete(w);
        if (m.error !== undefined) job.reject(new Error(m.error));
        else job.resolve(m.result!);
        this.release(w);
      });
      this.idle.push(w);
    }
  }

  static async create(size: number): Promise<ExecutorPool> {
    const workers = await Promise.all(
      Array.from({ length: size }, async () => {
        const w = new Worker(new URL("./executor-worker.mjs", import.meta.url));
        w.unref();
        await new Promise<void>((resolve, reject) => {
          w.once("message", () => resolve());
          w.once("error", reject);
        });
        return w;
      }),
    );
    return new ExecutorPool(workers);
  }

  run(config: string, shardAccount: Cell, message: Cell, p: { now: number; lt: bigint; randomSeed: Buffer; libs?: Cell | null }): Promise<EmulatorResult> {
    const args = {
      config,
      libs: p.libs ? p.libs.toBoc().toString("base64") : null,
      verbosity: "short",
      shardAccount: shardAccount.toBoc().toString("base64"),
      message: message.toBoc().toString("base64"),
      now: p.now,
      lt: p.lt.toString(),
      randomSeed: p.randomSeed.toString("base64"),
      ignoreChksig: false,
      debugEnabled: false,
    };
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, args, resolve, reject };
      const w = this.idle.pop();
      if (w) this.start(w, job);
      else this.queue.push(job);
    });
  }

  private start(w: Worker, job: Job) {
    this.busy.set(w, job);
    w.postMessage({ id: job.id, args: job.args });
  }

  private release(w: Worker) {
    const next = this.queue.shift();
    if (next) this.start(w, next);
    else this.idle.push(w);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
