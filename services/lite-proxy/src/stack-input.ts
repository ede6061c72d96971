// A get-method's input stack as API v2 takes it, both ways:
// - tonlib's typed entries (runGetMethodStd, and the elements of legacy tuples/lists):
//   {"@type":"tvm.stackEntryNumber","number":{"@type":"tvm.numberDecimal","number":"5"}}, …;
// - toncenter's legacy [type, value] pairs (runGetMethod): ["num","0x5"], ["cell",{"bytes":…}], ….
// Internally a stack is @ton/core TupleItems, bottom first.
//
// Every stack is read within bounds, each a 422 naming it: its values (tuple and list elements
// counted), the nesting of its tuples, the cells of its cell and slice entries together, the length
// of a number, and the depth of the whole stack as the emulator takes it (a VmStack cell), which
// TON's emulator cannot exceed.
import { beginCell, serializeTupleItem, type Cell, type TupleItem } from "@ton/core";
import { apiError } from "@tongate/runtime";
import { BocError, formatCount as count, quoteValue, MAX_MSG_CELLS, MAX_STACK_CELLS, MAX_STACK_ENTRIES, MAX_TUPLE_LENGTH, MAX_TUPLE_NESTING, MAX_VM_STACK_DEPTH, readBocBase64 } from "@tongate/ton";
import type { TvmStackEntry } from "@tongate/proto/gen/tongate/v2/types_pb.js";

/** A JSON value as the gateway hands over google.protobuf.Value contents. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const bad = (path: string, what: string) => apiError(422, `${path}: ${what}`);

const INT257_MAX = (1n << 256n) - 1n;
const INT257_MIN = -(1n << 256n);
/** The longest number accepted: an int257 is at most 78 decimal digits; room for a sign, 0x and leading zeros. */
const MAX_NUMBER_CHARS = 100;

/** What one stack has used of its bounds so far. */
class StackBudget {
  private entries = 0;
  private cells = 0;

  /** Counts one more value (a stack entry or a tuple or list element) at `path`. */
  entry(path: string): void {
    if (++this.entries > MAX_STACK_ENTRIES) throw bad(path, `a stack may have at most ${MAX_STACK_ENTRIES} values, the elements of its tuples and lists counted`);
  }

  /** The root cell of a base64 BoC entry, its cells counted against the stack's. */
  cell(v: Json | undefined, path: string): Cell {
    if (typeof v !== "string" || v === "") throw bad(path, "must be a base64 BoC string");
    const left = MAX_STACK_CELLS - this.cells;
    let roots: Cell[];
    try {
      roots = readBocBase64(v, {
        cells: { max: left, why: `the cell and slice entries of a stack may have ${count(MAX_STACK_CELLS)} cells in all, as many as a message (config param 43 max_msg_cells)` },
        depth: { max: MAX_VM_STACK_DEPTH, why: "a get-method's stack may be as deep; TON's emulator fails on deeper ones" },
      });
    } catch (e) {
      if (!(e instanceof BocError)) throw e;
      if (e.bound) throw bad(path, e.message);
      throw bad(path, `${quoteValue(v)} is not a BoC: ${e.message.replace(/^not a valid bag of cells: /, "")}`);
    }
    this.cells += cellsIn(roots[0]!);
    return roots[0]!;
  }
}

/** The distinct cells of a tree (within a BoC's, so at most MAX_MSG_CELLS). */
function cellsIn(root: Cell): number {
  const seen = new Set<string>();
  const todo = [root];
  while (todo.length > 0 && seen.size <= MAX_MSG_CELLS) {
    const c = todo.pop()!;
    const h = c.hash().toString("latin1");
    if (seen.has(h)) continue;
    seen.add(h);
    todo.push(...c.refs);
  }
  return seen.size;
}

/** A TVM integer from a decimal or 0x-hex string (optionally negative) or a JSON integer. */
function parseInt257(v: Json | undefined, path: string): bigint {
  if (typeof v === "string" && v.length > MAX_NUMBER_CHARS) throw bad(path, `a number of ${count(v.length)} characters does not fit a TVM integer (257 bits, at most ${MAX_NUMBER_CHARS} characters are read)`);
  let n: bigint | undefined;
  if (typeof v === "number" && Number.isSafeInteger(v)) n = BigInt(v);
  else if (typeof v === "string" && /^-?(0x[0-9a-f]+|\d+)$/i.test(v.trim())) {
    const t = v.trim();
    n = t.startsWith("-") ? -BigInt(t.slice(1)) : BigInt(t);
  }
  if (n === undefined) throw bad(path, `${quoteValue(v)} is not an integer (a decimal or 0x-prefixed hex string, or a JSON integer)`);
  if (n > INT257_MAX || n < INT257_MIN) throw bad(path, `${quoteValue(v)} does not fit a TVM integer (257 bits)`);
  return n;
}

const isObject = (v: Json | undefined): v is { [key: string]: Json } => typeof v === "object" && v !== null && !Array.isArray(v);

/** A TVM list [a, b, c] is the nested pairs (a, (b, (c, null))). */
function listToTuple(items: TupleItem[]): TupleItem {
  return items.reduceRight<TupleItem>((tail, head) => ({ type: "tuple", items: [head, tail] }), { type: "null" });
}

const TYPED_KINDS: Record<string, string> = {
  "tvm.stackEntryNumber": "number",
  "tvm.stackEntryCell": "cell",
  "tvm.stackEntrySlice": "slice",
  "tvm.stackEntryTuple": "tuple",
  "tvm.stackEntryList": "list",
  "tvm.stackEntryUnsupported": "unsupported",
};

/** The elements of a tuple or a list that is `nesting` deep (1: a stack entry, 2: its element, …). */
function typedElements(v: Json | undefined, path: string, budget: StackBudget, nesting: number, kind: "tuple" | "list"): TupleItem[] {
  if (nesting > MAX_TUPLE_NESTING) throw bad(path, `tuples and lists may be nested ${MAX_TUPLE_NESTING} deep`);
  if (!isObject(v) || !Array.isArray(v.elements)) throw bad(path, 'must be an object with an "elements" array of typed stack entries');
  if (kind === "tuple" && v.elements.length > MAX_TUPLE_LENGTH) throw bad(`${path}.elements`, `a TVM tuple has at most ${MAX_TUPLE_LENGTH} elements, this one ${count(v.elements.length)}`);
  const out: TupleItem[] = [];
  for (let i = 0; i < v.elements.length; i++) out.push(typedEntry(v.elements[i], `${path}.elements[${i}]`, budget, nesting));
  return out;
}

/**
 * One typed stack entry in toncenter's JSON: {"@type": "tvm.stackEntryNumber", "number": {"number": "5"}}, …,
 * within `enclosing` tuples and lists.
 */
function typedEntry(v: Json | undefined, path: string, budget: StackBudget, enclosing: number): TupleItem {
  budget.entry(path);
  if (!isObject(v)) throw bad(path, 'must be a typed stack entry such as {"@type":"tvm.stackEntryNumber","number":{"number":"5"}}');
  const type = v["@type"];
  const kind = typeof type === "string" ? TYPED_KINDS[type] : undefined;
  const inner = kind ? v[kind] : undefined;
  switch (kind) {
    case "number":
      return { type: "int", value: parseInt257(isObject(inner) ? inner.number : undefined, `${path}.number.number`) };
    case "cell":
      return { type: "cell", cell: budget.cell(isObject(inner) ? inner.bytes : undefined, `${path}.cell.bytes`) };
    case "slice":
      return { type: "slice", cell: budget.cell(isObject(inner) ? inner.bytes : undefined, `${path}.slice.bytes`) };
    case "tuple":
      return { type: "tuple", items: typedElements(inner, `${path}.tuple`, budget, enclosing + 1, "tuple") };
    case "list":
      return listToTuple(typedElements(inner, `${path}.list`, budget, enclosing + 1, "list"));
    default:
      throw bad(path, `unsupported stack entry type ${quoteValue(type)}; expected one of ${Object.keys(TYPED_KINDS).slice(0, 5).join(", ")}`);
  }
}

/**
 * One legacy [type, value] entry, as toncenter's C++ API accepts them: num/int/number/integer with a
 * decimal or hex string (or a JSON integer); tvm.Cell/tvm.Slice with a base64 BoC; cell/slice with
 * {"bytes": base64 BoC} (a bare base64 string is taken too); tuple/tvm.Tuple and list/tvm.List with
 * {"elements": [typed entries]}.
 */
function legacyEntry(v: Json | undefined, path: string, budget: StackBudget): TupleItem {
  budget.entry(path);
  if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== "string") throw bad(path, 'must be a [type, value] pair such as ["num", "0x1"]');
  const [type, value] = v as [string, Json];
  switch (type) {
    case "num":
    case "int":
    case "number":
    case "integer":
      return { type: "int", value: parseInt257(value, `${path}[1]`) };
    case "tvm.Cell":
    case "tvm.Slice":
    case "cell":
    case "slice": {
      const cell = budget.cell(isObject(value) ? value.bytes : value, isObject(value) ? `${path}[1].bytes` : `${path}[1]`);
      return type.toLowerCase().endsWith("cell") ? { type: "cell", cell } : { type: "slice", cell };
    }
    case "tuple":
    case "tvm.Tuple":
      return { type: "tuple", items: typedElements(value, `${path}[1]`, budget, 1, "tuple") };
    case "list":
    case "tvm.List":
      return listToTuple(typedElements(value, `${path}[1]`, budget, 1, "list"));
    default:
      throw bad(path, `unsupported stack entry type ${quoteValue(type)}; expected num, cell, slice, tvm.Cell, tvm.Slice, tuple or list`);
  }
}

/**
 * The depth of the VmStack cell the emulator is given: the entry at `i` (bottom first) sits under
 * the entries above it, one cell each. An entry past the bound is named.
 */
function checkVmStackDepth(items: TupleItem[]): void {
  const n = items.length;
  for (let i = 0; i < n; i++) {
    const b = beginCell();
    serializeTupleItem(items[i]!, b);
    const depth = n - 1 - i + Math.max(1, b.endCell().depth());
    if (depth > MAX_VM_STACK_DEPTH) {
      throw bad(`stack[${i}]`, `the stack is ${count(depth)} cells deep at this entry as the emulator takes it (a VmStack: one cell for each of the ${n - 1 - i} entries above it, then its own cells and tuples); at most ${MAX_VM_STACK_DEPTH} are accepted (TON's emulator fails on deeper stacks)`);
    }
  }
}

function readStack<E>(entries: readonly E[], read: (e: E, path: string, budget: StackBudget) => TupleItem): TupleItem[] {
  if (entries.length > MAX_STACK_ENTRIES) throw bad("stack", `${count(entries.length)} entries; a stack may have at most ${MAX_STACK_ENTRIES} values, the elements of its tuples and lists counted`);
  const budget = new StackBudget();
  const items = entries.map((e, i) => read(e, `stack[${i}]`, budget));
  checkVmStackDepth(items);
  return items;
}

/** runGetMethod's stack of legacy [type, value] pairs (each converted to JSON by `json` once its count is known to be within the bound). */
export function legacyStack<E>(entries: readonly E[], json: (e: E) => Json): TupleItem[] {
  return readStack(entries, (e, path, budget) => legacyEntry(json(e), path, budget));
}

/** runGetMethodStd's stack of typed entries. */
export function typedStack(entries: readonly TvmStackEntry[]): TupleItem[] {
  return readStack(entries, (e, path, budget) => typedEntry(typedEntryJson(e, 0), path, budget, 0));
}

/**
 * A TvmStackEntry message in toncenter's JSON, to be read by typedEntry. Past the nesting bound the
 * elements are left out: typedEntry refuses that nesting before it would read them.
 */
function typedEntryJson(e: TvmStackEntry, enclosing: number): Json {
  const v = e.variant;
  const b64 = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString("base64");
  const elements = (list: TvmStackEntry[] | undefined) => (enclosing + 1 > MAX_TUPLE_NESTING ? [] : (list ?? []).map((x) => typedEntryJson(x, enclosing + 1)));
  switch (v.case) {
    case "number":
      return { "@type": "tvm.stackEntryNumber", number: { number: v.value.number?.number ?? "" } };
    case "cell":
      return { "@type": "tvm.stackEntryCell", cell: { bytes: b64(v.value.cell?.bytes) } };
    case "slice":
      return { "@type": "tvm.stackEntrySlice", slice: { bytes: b64(v.value.slice?.bytes) } };
    case "tuple":
      return { "@type": "tvm.stackEntryTuple", tuple: { elements: elements(v.value.tuple?.elements) } };
    case "list":
      return { "@type": "tvm.stackEntryList", list: { elements: elements(v.value.list?.elements) } };
    default:
      return { "@type": "tvm.stackEntryUnsupported" };
  }
}
