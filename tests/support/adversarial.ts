// The adversarial fuzz suite's inputs and its measurements, against a running tongate:
// - cases: every endpoint that takes a BoC, a TVM stack or a JSON body (API v2 with /jsonRPC and
//   its batches, API v3, the localnet's control API), read from the gateway's own OpenAPI
//   documents, with the hostile values of hostile.ts. A case is built from (seed, index) alone, so
//   any one can be rebuilt to reproduce it, and big bodies exist only while they are sent;
// - a runner: a few clients at once, each request with a time bound, every answer judged (a 4xx or
//   2xx in the right envelope; a 5xx only as allowedFailure says, counted apart);
// - a prober beside the load: API v2 and v3 calls that must answer 200 within a second;
// - the resident memory of a process and its children, from /proc.
import { readFileSync, readdirSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { Address, beginCell, Cell, external, storeMessage, type StateInit } from "@ton/core";
import { envelopeFault, v3Envelope } from "./fuzz.js";
import { bocText, deepJson, hostileBodyBytes, hostileBoc, hostileId, hostileStack, hostileValue, json, longString, millionDigits, namedBoc, parseableHostileStack, pick, RawJson, tvmNumber, weighted, type Rng, type StackShape } from "./hostile.js";
import { rng } from "./rng.js";

// ---- endpoints, from the OpenAPI documents ---------------------------------------------------

interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  minimum?: number;
  items?: Schema;
  $ref?: string;
  properties?: Record<string, Schema>;
  required?: string[];
}

export interface Param {
  name: string;
  required: boolean;
  schema: Schema;
}

export interface Endpoint {
  method: "GET" | "POST";
  path: string;
  params: Param[];
}

interface OpenApi {
  paths: Record<string, Record<string, { parameters?: { name: string; required?: boolean; schema: Schema }[]; requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  components?: { schemas?: Record<string, Schema> };
}

/** Every operation of an OpenAPI document with its query parameters (GET) or body properties (POST). */
export function endpointsOf(doc: OpenApi): Endpoint[] {
  const out: Endpoint[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(ops)) {
      if (m === "get") out.push({ method: "GET", path, params: (op.parameters ?? []).map((p) => ({ name: p.name, required: !!p.required, schema: p.schema })) });
      if (m !== "post") continue;
      let schema = op.requestBody?.content["application/json"]?.schema ?? {};
      if (schema.$ref) schema = doc.components?.schemas?.[schema.$ref.split("/").pop()!] ?? {};
      out.push({ method: "POST", path, params: Object.entries(schema.properties ?? {}).map(([name, s]) => ({ name, required: schema.required?.includes(name) ?? false, schema: s })) });
    }
  }
  return out;
}

// ---- what the cases need to know -------------------------------------------------------------

export interface Target {
  v2: Endpoint[];
  v3: Endpoint[];
  /** a contract whose get-method `identity` returns its stack */
  echo: Address;
  /** a deployed wallet */
  wallet: Address;
}

export interface Case {
  family: string;
  /** what the case is, for a person reading a failure */
  label: string;
  method: string;
  /** on the gateway, or on the localnet's control API */
  on: "gateway" | "control";
  path: string;
  body?: string | Buffer;
  contentType?: string;
}

/** The families, by their relative share of the inputs; what each covers is in FAMILY_BUILDERS. */
export const FAMILIES: Record<string, number> = {
  "v2 BoC": 1400,
  "v3 BoC": 700,
  "v2 stack": 1400,
  "v3 stack": 600,
  "emulator": 200,
  "jsonRPC": 1500,
  "v2 JSON": 1600,
  "v3 JSON": 300,
  "v3 GET": 900,
  "control": 700,
};

/**
 * Cases by count, not by share: those the control API takes and that change the localnet (a
 * library published, a faucet payment, its clock moved, shards split and merged), and bodies past
 * its size limit.
 */
const COUNTED: [string, number][] = [
  ["control publish", 8],
  ["control faucet", 2],
  ["control time", 1],
  ["control split", 1],
  ["control merge", 1],
  ["control oversized", 2],
];

/** The family of each of `n` cases, in a seeded order that mixes them; `counted`: with the COUNTED cases. */
export function planCases(seed: number, n: number, counted = true): string[] {
  const plan: string[] = counted ? COUNTED.flatMap(([family, k]) => Array<string>(k).fill(family)) : [];
  const total = Object.values(FAMILIES).reduce((a, b) => a + b, 0);
  for (const [family, share] of Object.entries(FAMILIES)) for (let k = Math.round((n * share) / total); k > 0; k--) plan.push(family);
  while (plan.length > n) plan.pop();
  while (plan.length < n) plan.push("v2 JSON");
  const r = rng(seed);
  for (let i = plan.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [plan[i], plan[j]] = [plan[j]!, plan[i]!];
  }
  return plan;
}

/** Bodies past the gateway's limit meet only that limit: one in ten of those drawn is kept. */
const PAST_THE_LIMIT = 1_048_576;

/** Case `i` of the plan: the same for the same seed, whatever else was built. */
export function buildCase(t: Target, family: string, seed: number, i: number): Case {
  const r = rng((seed ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0);
  let c = FAMILY_BUILDERS[family]!(r, t);
  for (let k = 0; k < 5 && (c.body?.length ?? 0) > PAST_THE_LIMIT && r() > 0.1; k++) c = FAMILY_BUILDERS[family]!(r, t);
  return { family, ...c };
}

type Built = Omit<Case, "family">;
const FAMILY_BUILDERS: Record<string, (r: Rng, t: Target) => Built> = {
  "v2 BoC": (r, t) => bocCase(r, t, "v2"),
  "v3 BoC": (r, t) => bocCase(r, t, "v3"),
  "v2 stack": (r, t) => stackCase(r, t, pick(r, ["legacy", "typed"] as const), false),
  "v3 stack": (r, t) => stackCase(r, t, "v3", false),
  "emulator": (r, t) => (r() < 0.6 ? stackCase(r, t, pick(r, ["legacy", "typed", "v3"] as const), true) : messageCase(r, t)),
  "jsonRPC": (r, t) => jsonRpcCase(r, t),
  "v2 JSON": (r, t) => jsonCase(r, t, t.v2.filter((e) => e.path !== "/api/v2/jsonRPC"), "v2"),
  "v3 JSON": (r, t) => jsonCase(r, t, t.v3.filter((e) => e.method === "POST"), "v3"),
  "v3 GET": (r, t) => jsonCase(r, t, t.v3.filter((e) => e.method === "GET"), "v3"),
  "control": (r) => controlCase(r, "hostile"),
  "control publish": (r) => controlCase(r, "publish"),
  "control faucet": (r, t) => ({ label: "faucet: a valid payment", method: "POST", on: "control", path: "/localnet/faucet", body: json({ address: t.echo.toString(), amount: String(1 + Math.floor(r() * 1000)) }) }),
  "control time": (r) => ({ label: "time: a valid advance", method: "POST", on: "control", path: "/localnet/time", body: json({ advance: Math.floor(r() * 10) }) }),
  "control split": () => ({ label: "split: every shard", method: "POST", on: "control", path: "/localnet/split", body: "{}" }),
  "control merge": () => ({ label: "merge: every pair", method: "POST", on: "control", path: "/localnet/merge", body: "{}" }),
  "control oversized": (r) => ({ label: "a body past the control API's 64 KB", method: "POST", on: "control", path: pick(r, ["/localnet/libraries", "/localnet/faucet"]), body: json({ boc: "A".repeat(100_000) }) }),
};

// ---- values ----------------------------------------------------------------------------------

const HASH = "a".repeat(64);

function hostileAddress(r: Rng): unknown {
  return pick(r, [() => "", () => "hello", () => "0:" + "g".repeat(64), () => "EQ" + "A".repeat(46), () => "2:" + "0".repeat(64), () => "0:" + "0".repeat(63), () => "-1:", () => "0:" + "0".repeat(64) + "00", () => 12, () => hostileValue(r), () => longString(r)])();
}

/** A valid value for a parameter, so that the hostile one is what the request is about. */
function validValue(p: Param, t: Target, r: Rng): unknown {
  const s = p.schema;
  if (s.type === "array") return s.items?.format === "ton-hash" ? [HASH] : s.items?.format?.startsWith("ton-address") ? [t.wallet.toString()] : [];
  if (s.enum?.length) return s.enum[0];
  switch (s.format) {
    case "ton-address":
    case "ton-address-or-null":
      return pick(r, [t.wallet.toString(), t.echo.toString()]);
    case "ton-hash":
      return HASH;
    case "byte":
      return namedBoc("small").base64;
    case "int64":
    case "uint64":
      return s.type === "integer" ? 1 : "1";
  }
  if (p.name === "workchain") return -1;
  if (p.name === "shard") return "-9223372036854775808";
  if (p.name === "method") return "seqno";
  if (s.type === "boolean") return false;
  if (s.type === "integer") return Math.max(1, s.minimum ?? 1);
  if (s.type === "string") return "x";
  return undefined;
}

/** A hostile value for a parameter: of its kind where it has one (a BoC, a number, an address), else any. */
function hostileParam(p: Param, t: Target, r: Rng): unknown {
  if (r() < 0.3) return hostileValue(r);
  const s = p.schema;
  if (s.format === "byte" || p.name === "init_code" || p.name === "init_data" || p.name === "boc" || p.name === "body") return bocText(r, hostileBoc(r).bytes);
  if (p.name === "stack") return hostileStack(r, "legacy");
  if (s.format?.startsWith("ton-address")) return hostileAddress(r);
  if (s.type === "integer" || s.format === "int64" || s.format === "uint64") return tvmNumber(r);
  if (s.type === "array") return pick(r, [() => Array(2000).fill(HASH), () => [hostileValue(r)], () => hostileValue(r)])();
  if (p.name === "method") return pick(r, [() => longString(r), () => "a".repeat(129), () => -1, () => 2 ** 64, () => "\u0000", () => "seqno\u0000x", () => "0x" + "f".repeat(100)])();
  return hostileValue(r);
}

const POST_JSON = "application/json";

// ---- families --------------------------------------------------------------------------------

/** A hostile bag where an endpoint takes a BoC: sendBoc, sendBocReturnHash, estimateFee; v3 message and estimateFee. */
function bocCase(r: Rng, t: Target, flavour: "v2" | "v3"): Built {
  const b = hostileBoc(r);
  const text = bocText(r, b.bytes);
  const path = flavour === "v2" ? pick(r, ["/api/v2/sendBoc", "/api/v2/sendBocReturnHash", "/api/v2/estimateFee"]) : pick(r, ["/api/v3/message", "/api/v3/estimateFee"]);
  if (!path.endsWith("estimateFee")) return { label: `${path} boc ${b.name}`, method: "POST", on: "gateway", path, body: json({ boc: text }), contentType: POST_JSON };
  const field = pick(r, ["body", "body", "init_code", "init_data"]);
  // mostly accounts that do not exist, so that few of these reach the emulator (a few of them: each
  // one asked for costs an account proof in the localnet's cache at every block)
  const address = r() < 0.85 ? `0:${"7".repeat(63)}${Math.floor(r() * 3)}` : t.wallet.toString();
  const body: Record<string, unknown> = { address, body: namedBoc("empty-cell").base64, ignore_chksig: r() < 0.8, [field]: text };
  return { label: `${path} ${field} ${b.name}`, method: "POST", on: "gateway", path, body: json(body), contentType: POST_JSON };
}

const RUN_PATHS: Record<StackShape, string> = { legacy: "/api/v2/runGetMethod", typed: "/api/v2/runGetMethodStd", v3: "/api/v3/runGetMethod" };

/**
 * A get-method call with a hostile stack; `parseable`: one the API takes, run by `identity` on the
 * echo contract (so it goes through the emulator and comes back through the rendering), else a
 * hostile one mostly on accounts that do not exist (so it stops at the parse).
 */
function stackCase(r: Rng, t: Target, shape: StackShape, parseable: boolean): Built {
  const path = RUN_PATHS[shape];
  if (parseable) {
    const stack = parseableHostileStack(r, shape);
    return { label: `${path} identity, parseable hostile stack`, method: "POST", on: "gateway", path, body: json({ address: t.echo.toString(), method: "identity", stack }), contentType: POST_JSON };
  }
  const address = weighted(r, [
    [7, () => `0:${"6".repeat(63)}${Math.floor(r() * 3)}`],
    [1, () => t.echo.toString()],
    [2, () => hostileAddress(r)],
  ] as const)();
  const method = r() < 0.9 ? pick(r, ["identity", "seqno", "get_public_key", 85143]) : hostileParam({ name: "method", required: true, schema: { type: "string" } }, t, r);
  const stack = r() < 0.03 ? [millionDigits()] : hostileStack(r, shape);
  const body: Record<string, unknown> = { address, method, stack };
  if (shape !== "v3" && r() < 0.1) body.seqno = tvmNumber(r);
  if (r() < 0.1) return { label: `${path} hostile body bytes`, method: "POST", on: "gateway", path, body: hostileBodyBytes(r, body), contentType: POST_JSON };
  return { label: `${path} hostile stack on ${String(address).slice(0, 20)}`, method: "POST", on: "gateway", path, body: json(body), contentType: POST_JSON };
}

const parsedCells = new Map<string, Cell>();
const parsed = (name: string) => {
  let c = parsedCells.get(name);
  if (!c) parsedCells.set(name, (c = Cell.fromBoc(namedBoc(name).bytes)[0]!));
  return c;
};

/** An external message the APIs parse, carrying hostile cells (its body, its StateInit's code or data), to a send or a fee estimate. */
function messageCase(r: Rng, t: Target): Built {
  // a cell deeper than the emulator's stack takes costs one of its processes (the localnet's too, for a
  // send): a few of those, spread over the run
  const name = weighted(r, [
    [1, pick(r, ["chain-500", "chain-1000", "shared-1000x4"])],
    [10, pick(r, ["chain-300", "shared-64x4", "max-refs", "tree-10k", "merkle-proof", "merkle-proof-pruned", "merkle-update", "library-cell"])],
  ] as const);
  const cell = parsed(name);
  const where = pick(r, ["body", "code", "data"] as const);
  const to = where === "body" ? pick(r, [t.wallet, t.echo]) : new Address(0, Buffer.alloc(32, Math.floor(r() * 256)));
  const init: StateInit | undefined = where === "body" ? undefined : where === "code" ? { code: cell, data: Cell.EMPTY } : { code: Cell.EMPTY, data: cell };
  const path = pick(r, ["/api/v2/sendBoc", "/api/v2/sendBocReturnHash", "/api/v3/message", "/api/v2/estimateFee", "/api/v3/estimateFee"]);
  const label = `${path}: an external message whose ${where} is ${name}`;
  if (path.endsWith("estimateFee")) {
    const body = where === "body" ? { address: to.toString(), body: namedBoc(name).base64, ignore_chksig: true } : { address: to.toString(), body: "", [`init_${where}`]: namedBoc(name).base64, ignore_chksig: true };
    return { label, method: "POST", on: "gateway", path, body: json(body), contentType: POST_JSON };
  }
  const msg = beginCell().store(storeMessage(external({ to, body: where === "body" ? cell : Cell.EMPTY, init }), { forceRef: true })).endCell();
  return { label, method: "POST", on: "gateway", path, body: json({ boc: msg.toBoc().toString("base64") }), contentType: POST_JSON };
}

/** The params of a call to a v2 method: valid ones with a hostile one, or the BoC and stack families' bodies. */
function hostileParams(r: Rng, t: Target, e: Endpoint): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const p of e.params) if (p.required || r() < 0.3) params[p.name] = validValue(p, t, r);
  if (e.path.endsWith("/runGetMethod") || e.path.endsWith("/runGetMethodStd")) {
    params.address = `0:${"6".repeat(64)}`;
    params.stack = hostileStack(r, e.path.endsWith("Std") ? "typed" : "legacy");
  }
  const victims = e.params.length ? [pick(r, e.params)] : [];
  if (r() < 0.2 && e.params.length > 1) victims.push(pick(r, e.params));
  for (const p of victims) params[p.name] = hostileParam(p, t, r);
  if (r() < 0.1) params[pick(r, ["x", "@extra", "api_key", "__proto__", "constructor", ""])] = hostileValue(r);
  if (e.path.endsWith("/estimateFee") && typeof params.address === "string" && params.address === t.wallet.toString() && r() < 0.8) params.address = `0:${"7".repeat(64)}`;
  return params;
}

/** A hostile query string for a GET endpoint: hostile values, raw percent escapes, a parameter repeated. */
function hostileQuery(r: Rng, t: Target, e: Endpoint): string {
  const parts: string[] = [];
  const enc = (v: unknown) => encodeURIComponent((typeof v === "string" ? v : json(v)).toWellFormed());
  for (const p of e.params) if (p.required || r() < 0.2) parts.push(`${p.name}=${enc(validValue(p, t, r))}`);
  const p = e.params.length ? pick(r, e.params) : { name: "x", required: false, schema: {} };
  const raw = weighted(r, [
    [4, () => enc(hostileParam(p, t, r)).slice(0, 9000)],
    [2, () => pick(r, ["%ff%fe", "%c0%80", "%ed%a0%80", "%00", "%", "%zz", "%E0%A4%A", "%2525", "+", "%20%20"])],
    [1, () => pick(r, ["NaN", "Infinity", "-Infinity", "1e309", "-0", "0x10", "1_000", "١٢٣", "true", "null", "undefined", "[]", "{}"])],
    [1, () => "9".repeat(pick(r, [20, 100, 7000]))],
  ] as const)();
  parts.push(`${p.name}=${raw}`);
  if (r() < 0.1) for (let k = pick(r, [10, 300, 3000]); k > 0; k--) parts.push(`${p.name}=${raw.slice(0, 20)}`);
  if (r() < 0.05) parts.push(`${encodeURIComponent(String(longString(r)).slice(0, 5000))}=1`);
  return parts.join("&");
}

/** Any POST endpoint with a hostile JSON body, or a GET endpoint with a hostile query string. */
function jsonCase(r: Rng, t: Target, endpoints: Endpoint[], flavour: "v2" | "v3"): Built {
  const e = pick(r, endpoints);
  if (e.method === "GET" && (flavour === "v3" || r() < 0.3)) {
    const qs = hostileQuery(r, t, e);
    return { label: `GET ${e.path} hostile query`, method: "GET", on: "gateway", path: `${e.path}?${qs}` };
  }
  const params = hostileParams(r, t, e);
  if (r() < 0.35) return { label: `POST ${e.path} hostile body bytes`, method: "POST", on: "gateway", path: e.path, body: hostileBodyBytes(r, params), contentType: pick(r, [POST_JSON, POST_JSON, POST_JSON, "text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin1"]) };
  return { label: `POST ${e.path} a hostile parameter`, method: "POST", on: "gateway", path: e.path, body: json(params), contentType: POST_JSON };
}

/** One JSON-RPC call: any v2 method with hostile params, a hostile id, a hostile envelope. */
function rpcCall(r: Rng, t: Target, id: unknown): Record<string, unknown> {
  const e = pick(r, t.v2.filter((x) => x.method === "POST" && x.path !== "/api/v2/jsonRPC"));
  const method = e.path.slice("/api/v2/".length);
  const call: Record<string, unknown> = { jsonrpc: "2.0", id, method, params: hostileParams(r, t, e) };
  if (r() < 0.15) call[pick(r, ["jsonrpc", "method", "params"])] = weighted(r, [
    [3, () => hostileValue(r)],
    [1, () => [hostileParams(r, t, e)]],
    [1, () => method + "\u0000"],
  ] as const)();
  if (r() < 0.05) delete call[pick(r, ["jsonrpc", "method", "params", "id"])];
  return call;
}

function jsonRpcCase(r: Rng, t: Target): Built {
  const path = "/api/v2/jsonRPC";
  const kind = weighted(r, [
    [6, "call"],
    [2, "batch"],
    [1, "bytes"],
    [1, "odd"],
  ] as const);
  if (kind === "call") {
    const id = r() < 0.5 ? hostileId(r) : Math.floor(r() * 1e6);
    return { label: `jsonRPC call, id ${json(id).slice(0, 30)}`, method: "POST", on: "gateway", path, body: json(rpcCall(r, t, id)), contentType: POST_JSON };
  }
  if (kind === "batch") {
    const n = weighted(r, [
      [5, () => 1 + Math.floor(r() * 10)],
      [2, () => pick(r, [99, 100])],
      [1, () => pick(r, [101, 1000, 10_000])],
    ] as const)();
    // hostile calls as long as the batch stays small; plain ones after (a batch's size is the gateway's business, not the calls')
    const plain = new RawJson('{"jsonrpc":"2.0","id":1,"method":"getMasterchainInfo"}');
    let size = 0;
    const calls = Array.from({ length: n }, (_, k) => {
      if (n > 100 || size > 200_000) return plain;
      const call = new RawJson(json(rpcCall(r, t, r() < 0.2 ? hostileId(r) : k)));
      size += call.text.length;
      return call;
    });
    return { label: `jsonRPC batch of ${n}`, method: "POST", on: "gateway", path, body: json(calls), contentType: POST_JSON };
  }
  if (kind === "bytes") return { label: "jsonRPC hostile body bytes", method: "POST", on: "gateway", path, body: hostileBodyBytes(r, rpcCall(r, t, 1)), contentType: POST_JSON };
  const odd = pick(r, [
    () => json([[rpcCall(r, t, 1)]]),
    () => json([1, "two", null, []]),
    () => json([]),
    () => deepJson(pick(r, [1000, 100_000]), "array", json(rpcCall(r, t, 1))).text,
    () => json({ jsonrpc: "2.0", id: hostileId(r), method: "getMasterchainInfo", params: deepJson(pick(r, [100, 10_000]), "object") }),
  ])();
  return { label: "jsonRPC odd envelope", method: "POST", on: "gateway", path, body: odd, contentType: POST_JSON };
}

/** Whether @ton/core reads the bag as one ordinary cell, as the control API takes a library. */
function isLibrary(bytes: Buffer): boolean {
  try {
    const roots = Cell.fromBoc(bytes);
    return roots.length === 1 && !roots[0]!.isExotic;
  } catch {
    return false;
  }
}

/**
 * The control API with hostile bodies; `publish`: a library the API takes (hostile cells among
 * them), which goes on chain, so their number is fixed by the plan.
 */
function controlCase(r: Rng, mode: "hostile" | "publish"): Built {
  const on = "control";
  if (mode === "publish") {
    const name = pick(r, ["chain-300", "chain-500", "chain-1000", "shared-64x4", "shared-1000x4", "max-refs", "small", "merkle-proof-deep"]);
    return { label: `libraries: publish ${name}`, method: "POST", on, path: "/localnet/libraries", body: json({ boc: namedBoc(name).base64 }), contentType: POST_JSON };
  }
  const route = pick(r, ["libraries", "libraries", "faucet", "time", "split", "merge", "seal", "nothing"]);
  const path = `/localnet/${route}`;
  let body: Record<string, unknown>;
  switch (route) {
    case "libraries": {
      // bags the API refuses (not one ordinary root), so that none is published here
      const b = hostileBoc(r);
      body = { boc: b.bytes.length < 100_000 && !isLibrary(b.bytes) ? bocText(r, b.bytes) : hostileValue(r) };
      break;
    }
    case "faucet":
      body = r() < 0.5 ? { address: hostileAddress(r), amount: "1000" } : { address: `0:${"1".repeat(64)}`, amount: pick(r, [() => tvmNumber(r), () => "0", () => "1" + "0".repeat(30), () => "-5", () => 1e9])() };
      break;
    case "time":
      body = { advance: pick(r, [() => tvmNumber(r), () => -1, () => 1e12, () => 0.5, () => "10", () => 315360001])() };
      break;
    case "split":
    case "merge":
      body = { shard: pick(r, [() => hostileValue(r), () => "0", () => "0x", () => "g".repeat(16), () => "f".repeat(17), () => "ffffffffffffffff", () => "0000000000000001", () => 8])() };
      break;
    default:
      body = { x: hostileValue(r) };
  }
  if (route === "seal") return { label: "seal with a GET", method: "GET", on, path };
  if (r() < 0.3) return { label: `${path} hostile body bytes`, method: "POST", on, path, body: hostileBodyBytes(r, body), contentType: pick(r, [POST_JSON, "text/plain"]) };
  return { label: `${path} a hostile value`, method: "POST", on, path, body: json(body), contentType: POST_JSON };
}

// ---- the runner ------------------------------------------------------------------------------

/** The methods that run the emulator (a send's check runs the localnet's; emulateTrace the send service's; the others lite-proxy's), in either API. */
const EMULATOR_METHODS = /\/(runGetMethod|runGetMethodStd|estimateFee|sendBoc|sendBocReturnHash|message|getTokenData|emulateTrace)$/;

/**
 * The 5xx answers the suite allows, by kind (undefined: not allowed):
 * - an emulator run failing within its bounds, as lite-proxy answers them (500 trapped, aborted or
 *   at its memory bound; 504 past its time bound; 503 busy);
 * - the gateway's call deadline (504) on a method that runs the emulator: runs wait in its queue,
 *   and a run that traps costs its process, which takes a second or more to replace;
 * - toncenter's 500 for a liteserver error, here a state past the localnet's window asked for by a
 *   seqno (which seqnos are past it depends on how long the run has gone on).
 */
export function allowedFailure(status: number, error: string, path: string): string | undefined {
  if (status === 500) {
    const emulator = /the emulator (trapped|aborted)|emulator process ended during the run|emulator's memory bound/.exec(error)?.[0];
    if (emulator) return emulator;
    if (/state already gc'd/.test(error)) return "liteserver: state already gc'd";
  }
  if (status === 504 && /longer than its time bound \(\d+ ms\)/.test(error)) return "emulator time bound";
  if (status === 504 && error === "the operation timed out" && EMULATOR_METHODS.test(path.split("?")[0]!)) return "call deadline on an emulator method";
  if (status === 503 && /emulator runs are waiting/.test(error)) return "emulator busy";
  return undefined;
}

export interface Failure {
  index: number;
  case: Case;
  what: string;
}

export interface RunStats {
  sent: number;
  /** family → status (or "no answer"/"timeout") → count */
  byFamily: Map<string, Map<string, number>>;
  /** allowed 5xx answers (allowedFailure), by family and kind */
  allowed: Map<string, number>;
  failures: Failure[];
  slowest: { ms: number; index: number; label: string };
  seconds: number;
  /** times the server exited during the run */
  deaths: number;
  /** family → milliseconds its answers took, in all */
  msByFamily: Map<string, number>;
  /** seconds spent building the cases (in this thread, between requests) */
  buildSeconds: number;
  /** when each case was sent and answered (Date.now()), to find what was in flight at a late probe */
  timeline: { index: number; label: string; bytes: number; start: number; end: number }[];
}

const bump = <K>(m: Map<K, number>, k: K, by = 1) => m.set(k, (m.get(k) ?? 0) + by);

/** What is wrong with an answer (undefined: nothing), counting an allowed 5xx in `allowed`. */
function judge(c: Case, status: number, text: string, allowed: Map<string, number>, family: string): string | undefined {
  // node's HTTP parser refuses a request whose head is past the server's maxHeaderSize before the gateway sees it
  if (status === 431) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${status}, not JSON: ${text.slice(0, 200)}`;
  }
  const one = (item: unknown, httpStatus: number): string | undefined => {
    const o = (item ?? {}) as { error?: unknown; code?: unknown; ok?: unknown };
    const code = typeof o.code === "number" ? o.code : httpStatus;
    if (code >= 500) {
      const kind = allowedFailure(code, String(o.error ?? ""), c.path);
      if (!kind) return `${code}: ${JSON.stringify(item).slice(0, 300)}`;
      bump(allowed, `${family}: ${code} ${kind}`);
    }
    return undefined;
  };
  const flavour = c.on === "control" ? "control" : v3Envelope(c.path) ? "v3" : "v2";
  const items = c.path.startsWith("/api/v2/jsonRPC") && Array.isArray(body) ? body : [body];
  for (const item of items) {
    const wrong = one(item, status) ?? envelopeFault(flavour, status, item, items.length > 1 || c.path.startsWith("/api/v2/jsonRPC"));
    if (wrong) return wrong;
  }
  return undefined;
}

/**
 * Sends case after case, `concurrency` at a time, each within `timeoutMs`. When the server is gone
 * (`alive()` false), the cases in flight are failures; then `revive` (if given) starts it again and
 * the run goes on (a survey of every input that ends the process), else the run stops.
 */
export async function runCases(o: {
  gateway: string;
  control: string;
  count: number;
  build: (i: number) => Case;
  concurrency: number;
  timeoutMs: number;
  alive: () => boolean;
  revive?: () => Promise<void>;
  /** progress, every thousand cases and at a death */
  report?: (line: string) => void;
}): Promise<RunStats> {
  const stats: RunStats = { sent: 0, byFamily: new Map(), allowed: new Map(), failures: [], slowest: { ms: 0, index: -1, label: "" }, seconds: 0, deaths: 0, msByFamily: new Map(), buildSeconds: 0, timeline: [] };
  const started = performance.now();
  const inFlight = new Map<number, Case>();
  let reviving: Promise<void> | undefined;
  let next = 0;
  /** The server died: the cases in flight are the suspects. */
  const died = () => {
    if (reviving) return reviving;
    stats.deaths++;
    o.report?.(`the process exited with cases ${[...inFlight].map(([i, c]) => `#${i} (${c.label})`).join(", ")} in flight`);
    for (const [index, c] of inFlight) stats.failures.push({ index, case: c, what: "in flight when the process exited" });
    inFlight.clear();
    reviving = (o.revive?.() ?? Promise.resolve()).finally(() => (reviving = undefined));
    return reviving;
  };
  const worker = async () => {
    while (next < o.count) {
      if (!o.alive()) {
        if (!o.revive) return;
        await died();
        continue;
      }
      const i = next++;
      const built = performance.now();
      const c = o.build(i);
      stats.buildSeconds += (performance.now() - built) / 1000;
      const family = stats.byFamily.get(c.family) ?? new Map<string, number>();
      stats.byFamily.set(c.family, family);
      inFlight.set(i, c);
      const at = performance.now();
      const startedAt = Date.now();
      let outcome: string;
      let wrong: string | undefined;
      try {
        const res = await fetch((c.on === "control" ? o.control : o.gateway) + c.path, {
          method: c.method,
          body: c.body,
          headers: c.body === undefined ? {} : { "content-type": c.contentType ?? POST_JSON },
          signal: AbortSignal.timeout(o.timeoutMs),
        });
        const text = await res.text();
        outcome = String(res.status);
        wrong = judge(c, res.status, text, stats.allowed, c.family);
      } catch (e) {
        const err = e as Error & { cause?: { code?: string } };
        // a connection lost with the process: counted with its death
        if (err.name !== "TimeoutError") await new Promise((res) => setTimeout(res, 500));
        if (!o.alive()) continue;
        outcome = err.name === "TimeoutError" ? "timeout" : "no answer";
        wrong = err.name === "TimeoutError" ? `no answer within ${o.timeoutMs} ms` : `no answer: ${err.cause?.code ?? err.message}`;
      }
      if (!inFlight.delete(i)) continue; // counted with the process's death
      const ms = performance.now() - at;
      if (ms > stats.slowest.ms) stats.slowest = { ms, index: i, label: c.label };
      bump(family, outcome);
      bump(stats.msByFamily, c.family, ms);
      stats.timeline.push({ index: i, label: c.label, bytes: c.body?.length ?? c.path.length, start: startedAt, end: Date.now() });
      stats.sent++;
      if (wrong) stats.failures.push({ index: i, case: c, what: wrong });
      if (stats.sent % 1000 === 0) o.report?.(`${stats.sent} answered in ${((performance.now() - started) / 1000).toFixed(0)} s, ${stats.failures.length} failures`);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  stats.seconds = (performance.now() - started) / 1000;
  return stats;
}

// ---- the prober ------------------------------------------------------------------------------

export interface ProbeStats {
  calls: number;
  /** answers that were not a 200 within the bound: when (ms after the start; `start`, `end`: Date.now()), what, and tongate's worst event loop delay then (ms) */
  late: { at: number; start: number; end: number; status: number; ms: number; what: string; lag: number }[];
  /** tongate's worst event loop delay in any second of the run, ms (from its /metrics) */
  lagMax: number;
  p50: number;
  p99: number;
  max: number;
  /** the newest masterchain seqno each API answered */
  v2Seqno: number;
  v3Seqno: number;
}

// In a thread of its own, so that what it measures is the server, not the time the load's own
// generator holds this thread.
const PROBER = `
const { parentPort, workerData } = require("node:worker_threads");
const { gateway, boundMs } = workerData;
const ms = [], late = [];
let v2Seqno = 0, v3Seqno = 0, running = true;
const started = performance.now();
async function probe(path, seqnoOf, set) {
  const at = performance.now();
  try {
    const res = await fetch(gateway + path, { signal: AbortSignal.timeout(Math.max(boundMs * 10, 10000)) });
    const body = await res.json();
    const took = performance.now() - at;
    ms.push(took);
    if (res.status !== 200 || took > boundMs) late.push({ at: Math.round(at - started), start: Date.now() - took, end: Date.now(), status: res.status, ms: Math.round(took), what: path + ": " + res.status + " in " + Math.round(took) + " ms" });
    const seqno = seqnoOf(body);
    if (seqno) set(seqno);
  } catch (e) {
    ms.push(performance.now() - at);
    late.push({ at: Math.round(at - started), start: Date.now() - (performance.now() - at), end: Date.now(), status: 0, ms: Math.round(performance.now() - at), what: path + ": " + e.message });
  }
}
// tongate's event loop delay (prom-client resets its histogram at each scrape): the worst of each second
const lags = [];
async function scrapeLag() {
  try {
    const text = await (await fetch(gateway + "/metrics", { signal: AbortSignal.timeout(10000) })).text();
    const m = /^tongate_nodejs_eventloop_lag_max_seconds (\\S+)$/m.exec(text);
    if (m) lags.push({ at: Date.now(), ms: Math.round(Number(m[1]) * 1000) });
  } catch {}
}
parentPort.on("message", () => (running = false));
(async () => {
  await scrapeLag();
  while (running) {
    await new Promise((res) => setTimeout(res, 1000));
    await scrapeLag();
  }
})();
(async () => {
  while (running) {
    await Promise.all([
      probe("/api/v2/getMasterchainInfo", (b) => b.result && b.result.last && b.result.last.seqno, (n) => (v2Seqno = n)),
      probe("/api/v3/masterchainInfo", (b) => b.last && b.last.seqno, (n) => (v3Seqno = n)),
    ]);
    await new Promise((res) => setTimeout(res, 50));
  }
  const sorted = [...ms].sort((a, b) => a - b);
  const q = (x) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(x * sorted.length))] || 0);
  for (const l of late) l.lag = Math.max(0, ...lags.filter((x) => x.at >= l.start && x.at <= l.end + 1500).map((x) => x.ms));
  parentPort.postMessage({ calls: ms.length, late, p50: q(0.5), p99: q(0.99), max: Math.round(sorted[sorted.length - 1] || 0), v2Seqno, v3Seqno, lagMax: Math.max(0, ...lags.slice(1).map((x) => x.ms)) });
})();
`;

/** Calls GET /api/v2/getMasterchainInfo and GET /api/v3/masterchainInfo over and over until stopped; every answer must be a 200 within `boundMs`. */
export function startProber(gateway: string, boundMs: number): { stop: () => Promise<ProbeStats> } {
  const worker = new Worker(PROBER, { eval: true, workerData: { gateway, boundMs } });
  const result = new Promise<ProbeStats>((resolve, reject) => {
    worker.once("message", (m: ProbeStats) => resolve(m));
    worker.once("error", reject);
  });
  return {
    stop: async () => {
      worker.postMessage("stop");
      const stats = await result;
      await worker.terminate();
      return stats;
    },
  };
}

/** The cases in flight during [start, end], longest first: the suspects of a late probe. */
export function inFlightDuring(run: RunStats, start: number, end: number, n = 3): string[] {
  return run.timeline
    .filter((t) => t.start <= end && t.end >= start)
    .sort((a, b) => b.end - b.start - (a.end - a.start))
    .slice(0, n)
    .map((t) => `#${t.index} ${t.label} (${t.bytes} bytes, ${t.end - t.start} ms)`);
}

// ---- memory ----------------------------------------------------------------------------------

/** A process's resident memory, MiB, from /proc (0 when it is gone): all of it (VmRSS) and its anonymous part (heaps and buffers, without mapped files). */
export function residentMiB(pid: number): { rss: number; anon: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
    return { rss: kb("VmRSS") / 1024, anon: kb("RssAnon") / 1024 };
  } catch {
    return { rss: 0, anon: 0 };
  }
}

/** The child processes of a process (the emulator's, for tongate). */
export function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number));
  } catch {
    return [];
  }
}
