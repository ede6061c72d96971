// Transports between the gateway and services. Embedded mode: the in-process
// transport (in-process-transport.ts). Distributed mode: gRPC over HTTP/2.
// Callers get the same generated clients in both modes.
import http2 from "node:http2";
import type { ConnectRouter, Interceptor, Transport } from "@connectrpc/connect";
import { connectNodeAdapter, createGrpcTransport } from "@connectrpc/connect-node";
import { callInterceptors } from "./interceptors.js";
import type { RunningService, ServiceModule } from "./service.js";

export { inProcessTransport } from "./in-process-transport.js";

/**
 * The nesting of messages a client decodes in a service's answer. protobuf-es stops at 100 by
 * default, which a get-method's result rendered as JSON values passes (toncenter's legacy cell
 * objects are four messages deep per cell; the services bound their results themselves).
 */
const ANSWER_RECURSION_LIMIT = 1000;

/** A gRPC client of services elsewhere, running the interceptors every transport runs. */
export function remoteTransport(baseUrl: string, interceptors: Interceptor[] = callInterceptors("grpc-client")): Transport {
  return createGrpcTransport({ baseUrl, interceptors, binaryOptions: { recursionLimit: ANSWER_RECURSION_LIMIT } });
}

export interface GrpcServer {
  address: { host: string; port: number };
  close(): Promise<void>;
}

/** Serves the given services over gRPC (and the Connect and gRPC-Web protocols) on HTTP/2 cleartext. */
export async function serveGrpc(
  services: readonly { module: ServiceModule; running: RunningService }[],
  listen: { host: string; port: number },
  interceptors: Interceptor[] = callInterceptors("grpc-server"),
): Promise<GrpcServer> {
  const handler = connectNodeAdapter({
    interceptors,
    routes: (router: ConnectRouter) => {
      for (const s of services) for (const i of s.running.impls) i.route(router);
    },
  });
  const server = http2.createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : listen.port;
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (s) => {
    sessions.add(s);
    s.once("close", () => sessions.delete(s));
  });
  return {
    address: { host: listen.host, port },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sessions) s.close();
      }),
  };
}
