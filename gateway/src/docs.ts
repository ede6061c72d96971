// API documentation endpoints: GET /api/v2/openapi.json and Swagger UI at
// /api/v2/ (assets from the swagger-ui-dist npm package, no CDN).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { ServerResponse } from "node:http";
import { buildOpenApi } from "./openapi.js";
import type { RouteTable } from "./routes.js";

const require = createRequire(import.meta.url);
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css",
  "swagger-ui-bundle.js": "application/javascript",
  "swagger-ui-standalone-preset.js": "application/javascript",
  "favicon-32x32.png": "image/png",
};

const SWAGGER = "/api/v2/swagger/";

const indexHtml = (spec: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tongate API</title>
<link rel="stylesheet" href="/api/v2/swagger/swagger-ui.css"><link rel="icon" href="/api/v2/swagger/favicon-32x32.png"></head>
<body><div id="swagger-ui"></div>
<script src="/api/v2/swagger/swagger-ui-bundle.js"></script>
<script src="/api/v2/swagger/swagger-ui-standalone-preset.js"></script>
<script src="/api/v2/swagger/init.js" data-spec="${spec}"></script>
</body></html>`;

const initJs = `const spec = document.currentScript.dataset.spec;
window.ui = SwaggerUIBundle({ url: spec, dom_id: "#swagger-ui", presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: "StandaloneLayout" });`;

export class ApiDocs {
  private specs = new Map<string, string>();
  private assetDir: string | undefined;

  constructor(private readonly routes: RouteTable) {}

  /** A documentation path (these are not rate-limited). */
  answers(path: string, method: string): boolean {
    if (method !== "GET" && method !== "HEAD") return false;
    if (path.startsWith(SWAGGER)) return path === `${SWAGGER}init.js` || Object.hasOwn(ASSETS, path.slice(SWAGGER.length));
    return path === "/api/v2/openapi.json" || path === "/api/v3/openapi.json" || path === "/api/v2" || path === "/api/v3";
  }

  /** Answers the documentation paths; false for any other path. */
  serve(path: string, method: string, res: ServerResponse): boolean {
    if (!this.answers(path, method)) return false;
    if (path === "/api/v2/openapi.json" || path === "/api/v3/openapi.json") {
      const flavour = path.startsWith("/api/v2") ? "v2" : "v3";
      let body = this.specs.get(flavour);
      if (!body) this.specs.set(flavour, (body = JSON.stringify(buildOpenApi(this.routes, flavour))));
      send(res, 200, "application/json; charset=utf-8", body);
      return true;
    }
    if (path === "/api/v2" || path === "/api/v3") {
      send(res, 200, "text/html; charset=utf-8", indexHtml(`${path}/openapi.json`));
      return true;
    }
    if (path === `${SWAGGER}init.js`) {
      send(res, 200, "application/javascript", initJs);
      return true;
    }
    if (path.startsWith(SWAGGER)) {
      const name = path.slice(SWAGGER.length);
      const type = ASSETS[name]!;
      this.assetDir ??= (require("swagger-ui-dist") as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();
      send(res, 200, type, readFileSync(join(this.assetDir, name)), "public, max-age=86400");
      return true;
    }
    return false;
  }
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, cache = "no-cache") {
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body), "cache-control": cache, "access-control-allow-origin": "*" });
  res.end(body);
}
