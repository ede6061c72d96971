// Fuzzing the gateway: random junk requests and valid requests with one broken parameter, built
// from the routes' request descriptors, and a runner that checks every answer is a 2xx or a 4xx in
// the right envelope (v2 {ok:false,…}, v3 {error}), and that a 422 names the parameter at fault.
import { ScalarType } from "@bufbuild/protobuf";
import { beginCell } from "@ton/core";
import { Format } from "@tongate/proto/gen/tongate/options/v1/options_pb.js";
import type { Gateway } from "@tongate/gateway";
import { conventionOf, type FieldConvention, type Route } from "@tongate/gateway";
import { rng } from "./rng.js";

export interface Case {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
  /** When answered 422, the message must name one of these parameters. */
  names?: string[];
}

const PARAMS = ["address", "hash", "seqno", "workchain", "shard", "lt", "limit", "count", "boc", "stack", "method", "libraries", "param", "config_id", "to_lt", "archival", "x"];

/** Random junk: requests to the methods under `prefix` ("/api/v2/" or "/api/v3/") with junk parameters, bodies and paths. */
export function fuzzCases(methods: string[], seed: number, n: number, prefix = "/api/v2/"): Case[] {
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
  const names = [...methods, "noSuchMethod", ""];
  const cases: Case[] = [];
  for (let i = 0; i < n; i++) {
    const kind = Math.floor(r() * 6);
    const m = pick(names);
    const params: Record<string, unknown> = {};
    for (let k = Math.floor(r() * 4); k > 0; k--) params[pick(PARAMS)] = junk();
    if (kind === 0) {
      const qs = Object.entries(params).map(([k, v]) => `${enc(k)}=${enc(typeof v === "string" ? v : JSON.stringify(v) ?? "")}`).join("&");
      cases.push({ method: "GET", path: `${prefix}${m}?${qs}` });
    } else if (kind === 1) {
      cases.push({ method: "POST", path: `${prefix}${m}`, body: JSON.stringify(params) });
    } else if (kind === 2) {
      cases.push({ method: "POST", path: "/api/v2/jsonRPC", body: JSON.stringify(r() < 0.2 ? [{ id: i, method: m, params }] : { jsonrpc: "2.0", id: r() < 0.5 ? i : junk(), method: r() < 0.9 ? m : junk(), params: r() < 0.9 ? params : junk() }) });
    } else if (kind === 3) {
      const raw = JSON.stringify(params);
      cases.push({ method: "POST", path: pick([`${prefix}${m}`, "/api/v2/jsonRPC"]), body: raw.slice(0, Math.floor(r() * raw.length)) + pick(["", "}", "{{", "\u0000", "[", '"'])});
    } else if (kind === 4) {
      cases.push({ method: pick(["PUT", "DELETE", "PATCH", "GET", "POST"]), path: pick([`/api/v2/${m}`, `/api/v3/${m}`, `/${m}`, `/api/v2//${m}/`, `/api/v2/%${m}`, `/api/v2/%E0%A4%A`, "/api/v2/jsonRPC", `/api/v2/${m}?${"a=1&".repeat(50)}`]) });
    } else {
      cases.push({ method: "POST", path: `${prefix}${m}`, body: JSON.stringify(junk()), contentType: pick(["application/json", "text/plain", "application/x-www-form-urlencoded"]) });
    }
  }
  return cases;
}

const enc = (x: string) => encodeURIComponent(x.toWellFormed());
const HASH = "a".repeat(64);
const BOC = beginCell().storeUint(0xdeadbeef, 32).endCell().toBoc().toString("base64");

/** A valid value for a field, so that one broken parameter is the only fault of a request. */
export function validValue(f: FieldConvention, address: string): unknown {
  const { field } = f;
  if (field.fieldKind === "list") return f.rules?.format === Format.TON_HASH ? [HASH] : f.rules?.format === Format.TON_ADDRESS ? [address] : [];
  if (field.fieldKind === "message") return {};
  if (f.rules?.oneOf.length) return f.rules.oneOf[0];
  switch (f.rules?.format) {
    case Format.TON_ADDRESS_OR_NULL:
    case Format.TON_ADDRESS: return address;
    case Format.TON_HASH: return HASH;
    case Format.BOC_BASE64: return BOC;
  }
  if (field.name === "workchain") return -1;
  if (field.name === "shard") return "-9223372036854775808";
  if (field.fieldKind === "scalar" && field.scalar === ScalarType.BOOL) return false;
  if (field.fieldKind === "scalar" && field.scalar === ScalarType.STRING) return field.name === "method" ? "seqno" : field.name === "opcode" ? "0x1" : "x";
  return Number(f.rules?.gte ?? 1n) || 1;
}

/** What breaks one parameter: wrong formats and types, out-of-range numbers, oversized values. */
export function brokenValue(f: FieldConvention, r: () => number): unknown {
  const pick = <T,>(a: T[]) => a[Math.floor(r() * a.length)]!;
  const wrongType = [{ a: 1 }, [1, 2], true, null, 1.5];
  if (f.field.fieldKind === "list") {
    if (f.field.listKind === "message") {
      return pick(["x", [["num"]], [["num", "zz"]], [["cell", "@@@"]], [["tvm.Slice", "AA=="]], [{ "@type": "tvm.stackEntryNumber" }], [{ "@type": "nope" }], [[[[[[[[1]]]]]]]], [Array(40).fill([]).reduce((a) => [a], [])], [null], [1, "two"]]);
    }
    return pick(["x", [{}], [123], Array(300).fill(HASH), ["zz"], [HASH.slice(1)], [null]]);
  }
  if (f.field.fieldKind === "message") return pick(["x", 1, [], { "@type": "nope" }]);
  switch (f.rules?.format) {
    case Format.TON_ADDRESS_OR_NULL:
    case Format.TON_ADDRESS: return pick(["", "hello", "0:" + "g".repeat(64), "EQ" + "A".repeat(46), "2:" + "0".repeat(64), "0:" + "0".repeat(63), "-1:", 12, ...wrongType]);
    case Format.TON_HASH: return pick(["", "zz", "0".repeat(63), "0".repeat(65), "A".repeat(43), "=".repeat(44), 7, ...wrongType]);
    case Format.BOC_BASE64: return pick(["", "not base64!", "te6cc", "AAAA", Buffer.from("garbage that is no bag of cells").toString("base64"), BOC.slice(0, 20), 5, ...wrongType]);
  }
  if (f.field.fieldKind === "scalar" && f.field.scalar === ScalarType.STRING) return pick(["", "x".repeat(5000), "\u0000", ...wrongType.filter((v) => typeof v !== "string")]);
  if (f.field.fieldKind === "scalar" && f.field.scalar === ScalarType.BOOL) return pick(["maybe", 2, "", ...wrongType]);
  return pick(["abc", "", "1e3", "0x10", -1, 0, -(2 ** 31) - 1, 2 ** 31, 2 ** 63, "99999999999999999999999", 1e300, ...wrongType]);
}

/** Valid requests with one fault: a broken parameter, a missing required one, or a broken field group. */
export function brokenCases(gateway: Gateway, routes: Route[], address: string, seed: number, n: number): Case[] {
  const r = rng(seed);
  const pick = <T,>(a: T[]) => a[Math.floor(r() * a.length)]!;
  const cases: Case[] = [];
  for (let i = 0; i < n; i++) {
    const route = pick(routes);
    const c = conventionOf(route.method.input);
    const params: Record<string, unknown> = {};
    for (const f of c.fields) if (f.rules?.required) params[f.key] = validValue(f, address);
    const groups = [...(c.rules?.exactlyOne ?? [])];
    for (const g of groups) params[g.fields[0]!] = validValue(c.byKey.get(g.fields[0]!)!, address);
    const namesOf = (f: FieldConvention) => [f.key, f.field.name, ...f.aliases];
    let names: string[] | undefined;
    const required = c.fields.filter((f) => f.rules?.required);
    const multi = [...groups, ...(c.rules?.atMostOne ?? []), ...(c.rules?.allOrNone ?? [])];
    const fault = Math.floor(r() * 10);
    if (fault === 0 && required.length > 0) {
      const f = pick(required);
      delete params[f.key];
      names = namesOf(f);
    } else if (fault === 1 && multi.length > 0) {
      const g = pick(multi);
      for (const name of g.fields) if (r() < 0.5) params[name] = validValue(c.byKey.get(name)!, address);
      if (r() < 0.3) for (const name of g.fields) delete params[name];
      names = g.fields;
    } else if (c.fields.length > 0) {
      const f = pick(c.fields);
      params[f.key] = brokenValue(f, r);
      names = namesOf(f);
    }
    const available = gateway.routes.byPath.get(route.path)!;
    // /jsonRPC dispatches API v2 methods only
    const via = pick(["GET", "POST", "jsonRPC"].filter((v) => (v === "jsonRPC" && route.flavour === "v2") || available.has(v)));
    if (via === "GET") {
      const qs = Object.entries(params)
        .flatMap(([k, v]) => (Array.isArray(v) && v.every((x) => typeof x === "string") ? v.map((x) => [k, x]) : [[k, typeof v === "string" ? v : JSON.stringify(v)]]))
        .map(([k, v]) => `${enc(k!)}=${enc(v!)}`)
        .join("&");
      cases.push({ method: "GET", path: `${route.path}?${qs}`, names });
    } else if (via === "POST") {
      cases.push({ method: "POST", path: route.path, body: JSON.stringify(params), names });
    } else {
      cases.push({ method: "POST", path: "/api/v2/jsonRPC", body: JSON.stringify({ jsonrpc: "2.0", id: i, method: route.name, params }), names });
    }
  }
  return cases;
}

/** API v3, the Emulate API (toncenter's ton-emulate-go), the Streaming API and the site document answer errors as {"error"}; API v2 as {"ok":false,"error","code"}. */
export const v3Envelope = (path: string): boolean => ["/api/v3/", "/api/emulate/", "/api/streaming/", "/api/tongate/"].some((api) => path.startsWith(api));

/**
 * What is wrong with the envelope of one answer (undefined: nothing): an error must be v2's
 * {"ok":false,"error","code"}, v3's and the control API's {"error"}; `rpc`: a JSON-RPC answer, whose
 * errors are v2's at any HTTP status (a batch answers 200 with an error per call).
 */
export function envelopeFault(flavour: "v2" | "v3" | "control", status: number, body: unknown, rpc: boolean): string | undefined {
  if (status < 200 || (status >= 300 && status < 400) || status >= 600) return `HTTP status ${status}`;
  const b = (body ?? {}) as { ok?: unknown; error?: unknown; code?: unknown };
  const isError = status >= 400 || (rpc && b.ok === false);
  if (!isError) return undefined;
  const good = flavour === "v2" ? b.ok === false && typeof b.error === "string" && Number.isInteger(b.code) : typeof b.error === "string";
  return good ? undefined : `bad error envelope: ${JSON.stringify(body)?.slice(0, 200)}`;
}

/** Sends the cases to `url` 25 at a time; failures are answers outside 2xx/4xx (501 counted), bad envelopes and 422s not naming the parameter. */
export async function runFuzz(url: string, cases: Case[]) {
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  const unimplemented = new Map<string, number>();
  const started = performance.now();
  for (let i = 0; i < cases.length; i += 25) {
    await Promise.all(
      cases.slice(i, i + 25).map(async (c) => {
        const res = await fetch(url + c.path, { method: c.method, body: c.body, headers: { "content-type": c.contentType ?? "application/json" } });
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const what = `${c.method} ${c.path.slice(0, 100)} ${c.body?.slice(0, 100) ?? ""} → ${res.status} ${text.slice(0, 200)}`;
        if (c.method === "GET" && /^\/api\/v[23]\/?(\?|$)/.test(c.path) && res.status === 200) return; // Swagger UI
        let body: any;
        try {
          body = JSON.parse(text);
        } catch {
          failures.push(`not JSON: ${what}`);
          return;
        }
        if (!(res.status < 300 || (res.status >= 400 && res.status < 500) || res.status === 501)) failures.push(what);
        if (res.status === 501) {
          const m = /^(\w+) is not implemented yet/.exec(body.error ?? "")?.[1] ?? "?";
          unimplemented.set(m, (unimplemented.get(m) ?? 0) + 1);
        }
        if (res.status >= 400) {
          const items = Array.isArray(body) ? body : [body];
          for (const b of items) if (envelopeFault(v3Envelope(c.path) ? "v3" : "v2", res.status, b, false)) failures.push(`bad error envelope: ${what}`);
        }
        if (res.status === 422 && c.names && !c.names.some((n) => String(body.error).includes(n))) failures.push(`422 does not name ${c.names.join("/")}: ${what}`);
      }),
    );
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `fuzz: ${cases.length} requests in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}; ` +
      `501 (not implemented yet) ${[...unimplemented.values()].reduce((a, b) => a + b, 0)}: ${JSON.stringify(Object.fromEntries(unimplemented))}`,
  );
  return { failures, statuses };
}
