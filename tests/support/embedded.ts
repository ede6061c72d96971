// Starts tongate's gateway and services in this process, on an ephemeral port,
// exactly as `tongate start` wires them (in-process Connect transport).
import { Gateway, listenGateway, type GatewayOptions, type HttpServer } from "@tongate/gateway";
import { createLogger, healthOf, inProcessTransport } from "@tongate/runtime";
import { serviceModules } from "../../packages/cli/src/services.js";

export interface Embedded {
  url: string;
  gateway: Gateway;
  close(): Promise<void>;
}

/**
 * `options` are what the services get from the command line (e.g. globalConfig for lite-proxy);
 * `gateway` adds gateway options (e.g. its answer cache, off by default here). Rate limiting is off
 * unless `gateway.rateLimit` is given (the ratelimit service runs either way: its admin routes answer).
 */
export async function startEmbedded(options: Record<string, unknown> = {}, gateway: Partial<GatewayOptions> = {}): Promise<Embedded> {
  const log = createLogger({ level: process.env.TONGATE_TEST_LOG_LEVEL ?? "silent" });
  const running = await Promise.all(serviceModules.map(async (m) => ({ m, r: await m.start({ log, options }) })));
  const gw = new Gateway({
    health: healthOf(running.map(({ m, r }) => ({ name: m.name, running: r }))),
    ...gateway,
    log,
    upstreams: running.map(({ m, r }) => ({ service: m.service, transport: inProcessTransport(m.service, r) })),
  });
  const server: HttpServer = await listenGateway(gw, { host: "127.0.0.1", port: 0 });
  return {
    url: `http://127.0.0.1:${server.address.port}`,
    gateway: gw,
    close: async () => {
      await server.close(1000);
      await Promise.all(running.map(({ r }) => r.close?.()));
    },
  };
}

export async function getJson(url: string): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json(), headers: res.headers };
}

export async function postJson(url: string, body: unknown): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: res.status, body: await res.json(), headers: res.headers };
}
