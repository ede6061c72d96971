// A bidirectional RPC through the gateway as a WebSocket, end to end: the test service
// tongate.test.v1.Ticks (its Echo) in process and over gRPC, real HTTP upgrades by a real `ws` client
// (and a raw TCP one, to play a dead peer), rate limits by the real ratelimit service in process.
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { RateLimit } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import { Ticks } from "@tongate/proto/gen/tongate/test/v1/ticks_pb.js";
import { Gateway, listenGateway, type GatewayOptions, type HttpServer } from "@tongate/gateway";
import { rateLimitOptionsOf, rateLimitService } from "@tongate/ratelimit";
import type { Transport } from "@connectrpc/connect";
import { createLogger, inProcessTransport, remoteTransport, serveGrpc, type GrpcServer } from "@tongate/runtime";
import { ticksModule, type TickState } from "../support/ticks.js";

const log = createLogger({ level: process.env.TONGATE_TEST_LOG_LEVEL ?? "silent" });
const ADMIN = "websocket-test-admin";
const local: TickState = { produced: 0, open: 0, ended: 0 };
const remote: TickState = { produced: 0, open: 0, ended: 0 };
const limitedState: TickState = { produced: 0, open: 0, ended: 0 };

interface Target {
  url: string;
  server: HttpServer;
}
let inProcess: Target;
let overGrpc: Target;
let limited: Target;
let grpc: GrpcServer;
const servers: HttpServer[] = [];

/** Small bounds, so that tests reach them fast: 64 KiB frames, 1 MiB unread, a one-second keepalive. */
const BOUNDS: Partial<GatewayOptions> = { maxFrameBytes: 64 << 10, maxUnreadBytes: 1 << 20, streamKeepaliveMs: 1000, sendTimeoutMs: 3000 };

async function gatewayOf(upstreams: GatewayOptions["upstreams"], extra: Partial<GatewayOptions> = {}): Promise<Target> {
  const gateway = new Gateway({ log, upstreams, ...BOUNDS, ...extra });
  const server = await listenGateway(gateway, { host: "127.0.0.1", port: 0 });
  servers.push(server);
  return { url: `ws://127.0.0.1:${server.address.port}`, server };
}

async function ticks(state: TickState): Promise<Transport> {
  const m = ticksModule(state);
  return inProcessTransport(Ticks, await m.start({ log, options: {}, needs: {} }));
}

beforeAll(async () => {
  inProcess = await gatewayOf([{ service: Ticks, transport: await ticks(local) }]);
  const remoteModule = ticksModule(remote);
  grpc = await serveGrpc([{ module: remoteModule, running: await remoteModule.start({ log, options: {}, needs: {} }) }], { host: "127.0.0.1", port: 0 });
  overGrpc = await gatewayOf([{ service: Ticks, transport: remoteTransport(`http://127.0.0.1:${grpc.address.port}`) }]);
  const rl = await rateLimitService.start({ log, options: rateLimitOptionsOf({ adminToken: ADMIN, keylessRps: "1" }), needs: {} });
  limited = await gatewayOf(
    [
      { service: Ticks, transport: await ticks(limitedState) },
      { service: RateLimit, transport: inProcessTransport(RateLimit, rl) },
    ],
    { rateLimit: { network: "mainnet" } },
  );
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close(500)));
  await grpc?.close();
});

interface Client {
  ws: WebSocket;
  frames: string[];
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens a WebSocket; resolves once open, or rejects with the HTTP status and body of a refused upgrade. */
function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const ws = new WebSocket(url, { headers });
  const frames: string[] = [];
  ws.on("message", (data) => frames.push(String(data)));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once("close", (code, reason) => resolve({ code, reason: String(reason) })));
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve({ ws, frames, closed }));
    ws.once("unexpected-response", (_req, res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body += d));
      res.on("end", () => reject(Object.assign(new Error(`refused: ${res.statusCode}`), { status: res.statusCode, body })));
    });
    ws.once("error", reject);
  });
}

async function until(cond: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await sleep(10);
  }
}

const json = (frames: string[]) => frames.map((f) => JSON.parse(f) as unknown);

describe.each([
  ["in process", () => inProcess, local],
  ["over gRPC", () => overGrpc, remote],
] as const)("WebSocket %s", (_, target, state) => {
  it("each text frame is a request, each response message a frame, in order", async () => {
    const c = await connect(`${target().url}/api/test/v1/echo`);
    for (const [id, text] of [["a", "hello"], ["b", "world"], ["c", "ünïcödé"]]) c.ws.send(JSON.stringify({ op: "echo", id, text }));
    await until(() => c.frames.length === 3);
    expect(json(c.frames)).toEqual([
      { id: "a", text: "hello" },
      { id: "b", text: "world" },
      { id: "c", text: "ünïcödé" },
    ]);
    c.ws.close();
    expect((await c.closed).code).toBe(1005);
    await until(() => state.open === 0);
    const metrics = await (await fetch(`${target().url.replace("ws:", "http:")}/metrics`)).text();
    expect(metrics).toMatch(/tongate_http_stream_frames_total\{route="\/api\/test\/v1\/echo",direction="in"\} [3-9]/);
    expect(metrics).toMatch(/tongate_http_stream_frames_total\{route="\/api\/test\/v1\/echo",direction="out"\} [3-9]/);
    expect(metrics).toMatch(/tongate_http_streams_open\{route="\/api\/test\/v1\/echo",kind="websocket"\} 0/);
  });

  it("a header a field declares, sent with the upgrade, reaches the call: the default for frames that leave the field out", async () => {
    const c = await connect(`${target().url}/api/test/v1/echo`, { "X-Echo-Text": "from the header" });
    c.ws.send(JSON.stringify({ op: "echo", id: "h1" }));
    c.ws.send(JSON.stringify({ op: "echo", id: "h2", text: "from the frame" }));
    await until(() => c.frames.length === 2);
    expect(json(c.frames)).toEqual([
      { id: "h1", text: "from the header" },
      { id: "h2", text: "from the frame" },
    ]);
    c.ws.close();
    await c.closed;
  });

  it("a frame that does not parse is answered with its id and what is wrong; the connection stays open", async () => {
    const c = await connect(`${target().url}/api/test/v1/echo`);
    c.ws.send("{not json");
    c.ws.send(JSON.stringify({ op: "dance", id: "x1" }));
    c.ws.send(JSON.stringify({ op: "echo", id: "x2", surprise: 1 }));
    c.ws.send(JSON.stringify({ id: 7 }));
    c.ws.send(JSON.stringify([1, 2]));
    c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    c.ws.send(JSON.stringify({ op: "echo", id: "ok", text: "still here" }));
    await until(() => c.frames.length === 7);
    const answers = json(c.frames) as { id?: string; error?: string }[];
    expect(answers[0]).toEqual({ error: expect.stringContaining("not valid JSON") });
    expect(answers[1]).toEqual({ id: "x1", error: expect.stringMatching(/op.*echo/) });
    expect(answers[2]).toEqual({ id: "x2", error: expect.stringContaining("surprise") });
    expect(answers[3]).toEqual({ error: expect.stringContaining("op") });
    expect(answers[4]).toEqual({ error: expect.stringContaining("JSON object") });
    expect(answers[5]).toEqual({ error: expect.stringContaining("text") });
    expect(answers[6]).toEqual({ id: "ok", text: "still here" });
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
  });

  it("the client closing cancels the call: the service sees its signal aborted", async () => {
    await until(() => state.open === 0);
    const aborted = state.aborted ?? 0;
    const c = await connect(`${target().url}/api/test/v1/echo`);
    c.ws.send(JSON.stringify({ op: "echo", text: "x" }));
    await until(() => c.frames.length === 1);
    expect(state.open).toBe(1);
    c.ws.close(1000);
    await until(() => state.open === 0 && (state.aborted ?? 0) > aborted);
    expect(state.aborted).toBe(aborted + 1);
  });

  it("the call ending closes the socket (1000); its failure sends {error} and closes with 1008 for a 4xx, 1011 for a 5xx", async () => {
    const done = await connect(`${target().url}/api/test/v1/echo`);
    done.ws.send(JSON.stringify({ op: "end" }));
    expect((await done.closed).code).toBe(1000);

    const bad = await connect(`${target().url}/api/test/v1/echo`);
    bad.ws.send(JSON.stringify({ op: "fail", code: 3, text: "the subscription names no account" }));
    expect(await bad.closed).toEqual({ code: 1008, reason: "the subscription names no account" });
    expect(json(bad.frames)).toEqual([{ error: "the subscription names no account" }]);

    const broken = await connect(`${target().url}/api/test/v1/echo`);
    broken.ws.send(JSON.stringify({ op: "fail", code: 13, text: "the bus is gone" }));
    expect((await broken.closed).code).toBe(1011);
    expect(json(broken.frames)).toEqual([{ error: "the bus is gone" }]);
  });

  it("a frame larger than the bound closes the socket (1009)", async () => {
    const c = await connect(`${target().url}/api/test/v1/echo`);
    c.ws.send(JSON.stringify({ op: "echo", text: "x".repeat(100_000) }));
    expect((await c.closed).code).toBe(1009);
  });

  it("a client that does not read is closed (1013) and its call cancelled: the gateway does not hold its frames", async () => {
    await until(() => state.open === 0);
    const [ended, before] = [state.ended, state.produced];
    const c = await connect(`${target().url}/api/test/v1/echo`);
    c.ws.pause();
    c.ws.send(JSON.stringify({ op: "flood", count: 100_000, pad: 65536 }));
    await until(() => state.ended > ended, 15_000);
    const produced = state.produced - before;
    console.log(`slow WebSocket client (${_}): ${produced} messages of 64 KiB produced before it was closed`);
    // 100,000 asked; it stopped at the gateway's 1 MiB bound plus what the sockets (and HTTP/2's windows) held.
    expect(produced).toBeLessThan(2000);
    c.ws.resume();
    const closed = await c.closed;
    expect([1013, 1006]).toContain(closed.code);
    if (closed.code === 1013) expect(closed.reason).toContain("does not read");
  }, 20_000);

  it("a GET without the upgrade is a 426 that says what the route is", async () => {
    const res = await fetch(`${target().url.replace("ws:", "http:")}/api/test/v1/echo`);
    expect(res.status).toBe(426);
    expect(((await res.json()) as { error: string }).error).toContain("WebSocket");
  });

  it("an upgrade on a route that is not a WebSocket is refused with an HTTP status", async () => {
    const err = await connect(`${target().url}/api/test/v1/count`).catch((e: { status: number; body: string }) => e);
    expect(err).toMatchObject({ status: 400 });
    expect(JSON.parse((err as { body: string }).body).error).toContain("WebSocket");
    const unknown = await connect(`${target().url}/api/test/v1/nothing`).catch((e: { status: number }) => e);
    expect(unknown).toMatchObject({ status: 400 });
  });

  it("the service sees who is asking in x-tongate-client (a client-sent one is dropped)", async () => {
    const c = await connect(`${target().url}/api/test/v1/echo`, { "x-tongate-client": "key:forged" });
    c.ws.send(JSON.stringify({ op: "echo" }));
    await until(() => c.frames.length === 1);
    expect(state.clients!.at(-1)).toBe("ip:127.0.0.1");
    c.ws.close();
  });
});

it("a peer that does not answer pings is cut off", async () => {
  const port = Number(new URL(inProcess.url).port);
  const socket = net.connect(port, "127.0.0.1");
  let received = Buffer.alloc(0);
  socket.on("data", (d: Buffer) => (received = Buffer.concat([received, d])));
  const closed = new Promise<number>((resolve) => socket.once("close", () => resolve(Date.now())));
  socket.write(
    "GET /api/test/v1/echo HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
  );
  const started = Date.now();
  const at = await closed;
  expect(received.toString("latin1")).toMatch(/^HTTP\/1.1 101 /);
  // It was pinged (opcode 0x9, unmasked from the server), did not answer, and was cut off at the next ping.
  expect(received.includes(Buffer.from([0x89, 0x00]))).toBe(true);
  expect(at - started).toBeGreaterThanOrEqual(1500);
  expect(at - started).toBeLessThan(4000);
});

it("a shutting-down gateway closes its WebSockets with 1001 and cancels their calls", async () => {
  const state: TickState = { produced: 0, open: 0, ended: 0 };
  const gateway = new Gateway({ log, upstreams: [{ service: Ticks, transport: await ticks(state) }] });
  const server = await listenGateway(gateway, { host: "127.0.0.1", port: 0 });
  const c = await connect(`ws://127.0.0.1:${server.address.port}/api/test/v1/echo`);
  c.ws.send(JSON.stringify({ op: "echo" }));
  await until(() => c.frames.length === 1);
  const closing = server.close(2000);
  expect((await c.closed).code).toBe(1001);
  await closing;
  await until(() => state.ended === 1);
  expect(state.aborted).toBe(1);
});

it("a gateway shutting down refuses new WebSockets with 503 (a kept-alive connection may still ask)", async () => {
  const gateway = new Gateway({ log, upstreams: [{ service: Ticks, transport: await ticks({ produced: 0, open: 0, ended: 0 }) }] });
  const server = await listenGateway(gateway, { host: "127.0.0.1", port: 0 });
  gateway.shutdown();
  const refused = await connect(`ws://127.0.0.1:${server.address.port}/api/test/v1/echo`).catch((e: { status: number; body: string }) => e);
  expect(refused).toMatchObject({ status: 503 });
  expect(JSON.parse((refused as { body: string }).body).error).toContain("shutting down");
  await server.close(500);
});

describe("WebSocket behind rate limits", () => {
  it("a refused upgrade is the HTTP status of the refusal: 401 for an unknown key, 429 over the limit", async () => {
    const unknown = await connect(`${limited.url}/api/test/v1/echo`, { "x-api-key": "no-such-key" }).catch((e: { status: number; body: string }) => e);
    expect(unknown).toMatchObject({ status: 401, body: JSON.stringify({ error: "API key does not exist" }) });
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () =>
        connect(`${limited.url}/api/test/v1/echo`).then(
          (c) => (c.ws.close(), 101),
          (e: { status: number }) => e.status,
        ),
      ),
    );
    expect(outcomes).toContain(429);
    expect(limitedState.open).toBeLessThanOrEqual(1);
  });

  it("the service sees the API key's public id, never the key", async () => {
    const res = await fetch(`${limited.url.replace("ws:", "http:")}/api/admin/v1/keys/create`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ admin_token: ADMIN, plan: "free" }),
    });
    const { secret, key } = (await res.json()) as { secret: string; key: { id: string } };
    const c = await connect(`${limited.url}/api/test/v1/echo`, { "x-api-key": secret });
    c.ws.send(JSON.stringify({ op: "echo" }));
    await until(() => c.frames.length === 1);
    expect(limitedState.clients!.at(-1)).toBe(`key:${key.id}`);
    c.ws.close();
  });
});

it("an upgrade to another protocol (curl --http2's h2c) is declined: the request is answered as it is", async () => {
  const port = Number(new URL(inProcess.url).port);
  const answer = (request: string) =>
    new Promise<string>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      let text = "";
      socket.on("data", (d: Buffer) => (text += d.toString("latin1")));
      socket.on("close", () => resolve(text));
      socket.write(request);
    });
  const get = await answer("GET /api/test/v1/count?from=3&count=1 HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n");
  expect(get).toMatch(/^HTTP\/1.1 200 /);
  expect(get).toContain('"n":"3"');
  const post = await answer("POST /api/test/v1/events HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: h2c\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"count\":1}");
  expect(post).toMatch(/^HTTP\/1.1 400 /);
  expect(post).toContain("does not take an upgrade");
});
