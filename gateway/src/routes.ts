// The route table, built from the google.api.http annotations of the services'
// descriptors: no per-endpoint code. A path's prefix decides its API flavour
// (v2's {ok,result} envelope or v3's plain JSON; the admin API under /api/admin/
// answers in v3's plain shape).
import { getOption, type DescMethod, type DescService } from "@bufbuild/protobuf";
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
}

export interface RouteTable {
  /** path → HTTP method → route */
  byPath: Map<string, Map<string, Route>>;
  /** JSON-RPC method name → route used to dispatch it (the POST binding when there is one) */
  byRpcName: Map<string, Route>;
}

export const ADMIN_PREFIX = "/api/admin/";

export const flavourOf = (path: string): ApiFlavour | undefined =>
  path.startsWith("/api/v2/") ? "v2" : path.startsWith("/api/v3/") || path.startsWith(ADMIN_PREFIX) ? "v3" : undefined;

function bindings(rule: HttpRule): HttpRule[] {
  return [rule, ...rule.additionalBindings];
}

export function buildRoutes(services: DescService[]): RouteTable {
  const byPath = new Map<string, Map<string, Route>>();
  const byRpcName = new Map<string, Route>();
  for (const service of services) {
    for (const method of service.methods) {
      if (method.methodKind !== "unary") continue;
      const rule = getOption(method, http);
      for (const b of bindings(rule)) {
        const p = b.pattern;
        if (p.case !== "get" && p.case !== "post") continue;
        const path = p.value;
        if (path.includes("{")) throw new Error(`${method.name}: path templates are not supported (${path})`);
        const flavour = flavourOf(path);
        if (!flavour) throw new Error(`${method.name}: ${path} is outside /api/v2/, /api/v3/ and ${ADMIN_PREFIX}`);
        const route: Route = {
          service,
          method,
          httpMethod: p.case === "get" ? "GET" : "POST",
          path,
          body: p.case === "post" && b.body === "*",
          flavour,
          name: path.slice(path.lastIndexOf("/") + 1),
        };
        let methods = byPath.get(path);
        if (!methods) byPath.set(path, (methods = new Map()));
        if (methods.has(route.httpMethod)) throw new Error(`duplicate route ${route.httpMethod} ${path}`);
        methods.set(route.httpMethod, route);
        if (flavour === "v2" && (route.httpMethod === "POST" || !byRpcName.has(route.name))) byRpcName.set(route.name, route);
      }
    }
  }
  return { byPath, byRpcName };
}
