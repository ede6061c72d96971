// The key readers: threads that answer API v3's key lookups as toncenter's JSON, next to the thread
// that serves HTTP (why: ../../../README.md, "The key index"). A request goes to the reader with the
// fewest in flight; when every reader has MAX_IN_FLIGHT, when a reader failed, or when the reader
// cannot answer from the index, the service answers on its own thread as it does without readers.
import { toBinary, type DescMethod, type Message } from "@bufbuild/protobuf";
import type { Logger } from "@tongate/runtime";
import { workerExecArgv } from "@tongate/runtime";
import { Worker } from "node:worker_threads";
import { Counter, type Registry } from "prom-client";
import { KEY_LOOKUPS, lookupId } from "./lookups.js";
import type { KeyReaderData, KeyReaderReply, KeyReaderRequest } from "./protocol.js";

/** Requests one reader holds at most; past it the service's own thread answers (the queue stays bounded). */
const MAX_IN_FLIGHT = 64;
/** A reader that failed is started again after this. */
const RESTART_MS = 1000;

export interface KeyReadersOptions {
  /** the key index's directory */
  dir: string;
  threads: number;
  /** the readers' nice value (0: as the process) */
  nice: number;
  log: Logger;
  /** where tongate_v3_key_reader_requests_total is registered */
  registry?: Registry;
}

interface Reader {
  worker: Worker;
  jobs: Map<number, (json: string | undefined) => void>;
}

/** What became of the requests offered to the readers. */
export type KeyReaderResult =
  /** answered by a reader */
  | "answered"
  /** sent to a reader, answered on the service's thread (not from the index, or an error there) */
  | "declined"
  /** not sent: every reader busy or down */
  | "overflow";

export class KeyReaders {
  private readonly readers: (Reader | undefined)[];
  private readonly served = new Set(KEY_LOOKUPS.map((l) => lookupId(l.method)));
  private nextJob = 0;
  private closed = false;
  readonly stats: Record<KeyReaderResult, number> = { answered: 0, declined: 0, overflow: 0 };
  private readonly counter: Counter<"result"> | undefined;

  private constructor(private readonly o: KeyReadersOptions) {
    this.counter = o.registry
      ? new Counter({ name: "tongate_v3_key_reader_requests_total", help: "API v3 key lookups offered to the key readers, by result", labelNames: ["result"], registers: [o.registry] })
      : undefined;
    this.readers = Array.from({ length: o.threads }, () => undefined);
    for (let i = 0; i < o.threads; i++) this.spawn(i);
  }

  static start(o: KeyReadersOptions): KeyReaders {
    return new KeyReaders(o);
  }

  /** Whether readers answer this method. */
  serves(method: DescMethod): boolean {
    return this.served.has(lookupId(method));
  }

  /** The answer's JSON from a reader; undefined: answer it on this thread. */
  answer(method: DescMethod, req: Message): Promise<string | undefined> {
    let r: Reader | undefined;
    for (const c of this.readers) if (c && c.jobs.size < MAX_IN_FLIGHT && (!r || c.jobs.size < r.jobs.size)) r = c;
    if (!r) {
      this.count("overflow");
      return Promise.resolve(undefined);
    }
    const reader = r;
    const job = this.nextJob++;
    const msg: KeyReaderRequest = { job, method: lookupId(method), request: toBinary(method.input, req) };
    // an idle reader does not keep the process alive; one with requests does
    if (reader.jobs.size === 0) reader.worker.ref();
    return new Promise((resolve) => {
      reader.jobs.set(job, (json) => {
        this.count(json ? "answered" : "declined");
        resolve(json);
      });
      reader.worker.postMessage(msg);
    });
  }

  private count(result: KeyReaderResult): void {
    this.stats[result]++;
    this.counter?.inc({ result });
  }

  private spawn(i: number): void {
    const data: KeyReaderData = { dir: this.o.dir, nice: this.o.nice };
    const worker = new Worker(new URL("./reader.mjs", import.meta.url), { execArgv: workerExecArgv(), workerData: data });
    const reader: Reader = { worker, jobs: new Map() };
    this.readers[i] = reader;
    worker.unref();
    worker.on("message", (m: KeyReaderReply) => {
      const settle = reader.jobs.get(m.job);
      if (!settle) return;
      reader.jobs.delete(m.job);
      if (reader.jobs.size === 0) worker.unref();
      settle(m.json);
    });
    const down = (why: string) => {
      if (!this.remove(i, reader) || this.closed) return;
      this.o.log.error({ reader: i, why }, "key reader: failed; its requests go to the service's thread until it is back");
      setTimeout(() => {
        if (!this.closed) this.spawn(i);
      }, RESTART_MS).unref();
    };
    worker.on("error", (e) => down(e.message));
    worker.on("exit", (code) => down(`exited with code ${code}`));
  }

  /** Takes reader `i` out if it is still `reader`; what it held is answered on the service's thread. */
  private remove(i: number, reader: Reader): boolean {
    if (this.readers[i] !== reader) return false;
    this.readers[i] = undefined;
    for (const settle of reader.jobs.values()) settle(undefined);
    reader.jobs.clear();
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    const readers = this.readers.flatMap((r) => (r ? [r] : []));
    readers.forEach((r) => this.remove(this.readers.indexOf(r), r));
    await Promise.all(readers.map((r) => r.worker.terminate()));
  }
}
