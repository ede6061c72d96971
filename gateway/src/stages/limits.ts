// Stage: limits of the request itself — a path that is not valid percent-encoding (400), a request
// target longer than toncenter's 8192 characters (414) — and CORS preflights, answered here. The body's
// limit is applied where a body is read (body.ts). After the rate-limit stage: a refused request counts.
import { PUBLIC_APIS, requestHeaders } from "../routes.js";
import { refusal } from "./errors.js";
import type { Exchange, Reply, Stage } from "./stage.js";

export const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  // with the headers that give parameters (X-Actions-Version), so a browser may send them
  "access-control-allow-headers": ["Content-Type", "X-API-Key", "Authorization", ...requestHeaders(PUBLIC_APIS)].join(", "),
  "access-control-expose-headers": "Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-API-Version",
};

export function limitsStage(o: { maxUrl: number }): Stage<Exchange, Reply | null> {
  return (next) => async (x) => {
    if (x.path === undefined) return refusal("v2", 400, `the path ${JSON.stringify(x.rawPath.slice(0, 100))} is not valid percent-encoding`, "invalid");
    if (x.url.length > o.maxUrl) return refusal(x.flavour, 414, `the request target is longer than ${o.maxUrl} characters`, "invalid");
    if (x.method === "OPTIONS") {
      x.res.writeHead(204, { ...CORS, "access-control-max-age": "86400" });
      x.res.end();
      return { status: 204, body: null, route: "preflight" };
    }
    return next(x);
  };
}
