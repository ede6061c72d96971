// toncenter's classifier regression cases (../shared/fixtures/toncenter_actions, see its README):
// a trace file read into the classifier's TraceInput and a lookup over its `interfaces`, and a
// case runner with the README's rules (candidates by type, the Jinja selector subset, exactly
// one, dotted/indexed keys, partial objects, lists as sets of the same size, integers by value).
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LIQUID_STAKING_PROVIDERS, readJsonFile, readTraceFile, traceFileFromJson, type Json as JsonValue, type JsonObject as JsonObjectValue, type TraceFile } from "@tongate/actions";

type Json = JsonValue;
type JsonObject = JsonObjectValue;

const here = dirname(fileURLToPath(import.meta.url));

/** TONCENTER_ACTIONS_DIR, else ../shared/fixtures/toncenter_actions next to the repository. */
export function toncenterActionsDir(): string {
  const env = process.env.TONCENTER_ACTIONS_DIR;
  if (env) return resolve(env);
  return resolve(here, "../../../shared/fixtures/toncenter_actions");
}

export type LoadedTrace = TraceFile;
export const traceFromJson = traceFileFromJson;
export const loadTraceFile = readTraceFile;
export { readJsonFile };

function obj(v: Json | undefined): JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? v : {};
}
const str = (v: Json | undefined): string | null => (typeof v === "string" ? v : null);

/** traces/<trace_id>.json: the file name is the id in URL-safe base64. */
export function traceFilePath(dir: string, traceId: string): string {
  return join(dir, "traces", `${traceId.replaceAll("+", "-").replaceAll("/", "_")}.json`);
}

export interface FixtureCase {
  family: string;
  name: string;
  traceId: string;
  expected: { type: string; selector?: string; values: JsonObject }[];
  /** JSON pointers of values written as decimal strings */
  integersAsStrings: Set<string>;
}

export function loadFamilies(dir: string): Map<string, FixtureCase[]> {
  const out = new Map<string, FixtureCase[]>();
  const famDir = join(dir, "families");
  if (!existsSync(famDir)) return out;
  for (const file of readdirSync(famDir).filter((f) => f.endsWith(".json")).sort()) {
    const fam = readJsonFile(join(famDir, file));
    const family = str(fam.family) ?? file.replace(/\.json$/, "");
    const cases = (Array.isArray(fam.cases) ? fam.cases.map(obj) : []).map((c) => ({
      family,
      name: str(c.name) ?? "",
      traceId: str(c.trace_id) ?? "",
      expected: (Array.isArray(c.expected_actions) ? c.expected_actions.map(obj) : []).map((e) => {
        const sel = str(e.selector);
        return { type: str(e.type) ?? "", ...(sel ? { selector: sel } : {}), values: obj(e.values) };
      }),
      integersAsStrings: new Set((Array.isArray(c.integers_as_strings) ? c.integers_as_strings : []).flatMap((p) => (typeof p === "string" ? [p] : []))),
    }));
    out.set(family, cases);
  }
  return out;
}

// ---- comparison -------------------------------------------------------------------------------

/** An action in the fixtures' row shape (bigints as they are). */
export type RowValue = null | undefined | boolean | number | bigint | string | RowValue[] | { [k: string]: RowValue };

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** "a.b[0].c" on a row: a missing field, a null on the way or an index past the end give undefined. */
export function resolveKey(row: unknown, key: string): unknown {
  let cur: unknown = row;
  for (const seg of key.split(".")) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(seg);
    if (!m) return undefined;
    if (m[1] !== "") {
      if (!isRecord(cur)) return undefined;
      cur = cur[m[1]];
    }
    for (const idx of m[2].matchAll(/\[(\d+)\]/g)) {
      if (!Array.isArray(cur)) return undefined;
      cur = cur[Number(idx[1])];
    }
  }
  return cur;
}

function asInteger(v: unknown): bigint | null {
  if (typeof v === "bigint") return v;
  if (typeof v === "number" && Number.isInteger(v)) return BigInt(v);
  return null;
}

/** The README's comparison of an expected value (at JSON pointer `ptr`) with an actual one. */
export function matches(expected: Json, actual: unknown, ptr: string, intStrings: Set<string>): boolean {
  if (expected === null) return actual === null || actual === undefined;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    return expected.every((e, i) => actual.some((a) => matches(e, a, `${ptr}/${i}`, intStrings)));
  }
  if (typeof expected === "object") {
    if (!isRecord(actual)) return false;
    return Object.entries(expected).every(([k, e]) => k in actual && actual[k] !== undefined && matches(e, actual[k], `${ptr}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`, intStrings));
  }
  if (typeof expected === "string" && intStrings.has(ptr)) {
    const a = asInteger(actual);
    return a !== null && a === BigInt(expected);
  }
  if (typeof expected === "number") {
    if (Number.isInteger(expected)) {
      const a = asInteger(actual);
      return a !== null && a === BigInt(expected);
    }
    return typeof actual === "number" && actual === expected;
  }
  return actual === expected;
}

// ---- selectors: the Jinja subset {{ value.path ==|!= literal [and|or ...] }} with |length ----

type Tok = { t: "path"; path: string; length: boolean } | { t: "lit"; v: unknown } | { t: "op"; v: "==" | "!=" } | { t: "and" } | { t: "or" } | { t: "("} | { t: ")" };

const UNDEFINED = Symbol("undefined");

function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "(" || c === ")") {
      out.push({ t: c });
      i++;
      continue;
    }
    if (src.startsWith("==", i) || src.startsWith("!=", i)) {
      out.push({ t: "op", v: src.startsWith("==", i) ? "==" : "!=" });
      i += 2;
      continue;
    }
    if (c === "'" || c === '"') {
      const end = src.indexOf(c, i + 1);
      if (end < 0) throw new Error(`selector: unterminated string in ${src}`);
      out.push({ t: "lit", v: src.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    const m = /^[A-Za-z0-9_.[\]+-]+(\s*\|\s*length)?/.exec(src.slice(i));
    if (!m) throw new Error(`selector: cannot read ${src.slice(i)}`);
    const word = m[0].replace(/\s*\|\s*length$/, "");
    const length = m[1] !== undefined;
    i += m[0].length;
    if (word === "and") out.push({ t: "and" });
    else if (word === "or") out.push({ t: "or" });
    else if (word === "None") out.push({ t: "lit", v: null });
    else if (word === "True") out.push({ t: "lit", v: true });
    else if (word === "False") out.push({ t: "lit", v: false });
    else if (/^-?0x[0-9a-fA-F]+$/.test(word)) out.push({ t: "lit", v: BigInt(word) });
    else if (/^-?\d+$/.test(word)) out.push({ t: "lit", v: BigInt(word) });
    else if (word.startsWith("value.") || word === "value") out.push({ t: "path", path: word.slice(6), length });
    else throw new Error(`selector: unknown word ${word}`);
  }
  return out;
}

function selectorEquals(a: unknown, b: unknown): boolean {
  if (a === UNDEFINED) return false;
  const ai = asInteger(a);
  const bi = asInteger(b);
  if (ai !== null && bi !== null) return ai === bi;
  if (a === undefined) return b === null;
  return a === b;
}

/** Evaluates a `{{ … }}` selector against one action. */
export function evalSelector(selector: string, action: unknown): boolean {
  const inner = selector.trim().replace(/^\{\{/, "").replace(/\}\}$/, "");
  const toks = tokenize(inner);
  let pos = 0;
  const operand = (): unknown => {
    const tk = toks[pos++];
    if (!tk) throw new Error("selector: unexpected end");
    if (tk.t === "lit") return tk.v;
    if (tk.t === "path") {
      const v = resolveKey(action, tk.path);
      const undef = v === undefined;
      if (tk.length) return undef || v === null ? 0n : Array.isArray(v) || typeof v === "string" ? BigInt(v.length) : isRecord(v) ? BigInt(Object.keys(v).length) : 0n;
      return undef ? UNDEFINED : v;
    }
    throw new Error("selector: expected a value");
  };
  const comparison = (): boolean => {
    if (toks[pos]?.t === "(") {
      pos++;
      const r = disjunction();
      if (toks[pos++]?.t !== ")") throw new Error("selector: expected )");
      return r;
    }
    const left = operand();
    const op = toks[pos];
    if (op?.t !== "op") return left !== UNDEFINED && left !== null && left !== false && left !== 0n && left !== "";
    pos++;
    const right = operand();
    if (op.v === "==") return selectorEquals(left, right);
    // undefined != anything is true
    return left === UNDEFINED ? true : !selectorEquals(left, right);
  };
  const conjunction = (): boolean => {
    let r = comparison();
    while (toks[pos]?.t === "and") {
      pos++;
      const next = comparison();
      r = r && next;
    }
    return r;
  };
  const disjunction = (): boolean => {
    let r = conjunction();
    while (toks[pos]?.t === "or") {
      pos++;
      const next = conjunction();
      r = r || next;
    }
    return r;
  };
  const result = disjunction();
  if (pos !== toks.length) throw new Error(`selector: trailing tokens in ${selector}`);
  return result;
}

export interface CaseResult {
  ok: boolean;
  /** why it failed */
  problems: string[];
}

/** Replays one case against the classifier's actions (rows in toncenter's shape). */
export function checkCase(c: FixtureCase, actions: readonly Record<string, unknown>[]): CaseResult {
  const problems: string[] = [];
  c.expected.forEach((exp, i) => {
    let candidates = actions.filter((a) => typeof a.type === "string" && a.type.toLowerCase() === exp.type.toLowerCase());
    if (exp.selector !== undefined && candidates.length > 0) {
      const picked = candidates.find((a) => evalSelector(exp.selector!, a));
      candidates = picked ? [picked] : [];
    }
    if (candidates.length !== 1) {
      problems.push(`expected_actions[${i}] ${exp.type}: ${candidates.length} candidates`);
      return;
    }
    const action = candidates[0];
    for (const [key, want] of Object.entries(exp.values)) {
      const got = resolveKey(action, key);
      const ptr = `/expected_actions/${i}/values/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      if (!matches(want, got, ptr, c.integersAsStrings)) problems.push(`expected_actions[${i}] ${exp.type}.${key}: want ${JSON.stringify(want)}, got ${stringify(got)}`);
    }
  });
  return { ok: problems.length === 0, problems };
}

export function stringify(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : x)) ?? "undefined";
}

// ---- the same expectations through API v3's rendering ----------------------------------------

/**
 * Checks an expected action's values against the action as API v3 renders it, through the
 * details fields of its type: a row key (or `<kind>_data` sub-key) that some details key is
 * read from must show the same value there (integers as decimal strings). Keys with no details
 * counterpart are skipped.
 */
export function apiProblems(
  exp: { type: string; values: JsonObject },
  api: { details: Record<string, unknown> },
  fields: readonly (readonly [string, string, number, string | null])[] | undefined,
): string[] {
  if (!fields) return [];
  const problems: string[] = [];
  const check = (path: string, want: Json) => {
    for (const [key, , , p] of fields) {
      if (p !== path || key === "*") continue;
      // a withdrawal request's amount is shown as tokens_burnt for liquid staking only
      if (exp.type === "stake_withdrawal_request" && key === "tokens_burnt" && !LIQUID_STAKING_PROVIDERS.includes(String(exp.values["staking_data.provider"] ?? obj(exp.values.staking_data).provider ?? ""))) continue;
      const got = api.details[key];
      const ok =
        want === null
          ? got === null || got === undefined
          : typeof want === "number" && Number.isInteger(want)
            ? got === String(want) || got === want
            : typeof want === "string" || typeof want === "boolean"
              ? got === want || got === String(want)
              : true;
      if (!ok) problems.push(`details.${key} (${path}): want ${JSON.stringify(want)}, got ${stringify(got)}`);
    }
  };
  for (const [k, v] of Object.entries(exp.values)) {
    if (v !== null && typeof v === "object" && !Array.isArray(v)) for (const [sk, sv] of Object.entries(v)) check(`${k}.${sk}`, sv);
    else check(k, v);
  }
  return problems;
}
