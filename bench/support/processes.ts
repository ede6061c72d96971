// Child processes for benchmarks: servers run apart from the load generator.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Spawns a server; resolves when its output matches `ready`, or at once when `ready` is null. */
export function startProcess(cmd: string, args: string[], ready: RegExp | null, env: NodeJS.ProcessEnv = {}, timeoutMs = 30_000): Promise<ChildProcess> {
  const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  let out = "";
  if (!ready) {
    child.stdout!.resume();
    child.stderr!.resume();
    return Promise.resolve(child);
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(" ")} did not start:\n${out}`)), timeoutMs);
    const onData = (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) {
        clearTimeout(timer);
        child.stdout!.off("data", onData);
        child.stdout!.resume();
        resolve(child);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}:\n${out}`)));
  });
}

export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/**
 * The child processes and cleanups of a bench run, stopped however the run ends: at exit (killed),
 * on SIGINT or SIGTERM (stopped, then the cleanups in reverse order), or by `cleanup()`.
 */
export class BenchRun {
  readonly children: ChildProcess[] = [];
  private readonly cleanups: (() => Promise<void>)[] = [];

  constructor() {
    process.on("exit", () => this.children.forEach((c) => c.kill()));
    for (const sig of ["SIGINT", "SIGTERM"] as const) {
      process.once(sig, () => {
        void this.cleanup().finally(() => process.exit(130));
      });
    }
  }

  /** `node ARGS`, kept until stopped; ready when its output matches `ready`. */
  readonly start = async (args: string[], ready: RegExp, env: NodeJS.ProcessEnv = {}): Promise<ChildProcess> => {
    const child = await startProcess(process.execPath, args, ready, env, 120_000);
    this.children.push(child);
    return child;
  };

  readonly stop = async (child: ChildProcess): Promise<void> => {
    this.children.splice(this.children.indexOf(child), 1);
    await stopProcess(child);
  };

  onCleanup(f: () => Promise<void>): void {
    this.cleanups.push(f);
  }

  async cleanup(): Promise<void> {
    for (const c of this.children.splice(0)) await stopProcess(c);
    for (const f of this.cleanups.splice(0).reverse()) await f().catch((e: Error) => console.error(`cleanup: ${e.message}`));
  }
}
