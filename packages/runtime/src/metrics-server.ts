// A small HTTP server for a process without the gateway in front of it (e.g. `tongate index`):
// GET /metrics answers the Prometheus text of a registry (prom-client's Registry fits), GET /healthz
// `{"status":"ok"|"degraded"|"unavailable","reasons"?:[…],"detail":…}` (200, 200 or 503). Everything else is a 404.
import { createServer, type Server } from "node:http";
import { healthStatus } from "./service.js";

export interface MetricsSource {
  metrics(): Promise<string>;
  readonly contentType: string;
}

export interface Health {
  ok: boolean;
  /** answering without a dependency: "degraded", still 200 */
  degraded?: boolean;
  /** why it is not ok, shown as `reasons` */
  reasons?: string[];
  detail?: unknown;
}

export interface MetricsServer {
  readonly address: { host: string; port: number };
  close(): Promise<void>;
}

export async function serveMetrics(listen: { host: string; port: number }, registry: MetricsSource, health: () => Health | Promise<Health>): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const answer = async (): Promise<void> => {
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { allow: "GET, HEAD" }).end();
      } else if (path === "/metrics") {
        const text = await registry.metrics();
        res.writeHead(200, { "content-type": registry.contentType }).end(text);
      } else if (path === "/healthz") {
        const h = await health();
        const status = healthStatus(h);
        const reasons = status !== "ok" && h.reasons?.length ? { reasons: h.reasons } : {};
        res.writeHead(h.ok ? 200 : 503, { "content-type": "application/json" }).end(JSON.stringify({ status, ...reasons, detail: h.detail ?? null }));
      } else {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "not found" }));
      }
    };
    answer().catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: String(e) }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host, () => (server.off("error", reject), resolve()));
  });
  const a = server.address() as { address: string; port: number };
  return {
    address: { host: a.address, port: a.port },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
