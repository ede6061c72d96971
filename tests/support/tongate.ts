// `tongate` commands as child processes for end-to-end tests: started, their output kept, stopped
// together; and what their /metrics and /healthz say.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { stopProcess } from "../../bench/support/processes.js";

const BIN = fileURLToPath(new URL("../../cli/bin/tongate.js", import.meta.url));

export interface Tongate {
  child: ChildProcess;
  /** its stdout and stderr so far */
  out: () => string;
}

/** The processes started by one test file, stopped together. */
export class Tongates {
  readonly started: Tongate[] = [];

  /** Starts `tongate ARGS` (node given `nodeArgs`); resolves once its output matches `ready`. */
  start(args: string[], ready: RegExp, timeoutMs = 60_000, nodeArgs: string[] = []): Promise<Tongate> {
    const child = spawn(process.execPath, [...nodeArgs, BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const proc = { child, out: () => out };
    this.started.push(proc);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`tongate ${args.join(" ")} did not start:\n${out}`)), timeoutMs);
      const onData = (d: Buffer) => {
        out += d.toString();
        if (ready.test(out)) {
          clearTimeout(timer);
          resolve(proc);
        }
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`tongate ${args.join(" ")} exited ${code}:\n${out}`))));
    });
  }

  /** Whether every process started is still the one started (none exited, so none was restarted). */
  allRunning(): boolean {
    return this.started.every((p) => p.child.exitCode === null && p.child.signalCode === null);
  }

  async stop(): Promise<void> {
    await Promise.all(this.started.splice(0).map((p) => stopProcess(p.child)));
  }
}

/** A series' value on a Prometheus page (0 when absent); `series` is the name with its labels. */
export async function metric(baseUrl: string, series: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/**
 * Calls of the RateLimit service answered in more than 100 ms and more than 1 s so far, as its gRPC
 * server's histogram (tongate_rpc_call_duration_seconds) counts them on a `serve --metrics-listen`
 * page: what waiting on NATS would cost, apart from the HTTP load's own noise on a shared machine.
 */
export async function slowRateLimitCalls(metricsUrl: string): Promise<{ over100ms: number; over1s: number; all: number }> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  let all = 0;
  let within100 = 0;
  let within1s = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith("tongate_rpc_call_duration_seconds_bucket{") || !line.includes('side="grpc-server"') || !line.includes("RateLimit/")) continue;
    const v = Number(line.slice(line.lastIndexOf(" ") + 1));
    if (line.includes('le="+Inf"')) all += v;
    else if (line.includes('le="0.1"')) within100 += v;
    else if (line.includes('le="1"')) within1s += v;
  }
  return { over100ms: all - within100, over1s: all - within1s, all };
}

/**
 * Bucket updates of a ratelimit service with --nats-url that took more than 100 ms from their start
 * to their decision (by NATS or by the outage policy, waits on NATS included), so far.
 */
export async function slowBucketUpdates(metricsUrl: string, decided: "shared" | "outage" | "any" = "any"): Promise<{ over100ms: number; all: number }> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  let all = 0;
  let within100 = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith("tongate_ratelimit_bucket_update_seconds_bucket{")) continue;
    if (decided !== "any" && !line.includes(`decided="${decided}"`)) continue;
    const v = Number(line.slice(line.lastIndexOf(" ") + 1));
    if (line.includes('le="+Inf"')) all += v;
    else if (line.includes('le="0.1"')) within100 += v;
  }
  return { over100ms: all - within100, all };
}

/**
 * Runs a full garbage collection in a process started with `--inspect=127.0.0.1:0` (its output
 * names the inspector's address), so that what its memory holds afterwards is what is alive.
 */
export function collectGarbage(output: string): Promise<void> {
  const url = /Debugger listening on (ws:\/\/\S+)/.exec(output)?.[1];
  if (!url) return Promise.reject(new Error("the process has no inspector (start it with --inspect=127.0.0.1:0)"));
  // Node 20 has a WebSocket client behind a flag only: a short-lived node of its own asks for it.
  const script = `const ws = new WebSocket(${JSON.stringify(url)});
ws.onopen = () => ws.send(JSON.stringify({ id: 1, method: "HeapProfiler.collectGarbage" }));
ws.onmessage = (e) => { if (JSON.parse(e.data).id === 1) { ws.close(); process.exit(0); } };
ws.onerror = () => process.exit(1);
setTimeout(() => process.exit(2), 30000);`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--experimental-websocket", "--no-warnings", "-e", script], { stdio: "ignore" });
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`the inspector did not collect garbage (exit code ${code})`))));
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `tongate index` following the chain of `globalConfig` into chDB at `indexDir`, its events on NATS, /metrics and /healthz on `metricsPort`. */
export function startIndexCommand(o: { globalConfig: string; natsUrl: string; indexDir: string; metricsPort: number }): ChildProcess {
  const child = spawn(
    process.execPath,
    [BIN, "index", "--global-config", o.globalConfig, "--network-name", "localnet", "--nats-url", o.natsUrl, "--index-dir", o.indexDir, "--metrics-listen", `127.0.0.1:${o.metricsPort}`],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  child.stderr!.resume();
  return child;
}

/** Sends `signal`; resolves once the process has exited (at once when it already had). */
export function signalAndWait(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}

/** Creates an API key of `rps` through a gateway's admin API; its secret. */
export async function createKey(gateway: string, adminToken: string, rps: number): Promise<string> {
  const created = await fetch(`${gateway}/api/admin/v1/keys/create`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ admin_token: adminToken, plan: "custom", rps }),
  });
  if (created.status !== 200) throw new Error(`creating a key: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { secret: string }).secret;
}
