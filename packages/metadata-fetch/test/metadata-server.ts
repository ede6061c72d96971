// A metadata server on loopback with the answers a hostile or broken token host gives: hangs,
// huge bodies, invalid and deeply nested JSON, redirects anywhere, slow answers for counting
// concurrency. It records what it saw so a test can assert what reached it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { Socket, type AddressInfo } from "node:net";
import { channel } from "node:diagnostics_channel";

export interface MetadataServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  hits: Map<string, number>;
  /** The most requests in progress at once, in all and by Host header. */
  maxConcurrent: { all: number; byHost: Map<string, number> };
  /** Bytes of the huge answers written before the client went away. */
  bigBytesWritten: number[];
  openSockets(): number;
  close(): Promise<void>;
}

const TEN_MB = 10 * 1024 * 1024;

export async function startMetadataServer(): Promise<MetadataServer> {
  const sockets = new Set<Socket>();
  const hits = new Map<string, number>();
  const maxConcurrent = { all: 0, byHost: new Map<string, number>() };
  const current = { all: 0, byHost: new Map<string, number>() };
  const bigBytesWritten: number[] = [];
  const hanging = new Set<ServerResponse>();
  let origin = "";

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname.replace(/^\/ipfs\/[^/]+/u, ""); // ipfs://<cid>/x arrives as /ipfs/<cid>/x
    hits.set(path + url.search, (hits.get(path + url.search) ?? 0) + 1);
    const json = (value: unknown) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(value));
    };
    if (path === "/ok" || path.startsWith("/item/")) return json({ name: `Token ${path}`, symbol: "TOK", decimals: "9", image: "https://example.invalid/t.png" });
    if (path === "/hang") {
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    }
    if (path === "/hang-body") {
      // Headers and the start of the JSON, then nothing.
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"name":');
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    }
    if (path === "/big" || path === "/big-chunked") return writeBig(res, path === "/big", bigBytesWritten);
    if (path === "/invalid") return res.end("{ name: 'not JSON' ");
    if (path === "/array") return json([1, 2, 3]);
    if (path === "/deep") return res.end("[".repeat(200_000) + "]".repeat(200_000));
    if (path === "/deep-object") return res.end('{"a":'.repeat(50_000) + "1" + "}".repeat(50_000));
    if (path === "/missing") {
      res.statusCode = 404;
      return res.end("not found");
    }
    if (path === "/redirect") {
      res.writeHead(302, { location: url.searchParams.get("to") ?? "/ok" });
      return res.end();
    }
    const loop = /^\/loop\/(\d+)$/u.exec(path);
    if (loop) {
      res.writeHead(301, { location: `/loop/${Number(loop[1]) + 1}` });
      return res.end();
    }
    if (path === "/slow") {
      const host = req.headers.host ?? "";
      current.all++;
      current.byHost.set(host, (current.byHost.get(host) ?? 0) + 1);
      maxConcurrent.all = Math.max(maxConcurrent.all, current.all);
      maxConcurrent.byHost.set(host, Math.max(maxConcurrent.byHost.get(host) ?? 0, current.byHost.get(host)!));
      setTimeout(() => {
        current.all--;
        current.byHost.set(host, current.byHost.get(host)! - 1);
        json({ name: "slow" });
      }, 60);
      return;
    }
    res.statusCode = 500;
    res.end("unknown test path");
  };

  const server: Server = createServer(handle);
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    hits,
    maxConcurrent,
    bigBytesWritten,
    openSockets: () => sockets.size,
    close: async () => {
      for (const res of hanging) res.destroy();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// 10 MB in 64 KiB chunks, written as fast as the client reads (backpressure), stopped when the
// client goes: what was written shows whether the client read it all.
function writeBig(res: ServerResponse, declareLength: boolean, written: number[]): void {
  res.writeHead(200, declareLength ? { "content-type": "application/json", "content-length": String(TEN_MB) } : { "content-type": "application/json" });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  let done = false;
  res.on("close", () => {
    if (!done) written.push(sent);
    done = true;
  });
  const pump = () => {
    while (!done && sent < TEN_MB) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", pump);
    }
    if (!done && sent >= TEN_MB) res.end();
  };
  res.write("[");
  pump();
}

/**
 * Every outgoing connection attempt of this process, with its address: the tests assert that
 * none went anywhere but loopback (a refusal must come before any connection).
 */
export function watchConnections(): { attempts: string[]; stop: () => void } {
  const attempts: string[] = [];
  const onSocket = (message: unknown) => {
    if (typeof message !== "object" || message === null || !("socket" in message) || !(message.socket instanceof Socket)) return;
    message.socket.on("connectionAttempt", (ip: string) => attempts.push(ip));
  };
  const ch = channel("net.client.socket");
  ch.subscribe(onSocket);
  return { attempts, stop: () => ch.unsubscribe(onSocket) };
}

/** Sockets (client and server sides) open in this process. */
export function tcpSockets(): number {
  return process.getActiveResourcesInfo().filter((r) => r === "TCPSocketWrap").length;
}
