// Emulators in worker threads: checks of external messages as they arrive
// (sendMessage) and the transactions of a collation spread over the cores.
import { Worker } from "node:worker_threads";
import type { Emulation, EmulationJob } from "./emulate.mjs";

interface Job {
  id: number;
  job: EmulationJob;
  resolve(r: Emulation): void;
  reject(e: Error): void;
}

export class ExecutorPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Job>();
  private readonly queue: Job[] = [];
  /** The config (and libraries) each worker holds: a job carries them only when they change. */
  private readonly held = new Map<Worker, { config: string; libs: string | null }>();
  private nextId = 1;

  private constructor(private readonly workers: Worker[]) {
    for (const w of workers) {
      w.on("message", (m: { id: number; result?: Emulation; error?: string }) => {
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

  run(job: EmulationJob): Promise<Emulation> {
    return new Promise((resolve, reject) => {
      const queued: Job = { id: this.nextId++, job, resolve, reject };
      const w = this.idle.pop();
      if (w) this.start(w, queued);
      else this.queue.push(queued);
    });
  }

  private start(w: Worker, job: Job) {
    this.busy.set(w, job);
    // The config is tens of kilobytes: copying it into every message cost more than some emulations.
    const { config, libs, ...rest } = job.job;
    const held = this.held.get(w);
    const fresh = held?.config !== config || held.libs !== libs;
    if (fresh) this.held.set(w, { config, libs });
    w.postMessage({ id: job.id, job: rest, ...(fresh ? { config, libs } : {}) });
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
