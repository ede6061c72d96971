// The page's files and the site document over real HTTP: `/` and `/static/…` with their types, ETags
// (304 on a match), HEAD, a JSON 404 for a file that is not there, no way out of the folder whatever
// the spelling of `..`, and the site document from what the command knows and what the gateway routes.
import http from "node:http";
import { createLogger } from "@tongate/runtime";
import { Streaming } from "@tongate/proto/gen/tongate/streaming/v2/streaming_pb.js";
import { LiteProxy } from "@tongate/proto/gen/tongate/v2/lite_proxy_pb.js";
import { Blockchain } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Gateway } from "../src/gateway.js";
import { buildRoutes } from "../src/routes.js";
import { listenGateway, type HttpServer } from "../src/server.js";
import { readStaticFiles, siteDocument, SITE_PATH, type SiteInfo } from "../src/stages/site.js";

const site: SiteInfo = { network: "localnet", version: "9.9.9", localnet: { control: "http://127.0.0.1:1", wallets: [{ version: "v4r2", address: "UQ_example" }] } };
let server: HttpServer;
let port: number;

/** One request with the target exactly as given (fetch would resolve `..` before sending). */
function raw(method: string, target: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path: target, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  const gateway = new Gateway({ upstreams: [], log: createLogger({ level: "silent" }), site });
  server = await listenGateway(gateway, { host: "127.0.0.1", port: 0 });
  port = server.address.port;
});

afterAll(async () => {
  await server?.close(100);
});

describe("the page's files", () => {
  it("serves index.html at / and the files under /static/ with their types", async () => {
    const root = await raw("GET", "/");
    expect(root.status).toBe(200);
    expect(root.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(root.body).toContain('<script type="module" src="/static/app.js">');
    for (const [path, type] of [
      ["/static/app.js", "text/javascript; charset=utf-8"],
      ["/static/stream.js", "text/javascript; charset=utf-8"],
      ["/static/style.css", "text/css; charset=utf-8"],
      ["/static/stream-check.html", "text/html; charset=utf-8"],
    ]) {
      const r = await raw("GET", path!);
      expect([path, r.status, r.headers["content-type"]]).toEqual([path, 200, type]);
      expect(Number(r.headers["content-length"])).toBe(Buffer.byteLength(r.body));
    }
  });

  it("answers 304 to a matching If-None-Match, and HEAD with the headers alone", async () => {
    const first = await raw("GET", "/static/app.js");
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    expect(first.headers["cache-control"]).toBe("no-cache");
    const again = await raw("GET", "/static/app.js", { "if-none-match": etag });
    expect([again.status, again.body]).toEqual([304, ""]);
    expect((await raw("GET", "/static/app.js", { "if-none-match": '"other"' })).status).toBe(200);
    const head = await raw("HEAD", "/static/app.js");
    expect([head.status, head.body, head.headers["content-length"], head.headers.etag]).toEqual([200, "", first.headers["content-length"], etag]);
  });

  it("answers a file that is not there with a JSON 404", async () => {
    const r = await raw("GET", "/static/nothing.js");
    expect(r.status).toBe(404);
    expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(r.body)).toEqual({ error: "Not Found: /static/nothing.js is not a file of this site" });
  });

  it("reaches nothing outside the folder, however `..` is spelled", async () => {
    for (const target of [
      "/static/../package.json",
      "/static/../src/gateway.ts",
      "/static/%2e%2e/package.json",
      "/static/%2E%2E%2Fpackage.json",
      "/static/..%2f..%2fpackage.json",
      "/static/..\\package.json",
      "/static//etc/passwd",
      "/static/%2fetc%2fpasswd",
      "/static/./app.js/../../package.json",
    ]) {
      const r = await raw("GET", target);
      expect([target, r.status]).toEqual([target, 404]);
      expect(r.body).not.toContain('"name": "@tongate/gateway"');
    }
  });

  it("leaves other methods and paths to the API", async () => {
    expect((await raw("POST", "/")).status).toBe(404);
    const unknown = await raw("GET", "/api/v3/nothing");
    expect(JSON.parse(unknown.body).error).toMatch(/is not a method/);
  });

  it("holds the files of the folder only, by their names", () => {
    const files = readStaticFiles();
    expect([...files.keys()].sort()).toEqual(expect.arrayContaining(["api.js", "app.js", "index.html", "stream-check.html", "stream-check.js", "stream.js", "style.css"]));
    expect(readStaticFiles("/nonexistent-folder").size).toBe(0);
  });
});

describe("the site document", () => {
  it("is what the command knows, with the APIs this gateway routes", async () => {
    const r = await raw("GET", SITE_PATH);
    expect(r.status).toBe(200);
    // no upstream here: no API, no stream
    expect(JSON.parse(r.body)).toEqual({ ...site, apis: [] });
  });

  it("lists API v2 and v3 by their routes, and the streams when the Streaming service is hosted", () => {
    const routes = buildRoutes([LiteProxy, Blockchain]);
    expect(siteDocument({ network: "mainnet", version: "1" }, routes, [LiteProxy, Blockchain, Streaming])).toEqual({
      network: "mainnet",
      version: "1",
      apis: [
        { name: "API v2", docs: "/api/v2/", openapi: "/api/v2/openapi.json" },
        { name: "API v3", docs: "/api/v3/", openapi: "/api/v3/openapi.json" },
      ],
      streaming: { sse: "/api/streaming/v2/sse", ws: "/api/streaming/v2/ws" },
    });
  });
});
