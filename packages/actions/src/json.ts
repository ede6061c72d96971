// ActionRow ⇄ JSON, losslessly: what the pipeline stores and the API reads back. Bigints become
// decimal strings; the top-level ones are known by name, nested ones (inside `<kind>_data` and
// `extra`) are listed in `bigint_paths` so that a decimal string stays a string (a comment "42")
// and an amount comes back as a bigint.
import type { ActionRow } from "./action.js";

export type ActionJson = { [k: string]: unknown };

const TOP_BIGINTS = ["start_lt", "end_lt", "trace_end_lt", "amount", "value"] as const;
const BIGINT_PATHS = "bigint_paths";

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

function encode(v: unknown, path: string, paths: string[]): unknown {
  if (typeof v === "bigint") {
    paths.push(path);
    return v.toString();
  }
  if (Array.isArray(v)) return v.map((x, i) => encode(x, `${path}[${i}]`, paths));
  if (isRecord(v)) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) o[k] = encode(x, path ? `${path}.${k}` : k, paths);
    return o;
  }
  return v;
}

/** The row as plain JSON (JSON.stringify-able). */
export function actionToJson(row: ActionRow): ActionJson {
  const paths: string[] = [];
  const out: ActionJson = {};
  for (const [k, v] of Object.entries(row)) {
    if (v === undefined) continue;
    if ((TOP_BIGINTS as readonly string[]).includes(k)) out[k] = typeof v === "bigint" ? v.toString() : v;
    else out[k] = encode(v, k, paths);
  }
  if (paths.length > 0) out[BIGINT_PATHS] = paths;
  return out;
}

function setPath(root: Record<string, unknown>, path: string): void {
  const segs = path.split(".").flatMap((s) => {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(s);
    if (!m) return [s];
    return [m[1], ...[...m[2].matchAll(/\[(\d+)\]/g)].map((x) => Number(x[1]))];
  });
  let cur: unknown = root;
  for (let i = 0; i < segs.length - 1; i++) {
    const s = segs[i];
    if (s === "") continue;
    cur = Array.isArray(cur) && typeof s === "number" ? cur[s] : isRecord(cur) && typeof s === "string" ? cur[s] : undefined;
  }
  const last = segs[segs.length - 1];
  if (Array.isArray(cur) && typeof last === "number" && typeof cur[last] === "string") cur[last] = BigInt(cur[last]);
  else if (isRecord(cur) && typeof last === "string" && typeof cur[last] === "string") cur[last] = BigInt(cur[last]);
}

const isDataKey = (k: string): k is `${string}_data` => k.endsWith("_data");
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" ? v : null);
const big = (v: unknown): bigint | null => (typeof v === "string" || typeof v === "number" ? BigInt(v) : typeof v === "bigint" ? v : null);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** The row back from actionToJson's output (or its JSON text parsed). Throws on a value of the wrong shape. */
export function actionFromJson(json: ActionJson): ActionRow {
  const copy: Record<string, unknown> = structuredClone(json);
  for (const p of strs(copy[BIGINT_PATHS])) setPath(copy, p);
  delete copy[BIGINT_PATHS];
  const need = (k: string): string => {
    const v = str(copy[k]);
    if (v === null) throw new Error(`action JSON: ${k} is missing`);
    return v;
  };
  const row: ActionRow = {
    trace_id: need("trace_id"),
    action_id: need("action_id"),
    type: need("type"),
    tx_hashes: strs(copy.tx_hashes),
    accounts: strs(copy.accounts),
    success: copy.success === true,
    start_lt: big(copy.start_lt) ?? 0n,
    end_lt: big(copy.end_lt) ?? 0n,
    start_utime: num(copy.start_utime) ?? 0,
    end_utime: num(copy.end_utime) ?? 0,
    mc_seqno_end: num(copy.mc_seqno_end),
    trace_end_lt: big(copy.trace_end_lt) ?? 0n,
    trace_end_utime: num(copy.trace_end_utime) ?? 0,
    trace_external_hash: str(copy.trace_external_hash),
    trace_external_hash_norm: str(copy.trace_external_hash_norm),
    trace_mc_seqno_end: num(copy.trace_mc_seqno_end) ?? 0,
    source: str(copy.source),
    source_secondary: str(copy.source_secondary),
    destination: str(copy.destination),
    destination_secondary: str(copy.destination_secondary),
    asset: str(copy.asset),
    asset_secondary: str(copy.asset_secondary),
    asset2: str(copy.asset2),
    asset2_secondary: str(copy.asset2_secondary),
    amount: big(copy.amount),
    value: big(copy.value),
    opcode: num(copy.opcode),
    value_extra_currencies: isRecord(copy.value_extra_currencies)
      ? Object.fromEntries(Object.entries(copy.value_extra_currencies).map(([k, v]) => [k, String(v)]))
      : null,
    parent_action_id: str(copy.parent_action_id),
    ancestor_type: strs(copy.ancestor_type),
    extra: isRecord(copy.extra) ? copy.extra : null,
  };
  for (const [k, v] of Object.entries(copy)) if (isDataKey(k) && isRecord(v)) row[k] = v;
  return row;
}
