// REST: a unary RPC's route. GET parameters from the query, POST from the JSON body; the answer in the
// service's envelope (v2: {ok,result,@extra}; bare: the result itself or {error}).
import type { Message } from "@bufbuild/protobuf";
import { parseBody, parseQuery } from "../codec/parse.js";
import { errorBody, newExtra, successBody } from "../envelope.js";
import type { Route } from "../routes.js";
import { EDGE_KEYS, readJsonBody } from "./body.js";
import type { Classify } from "./errors.js";
import type { Endpoint } from "./route.js";
import type { Answer, Call, Exchange, Handler } from "./stage.js";
import { clientOf } from "./target.js";

/** Parses a route's input from the query (GET) or the JSON body (POST); `extra`: the client's @extra. */
export async function inputOf(x: Exchange, route: Route, maxBody: number, seen: { extra?: string }): Promise<Message> {
  if (route.httpMethod === "GET") {
    const params = new URLSearchParams(x.query);
    seen.extra = params.get("@extra") ?? undefined;
    for (const k of EDGE_KEYS) params.delete(k);
    return parseQuery(route.method.input, params, { rejectUnknown: route.flavour === "v3", headers: x.req.headers });
  }
  const body = await readJsonBody(x.req, maxBody);
  if (typeof body["@extra"] === "string") seen.extra = body["@extra"];
  for (const k of EDGE_KEYS) delete body[k];
  return parseBody(route.method.input, body, { rejectUnknown: route.flavour === "v3", headers: x.req.headers });
}

export function restEndpoint(o: { call: Handler<Call, Answer>; classify: Classify; maxBody: number }): Endpoint {
  return async (x, route) => {
    const seen: { extra?: string } = {};
    try {
      const input = await inputOf(x, route, o.maxBody, seen);
      const { result, cached, rendered } = await o.call({ route, input, client: clientOf(x) });
      // only a bare (v3) answer comes rendered: it is the whole body
      if (rendered && route.flavour === "v3") return { status: 200, body: null, rendered, route: route.path };
      return { status: 200, body: successBody(route.flavour, result, cacheMark(seen.extra ?? newExtra(), cached)), route: route.path };
    } catch (err) {
      const { status, message } = o.classify(err, route);
      return { status, body: errorBody(route.flavour, status, message, seen.extra ?? newExtra()), route: route.path };
    }
  };
}

/** toncenter CPP marks an answer served from its cache by appending ":c" to @extra. */
export const cacheMark = (extra: string, cached: boolean) => (cached ? `${extra}:c` : extra);
