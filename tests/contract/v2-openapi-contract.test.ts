// Contract test: the LiteProxy protobuf contract (proto/tongate/v2) against
// toncenter's own API v2 OpenAPI (v2.json). For every path but /api/v2/jsonRPC
// (the gateway's own) it checks the HTTP bindings, the request parameters and
// the shape of the result, recursing into nested objects, unions and arrays.
// Every mismatch is collected and reported in one assertion message.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { getOption, hasOption, ScalarType, type DescField, type DescMessage, type DescMethod } from "@bufbuild/protobuf";
import { http } from "@tongate/proto/gen/google/api/annotations_pb.js";
import type { HttpRule } from "@tongate/proto/gen/google/api/http_pb.js";
import { Format, json, rules, tl_type, union } from "@tongate/proto/gen/tongate/options/v1/options_pb.js";
import { file_tongate_v2_lite_proxy, LiteProxy } from "@tongate/proto/gen/tongate/v2/lite_proxy_pb.js";
import { Send } from "@tongate/proto/gen/tongate/v2/send_pb.js";
import { describe, expect, it } from "vitest";

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  default?: unknown;
  title?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  discriminator?: { propertyName: string; mapping: Record<string, string> };
  "x-usrv-cpp-type"?: string;
  "x-usrv-cpp-format"?: string;
}

interface Parameter {
  $ref?: string;
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

interface Spec {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; parameters: Record<string, Parameter> };
}

const spec = JSON.parse(readFileSync(fileURLToPath(new URL("../../../shared/reference/toncenter-docs/v2.json", import.meta.url)), "utf8")) as Spec;

/** Paths served in addition to v2.json's, with the reason. */
const EXTRA_PATHS: Record<string, string> = {
  "/api/v2/shards": "the C++ server serves /shards as well as /getShards (the Python one only /shards)",
};

/**
 * Deliberate departures from v2.json, by proto field, with the reason. The
 * report lists any entry no longer needed, so the list cannot go stale.
 */
const DEVIATIONS: Record<string, string> = {
  "tongate.v2.PChanConfig.channel_id":
    "v2.json says integer int64 (a JSON number); kept as int64, a decimal string as tonlib emits it, since a double would corrupt 64-bit channel ids",
};

// ---------------------------------------------------------------------------
// Schema helpers

const refName = (s: Schema | undefined): string | undefined => (s?.$ref ?? (s?.type?.startsWith("#/") ? s.type : undefined))?.split("/").pop();

function deref(s: Schema): Schema {
  // v2.json writes one reference as {"type": "#/components/schemas/TonHash"} (getLibraries' items).
  let cur = s.type?.startsWith("#/") ? { ...s, $ref: s.type, type: undefined } : s;
  for (let i = 0; cur.$ref && i < 32; i++) {
    const name = refName(cur)!;
    const next = spec.components.schemas[name];
    if (!next) throw new Error(`unresolved $ref ${cur.$ref}`);
    cur = next;
  }
  return cur;
}

const flatCache = new Map<Schema, Schema>();
/** $ref resolved and allOf merged (later parts override earlier ones, as a JSON merge would). */
function flatten(s: Schema): Schema {
  const cached = flatCache.get(s);
  if (cached) return cached;
  const r = deref(s);
  let out = r;
  if (r.allOf) {
    const merged: Schema = { type: "object", properties: {}, required: [] };
    for (const part of r.allOf.map(flatten)) {
      Object.assign(merged.properties!, part.properties ?? {});
      merged.required = [...new Set([...merged.required!, ...(part.required ?? [])])];
      if (part.additionalProperties !== undefined) merged.additionalProperties = part.additionalProperties;
    }
    out = merged;
  }
  flatCache.set(s, out);
  return out;
}

const ids = new WeakMap<Schema, number>();
let nextId = 1;
const schemaId = (s: Schema): number => {
  let id = ids.get(s);
  if (id === undefined) ids.set(s, (id = nextId++));
  return id;
};

const variantsOf = (s: Schema): Schema[] | undefined => {
  const r = flatten(s);
  return r.oneOf ?? r.anyOf;
};

const cppOf = (s: Schema): string => {
  const r = deref(s);
  return [s["x-usrv-cpp-type"], s["x-usrv-cpp-format"], r["x-usrv-cpp-type"], r["x-usrv-cpp-format"]].filter(Boolean).join(" ");
};

type Kind =
  | "int" // a JSON number without fraction
  | "number"
  | "int64string" // a 64-bit integer as a decimal string
  | "decimal" // Int256: an integer of any size as a decimal string
  | "base64" // TonHash / Bytes: standard base64
  | "string"
  | "string-or-int" // a string, or an integer the gateway turns into its decimal string
  | "boolean"
  | "array"
  | "object" // an object with known properties
  | "union" // one of several objects
  | "any"; // free-form JSON

function kindOf(s: Schema): Kind {
  const name = refName(s);
  if (name === "TonHash" || name === "Bytes") return "base64";
  if (name === "Int256") return "decimal";
  const r = flatten(s);
  const cpp = cppOf(s);
  const variants = r.oneOf ?? r.anyOf;
  if (variants) {
    const kinds = variants.map((v) => kindOf(v));
    if (kinds.every((k) => k === "object")) return "union";
    if (kinds.every((k) => k === "int" || k === "string" || k === "boolean" || k === "int64string")) {
      // toncenter's POST bodies accept numbers as strings too: the C++ type says what it is.
      if (/int64/.test(cpp)) return "int64string";
      if (/int32|int\b/.test(cpp)) return "int";
      if (/bool/.test(cpp)) return "boolean";
      return "string-or-int";
    }
    return "any";
  }
  switch (r.type) {
    case "array":
      return "array";
    case "object":
      return r.properties && Object.keys(r.properties).length > 0 ? "object" : "any";
    case "integer":
      return "int";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "string":
      if (/int64/.test(cpp)) return "int64string";
      if (/int256/.test(cpp)) return "decimal";
      if (/(ton_hash|schemas\/TonHash)(?=\s|$)/.test(cpp)) return "base64";
      return "string";
  }
  if (r.properties) return "object";
  return "any";
}

const isAddressSchema = (s: Schema) => refName(s) === "TonAddr" || /(ton_addr|schemas\/TonAddr)(?=\s|$)/.test(cppOf(s));
const isHashSchema = (s: Schema) => refName(s) === "TonHash" || /(ton_hash|schemas\/TonHash)(?=\s|$)/.test(cppOf(s));

// ---------------------------------------------------------------------------
// Descriptor helpers

const INT32_TYPES = new Set([ScalarType.INT32, ScalarType.UINT32, ScalarType.SINT32, ScalarType.FIXED32, ScalarType.SFIXED32]);
const INT64_TYPES = new Set([ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64]);
const FLOAT_TYPES = new Set([ScalarType.DOUBLE, ScalarType.FLOAT]);

const keyOf = (f: DescField) => getOption(f, json).key || f.name;
const isUnion = (m: DescMessage) => getOption(m, union);
const tlTypeOf = (m: DescMessage) => getOption(m, tl_type);
const isOptional = (f: DescField) => f.proto.proto3Optional === true;
const fieldId = (f: DescField) => `${f.parent.typeName}.${f.name}`;

function scalarName(t: ScalarType): string {
  return ScalarType[t]?.toLowerCase() ?? String(t);
}

function describeField(f: DescField): string {
  switch (f.fieldKind) {
    case "scalar":
      return scalarName(f.scalar);
    case "message":
      return f.message.typeName;
    case "enum":
      return `enum ${f.enum.typeName}`;
    case "list":
      return `repeated ${f.listKind === "scalar" ? scalarName(f.scalar) : f.listKind === "message" ? f.message.typeName : f.enum.typeName}`;
    case "map":
      return "map";
  }
}

/** What is accepted for each kind: in requests (parsed from JSON or query strings) and responses (rendered). */
function scalarFits(kind: Kind, t: ScalarType, mode: "request" | "response"): boolean {
  switch (kind) {
    case "int":
    case "number":
      // Responses: a JSON number (64-bit proto integers render as strings). Requests: any integer parses.
      return mode === "response" ? INT32_TYPES.has(t) || FLOAT_TYPES.has(t) : INT32_TYPES.has(t) || INT64_TYPES.has(t);
    case "int64string":
      return INT64_TYPES.has(t);
    case "decimal":
      return t === ScalarType.STRING || INT64_TYPES.has(t);
    case "base64":
      return mode === "response" ? t === ScalarType.BYTES : t === ScalarType.STRING || t === ScalarType.BYTES;
    case "string":
      return t === ScalarType.STRING;
    case "string-or-int":
      return mode === "response" ? t === ScalarType.STRING : t === ScalarType.STRING || INT32_TYPES.has(t) || INT64_TYPES.has(t);
    case "boolean":
      return t === ScalarType.BOOL;
    default:
      return false;
  }
}

const WKT_ANY = new Set(["google.protobuf.Value", "google.protobuf.Struct"]);

// ---------------------------------------------------------------------------
// The checker

class Checker {
  readonly problems: string[] = [];
  readonly usedDeviations = new Set<string>();
  private readonly visited = new Set<string>();

  report(msg: string) {
    this.problems.push(msg);
  }

  private deviation(f: DescField): boolean {
    const id = fieldId(f);
    if (DEVIATIONS[id] === undefined) return false;
    this.usedDeviations.add(id);
    return true;
  }

  /** An object schema (flattened) against a plain message. */
  compareObject(schema: Schema, desc: DescMessage, path: string, mode: "request" | "response") {
    // Recursive shapes (TvmTuple ↔ TvmStackEntry) are compared once per schema and message.
    const visitKey = `${mode}|${desc.typeName}|${schemaId(schema)}`;
    if (this.visited.has(visitKey)) return;
    this.visited.add(visitKey);
    if (isUnion(desc)) {
      this.report(`${path}: ${desc.typeName} is a union, but v2.json has a plain object here`);
      return;
    }
    const props = schema.properties ?? {};
    const typeProp = props["@type"];
    const expectedTl = typeProp ? String(typeProp.enum?.[0] ?? typeProp.default ?? "") : "";
    const actualTl = tlTypeOf(desc);
    if (expectedTl !== actualTl) {
      this.report(`${path}: ${desc.typeName} has tl_type ${JSON.stringify(actualTl)}, v2.json's "@type" is ${JSON.stringify(expectedTl)}`);
    }
    const required = new Set(schema.required ?? []);
    const byKey = new Map(desc.fields.map((f) => [keyOf(f), f]));
    for (const [key, prop] of Object.entries(props)) {
      if (key === "@type") continue;
      const f = byKey.get(key);
      const at = `${path}.${key}`;
      if (!f) {
        this.report(`${at}: ${desc.typeName} has no field for it`);
        continue;
      }
      if (required.has(key) && (isOptional(f) || f.oneof !== undefined)) {
        this.report(`${at}: required in v2.json, but ${fieldId(f)} is ${isOptional(f) ? "optional" : "in a oneof"}`);
      }
      this.compareValue(prop, f, at, mode);
    }
    if (schema.additionalProperties === false) {
      for (const f of desc.fields) {
        if (!(keyOf(f) in props)) this.report(`${path}: ${fieldId(f)} (key ${JSON.stringify(keyOf(f))}) is not in v2.json, whose object allows no other properties`);
      }
    }
  }

  /** oneOf/anyOf of objects against a union message. */
  compareUnion(schema: Schema, desc: DescMessage, path: string, mode: "request" | "response") {
    if (!isUnion(desc)) {
      this.report(`${path}: v2.json has one of several objects here, but ${desc.typeName} is not a union message`);
      return;
    }
    if (desc.oneofs.length !== 1 || desc.fields.some((f) => f.oneof !== desc.oneofs[0] || f.fieldKind !== "message")) {
      this.report(`${path}: union ${desc.typeName} must hold exactly one oneof of message fields and nothing else`);
      return;
    }
    const members = variantsOf(schema) ?? [];
    const matched = new Set<DescField>();
    for (const m of members) {
      const flat = flatten(m);
      const tl = flat.properties?.["@type"]?.enum?.[0] as string | undefined;
      const label = tl ?? refName(m) ?? "variant";
      let variant: DescField | undefined;
      if (tl !== undefined) {
        variant = desc.fields.find((f) => f.fieldKind === "message" && tlTypeOf(f.message) === tl);
      } else {
        const keys = Object.keys(flat.properties ?? {}).sort().join(",");
        variant = desc.fields.find(
          (f) => f.fieldKind === "message" && !tlTypeOf(f.message) && f.message.fields.map(keyOf).sort().join(",") === keys,
        );
      }
      if (!variant || variant.fieldKind !== "message") {
        this.report(`${path}<${label}>: union ${desc.typeName} has no variant for it`);
        continue;
      }
      matched.add(variant);
      this.compareObject(flat, variant.message, `${path}<${label}>`, mode);
    }
    for (const f of desc.fields) {
      if (!matched.has(f)) this.report(`${path}: variant ${fieldId(f)} matches none of v2.json's alternatives`);
    }
  }

  /** A property schema against a field (repeated or not). */
  compareValue(s: Schema, f: DescField, path: string, mode: "request" | "response") {
    const kind = kindOf(s);
    if (kind === "array") {
      if (f.fieldKind !== "list") {
        this.report(`${path}: v2.json has an array, ${fieldId(f)} is ${describeField(f)}`);
        return;
      }
      this.compareElement(flatten(s).items ?? {}, f, `${path}[]`, mode);
      return;
    }
    if (f.fieldKind === "list") {
      this.report(`${path}: v2.json has a single ${kind}, ${fieldId(f)} is ${describeField(f)}`);
      return;
    }
    this.compareElement(s, f, path, mode);
  }

  /** One value (a field, or an element of a repeated field) against its schema. */
  compareElement(s: Schema, f: DescField, path: string, mode: "request" | "response") {
    const kind = kindOf(s);
    const msg = f.fieldKind === "message" ? f.message : f.fieldKind === "list" && f.listKind === "message" ? f.message : undefined;
    const scalar = f.fieldKind === "scalar" ? f.scalar : f.fieldKind === "list" && f.listKind === "scalar" ? f.scalar : undefined;
    const mismatch = (expected: string) => {
      if (this.deviation(f)) return;
      this.report(`${path}: v2.json has ${expected}, ${fieldId(f)} is ${describeField(f)}`);
    };
    switch (kind) {
      case "array":
        if (msg?.typeName !== "google.protobuf.ListValue" && msg?.typeName !== "google.protobuf.Value") mismatch("an array (element of an array): expected google.protobuf.ListValue");
        return;
      case "any":
        if (!msg || !WKT_ANY.has(msg.typeName)) mismatch("free-form JSON: expected google.protobuf.Value or Struct");
        return;
      case "object":
        if (!msg || msg.typeName.startsWith("google.protobuf.")) return mismatch("an object with known properties: expected a message");
        this.compareObject(flatten(s), msg, path, mode);
        return;
      case "union":
        if (!msg) return mismatch("one of several objects: expected a union message");
        this.compareUnion(s, msg, path, mode);
        return;
      default:
        if (scalar === undefined || !scalarFits(kind, scalar, mode)) {
          const hint =
            kind === "int" && scalar !== undefined && INT64_TYPES.has(scalar) && mode === "response"
              ? " (a 64-bit proto integer renders as a string, not a JSON number)"
              : "";
          mismatch(`${kind}${hint}`);
        }
    }
  }
}

// ---------------------------------------------------------------------------
// Per path

// API v2: lite-proxy's RPCs and the send service's
const methods: DescMethod[] = [...LiteProxy.methods, ...Send.methods];

function bindingsOf(m: DescMethod): HttpRule[] {
  const rule = getOption(m, http);
  return [rule, ...rule.additionalBindings];
}

function resolveParam(p: Parameter): Parameter {
  if (!p.$ref) return p;
  const base = spec.components.parameters[p.$ref.split("/").pop()!];
  if (!base) throw new Error(`unresolved parameter ${p.$ref}`);
  return { ...base, ...p, $ref: undefined };
}

function checkRoutes(c: Checker) {
  for (const [path, ops] of Object.entries(spec.paths)) {
    if (path === "/api/v2/jsonRPC") continue;
    for (const verb of Object.keys(ops)) {
      const method = methods.find((m) => bindingsOf(m).some((b) => b.pattern.case === verb && b.pattern.value === path));
      if (!method) {
        c.report(`${verb.toUpperCase()} ${path}: no API v2 RPC (LiteProxy, Send) has this http binding`);
        continue;
      }
      const rules = bindingsOf(method);
      if (verb === "get" && !rules.some((b) => b.pattern.case === "post" && b.pattern.value === path && b.body === "*")) {
        c.report(`GET ${path}: ${method.name} lacks the POST binding (body "*") toncenter's C++ server also answers`);
      }
      if (verb === "post" && !rules.some((b) => b.pattern.case === "post" && b.pattern.value === path && b.body === "*")) {
        c.report(`POST ${path}: ${method.name}'s binding must take the whole body (body "*")`);
      }
    }
  }
  for (const m of methods) {
    for (const b of bindingsOf(m)) {
      if (b.pattern.case !== "get" && b.pattern.case !== "post") {
        c.report(`${m.name}: binding ${b.pattern.case} is neither GET nor POST`);
        continue;
      }
      const p = b.pattern.value;
      if (!spec.paths[p] && EXTRA_PATHS[p] === undefined) c.report(`${m.name}: ${p} is not a v2.json path`);
    }
  }
}

function checkRequest(c: Checker, path: string, verb: string, op: Operation, method: DescMethod) {
  const desc = method.input;
  const params: { name: string; required: boolean; schema: Schema }[] = [];
  for (const p of (op.parameters ?? []).map(resolveParam)) params.push({ name: p.name, required: !!p.required, schema: p.schema });
  const body = op.requestBody?.content["application/json"]?.schema;
  if (body) {
    const b = flatten(body);
    const req = new Set(b.required ?? []);
    for (const [name, schema] of Object.entries(b.properties ?? {})) params.push({ name, required: req.has(name), schema });
  }
  const where = `${verb.toUpperCase()} ${path} request`;
  for (const p of params) {
    const at = `${where}.${p.name}`;
    const f = desc.fields.find((x) => keyOf(x) === p.name || x.name === p.name || getOption(x, json).aliases.includes(p.name));
    if (!f) {
      c.report(`${at}: ${desc.typeName} has no field (or alias) for it`);
      continue;
    }
    const r = getOption(f, rules);
    if (r.required !== p.required) {
      c.report(`${at}: v2.json says ${p.required ? "required" : "optional"}, ${fieldId(f)} has required=${r.required}`);
    }
    if (!p.required && f.fieldKind === "scalar" && !isOptional(f)) {
      c.report(`${at}: optional in v2.json, so ${fieldId(f)} should be declared optional (absent must differ from zero)`);
    }
    c.compareValue(p.schema, f, at, "request");
    const item = kindOf(p.schema) === "array" ? (flatten(p.schema).items ?? {}) : p.schema;
    if (isAddressSchema(item) && r.format !== Format.TON_ADDRESS) c.report(`${at}: an address in v2.json, ${fieldId(f)} lacks format FORMAT_TON_ADDRESS`);
    if (isHashSchema(item) && r.format !== Format.TON_HASH) c.report(`${at}: a TonHash in v2.json, ${fieldId(f)} lacks format FORMAT_TON_HASH`);
  }
}

function checkResponse(c: Checker, path: string, verb: string, op: Operation, method: DescMethod) {
  const desc = method.output;
  const where = `${verb.toUpperCase()} ${path} result`;
  const envelope = op.responses["200"]?.content?.["application/json"]?.schema;
  if (!envelope) {
    c.report(`${where}: v2.json has no 200 JSON response`);
    return;
  }
  let result = flatten(envelope).properties?.result;
  if (!result) {
    c.report(`${where}: v2.json's 200 response has no "result"`);
    return;
  }
  if (kindOf(result) === "any") {
    // The generic TonlibResponse: find the result's schema by the "@type" the message renders.
    const mapping = spec.components.schemas.TonlibObject?.discriminator?.mapping ?? {};
    const tl = tlTypeOf(desc);
    const ref = tl ? mapping[tl] : undefined;
    if (!ref) {
      c.report(`${where}: v2.json only says "object"; ${desc.typeName} needs a tl_type found in TonlibObject's discriminator to be checked`);
      return;
    }
    result = { $ref: ref };
  }
  const kind = kindOf(result);
  const unwrap = desc.fields.filter((f) => getOption(f, json).unwrap);
  if (unwrap.length) {
    // The result is the single unwrapped field's value: a bare value, a list, or a shared message.
    if (desc.fields.length !== 1 || unwrap.length !== 1) {
      c.report(`${where}: ${desc.typeName} unwraps ${unwrap.map((f) => f.name).join(", ")} but must hold exactly one field to do so`);
      return;
    }
    c.compareValue(result, unwrap[0]!, where, "response");
    return;
  }
  if (kind === "object" || kind === "union") {
    if (kind === "object") c.compareObject(flatten(result), desc, where, "response");
    else c.compareUnion(result, desc, where, "response");
    return;
  }
  c.report(`${where}: v2.json's result is ${kind === "array" ? "an array" : `a bare ${kind}`}, so ${desc.typeName} must hold a single field marked (json).unwrap`);
}

function checkAll(): Checker {
  const c = new Checker();
  checkRoutes(c);
  for (const [path, ops] of Object.entries(spec.paths)) {
    if (path === "/api/v2/jsonRPC") continue;
    for (const [verb, op] of Object.entries(ops)) {
      const method = methods.find((m) => bindingsOf(m).some((b) => b.pattern.case === verb && b.pattern.value === path));
      if (!method) continue; // reported by checkRoutes
      checkRequest(c, path, verb, op, method);
      checkResponse(c, path, verb, op, method);
    }
  }
  for (const id of Object.keys(DEVIATIONS)) {
    if (!c.usedDeviations.has(id)) c.report(`DEVIATIONS["${id}"] is no longer needed: remove it`);
  }
  return c;
}

describe("API v2 contract vs toncenter's v2.json", () => {
  it("loads the descriptors it checks", () => {
    expect(file_tongate_v2_lite_proxy.services.map((s) => s.typeName)).toContain("tongate.v2.LiteProxy");
    expect(methods.length).toBeGreaterThanOrEqual(33);
    expect(methods.every((m) => hasOption(m, http))).toBe(true);
  });

  it("has an RPC, request fields and a result shape for every v2.json path", () => {
    const { problems } = checkAll();
    expect(problems, `${problems.length} mismatch(es) with v2.json:\n  ${problems.join("\n  ")}`).toEqual([]);
  });

  it("catches a result that does not fit (the checker is not vacuous)", () => {
    const c = new Checker();
    const wallet = methods.find((m) => m.name === "GetWalletInformation")!.output;
    c.compareObject(flatten({ $ref: "#/components/schemas/AddressInformation" }), wallet, "probe", "response");
    expect(c.problems.some((p) => p.includes("tl_type"))).toBe(true);
    expect(c.problems.some((p) => p.includes("probe.code"))).toBe(true);
    const c2 = new Checker();
    const balance = methods.find((m) => m.name === "GetAddressBalance")!.output;
    c2.compareUnion({ $ref: "#/components/schemas/AccountState" }, balance, "probe", "response");
    expect(c2.problems.length).toBeGreaterThan(0);
  });
});
