// Transports between the gateway and services. Embedded mode: an in-process
// Connect transport over the service's router (same serialization and error
// path as the wire, no socket). Distributed mode: gRPC over HTTP/2. Callers get
// the same generated clients in both modes.
import http2 from "node:http2";
import type { DescService } from "@bufbuild/protobuf";
import { createRouterTransport, type ConnectRouter, type Transport } from "@connectrpc/connect";
import { connectNodeAdapter, createGrpcTransport } from "@connectrpc/connect-node";
import type { RunningService, ServiceModule } from "./service.js";

export function inProcessTransport(service: DescService, running: RunningService): Transport {
  return createRouterTransport((router) => router.service(service, running.impl));
}

export function remoteTransport(baseUrl: string): Transport {
  return createGrpcTransport({ baseUrl });
}

export interface GrpcServer {
  address: { host: string; port: number };
  close(): Promise<void>;
}

/** Serves the given services over gRPC (and the Connect and gRPC-Web protocols) on HTTP/2 cleartext. */
export async function serveGrpc(
  services: { module: ServiceModule; running: RunningService }[],
  listen: { host: string; port: number },
): Promise<GrpcServer> {
  const handler = connectNodeAdapter({
    routes: (router: ConnectRouter) => {
      for (const s of services) router.service(s.module.service, s.running.impl);
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
