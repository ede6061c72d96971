// A real nats-server with JetStream (Debian's package; .ci/run installs it) on an ephemeral loopback
// port, its store in a temporary directory. `hasNats` is false where the binary is missing: tests
// that need it skip.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const hasNats = spawnSync("nats-server", ["--version"]).status === 0;

export interface NatsServer {
  url: string;
  /** the server's JetStream store directory (kept across restart()) */
  dir: string;
  stop(): Promise<void>;
}

export async function startNatsServer(): Promise<NatsServer> {
  const dir = mkdtempSync(join(tmpdir(), "tongate-nats-"));
  const server: ChildProcess = spawn("nats-server", ["-js", "-a", "127.0.0.1", "-p", "-1", "-sd", dir], { stdio: ["ignore", "pipe", "pipe"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`nats-server did not start:\n${out}`)), 10_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /Listening for client connections on ([\d.]+:\d+)/.exec(out);
      if (m && /Server is ready/.test(out)) {
        clearTimeout(timer);
        resolve(`nats://${m[1]}`);
      }
    };
    server.stdout!.on("data", onData);
    server.stderr!.on("data", onData);
    server.once("exit", (code) => (clearTimeout(timer), reject(new Error(`nats-server exited ${code}:\n${out}`))));
  });
  return {
    url,
    dir,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((r) => server.once("exit", r));
        server.kill("SIGTERM");
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
