// Starts tongate's gateway and services in this process, on an ephemeral port,
// exactly as `tongate start` wires them (in-process Connect transport).
import { Gateway, listenGateway, type GatewayOptions, type HttpServer } from "@tongate/gateway";
import { createLogger, ServiceHost, type Closable, type Provision } from "@tongate/runtime";
import { provisionsOf, serviceModules } from "@tongate/cli";

export interface Embedded {
  url: string;
  gateway: Gateway;
  close(): Promise<void>;
}

/**
 * `options` are what the services get from the command line (e.g. globalConfig for lite-proxy);
 * `gateway` adds gateway options (e.g. its answer cache, off by default here; `log`: the gateway's logger,
 * silent unless given). Rate limiting is off
 * unless `gateway.rateLimit` is given (the ratelimit service runs either way: its admin routes answer).
 * The indexer and the decoder (chDB in this process) run only when `options.index` is given ("on":
 * following the chain of `options.globalConfig`; "off": answering from what is stored). `provide` replaces what
 * the host supplies on `options` (e.g. a liteserver pool with the test's own pool options).
 */
export async function startEmbedded(given: Record<string, unknown> = {}, gateway: Partial<GatewayOptions> = {}, provide: Provision<Closable>[] = []): Promise<Embedded> {
  // no test fetches token metadata from the Internet: a test that serves it on loopback turns it on
  const options: Record<string, unknown> = { "metadata-fetch": "off", ...given };
  const log = createLogger({ level: process.env.TONGATE_TEST_LOG_LEVEL ?? "silent" });
  const hosted = await ServiceHost.start(
    // the indexer and the decoder open the store (chDB): only when the test asks for the index
    serviceModules.filter((m) => (m.name !== "indexer" && m.name !== "decoder") || options.index !== undefined),
    { log, options, provide: [...provisionsOf(options), ...provide] },
  );
  const gw = new Gateway({
    health: hosted.health(),
    ...gateway,
    log: gateway.log ?? log,
    upstreams: hosted.upstreams(),
  });
  const server: HttpServer = await listenGateway(gw, { host: "127.0.0.1", port: 0 });
  return {
    url: `http://127.0.0.1:${server.address.port}`,
    gateway: gw,
    close: async () => {
      await server.close(1000);
      await hosted.close();
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

/** The decoder's part of /healthz's detail. */
export interface DecoderHealth {
  decodedSeqno: number;
  indexedSeqno: number;
  lastError?: string;
  keyIndex?: string;
}

/**
 * Waits until the decoder has decoded masterchain block `seqno` without an error (and, when
 * `keyIndex` is asked for, its key index is complete): until then, answers that carry decoded data
 * (interfaces in address books, jettons, NFTs) are still changing.
 */
export async function decodedTo(url: string, seqno: number, opts: { keyIndex?: boolean; timeoutMs?: number } = {}): Promise<DecoderHealth> {
  const until = Date.now() + (opts.timeoutMs ?? 120_000);
  for (;;) {
    const d: DecoderHealth | undefined = (await getJson(`${url}/healthz`)).body.detail?.decoder;
    if (d && d.decodedSeqno >= seqno && !d.lastError && (!opts.keyIndex || d.keyIndex === "complete")) return d;
    if (Date.now() > until) throw new Error(`the decoder did not reach block ${seqno}: ${JSON.stringify(d)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
