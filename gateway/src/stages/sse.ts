// A server-streaming RPC served as Server-Sent Events (text/event-stream): one `data:` line of JSON per
// message (its rendered result, no envelope), written as it comes; a failure after the start is an
// `event: error` with {"error","code"}. The client going away cancels the call. A slow client holds the
// stream: no next message is asked of the service while the socket's buffer is full, so memory stays
// bounded by one message plus the socket's high-water mark; a client that takes nothing within the send
// timeout is dropped. Input errors answer as REST does.
import { once } from "node:events";
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { DescMethodServerStreaming, DescService, Message } from "@bufbuild/protobuf";
import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import { renderResult } from "@tongate/proto/json/render.js";
import type { Delivery } from "../delivery.js";
import { boundedMessage, errorBody, newExtra } from "../envelope.js";
import type { Classify } from "./errors.js";
import { CORS } from "./limits.js";
import { inputOf } from "./rest.js";
import type { Endpoint } from "./route.js";

const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};

async function* one<T>(m: T): AsyncIterable<T> {
  yield m;
}

export function sseEndpoint(o: { transports: Map<DescService, Transport>; classify: Classify; delivery: Delivery }): Endpoint {
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
      input = await inputOf(x, route, 0, seen);
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
    res.writeHead(200, { ...SSE_HEADERS, ...CORS, ...x.headers });
    res.flushHeaders();
    x.req.socket.setNoDelay(true);
    let it: AsyncIterator<Message> | undefined;
    try {
      const answer = await Promise.race([o.transports.get(route.service)!.stream(method, ac.signal, undefined, undefined, one(input)), aborted]);
      it = answer.message[Symbol.asyncIterator]();
      for (;;) {
        const r = await Promise.race([it.next(), aborted]);
        if (r.done) break;
        if (!res.write(`data: ${JSON.stringify(renderResult(method.output, r.value))}\n\n`)) await drained(res, socket, ac.signal);
      }
      res.end();
    } catch (err) {
      if (!ac.signal.aborted) {
        const { status, message } = o.classify(err, route);
        res.end(`event: error\ndata: ${JSON.stringify({ error: boundedMessage(message), code: status })}\n\n`);
      }
    } finally {
      res.off("close", gone);
      if (!ac.signal.aborted) ac.abort(new ConnectError("the stream ended", Code.Canceled));
      void it?.return?.()?.catch(() => {});
    }
    return { status: 200, body: null, route: route.path };
  };
}
