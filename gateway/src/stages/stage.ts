// The gateway's request path as stages, in connect-es's interceptor style: a stage takes the next
// handler and returns a handler (`(next) => async (x) => …`), so it can answer by itself, change what
// goes on, or look at what comes back. One signature at both levels of the path:
//   an HTTP request:  Exchange → Reply   (rate limit, limits, route; pipeline.ts composes them)
//   one service call: Call → Answer      (cache, call; REST, /jsonRPC and SSE share it)
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { JsonValue, Message } from "@bufbuild/protobuf";
import type { ClientIdentity } from "../ratelimit/client-identity.js";
import type { Admission } from "../ratelimit/limiter.js";
import type { ApiFlavour, Route } from "../routes.js";

export type Handler<I, O> = (input: I) => Promise<O>;
export type Stage<I, O> = (next: Handler<I, O>) => Handler<I, O>;

/** `stages` in order (the first sees the request first) around the terminal handler `last`. */
export function compose<I, O>(stages: Stage<I, O>[], last: Handler<I, O>): Handler<I, O> {
  return stages.reduceRight<Handler<I, O>>((next, stage) => stage(next), last);
}

/** One HTTP request on its way through the stages. */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The request target as received. */
  readonly url: string;
  readonly method: string;
  readonly rawPath: string;
  readonly query: string;
  /** The canonical path (canonicalPath); undefined when it is not valid percent-encoding. */
  readonly path: string | undefined;
  /** The envelope of answers before a route is found (the route table's flavour of the path). */
  readonly flavour: ApiFlavour;
  /** Set by the rate-limit stage on a counted /jsonRPC request: takes `cost` tokens once the batch is read. */
  readonly admit?: (cost: number) => Admission | Promise<Admission>;
  /** Response headers of earlier stages (the rate limit's), for an endpoint that writes its own head (SSE). */
  readonly headers?: Record<string, string>;
  /** Who is asking, as the rate-limit stage identified the client (unset without rate limiting). */
  readonly client?: ClientIdentity;
  /** An HTTP upgrade (a WebSocket): the connection and the bytes after its head; the answer to a refusal is still `res`. */
  readonly upgrade?: { readonly socket: Socket; readonly head: Buffer };
}

/** The answer to one HTTP request; null when a stage wrote it itself (metrics, docs). */
export interface Reply {
  status: number;
  body: JsonValue;
  /** The body already as JSON text (a service rendered the answer): written as it is, `body` unused. */
  rendered?: string;
  /** The route label of metrics and logs. */
  route: string;
  headers?: Record<string, string>;
  /** The connection became a WebSocket: nothing is written, it is the WebSocket's. */
  upgraded?: boolean;
}

/** One unary service call. */
export interface Call {
  readonly route: Route;
  readonly input: Message;
  /** Who is asking, for the service (forwardedClient). */
  readonly client: string;
}

/** A call's rendered result; `cached` when the answer cache held it (no service call then). */
export interface Answer {
  result: JsonValue;
  cached: boolean;
  /** The result already as JSON text (a v3 service rendered it on a thread of its own); `result` is then null. */
  rendered?: string;
}
