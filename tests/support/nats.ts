// A real nats-server with JetStream (Debian's package; .ci/run installs it) on an ephemeral loopback
// port, its store in a temporary directory. `hasNats` is false where the binary is missing: tests
// that need it skip. An outage is `halt()` then `resume()`: the same port, the same store directory
// or a fresh one. A server that hangs (its sockets open, nothing answered) is `freeze()`, `thaw()`.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const hasNats = spawnSync("nats-server", ["--version"]).status === 0;

export interface NatsServer {
  url: string;
  /** the server's JetStream store directory (kept across halt() and resume(), unless resumed fresh) */
  dir: string;
  /** Stops the server for good and removes its store. */
  stop(): Promise<void>;
  /** Stops the server (SIGTERM, or SIGKILL with `kill`), keeping its port and store for resume(). */
  halt(o?: { kill?: boolean }): Promise<void>;
  /** Starts it again on the same port; `fresh`: with a new, empty store directory. */
  resume(o?: { fresh?: boolean }): Promise<void>;
  /** Suspends the server's process (SIGSTOP): connections stay open and nothing is answered. */
  freeze(): Promise<void>;
  /** Lets a frozen server go on (SIGCONT). */
  thaw(): void;
}

/** Every thread of the process is stopped (state T in /proc/<pid>/task/<tid>/stat), on Linux; elsewhere assumed. */
function stopped(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).every((tid) => {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      return stat[stat.lastIndexOf(")") + 2] === "T";
    });
  } catch {
    return true;
  }
}

function launch(dir: string, port: number): Promise<{ child: ChildProcess; url: string }> {
  const child: ChildProcess = spawn("nats-server", ["-js", "-a", "127.0.0.1", "-p", String(port), "-sd", dir], { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`nats-server did not start:\n${out}`)), 10_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /Listening for client connections on ([\d.]+:\d+)/.exec(out);
      if (m && /Server is ready/.test(out)) {
        clearTimeout(timer);
        resolve({ child, url: `nats://${m[1]}` });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`nats-server exited ${code}:\n${out}`))));
  });
}

async function halt(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill(signal);
  await exited;
}

export async function startNatsServer(): Promise<NatsServer> {
  const dirs = [mkdtempSync(join(tmpdir(), "tongate-nats-"))];
  let { child, url } = await launch(dirs[0]!, -1);
  const port = Number(url.split(":").pop());
  const server: NatsServer = {
    url,
    dir: dirs[0]!,
    async stop() {
      child.kill("SIGCONT"); // a frozen server would not hear SIGTERM
      await halt(child, "SIGTERM");
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
    async halt(o = {}) {
      await halt(child, o.kill ? "SIGKILL" : "SIGTERM");
    },
    async freeze() {
      child.kill("SIGSTOP");
      // SIGSTOP is delivered asynchronously: until every thread of the server has stopped, it may
      // still answer a request sent after kill() returned
      for (let i = 0; i < 200 && !stopped(child.pid!); i++) await new Promise((r) => setTimeout(r, 5));
    },
    thaw() {
      child.kill("SIGCONT");
    },
    async resume(o = {}) {
      if (o.fresh) {
        dirs.push(mkdtempSync(join(tmpdir(), "tongate-nats-")));
        server.dir = dirs.at(-1)!;
      }
      // the port may linger in TIME_WAIT for a moment on a loaded machine: retry briefly
      for (let attempt = 0; ; attempt++) {
        try {
          ({ child, url } = await launch(server.dir, port));
          return;
        } catch (e) {
          if (attempt >= 20) throw e;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    },
  };
  return server;
}
