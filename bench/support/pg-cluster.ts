// A private PostgreSQL cluster for benchmarks: Debian's PostgreSQL (installed with apt-get when
// missing), a data directory in bench/.cache, a server on a free port and a unix socket of its own,
// stopped at the end. initdb and the server refuse to run as root, so as root they run as the
// `postgres` user the Debian package creates (runuser). Clients connect as `postgres`, trusted on
// the socket and on 127.0.0.1 (nothing but this machine's benchmarks reach it).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { freePort } from "./processes.js";

const asRoot = process.getuid?.() === 0;

/** The newest installed PostgreSQL's bin directory (Debian: /usr/lib/postgresql/N/bin), or undefined. */
function installedBin(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0]!, "bin") : undefined;
}

/** PostgreSQL's bin directory; installs Debian's `postgresql` first when none is there (says so). */
export function ensurePostgres(): string {
  const found = installedBin();
  if (found) return found;
  if (!asRoot) throw new Error("PostgreSQL is not installed (/usr/lib/postgresql/*/bin/initdb) and this is not root: apt-get install -y postgresql");
  console.log("PostgreSQL is not installed: apt-get update && apt-get install -y postgresql");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "postgresql"], { stdio: "inherit", env });
  const bin = installedBin();
  if (!bin) throw new Error("apt-get install postgresql left no /usr/lib/postgresql/*/bin/initdb");
  return bin;
}

/** argv that runs `cmd` as the cluster's owner: `postgres` under root, else this user. */
const asOwner = (cmd: string, args: string[]): [string, string[]] => (asRoot ? ["runuser", ["-u", "postgres", "--", cmd, ...args]] : [cmd, args]);

function run(cmd: string, args: string[]): void {
  const [c, a] = asOwner(cmd, args);
  const r = spawnSync(c, a, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}:\n${r.stdout}${r.stderr}`);
}

export interface PgCluster {
  /** the unix socket's directory (a client's `host`) */
  socketDir: string;
  port: number;
  user: "postgres";
  database: "postgres";
  /** true when the data directory was created by this call (nothing loaded yet) */
  fresh: boolean;
  dataDir: string;
  /** Runs `sql` with psql (ON_ERROR_STOP): a script, or a COPY … FROM STDIN fed from `input`. */
  psql(sql: string, input?: Readable): Promise<string>;
  stop(): Promise<void>;
}

/** The settings the cluster runs with: a dedicated server's memory on this 24 GiB machine; durability off (a cache the script can rebuild). */
const SETTINGS = ["shared_buffers=2GB", "effective_cache_size=8GB", "work_mem=16MB", "maintenance_work_mem=1GB", "fsync=off", "synchronous_commit=off", "full_page_writes=off", "max_connections=200"];

/** Starts the cluster in `dir` (bench/.cache/pg-…), creating it with initdb on first use. */
export async function startCluster(dir: string): Promise<PgCluster> {
  const bin = ensurePostgres();
  const dataDir = join(dir, "data");
  const fresh = !existsSync(join(dataDir, "PG_VERSION"));
  mkdirSync(dir, { recursive: true });
  if (asRoot) {
    chownSync(dir, uid("postgres"), gid("postgres"));
  }
  if (fresh) {
    rmSync(dataDir, { recursive: true, force: true });
    run(join(bin, "initdb"), ["-D", dataDir, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync"]);
  }
  // a server left running by an interrupted run holds the directory: stop it first
  if (existsSync(join(dataDir, "postmaster.pid"))) {
    const [c, a] = asOwner(join(bin, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
    spawnSync(c, a);
  }
  // the socket path must stay under ~100 bytes, which a deep checkout can exceed: a short temp directory
  const socketDir = mkdtempSync(join(tmpdir(), "tongate-pg-"));
  chmodSync(socketDir, 0o777);
  const port = await freePort();
  const opts = ["-p", String(port), "-k", socketDir, "-c", "listen_addresses=127.0.0.1", ...SETTINGS.flatMap((s) => ["-c", s])].join(" ");
  run(join(bin, "pg_ctl"), ["-D", dataDir, "-l", join(dir, "server.log"), "-o", opts, "-w", "-t", "120", "start"]);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    run(join(bin, "pg_ctl"), ["-D", dataDir, "-m", "fast", "-w", "stop"]);
    rmSync(socketDir, { recursive: true, force: true });
  };
  const psql = (sql: string, input?: Readable) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(join(bin, "psql"), ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", socketDir, "-p", String(port), "-U", "postgres", "-d", "postgres", "-c", sql], {
        stdio: [input ? "pipe" : "ignore", "pipe", "pipe"],
      });
      let out = "";
      child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
      if (input) input.pipe(child.stdin!);
      child.on("error", reject);
      child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`psql exited ${code}: ${sql.slice(0, 200)}\n${out}`))));
    });
  return { socketDir, port, user: "postgres", database: "postgres", fresh, dataDir, psql, stop };
}

function uid(user: string): number {
  return Number(execFileSync("id", ["-u", user], { encoding: "utf8" }).trim());
}

function gid(user: string): number {
  return Number(execFileSync("id", ["-g", user], { encoding: "utf8" }).trim());
}

/** Bytes under `dir` (the size of a loaded cluster). */
export function dirBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? dirBytes(p) : e.isFile() ? statSync(p).size : 0;
  }
  return n;
}
