// A server-streaming RPC served as Server-Sent Events (text/event-stream), on GET (its request from the
// query) or on POST (from the JSON body); a header a field declares (json.header: Last-Event-ID)
// replaces the field's value either way. Each response message is one event, written as it comes: its
// stream parts (stream-parts.ts) as `id:`, `event:` and `data:` lines, or a message without parts as
// one `data:` line of its rendered JSON. A failure after the start is an `event: error` with
// {"error","code"}. A comment line (`: keepalive`) after every keepalive interval without a write keeps
// proxies and clients from taking a quiet stream for a dead one. The client going away cancels the call.
// A slow client holds the stream: no next message is asked of the service while the socket's buffer is
// full, so memory stays bounded by one message plus the socket's high-water mark; a client that takes
// nothing within the send timeout is dropped. Input errors answer as REST does, before the stream, and
// so does a service's refusal before its first message (the status waits for it, briefly).
import { once } from "node:events";
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { DescMethodServerStreaming, DescService, Message } from "@bufbuild/protobuf";
import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import type { Delivery } from "../delivery.js";
import { boundedMessage, errorBody, newExtra } from "../envelope.js";
import type { GatewayMetrics } from "../metrics.js";
import { eventParts, sseEvent } from "../stream-parts.js";
import type { Classify } from "./errors.js";
import { CORS } from "./limits.js";
import { inputOf } from "./rest.js";
import type { Endpoint } from "./route.js";
import { callHeaders, clientOf } from "./target.js";

const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};

const KEEPALIVE = ": keepalive\n\n";
/** How long the answer's status waits for the stream's first message (a refusal before it is a 4xx). */
const FIRST_MESSAGE_WAIT_MS = 500;

async function* one<T>(m: T): AsyncIterable<T> {
  yield m;
}

export interface SseOptions {
  transports: Map<DescService, Transport>;
  classify: Classify;
  delivery: Delivery;
  metrics: GatewayMetrics;
  /** Largest POST body accepted, bytes. */
  maxBody: number;
  /** Quiet time after which a keepalive comment is written, ms; 0: never. */
  keepaliveMs: number;
}

export function sseEndpoint(o: SseOptions): Endpoint {
  /** Waits for the socket to take what is buffered; a client that does not read within the send timeout is dropped (which ends the stream). */
  const drained = async (res: ServerResponse, socket: Socket, signal: AbortSignal) => {
    const timer = setTimeout(() => o.delivery.drop(socket, "send_timeout"), o.delivery.sendTimeoutMs);
    try {
      await once(res, "drain", { signal });
    } finally {
      clearTimeout(timer);
    }
  };
  return async (x, route) => {
    const seen: { extra?: string } = {};
    let input: Message;
    try {
      input = await inputOf(x, route, o.maxBody, seen);
    } catch (err) {
      const { status, message } = o.classify(err, route);
      return { status, body: errorBody(route.flavour, status, message, seen.extra ?? newExtra()), route: route.path };
    }
    const method = route.method as DescMethodServerStreaming;
    const { res } = x;
    const socket = x.req.socket;
    if (x.method === "HEAD") {
      res.writeHead(200, { ...SSE_HEADERS, ...CORS, ...x.headers });
      res.end();
      return { status: 200, body: null, route: route.path };
    }
    const ac = new AbortController();
    const gone = () => ac.abort(new ConnectError("the client went away", Code.Canceled));
    res.once("close", gone);
    const aborted = new Promise<never>((_, reject) => ac.signal.addEventListener("abort", () => reject(ac.signal.reason as Error), { once: true }));
    aborted.catch(() => {});
    let it: AsyncIterator<Message> | undefined;
    // The answer's status waits for the stream's first message (a service refuses a subscription
    // before it sends anything: that refusal is then an HTTP 4xx, as toncenter answers), but not
    // longer than FIRST_MESSAGE_WAIT_MS: a stream that starts quietly gets its headers then.
    let first: IteratorResult<Message> | undefined;
    let pendingFirst: Promise<IteratorResult<Message>> | undefined;
    try {
      const opened = (async () => {
        const answer = await o.transports.get(route.service)!.stream(method, ac.signal, undefined, callHeaders(clientOf(x)), one(input));
        it = answer.message[Symbol.asyncIterator]();
        return it.next();
      })();
      let timer: NodeJS.Timeout | undefined;
      const quiet = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), FIRST_MESSAGE_WAIT_MS)));
      first = await Promise.race([opened, quiet, aborted]).finally(() => clearTimeout(timer));
      if (!first) {
        pendingFirst = opened;
        opened.catch(() => {});
      }
    } catch (err) {
      res.off("close", gone);
      if (!ac.signal.aborted) ac.abort(new ConnectError("the stream ended", Code.Canceled));
      void it?.return?.()?.catch(() => {});
      const { status, message } = o.classify(err, route);
      return { status, body: errorBody(route.flavour, status, message, seen.extra ?? newExtra()), route: route.path };
    }
    res.writeHead(200, { ...SSE_HEADERS, ...CORS, ...x.headers });
    res.flushHeaders();
    x.req.socket.setNoDelay(true);
    const counted = o.metrics.streamOpened(route.path, "sse");
    // Restarted by every write: it fires only after a quiet interval. Nothing is added to a socket that has not taken what it holds.
    const keepalive =
      o.keepaliveMs > 0
        ? setTimeout(function beat() {
            if (!res.writableNeedDrain && !res.destroyed) res.write(KEEPALIVE);
            keepalive?.refresh();
          }, o.keepaliveMs)
        : undefined;
    keepalive?.unref();
    try {
      for (;;) {
        const r = first ?? (await Promise.race([pendingFirst ?? it!.next(), aborted]));
        first = undefined;
        pendingFirst = undefined;
        if (r.done) break;
        const written = res.write(sseEvent(eventParts(method.output, r.value)));
        keepalive?.refresh();
        counted.sent();
        if (!written) await drained(res, socket, ac.signal);
      }
      res.end();
    } catch (err) {
      if (!ac.signal.aborted) {
        const { status, message } = o.classify(err, route);
        res.end(`event: error\ndata: ${JSON.stringify({ error: boundedMessage(message), code: status })}\n\n`);
      }
    } finally {
      clearTimeout(keepalive);
      counted.closed();
      res.off("close", gone);
      if (!ac.signal.aborted) ac.abort(new ConnectError("the stream ended", Code.Canceled));
      void it?.return?.()?.catch(() => {});
    }
    return { status: 200, body: null, route: route.path };
  };
}
