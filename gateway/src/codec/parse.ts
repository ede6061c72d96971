// Request input (a query string or a JSON body) → proto message, with checks a
// person can act on: every problem names the parameter and what was expected.
// Numbers may come as strings (as toncenter accepts), repeated query keys form
// lists, and the rules from the options proto are applied on the way.
import { create, fromJson, ScalarType, type DescField, type DescMessage, type JsonValue, type Message } from "@bufbuild/protobuf";
import { base64Decode } from "@bufbuild/protobuf/wire";
import { describeInputError, parseAddress, parseHash, quoteValue, TonFormatError } from "@tongate/ton";
import { Format } from "@tongate/proto/gen/tongate/options/v1/options_pb.js";
import { conventionOf, type FieldConvention } from "@tongate/proto/json/conventions.js";

/** A client mistake in the request: answered with 422 and this message. */
export class InputError extends Error {
  readonly status = 422;
}

export interface ParseOptions {
  /** Reject keys that name no field (API v3), instead of ignoring them (API v2). */
  rejectUnknown: boolean;
  /** The request's headers (Node's: names in lower case), for the fields a header gives (json.header). */
  headers?: Readonly<Record<string, string | string[] | undefined>>;
}

const MAX_DEPTH = 32;
/** The most unknown parameters a message names. */
const MAX_UNKNOWN_SHOWN = 5;

/** A client's value as a message quotes it (quoteValue: JSON cut to 80 characters with its length). */
function show(v: unknown): string {
  try {
    return quoteValue(v);
  } catch {
    return Array.isArray(v) ? "an array" : typeof v;
  }
}

export function parseQuery(desc: DescMessage, params: URLSearchParams, opts: ParseOptions): Message {
  const grouped = new Map<string, string[]>();
  for (const [k, v] of params) {
    const list = grouped.get(k);
    if (list) list.push(v);
    else grouped.set(k, [v]);
  }
  const c = conventionOf(desc);
  const init: Record<string, unknown> = {};
  const given = new Set<string>();
  const unknown: string[] = [];
  for (const [key, values] of grouped) {
    const f = c.byKey.get(key);
    if (!f) {
      unknown.push(key);
      continue;
    }
    const field = f.field;
    if (field.fieldKind === "list" && field.listKind !== "message") {
      init[field.localName] = values.map((v, i) => scalarFrom(field, field.listKind === "scalar" ? field.scalar : ScalarType.INT32, v, `${f.key}[${i}]`));
    } else if (field.fieldKind === "scalar") {
      // A repeated key for a single value: the last one counts, as in FastAPI.
      init[field.localName] = scalarFrom(field, field.scalar, values[values.length - 1]!, f.key);
    } else {
      throw new InputError(`${f.key}: cannot be given in the query string; send it in a POST JSON body`);
    }
    given.add(field.name);
  }
  rejectUnknownKeys(unknown, c.fields, opts);
  const shownAs = fromHeaders(c.fields, opts, init, given);
  checkRules(desc, init, given, "", shownAs);
  return create(desc, init as never);
}

/**
 * The fields whose header the client sent (json.header): the header's value replaces the
 * parameter's, as one item of a list. Returns how each is named in messages (the header).
 */
function fromHeaders(fields: readonly FieldConvention[], opts: ParseOptions, init: Record<string, unknown>, given: Set<string>): Map<string, string> {
  const shownAs = new Map<string, string>();
  if (!opts.headers) return shownAs;
  for (const f of fields) {
    if (!f.header) continue;
    const sent = opts.headers[f.header.toLowerCase()];
    if (sent === undefined) continue;
    const value = Array.isArray(sent) ? sent[sent.length - 1]! : sent;
    const field = f.field;
    const name = `${f.header} header`;
    if (field.fieldKind === "list" && field.listKind === "scalar") init[field.localName] = [scalarFrom(field, field.scalar, value, name)];
    else if (field.fieldKind === "scalar") init[field.localName] = scalarFrom(field, field.scalar, value, name);
    else continue;
    given.add(field.name);
    shownAs.set(field.name, name);
  }
  return shownAs;
}

export function parseBody(desc: DescMessage, body: unknown, opts: ParseOptions): Message {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new InputError("the request body must be a JSON object of parameters");
  }
  return create(desc, objectInit(desc, body as Record<string, JsonValue>, "", opts, 0, true) as never);
}

function objectInit(desc: DescMessage, obj: Record<string, JsonValue>, path: string, opts: ParseOptions, depth: number, top = false): Record<string, unknown> {
  if (depth > MAX_DEPTH) throw new InputError(`${path.replace(/\.$/, "") || "body"}: nested too deeply`);
  const c = conventionOf(desc);
  const init: Record<string, unknown> = {};
  const given = new Set<string>();
  const unknown: string[] = [];
  for (const key of Object.keys(obj)) {
    const value = obj[key]!;
    if (key === "@type" && c.tlType) continue;
    const f = c.byKey.get(key);
    if (!f) {
      unknown.push(path + key);
      continue;
    }
    if (value === null) continue; // null means "not given", as in proto3 JSON
    const field = f.field;
    const fpath = path + f.key;
    let v: unknown;
    switch (field.fieldKind) {
      case "scalar":
        v = scalarFrom(field, field.scalar, value, fpath);
        break;
      case "enum":
        v = enumFrom(field, value, fpath);
        break;
      case "message":
        v = messageFrom(field.message, value, fpath, opts, depth);
        break;
      case "list": {
        const items = Array.isArray(value) ? value : [value];
        v = items.map((item, i) => {
          const ipath = `${fpath}[${i}]`;
          if (field.listKind === "scalar") return scalarFrom(field, field.scalar, item, ipath);
          if (field.listKind === "enum") return enumFrom(field, item, ipath);
          return messageFrom(field.message, item, ipath, opts, depth);
        });
        break;
      }
      case "map":
        throw new InputError(`${fpath}: maps are not accepted in requests`);
    }
    if (field.oneof) init[field.oneof.localName] = { case: field.localName, value: v };
    else init[field.localName] = v;
    given.add(field.name);
  }
  rejectUnknownKeys(unknown, c.fields, opts);
  // headers give parameters of the request itself, never of a nested message
  checkRules(desc, init, given, path, top ? fromHeaders(c.fields, opts, init, given) : undefined);
  return init;
}

function messageFrom(desc: DescMessage, value: JsonValue, path: string, opts: ParseOptions, depth: number): unknown {
  switch (desc.typeName) {
    case "google.protobuf.Struct":
      if (value === null || typeof value !== "object" || Array.isArray(value)) throw new InputError(`${path}: expected a JSON object`);
      return value;
    case "google.protobuf.Value":
    case "google.protobuf.ListValue":
      let parsed: unknown;
      try {
        parsed = fromJson(desc, value, { recursionLimit: MAX_DEPTH - depth });
      } catch (e) {
        if (e instanceof Error && e.message.includes("maximum recursion depth")) throw new InputError(`${path}: nested too deeply`);
        throw new InputError(`${path}: expected a JSON ${desc.typeName === "google.protobuf.ListValue" ? "array" : "value"}`);
      }
      // JSON.parse reads 1e400 as Infinity, which a Value takes but cannot give back as JSON
      if (hasNonFinite(value)) throw new InputError(`${path}: a number is out of the range of a double`);
      return parsed;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new InputError(`${path}: expected a JSON object`);
  const c = conventionOf(desc);
  if (c.union) {
    const oneof = desc.oneofs[0]!;
    const type = (value as Record<string, JsonValue>)["@type"];
    const member = oneof.fields.find((f) => f.fieldKind === "message" && conventionOf(f.message).tlType === type);
    if (!member || member.fieldKind !== "message") {
      const accepted = oneof.fields.map((f) => (f.fieldKind === "message" ? conventionOf(f.message).tlType : f.name));
      throw new InputError(`${path}: "@type" must be one of ${accepted.join(", ")}; got ${show(type ?? null)}`);
    }
    const inner = objectInit(member.message, value as Record<string, JsonValue>, path + ".", opts, depth + 1);
    return { [oneof.localName]: { case: member.localName, value: create(member.message, inner as never) } };
  }
  return create(desc, objectInit(desc, value as Record<string, JsonValue>, path + ".", opts, depth + 1) as never);
}

/** Whether a JSON value holds Infinity or NaN anywhere (one fromJson took, so nested within MAX_DEPTH). */
function hasNonFinite(v: JsonValue): boolean {
  if (typeof v === "number") return !Number.isFinite(v);
  if (v === null || typeof v !== "object") return false;
  return (Array.isArray(v) ? v : Object.values(v)).some(hasNonFinite);
}

function rejectUnknownKeys(unknown: string[], fields: FieldConvention[], opts: ParseOptions): void {
  if (!opts.rejectUnknown || unknown.length === 0) return;
  const accepted = fields.map((f) => f.key);
  const named = unknown.slice(0, MAX_UNKNOWN_SHOWN).map(show).join(", ") + (unknown.length > MAX_UNKNOWN_SHOWN ? ` and ${unknown.length - MAX_UNKNOWN_SHOWN} more` : "");
  throw new InputError(`unknown parameter${unknown.length > 1 ? "s" : ""} ${named}; accepted: ${accepted.length ? accepted.join(", ") : "none"}`);
}

const INT_RE = /^-?\d{1,20}$/;
const LIMITS: Partial<Record<ScalarType, [bigint, bigint]>> = {
  [ScalarType.INT32]: [-(2n ** 31n), 2n ** 31n - 1n],
  [ScalarType.SINT32]: [-(2n ** 31n), 2n ** 31n - 1n],
  [ScalarType.SFIXED32]: [-(2n ** 31n), 2n ** 31n - 1n],
  [ScalarType.UINT32]: [0n, 2n ** 32n - 1n],
  [ScalarType.FIXED32]: [0n, 2n ** 32n - 1n],
  [ScalarType.INT64]: [-(2n ** 63n), 2n ** 63n - 1n],
  [ScalarType.SINT64]: [-(2n ** 63n), 2n ** 63n - 1n],
  [ScalarType.SFIXED64]: [-(2n ** 63n), 2n ** 63n - 1n],
  [ScalarType.UINT64]: [0n, 2n ** 64n - 1n],
  [ScalarType.FIXED64]: [0n, 2n ** 64n - 1n],
};
const is64 = (t: ScalarType) =>
  t === ScalarType.INT64 || t === ScalarType.UINT64 || t === ScalarType.SINT64 || t === ScalarType.FIXED64 || t === ScalarType.SFIXED64;


function scalarFrom(_field: DescField, type: ScalarType, value: JsonValue, path: string): unknown {
  switch (type) {
    case ScalarType.STRING:
      if (typeof value === "string") return value;
      if (typeof value === "number" && Number.isFinite(value)) return String(value);
      throw new InputError(`${path}: expected a string, got ${show(value)}`);
    case ScalarType.BOOL:
      if (typeof value === "boolean") return value;
      if (value === "true" || value === "1" || value === 1) return true;
      if (value === "false" || value === "0" || value === 0) return false;
      throw new InputError(`${path}: expected true or false, got ${show(value)}`);
    case ScalarType.BYTES: {
      if (typeof value !== "string" || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(value)) {
        throw new InputError(`${path}: expected base64 data, got ${show(value)}`);
      }
      return base64Decode(value);
    }
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT: {
      const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
      if (!Number.isFinite(n)) throw new InputError(`${path}: expected a number, got ${show(value)}`);
      return n;
    }
    default: {
      // Integers, given as a JSON number or a decimal string.
      let big: bigint;
      if (typeof value === "number" && Number.isSafeInteger(value)) big = BigInt(value);
      else if (typeof value === "string" && INT_RE.test(value)) big = BigInt(value);
      else throw new InputError(`${path}: expected an integer, got ${show(value)}`);
      const [min, max] = LIMITS[type]!;
      if (big < min || big > max) throw new InputError(`${path}: ${big} is out of range (${min}..${max})`);
      return is64(type) ? big : Number(big);
    }
  }
}

function enumFrom(field: DescField, value: JsonValue, path: string): number {
  const e = field.fieldKind === "enum" || (field.fieldKind === "list" && field.listKind === "enum") ? field.enum : undefined;
  if (!e) throw new InputError(`${path}: unexpected value`);
  const v = e.values.find((x) => x.name === value || x.number === value);
  if (!v) throw new InputError(`${path}: expected one of ${e.values.map((x) => x.name).join(", ")}, got ${show(value)}`);
  return v.number;
}

/** `shownAs`: fields a header gave, named after it in messages. */
function checkRules(desc: DescMessage, init: Record<string, unknown>, given: Set<string>, path = "", shownAs?: ReadonlyMap<string, string>): void {
  const c = conventionOf(desc);
  for (const f of c.fields) {
    const r = f.rules;
    if (!r) continue;
    const name = shownAs?.get(f.field.name) ?? path + f.key;
    const value = f.field.oneof ? (init[f.field.oneof.localName] as { case?: string; value?: unknown } | undefined)?.value : init[f.field.localName];
    if (!given.has(f.field.name)) {
      if (r.required) throw new InputError(`${name}: required parameter is missing`);
      continue;
    }
    if (typeof value === "number" || typeof value === "bigint") {
      if (r.gte !== undefined && BigInt(value) < r.gte) throw new InputError(`${name}: must be at least ${r.gte}, got ${value}`);
      if (r.lte !== undefined && BigInt(value) > r.lte) throw new InputError(`${name}: must be at most ${r.lte}, got ${value}`);
    }
    if (Array.isArray(value)) {
      if (r.maxItems !== undefined && value.length > r.maxItems) throw new InputError(`${name}: at most ${r.maxItems} values, got ${value.length}`);
      value.forEach((v, i) => checkString(`${name}[${i}]`, v, r));
    } else {
      checkString(name, value, r);
    }
  }
  const rules = c.rules;
  if (!rules) return;
  const keyOf = (n: string) => path + (c.fields.find((f) => f.field.name === n)?.key ?? n);
  for (const g of rules.exactlyOne) {
    const n = g.fields.filter((x) => given.has(x)).length;
    if (n !== 1) throw new InputError(`exactly one of ${g.fields.map(keyOf).join(", ")} must be given, got ${n}`);
  }
  for (const g of rules.atMostOne) {
    const n = g.fields.filter((x) => given.has(x)).length;
    if (n > 1) throw new InputError(`at most one of ${g.fields.map(keyOf).join(", ")} may be given, got ${n}`);
  }
  for (const g of rules.allOrNone) {
    const n = g.fields.filter((x) => given.has(x)).length;
    if (n !== 0 && n !== g.fields.length) throw new InputError(`${g.fields.map(keyOf).join(" and ")} must be given together`);
  }
}

const patterns = new Map<string, RegExp>();
/** A rule's pattern compiled once. */
function patternOf(source: string): RegExp {
  let re = patterns.get(source);
  if (!re) patterns.set(source, (re = new RegExp(source, "u")));
  return re;
}

function checkString(name: string, value: unknown, r: NonNullable<FieldConvention["rules"]>): void {
  if (typeof value !== "string") return;
  if (r.required && value === "") throw new InputError(`${name}: must not be empty`);
  if (r.minLen !== undefined && value.length < r.minLen) throw new InputError(`${name}: at least ${r.minLen} characters, got ${value.length}`);
  if (r.maxLen !== undefined && value.length > r.maxLen) throw new InputError(`${name}: at most ${r.maxLen} characters, got ${value.length}`);
  if (r.oneOf.length && !r.oneOf.includes(value)) throw new InputError(`${name}: expected one of ${r.oneOf.join(", ")}, got ${show(value)}`);
  if (r.pattern !== undefined && !patternOf(r.pattern).test(value)) throw new InputError(`${name}: contains invalid characters (expected ${r.pattern}), got ${show(value)}`);
  switch (r.format) {
    case Format.TON_ADDRESS_OR_NULL:
      if (value === "null") break;
    // falls through: any other value is an address
    case Format.TON_ADDRESS:
    case Format.TON_HASH:
      try {
        if (r.format !== Format.TON_HASH) parseAddress(value);
        else parseHash(value);
      } catch (e) {
        if (e instanceof TonFormatError) throw new InputError(describeInputError(name, value, e));
        throw e;
      }
      break;
    case Format.BOC_BASE64:
      if (value.length === 0 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) throw new InputError(`${name}: expected a bag of cells in base64`);
      break;
  }
}
