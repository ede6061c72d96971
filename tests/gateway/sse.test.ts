// A server-streaming RPC through the gateway as Server-Sent Events, end to end: the test service
// tongate.test.v1.Ticks in process and over gRPC, read by real HTTP clients (fetch and node:http).
// (No browser here: `chromium` is not installed, so EventSource itself is not driven.)
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ticks } from "@tongate/proto/gen/tongate/test/v1/ticks_pb.js";
import { Gateway, listenGateway, type HttpServer } from "@tongate/gateway";
import { createLogger, inProcessTransport, remoteTransport, serveGrpc, type GrpcServer } from "@tongate/runtime";
import { ticksModule, type TickState } from "../support/ticks.js";

const log = createLogger({ level: process.env.TONGATE_TEST_LOG_LEVEL ?? "silent" });
const local: TickState = { produced: 0, open: 0, ended: 0 };
const remote: TickState = { produced: 0, open: 0, ended: 0 };
let inProcess: { url: string; server: HttpServer; gateway: Gateway };
let overGrpc: { url: string; server: HttpServer; gateway: Gateway };
let grpc: GrpcServer;

async function gatewayOf(transport: ReturnType<typeof inProcessTransport>) {
  // A one-second keepalive, so that a test sees it.
  const gateway = new Gateway({ log, upstreams: [{ service: Ticks, transport }], streamKeepaliveMs: 1000 });
  const server = await listenGateway(gateway, { host: "127.0.0.1", port: 0 });
  return { url: `http://127.0.0.1:${server.address.port}`, server, gateway };
}

beforeAll(async () => {
  const localModule = ticksModule(local);
  inProcess = await gatewayOf(inProcessTransport(Ticks, await localModule.start({ log, options: {}, needs: {} })));
  const remoteModule = ticksModule(remote);
  grpc = await serveGrpc([{ module: remoteModule, running: await remoteModule.start({ log, options: {}, needs: {} }) }], { host: "127.0.0.1", port: 0 });
  overGrpc = await gatewayOf(remoteTransport(`http://127.0.0.1:${grpc.address.port}`));
});
afterAll(async () => {
  await Promise.all([inProcess?.server.close(500), overGrpc?.server.close(500)]);
  await grpc?.close();
});

/** The events of an SSE body as written: each field's lines (comments, id, event, data). */
function rawEventsOf(text: string): string[][] {
  return text
    .split("\n\n")
    .filter((e) => e.trim())
    .map((e) => e.split("\n"));
}

/** Reads an SSE body until `enough` says so (or it ends); the client then goes away. */
async function readUntil(res: Response, enough: (text: string) => boolean, ac?: AbortController): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while (!enough(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  ac?.abort();
  return text;
}

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body), signal });

/** The events of an SSE body: `data` parsed as JSON, with the event's name. */
function eventsOf(text: string): { event: string; data: any }[] {
  return text
    .split("\n\n")
    .filter((e) => e.trim())
    .map((e) => {
      const lines = e.split("\n");
      const event = lines.find((l) => l.startsWith("event: "))?.slice(7) ?? "message";
      const data = lines.filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
      return { event, data: JSON.parse(data) };
    });
}

async function until(cond: () => boolean, ms = 3000) {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await sleep(10);
  }
}

describe.each([
  ["in process", () => inProcess, local],
  ["over gRPC", () => overGrpc, remote],
] as const)("SSE %s", (_, target, state) => {
  it("answers text/event-stream: one data event of JSON per message, then the end", async () => {
    const res = await fetch(`${target().url}/api/test/v1/count?from=5&count=3`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toContain("no-cache");
    const head = await fetch(`${target().url}/api/test/v1/count`, { method: "HEAD" });
    expect([head.status, head.headers.get("content-type")]).toEqual([200, "text/event-stream; charset=utf-8"]);
    const events = eventsOf(await res.text());
    expect(events.map((e) => e.event)).toEqual(["message", "message", "message"]);
    expect(events.map((e) => String(e.data.n))).toEqual(["5", "6", "7"]);
  });

  it("flushes each message as it comes, and the client going away cancels the call", async () => {
    const ended = state.ended;
    const ac = new AbortController();
    const started = Date.now();
    const res = await fetch(`${target().url}/api/test/v1/count?from=1&interval_ms=100`, { signal: ac.signal });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const arrivals: number[] = [];
    while (arrivals.length < 3) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      while (arrivals.length < text.split("\n\n").length - 1) arrivals.push(Date.now() - started);
    }
    // An endless stream: each event arrived on its own tick (not all at the end).
    expect(eventsOf(text).slice(0, 3).map((e) => String(e.data.n))).toEqual(["1", "2", "3"]);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(50);
    ac.abort();
    await until(() => state.ended > ended);
    expect(state.open).toBe(0);
  });

  it("a service's refusal before its first message is an HTTP error, as a bad parameter is", async () => {
    const failed = await fetch(`${target().url}/api/test/v1/count?from=-1&count=1`);
    expect(failed.status).toBe(422);
    expect(await failed.json()).toEqual({ error: "from must not be negative" });
    const bad = await fetch(`${target().url}/api/test/v1/count?count=many`);
    expect(bad.status).toBe(422);
    expect(Object.keys((await bad.json()) as object)).toEqual(["error"]);
  });

  it("a client that does not read holds the stream: production stops, memory is bounded", async () => {
    const ended = state.ended;
    const before = state.produced;
    const url = new URL(`${target().url}/api/test/v1/count?pad=65536`);
    const req = http.get(url);
    const res = await new Promise<http.IncomingMessage>((resolve) => req.once("response", resolve));
    res.pause();
    // An endless stream with no wait between messages stops once the buffers on its way are full
    // (sockets, and HTTP/2's flow-control windows over gRPC): production settles, and stays.
    let last = -1;
    const deadline = Date.now() + 20_000;
    while (state.produced !== last && Date.now() < deadline) {
      last = state.produced;
      await sleep(400);
    }
    const settled = state.produced - before;
    await sleep(400);
    console.log(`slow SSE client (${_}): ${settled} messages of 64 KiB produced before the stream held`);
    expect(state.produced - before).toBe(settled);
    expect(settled).toBeLessThan(1000);
    req.destroy();
    await until(() => state.ended > ended);
  }, 40_000);
});

describe.each([
  ["in process", () => inProcess, local],
  ["over gRPC", () => overGrpc, remote],
] as const)("SSE with stream parts %s", (_, target, state) => {
  it("POST: the body is the request; each message's parts are its id:, event: and data: lines", async () => {
    const res = await postJson(`${target().url}/api/test/v1/events`, { count: 3 });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(rawEventsOf(await res.text())).toEqual([
      ["id: 1", "event: tick", 'data: {"n":1}'],
      ["id: 2", "event: tick", 'data: {"n":2}'],
      ["id: 3", "event: tick", 'data: {"n":3}'],
    ]);
  });

  it("data with line breaks is several data: lines; a message field is its rendered JSON", async () => {
    const text = await (await postJson(`${target().url}/api/test/v1/events`, { count: 2, text: "one\ntwo\r\nthree" })).text();
    expect(rawEventsOf(text)).toEqual([
      ["id: 1", "event: tick", "data: one", "data: two", "data: three"],
      ["id: 2", "event: tick", 'data: {"n":2}'],
    ]);
    const asMessage = await (await fetch(`${target().url}/api/test/v1/events?count=1&as_message=true`)).text();
    expect(rawEventsOf(asMessage)).toEqual([["id: 1", "event: tick", 'data: {"n":"1","pad":""}']]);
  });

  it("the Last-Event-ID header reaches the request, on GET and on POST (where it replaces the body's value)", async () => {
    const get = await (await fetch(`${target().url}/api/test/v1/events?count=1`, { headers: { "last-event-id": "41" } })).text();
    expect(rawEventsOf(get)[0]![0]).toBe("id: 42");
    const post = await (await postJson(`${target().url}/api/test/v1/events`, { count: 1, last_event_id: "7" }, { "Last-Event-ID": "99" })).text();
    expect(rawEventsOf(post)[0]![0]).toBe("id: 100");
    expect(state.lastEventIds!.slice(-2)).toEqual(["41", "99"]);
  });

  it("a bad POST body is a 4xx JSON answer before any stream", async () => {
    for (const [body, status, word] of [
      ["{not json", 422, "not valid JSON"],
      [{ count: "many" }, 422, "count"],
      [{ count: 1, surprise: true }, 422, "surprise"],
      [{ last_event_id: "x1" }, 422, "last_event_id"],
    ] as const) {
      const res = await postJson(`${target().url}/api/test/v1/events`, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.headers.get("content-type")).toContain("application/json");
      const answer = (await res.json()) as { error: string };
      expect(Object.keys(answer)).toEqual(["error"]);
      expect(answer.error).toContain(word);
    }
    const bad = await fetch(`${target().url}/api/test/v1/events`, { headers: { "last-event-id": "not a number" } });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: string }).error).toContain("Last-Event-ID");
  });

  it("a quiet stream gets a keepalive comment after every interval without a write", async () => {
    const ac = new AbortController();
    const started = Date.now();
    const res = await postJson(`${target().url}/api/test/v1/events`, { count: 2, interval_ms: 3500 }, {}, ac.signal);
    const text = await readUntil(res, (t) => t.split(": keepalive\n\n").length > 2, ac);
    // Quiet seconds before the first event (the headers wait half a second for it): a comment after each.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(text.startsWith(": keepalive\n\n: keepalive\n\n")).toBe(true);
  });

  it("the service sees who is asking in x-tongate-client (the client's address without rate limiting)", async () => {
    await (await postJson(`${target().url}/api/test/v1/events`, { count: 1 }, { "x-tongate-client": "key:forged" })).text();
    expect(state.clients!.at(-1)).toBe("ip:127.0.0.1");
  });
});

it("the transports' interceptors count the calls in the gateway's /metrics, in process and over gRPC alike", async () => {
  const text = await (await fetch(`${inProcess.url}/metrics`)).text();
  for (const side of ["in-process", "grpc-client", "grpc-server"]) {
    expect(text).toMatch(new RegExp(`tongate_rpc_calls_total\\{rpc="tongate.test.v1.Ticks/Count",side="${side}",code="\\w+"\\} [1-9]`));
  }
});

it("stream routes outside the public APIs stay out of the OpenAPI documents", async () => {
  const v3 = await (await fetch(`${inProcess.url}/api/v3/openapi.json`)).json();
  expect(JSON.stringify(v3)).not.toContain("/api/test/");
});

it("/metrics counts the open streams and their messages by route", async () => {
  const ac = new AbortController();
  const res = await fetch(`${inProcess.url}/api/test/v1/events?count=0&interval_ms=50`, { signal: ac.signal });
  await readUntil(res, (t) => t.includes("id: 2"));
  const during = await (await fetch(`${inProcess.url}/metrics`)).text();
  expect(during).toMatch(/tongate_http_streams_open\{route="\/api\/test\/v1\/events",kind="sse"\} 1/);
  expect(during).toMatch(/tongate_http_stream_frames_total\{route="\/api\/test\/v1\/events",direction="out"\} [1-9]/);
  ac.abort();
  await until(() => local.open === 0);
  const after = await (await fetch(`${inProcess.url}/metrics`)).text();
  expect(after).toMatch(/tongate_http_streams_open\{route="\/api\/test\/v1\/events",kind="sse"\} 0/);
});
