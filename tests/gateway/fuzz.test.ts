// Malformed and random requests: every answer is a 4xx in the right envelope
// (or a 501 for a well-formed call of a method that is not implemented yet),
// never a 5xx failure, and the server keeps answering.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbedded, type Embedded } from "../support/embedded.js";
import { rng } from "../support/rng.js";

let t: Embedded;
beforeAll(async () => {
  t = await startEmbedded();
});
afterAll(async () => {
  await t.close();
});


const METHODS = [
  "detectAddress", "detectHash", "packAddress", "unpackAddress", "getAddressInformation", "getTransactions", "lookupBlock",
  "getBlockTransactions", "runGetMethod", "sendBoc", "estimateFee", "getConfigParam", "getLibraries", "getShards", "shards", "noSuchMethod", "",
];
const PARAMS = ["address", "hash", "seqno", "workchain", "shard", "lt", "limit", "count", "boc", "stack", "method", "libraries", "param", "config_id", "to_lt", "archival", "x"];

export function fuzzCases(seed: number, n: number) {
  const r = rng(seed);
  const pick = <T,>(a: T[]) => a[Math.floor(r() * a.length)]!;
  const junk = (): unknown => {
    switch (Math.floor(r() * 14)) {
      case 0: return "";
      case 1: return "x".repeat(Math.floor(r() * 5000));
      case 2: return Math.floor(r() * 1e12) * (r() < 0.5 ? -1 : 1);
      case 3: return r() * 1e300;
      case 4: return null;
      case 5: return [junk(), junk()];
      case 6: return { a: junk() };
      case 7: return "0:" + "g".repeat(64);
      case 8: return "EQ" + "A".repeat(46);
      case 9: return "\u0000\uffff\ud800";
      case 10: return true;
      case 11: return "99999999999999999999999999";
      case 12: return "-1:" + "0".repeat(64);
      default: return String.fromCharCode(...Array.from({ length: Math.floor(r() * 40) }, () => Math.floor(r() * 0x3000)));
    }
  };
  const cases: { method: string; path: string; body?: string; contentType?: string }[] = [];
  for (let i = 0; i < n; i++) {
    const kind = Math.floor(r() * 6);
    const m = pick(METHODS);
    const params: Record<string, unknown> = {};
    for (let k = Math.floor(r() * 4); k > 0; k--) params[pick(PARAMS)] = junk();
    if (kind === 0) {
      const enc = (x: string) => encodeURIComponent(x.toWellFormed());
      const qs = Object.entries(params).map(([k, v]) => `${enc(k)}=${enc(typeof v === "string" ? v : JSON.stringify(v) ?? "")}`).join("&");
      cases.push({ method: "GET", path: `/api/v2/${m}?${qs}` });
    } else if (kind === 1) {
      cases.push({ method: "POST", path: `/api/v2/${m}`, body: JSON.stringify(params) });
    } else if (kind === 2) {
      cases.push({ method: "POST", path: "/api/v2/jsonRPC", body: JSON.stringify(r() < 0.2 ? [{ id: i, method: m, params }] : { jsonrpc: "2.0", id: r() < 0.5 ? i : junk(), method: r() < 0.9 ? m : junk(), params: r() < 0.9 ? params : junk() }) });
    } else if (kind === 3) {
      const raw = JSON.stringify(params);
      cases.push({ method: "POST", path: pick([`/api/v2/${m}`, "/api/v2/jsonRPC"]), body: raw.slice(0, Math.floor(r() * raw.length)) + pick(["", "}", "{{", "\u0000", "[", '"'])});
    } else if (kind === 4) {
      cases.push({ method: pick(["PUT", "DELETE", "PATCH", "GET", "POST"]), path: pick([`/api/v2/${m}`, `/api/v3/${m}`, `/${m}`, `/api/v2//${m}/`, `/api/v2/%${m}`, `/api/v2/%E0%A4%A`, "/api/v2/jsonRPC", `/api/v2/${m}?${"a=1&".repeat(50)}`]) });
    } else {
      cases.push({ method: "POST", path: `/api/v2/${m}`, body: JSON.stringify(junk()), contentType: pick(["application/json", "text/plain", "application/x-www-form-urlencoded"]) });
    }
  }
  return cases;
}

describe("fuzz", () => {
  it("answers 2,500 malformed requests with 4xx (or 501), never a 5xx failure", async () => {
    const cases = fuzzCases(20261121, 2500);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (let i = 0; i < cases.length; i += 25) {
      await Promise.all(
        cases.slice(i, i + 25).map(async (c) => {
          const res = await fetch(t.url + c.path, { method: c.method, body: c.body, headers: { "content-type": c.contentType ?? "application/json" } });
          const text = await res.text();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (c.method === "GET" && /^\/api\/v[23]\/?(\?|$)/.test(c.path) && res.status === 200) return; // Swagger UI
          let body: any;
          try {
            body = JSON.parse(text);
          } catch {
            failures.push(`${c.method} ${c.path.slice(0, 80)}: not JSON: ${text.slice(0, 80)}`);
            return;
          }
          const ok = res.status === 200 || (res.status >= 400 && res.status < 500) || res.status === 501;
          if (!ok) failures.push(`${c.method} ${c.path.slice(0, 80)} ${c.body?.slice(0, 80)} → ${res.status} ${text.slice(0, 200)}`);
          if (res.status >= 400) {
            const items = Array.isArray(body) ? body : [body];
            const v3 = c.path.startsWith("/api/v3/");
            for (const b of items) {
              const good = v3 ? typeof b.error === "string" : b.ok === false && typeof b.error === "string" && Number.isInteger(b.code);
              if (!good) failures.push(`${c.method} ${c.path.slice(0, 80)}: bad error envelope ${text.slice(0, 200)}`);
            }
          }
        }),
      );
    }
    expect(failures.slice(0, 20)).toEqual([]);
    // Still alive and answering.
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    expect([...statuses.keys()].every((s) => s < 500 || s === 501)).toBe(true);
  });
});
