// The request target, parsed once before the stages: path and query split, the path made canonical,
// the API flavour of its envelope (from the route table, which reads the services' envelope option).
import type { IncomingMessage, ServerResponse } from "node:http";
import { CLIENT_HEADER, forwardedClient } from "../ratelimit/client-identity.js";
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

/** Who is asking, as the services are told (forwardedClient). */
export const clientOf = (x: Exchange): string => forwardedClient(x.client, x.req.socket.remoteAddress ?? "");

/** The request headers of a service call for the client `client` (clientOf). */
export const callHeaders = (client: string): Record<string, string> => ({ [CLIENT_HEADER]: client });

/** The most characters of a request target a log line shows. */
const MAX_LOGGED_URL = 256;

/** A request target as logs show it: the value of every api_key parameter replaced by "***" (whatever escapes spell its name), cut at 256 characters. */
export function loggedUrl(url: string | undefined): string {
  if (url === undefined) return "";
  const qi = url.indexOf("?");
  let out = url;
  if (qi >= 0) {
    const parts = url.slice(qi + 1).split("&");
    for (let i = 0; i < parts.length; i++) {
      const eq = parts[i]!.indexOf("=");
      const rawName = eq < 0 ? parts[i]! : parts[i]!.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, " "));
      } catch {
        // not valid percent-encoding: compared as it is
      }
      if (name === "api_key" && eq >= 0) parts[i] = `${rawName}=***`;
    }
    out = `${url.slice(0, qi)}?${parts.join("&")}`;
  }
  return out.length > MAX_LOGGED_URL ? `${out.slice(0, MAX_LOGGED_URL)}…` : out;
}
