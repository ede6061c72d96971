// The gateway's HTTP server: limits, timeouts and graceful shutdown.
import http from "node:http";
import type { Gateway } from "./gateway.js";

export interface HttpServer {
  address: { host: string; port: number };
  /** Stops accepting, closes the WebSockets (1001), lets requests in flight finish (up to graceMs), then closes. */
  close(graceMs?: number): Promise<void>;
}

export async function listenGateway(gateway: Gateway, listen: { host: string; port: number }): Promise<HttpServer> {
  const server = http.createServer(
    {
      maxHeaderSize: 64 * 1024, // toncenter: 64 KiB of headers; node answers 431 past it
      requestTimeout: 30_000,
      headersTimeout: 15_000,
      keepAliveTimeout: 65_000,
    },
    gateway.handle,
  );
  server.on("upgrade", gateway.upgrade);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  const addr = server.address();
  return {
    address: { host: listen.host, port: typeof addr === "object" && addr ? addr.port : listen.port },
    close: (graceMs = 10_000) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
        gateway.shutdown();
      }),
  };
}
