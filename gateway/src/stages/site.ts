// Stage: the page at the gateway's root, for a person with a browser. `/` is gateway/static/index.html,
// `/static/<name>` a file of gateway/static, and GET /api/tongate/v1/site the site document the page
// reads (what this tongate serves: its network, the APIs' docs, the stream URLs, a localnet's wallets).
// The page is built on the public API only; this stage serves files and one document, nothing else.
// The files are read once, when the gateway starts: a request names one of them or nothing, so no
// spelling of a path (`..`, escapes) reaches outside the folder. It comes before the rate limit: like
// the API docs, the page's own files do not count against a client's limit (its API calls do).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerResponse } from "node:http";
import { getOption, hasOption, type DescMethod, type DescService } from "@bufbuild/protobuf";
import { http } from "@tongate/proto/gen/google/api/annotations_pb.js";
import { Streaming } from "@tongate/proto/gen/tongate/streaming/v2/streaming_pb.js";
import type { RouteTable } from "../routes.js";
import { refusal } from "./errors.js";
import type { Exchange, Reply, Stage } from "./stage.js";

export const SITE_PATH = "/api/tongate/v1/site";
const STATIC_PREFIX = "/static/";
const STATIC_DIR = fileURLToPath(new URL("../../static/", import.meta.url));

/** What the command that runs the gateway knows about this tongate, for the site document. */
export interface SiteInfo {
  /** The chain: localnet, mainnet, testnet or custom (a --global-config). */
  network: string;
  version: string;
  /** Under `tongate start` on a localnet: what its banner prints. */
  localnet?: {
    /** The control API (faucet, seal), on a port of its own. */
    control?: string;
    wallets: { version: string; address: string }[];
  };
}

/** The site document: `info` and where this gateway's APIs are (paths on this origin). */
export interface SiteDocument extends SiteInfo {
  apis: { name: string; docs: string; openapi: string }[];
  /** The Streaming API's URLs, when this gateway serves it. */
  streaming?: { sse?: string; ws?: string };
}

/** The site document of a gateway with `routes`, serving `services`' methods. */
export function siteDocument(info: SiteInfo, routes: RouteTable, services: readonly DescService[]): SiteDocument {
  const paths = [...routes.byPath.keys()];
  const apis = ["v2", "v3"]
    .filter((v) => paths.some((p) => p.startsWith(`/api/${v}/`)))
    .map((v) => ({ name: `API ${v}`, docs: `/api/${v}/`, openapi: `/api/${v}/openapi.json` }));
  // the Streaming API's URLs, when its service is hosted: its methods' GET bindings (EventSource and WebSocket send GET)
  const streaming = services.some((s) => s.typeName === Streaming.typeName) ? { sse: getPath(Streaming.method.sse), ws: getPath(Streaming.method.ws) } : undefined;
  return { ...info, apis, ...(streaming ? { streaming } : {}) };
}

function getPath(method: DescMethod): string | undefined {
  if (!hasOption(method, http)) return undefined;
  const rule = getOption(method, http);
  const get = [rule, ...rule.additionalBindings].find((b) => b.pattern.case === "get")?.pattern;
  return get?.case === "get" ? get.value : undefined;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
};

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
}

/** The files of `dir` (and its folders) that have a known type, by their path under it with "/" separators. */
export function readStaticFiles(dir: string = STATIC_DIR): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: "utf8" });
  } catch {
    return files; // no folder: no page (a gateway built without it still answers its APIs)
  }
  for (const name of names) {
    const type = TYPES[extname(name)];
    const path = join(dir, name);
    if (!type || !statSync(path).isFile()) continue;
    const body = readFileSync(path);
    files.set(name.split(sep).join("/"), { body, type, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"` });
  }
  return files;
}

export function siteStage(o: { document: () => SiteDocument; files?: Map<string, StaticFile> }): Stage<Exchange, Reply | null> {
  const files = o.files ?? readStaticFiles();
  let document: string | undefined;
  return (next) => async (x) => {
    const path = x.path;
    if (path === undefined || (x.method !== "GET" && x.method !== "HEAD")) return next(x);
    if (path === SITE_PATH) {
      document ??= JSON.stringify(o.document());
      return { status: 200, body: null, rendered: document, route: SITE_PATH, headers: { "cache-control": "no-cache" } };
    }
    let name: string;
    if (path === "/") name = "index.html";
    else if (path.startsWith(STATIC_PREFIX)) name = path.slice(STATIC_PREFIX.length);
    else return next(x);
    const file = files.get(name);
    // the envelope of API v3 and of the streams: {"error": …}
    if (!file) return refusal("v3", 404, `Not Found: ${path.slice(0, 200)} is not a file of this site`, "static");
    sendFile(x, file);
    return null;
  };
}

function sendFile(x: Exchange, file: StaticFile): void {
  const res: ServerResponse = x.res;
  const headers = {
    "content-type": file.type,
    etag: file.etag,
    // the files change with the gateway (no hashed names): a browser asks again, and gets a 304 while the ETag holds
    "cache-control": "no-cache",
    "x-content-type-options": "nosniff",
    // the page works offline and loads nothing from elsewhere
    "content-security-policy": "default-src 'self'; img-src 'self' data:; connect-src 'self'",
  };
  if (matches(x.req.headers["if-none-match"], file.etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, "content-length": file.body.length });
  res.end(x.method === "HEAD" ? undefined : file.body);
}

/** Whether an If-None-Match header names `etag` (or is "*"). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag === etag || tag === `W/${etag}`;
  });
}
