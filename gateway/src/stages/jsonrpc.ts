// /jsonRPC: {jsonrpc, id, method, params} (or a batch of them) dispatched to API v2's routes by name,
// each call through the call stages; id and jsonrpc echoed. Counted per call when rate limiting is on
// (`x.admit`: a batch takes one token per call, all or none). The echoed `id` is what JSON-RPC 2.0
// allows (a string, a number or null) and `jsonrpc` a short string: anything else is refused with id null,
// so no client value of unbounded size or depth is written back.
import { setImmediate as nextTurn } from "node:timers/promises";
import type { JsonValue } from "@bufbuild/protobuf";
import { parseBody } from "../codec/parse.js";
import { errorBody, newExtra, successBody, type RpcEcho } from "../envelope.js";
import type { Admission } from "../ratelimit/limiter.js";
import type { RouteTable } from "../routes.js";
import { EDGE_KEYS, readJson } from "./body.js";
import { refusal, type Classify } from "./errors.js";
import { JSON_RPC_PATH } from "./ratelimit.js";
import { cacheMark } from "./rest.js";
import type { Answer, Call, Exchange, Handler, Reply } from "./stage.js";
import { clientOf } from "./target.js";

/** The longest string `id` echoed, characters. */
export const MAX_RPC_ID = 256;
/** The longest `jsonrpc` echoed, characters ("2.0" in every client seen). */
const MAX_RPC_VERSION = 16;

/** The echo of a reply to a call whose id cannot be read (JSON-RPC 2.0: id null). */
const NO_ID: RpcEcho = { jsonrpc: "2.0", id: null };

const kindOf = (v: JsonValue): string => (Array.isArray(v) ? "an array" : v === null ? "null" : typeof v === "object" ? "an object" : `a ${typeof v}`);

/** What a call's reply echoes: its id and jsonrpc when JSON-RPC allows them, else id null and why not. */
export function rpcEchoOf(c: Record<string, JsonValue>): { echo: RpcEcho; problem?: string } {
  const { id, jsonrpc } = c;
  if (id !== undefined && id !== null && typeof id !== "number" && typeof id !== "string") {
    return { echo: NO_ID, problem: `id: a JSON-RPC id is a string, a number or null, got ${kindOf(id)}` };
  }
  if (typeof id === "string" && id.length > MAX_RPC_ID) {
    return { echo: NO_ID, problem: `id: at most ${MAX_RPC_ID} characters, got ${id.length}` };
  }
  if (jsonrpc !== undefined && jsonrpc !== null && (typeof jsonrpc !== "string" || jsonrpc.length > MAX_RPC_VERSION)) {
    const got = typeof jsonrpc === "string" ? `${jsonrpc.length} characters` : kindOf(jsonrpc);
    return { echo: { jsonrpc: "2.0", id: id ?? null }, problem: `jsonrpc: expected "2.0" (a string of at most ${MAX_RPC_VERSION} characters), got ${got}` };
  }
  return { echo: { jsonrpc: jsonrpc ?? "2.0", id } };
}

/** How long a batch may start its calls in one turn of the event loop, ms. */
const BATCH_SLICE_MS = 5;

export function jsonRpcEndpoint(o: { routes: RouteTable; call: Handler<Call, Answer>; classify: Classify; maxBody: number; maxBatch: number }): Handler<Exchange, Reply> {
  const one = async (call: unknown, client: string): Promise<Reply> => {
    if (call === null || typeof call !== "object" || Array.isArray(call)) {
      return { status: 422, body: errorBody("v2", 422, "a JSON-RPC call must be an object {jsonrpc, id, method, params}", "_", NO_ID), route: JSON_RPC_PATH };
    }
    const c = call as Record<string, JsonValue>;
    const { echo, problem } = rpcEchoOf(c);
    let params = c.params ?? {};
    let extra = typeof c["@extra"] === "string" ? c["@extra"] : undefined;
    const fail = (status: number, message: string): Reply => ({ status, body: errorBody("v2", status, message, extra ?? newExtra(), echo), route: JSON_RPC_PATH });
    if (problem) return fail(422, problem);
    if (typeof c.method !== "string") return fail(422, 'a JSON-RPC call needs "method", the name of an API v2 method');
    const route = o.routes.byRpcName.get(c.method);
    if (!route) return fail(422, "Unknown method");
    if (Array.isArray(params)) {
      if (params.length > 0) return fail(422, "params must contain an object");
      params = {};
    }
    if (params === null || typeof params !== "object") return fail(422, "params must contain an object");
    params = { ...params };
    if (typeof params["@extra"] === "string") extra = params["@extra"];
    for (const k of EDGE_KEYS) delete params[k];
    try {
      const input = parseBody(route.method.input, params, { rejectUnknown: false });
      const { result, cached } = await o.call({ route, input, client });
      return { status: 200, body: successBody("v2", result, cacheMark(extra ?? newExtra(), cached), echo), route: JSON_RPC_PATH };
    } catch (err) {
      const { status, message } = o.classify(err, route);
      return fail(status, message);
    }
  };

  const answer = async (body: unknown, client: string): Promise<Reply> => {
    if (Array.isArray(body)) {
      if (body.length === 0) return refusal("v2", 422, "an empty JSON-RPC batch", JSON_RPC_PATH);
      if (body.length > o.maxBatch) return refusal("v2", 422, `a JSON-RPC batch may hold at most ${o.maxBatch} calls, got ${body.length}`, JSON_RPC_PATH);
      // The calls run side by side. Parsing and checking a call (its BoCs, its stack) is synchronous:
      // a batch of 100 large calls started in one turn would hold every other client's request
      // behind it, so past BATCH_SLICE_MS of starting calls the rest wait for the next turn.
      const started: Promise<Reply>[] = [];
      let slice = performance.now();
      for (const call of body) {
        if (performance.now() - slice > BATCH_SLICE_MS) {
          await nextTurn();
          slice = performance.now();
        }
        const reply = one(call, client);
        reply.catch(() => undefined); // handled by Promise.all below, not an unhandled rejection meanwhile
        started.push(reply);
      }
      const replies = await Promise.all(started);
      return { status: 200, body: replies.map((r) => r.body), route: JSON_RPC_PATH };
    }
    return one(body, client);
  };

  /** A refused /jsonRPC request: the error in the JSON-RPC envelope of each call (id and jsonrpc echoed). */
  const refused = (body: unknown, a: Admission): Reply => {
    const each = (call: unknown) => {
      if (call === null || typeof call !== "object" || Array.isArray(call)) return errorBody("v2", a.status, a.message, newExtra(), NO_ID);
      const c = call as Record<string, JsonValue>;
      const extra = typeof c["@extra"] === "string" ? c["@extra"] : newExtra();
      return errorBody("v2", a.status, a.message, extra, rpcEchoOf(c).echo);
    };
    return { status: a.status, body: Array.isArray(body) && body.length > 0 ? body.map(each) : each(body), route: "ratelimit" };
  };

  return async (x) => {
    let body: unknown;
    let failed: Reply | undefined;
    try {
      body = await readJson(x.req, o.maxBody);
    } catch (err) {
      const { status, message } = o.classify(err, undefined);
      failed = { status, body: errorBody("v2", status, message, "_", NO_ID), route: JSON_RPC_PATH };
    }
    if (!x.admit) return failed ?? answer(body, clientOf(x));
    const calls = Array.isArray(body) && body.length > 0 && body.length <= o.maxBatch ? body.length : 1;
    const admission = await x.admit(calls);
    if (admission.status) return { ...refused(body, admission), headers: admission.headers };
    const reply = failed ?? (await answer(body, clientOf(x)));
    return { ...reply, headers: admission.headers };
  };
}
