// A bidirectional RPC served as a WebSocket (an upgrade of a GET on its route). The upgrade is a request
// like any other until here — counted by the rate limit, refused by the limits, routed — so a refusal
// is an HTTP status before any upgrade. Then one call for the connection's life:
// - each text frame from the client is one request message, parsed from JSON by the codec's rules;
//   a frame that does not parse is answered {"id","error"} (its "id" echoed when a string) and the
//   connection stays open; a binary frame likewise;
// - each response message is one text frame: its DATA part (stream-parts.ts), or its rendered JSON;
// - the call ending closes the socket (1000); its failure sends {"error"} and closes it with 1008 for a
//   4xx, 1011 for a 5xx; the client closing cancels the call.
// Bounded: a frame larger than maxFrameBytes closes the socket (1009); a client that leaves more than
// maxBufferedBytes of frames unread is closed (1013) and its call cancelled; a client that sends faster
// than the service takes is held back (inbox.ts); a peer that does not answer a ping within the
// keepalive interval is cut off.
import type { IncomingHttpHeaders } from "node:http";
import type { Socket } from "node:net";
import type { DescMethodBiDiStreaming, DescService, JsonValue, Message } from "@bufbuild/protobuf";
import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import { conventionOf } from "@tongate/proto/json/conventions.js";
import { WebSocket, WebSocketServer, type RawData } from "ws";
import { parseBody } from "../codec/parse.js";
import { boundedMessage } from "../envelope.js";
import { Inbox } from "../inbox.js";
import type { GatewayMetrics } from "../metrics.js";
import type { Route } from "../routes.js";
import { frameOf } from "../stream-parts.js";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "./body.js";
import { refusal, type Classify } from "./errors.js";
import type { Endpoint } from "./route.js";
import type { Exchange, Reply } from "./stage.js";
import { callHeaders, clientOf } from "./target.js";

export interface WebSocketOptions {
  transports: Map<DescService, Transport>;
  classify: Classify;
  metrics: GatewayMetrics;
  /** Largest frame a client may send, bytes. */
  maxFrameBytes: number;
  /** Bytes of frames a client may leave unread before it is closed. */
  maxBufferedBytes: number;
  /** Ping interval, ms (a peer that has not answered the last ping by the next is cut off); 0: none. */
  keepaliveMs: number;
  /** Time a closed socket's client has to take the close, ms; then the connection is cut. */
  closeTimeoutMs: number;
}

/** Close codes (RFC 6455 §7.4.1 and IANA's registry). */
const NORMAL = 1000;
const GOING_AWAY = 1001;
const POLICY = 1008;
const INTERNAL = 1011;
const TRY_AGAIN_LATER = 1013;

/** Requests held for the call before the client's socket is paused. */
const INBOX_HIGH = 16;

/** A close reason: at most 123 bytes of UTF-8 (the frame's limit). */
function closeReason(text: string): string {
  if (Buffer.byteLength(text) <= 123) return text;
  let cut = text.slice(0, 120);
  while (Buffer.byteLength(`${cut}…`) > 123) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** A frame's request, or why it is not one (with the id it gave, to answer it by). */
function parseFrame(route: Route, data: RawData, isBinary: boolean): { input: Message } | { id?: string; error: string } {
  if (isBinary) return { error: "a frame must be text: one JSON object of the request" };
  const text = Array.isArray(data) ? Buffer.concat(data).toString("utf8") : Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString("utf8");
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return { error: `the frame nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels` };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    return { error: `the frame is not valid JSON: ${(e as Error).message}` };
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) return { error: "a frame must be a JSON object of the request's fields" };
  const fields = body as Record<string, JsonValue>;
  const id = typeof fields.id === "string" ? fields.id : undefined;
  try {
    return { input: parseBody(route.method.input, fields, { rejectUnknown: route.flavour === "v3" }) };
  } catch (e) {
    return { id, error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * The upgrade request's headers that fields of the input declare (json.header): they go with the
 * call, for the service to apply to the frames that do not set the field (a frame is parsed alone).
 */
function declaredHeaders(route: Route, headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of conventionOf(route.method.input).fields) {
    if (!f.header) continue;
    const sent = headers[f.header.toLowerCase()];
    const value = Array.isArray(sent) ? sent[sent.length - 1] : sent;
    if (value !== undefined) out[f.header.toLowerCase()] = value;
  }
  return out;
}

export class WebSockets {
  private readonly server: WebSocketServer;
  private readonly open = new Set<WebSocket>();
  /** Why the upgrade at hand was refused by the WebSocket handshake (handleUpgrade decides synchronously). */
  private refusedBy: Error | undefined;
  /** Shutting down: no new WebSocket (a kept-alive connection may still ask for one). */
  private closing = false;

  constructor(private readonly o: WebSocketOptions) {
    this.server = new WebSocketServer({ noServer: true, maxPayload: o.maxFrameBytes, perMessageDeflate: false, clientTracking: false });
    this.server.on("wsClientError", (err: Error) => (this.refusedBy = err));
  }

  readonly endpoint: Endpoint = async (x, route) => {
    if (!x.upgrade) {
      const r = refusal(route.flavour, 426, `${route.path} is a WebSocket: connect to it with a WebSocket client (a GET with Upgrade: websocket)`, route.path);
      return { ...r, headers: { upgrade: "websocket" } };
    }
    if (this.closing) return { ...refusal(route.flavour, 503, "the server is shutting down: connect again", route.path), headers: { "retry-after": "1" } };
    return this.accept(x, route, x.upgrade.socket, x.upgrade.head);
  };

  /** Closes every WebSocket with 1001 (the server is going away); their calls are cancelled. */
  closeAll(): void {
    this.closing = true;
    for (const ws of this.open) this.close(ws, GOING_AWAY, "the server is shutting down");
  }

  private accept(x: Exchange, route: Route, socket: Socket, head: Buffer): Reply {
    let ws: WebSocket | undefined;
    this.refusedBy = undefined;
    this.server.handleUpgrade(x.req, socket, head, (upgraded) => (ws = upgraded));
    const refused = this.refusedBy as Error | undefined;
    if (refused) return refusal(route.flavour, 400, `the WebSocket handshake: ${refused.message}`, route.path);
    // The socket: the WebSocket's from here (or gone: a client that hung up before the handshake).
    x.res.detachSocket(socket);
    if (!ws) return { status: 499, body: null, route: route.path, upgraded: true };
    this.serve(ws, x, route);
    return { status: 101, body: null, route: route.path, upgraded: true };
  }

  private close(ws: WebSocket, code: number, reason: string): void {
    if (ws.readyState === WebSocket.CLOSED) return;
    ws.close(code, closeReason(reason));
    // A client that does not take the close frame (it reads nothing) is cut off.
    setTimeout(() => ws.terminate(), this.o.closeTimeoutMs).unref();
  }

  private serve(ws: WebSocket, x: Exchange, route: Route): void {
    const counted = this.o.metrics.streamOpened(route.path, "websocket");
    this.open.add(ws);
    const method = route.method as DescMethodBiDiStreaming;
    const ac = new AbortController();
    const inbox = new Inbox<Message>(INBOX_HIGH, (stop) => (stop ? ws.pause() : ws.resume()));
    const send = (frame: string) => {
      ws.send(frame);
      counted.sent();
    };

    let alive = true;
    ws.on("pong", () => (alive = true));
    const ping =
      this.o.keepaliveMs > 0
        ? setInterval(() => {
            if (!alive) return ws.terminate();
            alive = false;
            ws.ping();
          }, this.o.keepaliveMs)
        : undefined;
    ping?.unref();

    ws.on("message", (data, isBinary) => {
      counted.received();
      const r = parseFrame(route, data, isBinary);
      if ("input" in r) inbox.push(r.input);
      else send(JSON.stringify({ ...(r.id !== undefined ? { id: r.id } : {}), error: boundedMessage(r.error) }));
    });
    // A protocol error (a frame too large, invalid UTF-8): ws closes the socket itself, with its code.
    ws.on("error", () => {});
    ws.on("close", () => {
      if (!ac.signal.aborted) ac.abort(new ConnectError("the client closed the WebSocket", Code.Canceled));
      inbox.end();
      clearInterval(ping);
      counted.closed();
      this.open.delete(ws);
    });

    void (async () => {
      try {
        const answer = await this.o.transports.get(route.service)!.stream(method, ac.signal, undefined, { ...declaredHeaders(route, x.req.headers), ...callHeaders(clientOf(x)) }, inbox);
        for await (const m of answer.message) {
          if (ws.readyState !== WebSocket.OPEN) break;
          send(frameOf(method.output, m));
          if (ws.bufferedAmount > this.o.maxBufferedBytes) {
            ac.abort(new ConnectError("the client does not read", Code.Canceled));
            this.close(ws, TRY_AGAIN_LATER, `the client does not read its messages: more than ${this.o.maxBufferedBytes} bytes unread`);
            return;
          }
        }
        this.close(ws, NORMAL, "");
      } catch (err) {
        if (ac.signal.aborted) return;
        const { status, message } = this.o.classify(err, route);
        if (ws.readyState === WebSocket.OPEN) send(JSON.stringify({ error: boundedMessage(message) }));
        this.close(ws, status >= 500 ? INTERNAL : POLICY, message);
      } finally {
        if (!ac.signal.aborted) ac.abort(new ConnectError("the call ended", Code.Canceled));
      }
    })();
  }
}
