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
