// A ClickHouse server for tests: ClickHouse's HTTP interface (what @clickhouse/client speaks to a
// server, --clickhouse-url) answered by the ClickHouse engine of chDB in this process, so a store in
// server mode runs on the real engine over a real socket. `stall()` makes it a server that accepts
// requests and never answers them (a hung ClickHouse); `resume()` answers again, the requests that
// waited meanwhile included. `onStatement` sees each statement as it arrives, before it runs, and
// may drop it (a client killed before sending it): a test kills a client at an exact statement.
import http from "node:http";
import type { AddressInfo } from "node:net";

/** Settings of the HTTP interface itself, which the engine has no SET for. */
const HTTP_ONLY = new Set(["wait_end_of_query", "enable_http_compression", "send_progress_in_http_headers", "http_headers_progress_interval_ms", "database", "query_id", "session_id", "query", "default_format", "role"]);

export interface ClickHouseHttp {
  url: string;
  stall(): void;
  resume(): void;
  close(): Promise<void>;
}

export interface ClickHouseHttpOptions {
  /** Called with each statement (the SQL, an insert's rows after it) as it arrives; "drop": it is not run and its connection is cut. */
  onStatement?: (sql: string) => "run" | "drop";
}

export async function startClickHouseHttp(o: ClickHouseHttpOptions = {}): Promise<ClickHouseHttp> {
  const { Session } = await import("chdb");
  const session = new Session();
  let stalled = false;
  let waiting: (() => void)[] = [];
  // one statement at a time, as a session of a server runs them
  let queue: Promise<unknown> = Promise.resolve();
  const run = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://clickhouse");
    if (url.pathname === "/ping") return void res.end("Ok.\n");
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const inParams = url.searchParams.get("query");
    const sql = inParams === null ? body : `${inParams}\n${body}`;
    if (o.onStatement?.(sql) === "drop") return void res.destroy();
    // settings and query parameters (param_x, in their text form) as a server takes them: SET before the statement
    const settings: string[] = [];
    for (const [k, v] of url.searchParams) {
      if (HTTP_ONLY.has(k) || !/^[A-Za-z_0-9]+$/.test(k)) continue;
      settings.push(`SET ${k} = '${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`);
    }
    const text = [...settings, sql].join(";\n");
    const format = url.searchParams.get("default_format") ?? "TabSeparated";
    const answer = queue.then(() => session.queryAsync(text, { format }));
    queue = answer.catch(() => undefined);
    try {
      const result = await answer;
      res.writeHead(200, { "content-type": "text/plain; charset=UTF-8", "x-clickhouse-summary": "{}" }).end(Buffer.from(result.bytes()));
    } catch (e) {
      const message = String(e instanceof Error ? e.message : e);
      const code = /Code: (\d+)/.exec(message)?.[1] ?? "1000";
      res.writeHead(500, { "content-type": "text/plain; charset=UTF-8", "x-clickhouse-exception-code": code }).end(message);
    }
  };
  const server = http.createServer((req, res) => {
    const go = () => void run(req, res).catch((e: unknown) => res.writeHead(500).end(String(e)));
    if (stalled) waiting.push(go);
    else go();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stall: () => {
      stalled = true;
    },
    resume: () => {
      stalled = false;
      const go = waiting;
      waiting = [];
      for (const f of go) f();
    },
    close: async () => {
      stalled = false;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      session.close();
    },
  };
}
