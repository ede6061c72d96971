// The requests rate limiting does not count, exactly: health and metrics (for
// probes and scrapers), CORS preflights (answered without work), the API docs
// and the admin API (guarded by its admin token). Everything else counts, unknown
// paths too, so no spelling of a path gets around the limit; `path` is canonical
// (canonicalPath), so spellings of an exempt path are exempt alike.
import type { ApiDocs } from "../docs.js";
import { ADMIN_PREFIX } from "../routes.js";

export function isExempt(path: string, method: string, docs: ApiDocs): boolean {
  return method === "OPTIONS" || path === "/healthz" || path === "/metrics" || path.startsWith(ADMIN_PREFIX) || docs.answers(path, method);
}
