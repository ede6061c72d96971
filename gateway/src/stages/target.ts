// The request target, parsed once before the stages: path and query split, the path made canonical,
// the API flavour of its envelope (from the route table, which reads the services' envelope option).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RouteTable } from "../routes.js";
import type { Exchange } from "./stage.js";

/** Decodes percent-escapes, folds repeated slashes and drops a trailing slash, so one method has one path. */
export function canonicalPath(raw: string): string {
  let p = raw.includes("%") ? decodeURIComponent(raw) : raw;
  if (p.includes("//")) p = p.replace(/\/{2,}/g, "/");
  if (p.length > 1 && p.endsWith("/")) p = p.slice(0, -1);
  return p;
}

export function exchangeOf(req: IncomingMessage, res: ServerResponse, routes: RouteTable): Exchange {
  const url = req.url ?? "/";
  const qi = url.indexOf("?");
  const rawPath = qi < 0 ? url : url.slice(0, qi);
  let path: string | undefined;
  try {
    path = canonicalPath(rawPath);
  } catch {
    path = undefined;
  }
  return { req, res, url, method: req.method ?? "GET", rawPath, query: qi < 0 ? "" : url.slice(qi + 1), path, flavour: routes.flavourOf(path ?? rawPath) };
}
