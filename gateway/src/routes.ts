// The route table, built from the google.api.http annotations of the services'
// descriptors: no per-endpoint code. Each service declares its envelope
// (option tongate.options.v1.envelope): v2's {ok,result} or the plain JSON of v3
// and the admin API. A server-streaming RPC is a stream route, served as SSE (on GET, or on POST with
// the body "*"); a bidirectional one bound to GET is a WebSocket route.
import { getOption, hasOption, type DescMethod, type DescService } from "@bufbuild/protobuf";
import { Envelope, envelope } from "@tongate/proto/gen/tongate/options/v1/options_pb.js";
import { conventionOf } from "@tongate/proto/json/conventions.js";
import { Emulate } from "@tongate/proto/gen/tongate/emulate/v1/emulate_pb.js";
import { RateLimit } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import { LiteProxy } from "@tongate/proto/gen/tongate/v2/lite_proxy_pb.js";
import { Send } from "@tongate/proto/gen/tongate/v2/send_pb.js";
import { Accounts } from "@tongate/proto/gen/tongate/v3/accounts_pb.js";
import { Actions } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import { ApiV2 } from "@tongate/proto/gen/tongate/v3/apiv2_pb.js";
import { Blockchain } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { Jettons } from "@tongate/proto/gen/tongate/v3/jettons_pb.js";
import { Nfts } from "@tongate/proto/gen/tongate/v3/nfts_pb.js";
import { Stats } from "@tongate/proto/gen/tongate/v3/stats_pb.js";
import { Utils } from "@tongate/proto/gen/tongate/v3/utils_pb.js";
import { Streaming } from "@tongate/proto/gen/tongate/streaming/v2/streaming_pb.js";

/** The public APIs' services: API v2, API v3 (one service per toncenter tag), the Emulate API, the Streaming API and the admin API. */
export const PUBLIC_APIS: DescService[] = [LiteProxy, Send, Blockchain, Accounts, Actions, Jettons, Nfts, Stats, ApiV2, Utils, Emulate, Streaming, RateLimit];
import { http } from "@tongate/proto/gen/google/api/annotations_pb.js";
import type { HttpRule } from "@tongate/proto/gen/google/api/http_pb.js";

export type ApiFlavour = "v2" | "v3";

export interface Route {
  service: DescService;
  method: DescMethod;
  httpMethod: "GET" | "POST";
  path: string;
  /** POST: the body is the whole request ("*"). */
  body: boolean;
  flavour: ApiFlavour;
  /** Name for /jsonRPC and metrics: the path's last segment. */
  name: string;
  /** A server-streaming RPC: answered as Server-Sent Events (never by /jsonRPC). */
  stream: boolean;
  /** A bidirectional RPC: a WebSocket (an upgrade of a GET), one text frame per message each way. */
  websocket: boolean;
}

export interface RouteTable {
  /** path → HTTP method → route */
  byPath: Map<string, Map<string, Route>>;
  /** JSON-RPC method name → route used to dispatch it (the POST binding when there is one) */
  byRpcName: Map<string, Route>;
  /** The envelope of a path no route answers (an unknown method, a refusal before routing): the flavour of its API. */
  flavourOf(path: string): ApiFlavour;
}

export const ADMIN_PREFIX = "/api/admin/";

/** A service's envelope, from its descriptor; undefined when it declares none. */
export function envelopeOf(service: DescService): ApiFlavour | undefined {
  if (!hasOption(service, envelope)) return undefined;
  switch (getOption(service, envelope)) {
    case Envelope.TONCENTER_V2:
      return "v2";
    case Envelope.BARE:
      return "v3";
    default:
      return undefined;
  }
}

/** The API a path belongs to, for its envelope when no route answers it: its first two segments ("/api/v3"). */
const apiOf = (path: string): string => {
  const second = path.indexOf("/", 1);
  if (second < 0) return path;
  const third = path.indexOf("/", second + 1);
  return third < 0 ? path : path.slice(0, third);
};

/** The headers that give request parameters (json.header) in the services' methods, each once. */
export function requestHeaders(services: readonly DescService[]): string[] {
  const names = new Set<string>();
  for (const service of services) for (const method of service.methods) for (const f of conventionOf(method.input).fields) if (f.header) names.add(f.header);
  return [...names];
}

function bindings(rule: HttpRule): HttpRule[] {
  return [rule, ...rule.additionalBindings];
}

/**
 * `services`: the upstreams, whose RPCs are routed. `apis`: services whose envelope answers paths under
 * their APIs even when not hosted here (an unknown /api/v3/ path is answered in v3's shape without the
 * indexer); the public APIs by default.
 */
export function buildRoutes(services: DescService[], apis: DescService[] = PUBLIC_APIS): RouteTable {
  const byPath = new Map<string, Map<string, Route>>();
  const byRpcName = new Map<string, Route>();
  const byApi = new Map<string, ApiFlavour>();
  for (const service of services) {
    const declared = envelopeOf(service);
    for (const method of service.methods) {
      if (method.methodKind === "client_streaming" || !hasOption(method, http)) continue;
      const rule = getOption(method, http);
      for (const b of bindings(rule)) {
        const p = b.pattern;
        if (p.case !== "get" && p.case !== "post") continue;
        const path = p.value;
        if (path.includes("{")) throw new Error(`${method.name}: path templates are not supported (${path})`);
        if (!declared) throw new Error(`${service.typeName} has HTTP routes but declares no envelope (option tongate.options.v1.envelope)`);
        const flavour = declared;
        const stream = method.methodKind === "server_streaming";
        const websocket = method.methodKind === "bidi_streaming";
        // An event stream's request is whole before it starts: the query, or the whole body.
        if (stream && p.case === "post" && b.body !== "*") throw new Error(`${method.name}: a server-streaming RPC on POST takes the whole body (body: "*") (${path})`);
        if (websocket && p.case !== "get") throw new Error(`${method.name}: a bidirectional RPC is a WebSocket, an upgrade of a GET (${path})`);
        const api = apiOf(path);
        const seen = byApi.get(api);
        if (seen && seen !== flavour) throw new Error(`${method.name}: ${path} answers in the ${flavour} envelope, other routes under ${api}/ in ${seen}`);
        byApi.set(api, flavour);
        const route: Route = {
          service,
          method,
          httpMethod: p.case === "get" ? "GET" : "POST",
          path,
          body: p.case === "post" && b.body === "*",
          flavour,
          name: path.slice(path.lastIndexOf("/") + 1),
          stream,
          websocket,
        };
        let methods = byPath.get(path);
        if (!methods) byPath.set(path, (methods = new Map()));
        if (methods.has(route.httpMethod)) throw new Error(`duplicate route ${route.httpMethod} ${path}`);
        methods.set(route.httpMethod, route);
        if (flavour === "v2" && method.methodKind === "unary" && (route.httpMethod === "POST" || !byRpcName.has(route.name))) byRpcName.set(route.name, route);
      }
    }
  }
  for (const service of apis) {
    const declared = envelopeOf(service);
    if (!declared) continue;
    for (const method of service.methods) {
      if (!hasOption(method, http)) continue;
      for (const b of bindings(getOption(method, http))) {
        if (b.pattern.case === "get" || b.pattern.case === "post") {
          const api = apiOf(b.pattern.value);
          if (!byApi.has(api)) byApi.set(api, declared);
        }
      }
    }
  }
  return { byPath, byRpcName, flavourOf: (path) => byApi.get(apiOf(path)) ?? "v2" };
}
