// A get-method's result stack: the emulator's VmStack cell read into StackItems, and rendered as
// API v2 writes it, as tonlib's typed entries (runGetMethodStd, and inside legacy tuples and lists)
// or as toncenter's legacy [type, value] pairs (runGetMethod). Output follows tonlib's
// to_tonlib_api: a null or a chain of pairs ending in null is a list, any other tuple a tuple;
// slices are serialized as cells; continuations and builders are "unsupported".
//
// A result is any value a contract chose to return, so reading and rendering it are bounded: a
// tuple or cell referenced many times is expanded as often as it occurs, and tuples sharing
// their elements make exponentially many occurrences out of a small VmStack. Past a bound the
// answer is a 422 naming it, never an expansion without end. Every walk is iterative.
import { create } from "@bufbuild/protobuf";
import { Cell, type Slice, type TupleItem } from "@ton/core";
import type { StackItem } from "@tongate/contracts";
import { apiError } from "@tongate/runtime";
import { formatCount as count, MAX_TUPLE_NESTING } from "@tongate/ton";
import { TvmStackEntrySchema, type TvmStackEntry } from "@tongate/proto/gen/tongate/v2/types_pb.js";
import type { Json } from "./stack-input.js";
import { cellBoc } from "./values.js";

/** A result stack value: a TupleItem, or one tonlib cannot represent (continuation, builder). */
export type { StackItem };
export type { Json };

/** The values of a result, each tuple element counted every time it occurs. */
export const MAX_RESULT_VALUES = 65_536;
/** The bytes of the BoCs of a result's cells and slices, each counted every time it occurs. */
export const MAX_RESULT_BOC_BYTES = 8 << 20;
/** The cells of toncenter's legacy cell objects in one result: each cell as often as it is reached. */
export const MAX_LEGACY_CELLS = 16_384;
/** The depth of a legacy cell object (a cell 128 deep is 257 levels of JSON objects and arrays). */
export const MAX_LEGACY_CELL_DEPTH = 128;

const resultPast = (what: string) => apiError(422, `the get-method's result is past a bound: ${what}`);

// ---------------------------------------------------------------------------
// VmStack (the emulator's result) → StackItems

/** A value to read: its slice, and the slot of the array it goes to. */
interface Pending {
  s: Slice;
  into: StackItem[];
  at: number;
}

/**
 * One VmStackValue; continuations (and anything unknown) are "unsupported". The elements of a
 * tuple are left in `pending`, each with its slot in the tuple's items.
 */
function vmValue(s: Slice, pending: Pending[]): StackItem {
  const tag = s.loadUint(8);
  switch (tag) {
    case 0x00:
      return { type: "null" };
    case 0x01:
      return { type: "int", value: s.loadIntBig(64) };
    case 0x02:
      if (s.loadUint(7) === 0) return { type: "int", value: s.loadIntBig(257) };
      return { type: "nan" };
    case 0x03:
      return { type: "cell", cell: s.loadRef() };
    case 0x04: {
      const [stBits, endBits, stRef, endRef] = [s.loadUint(10), s.loadUint(10), s.loadUint(3), s.loadUint(3)];
      const src = s.loadRef().beginParse(true);
      src.skip(stBits);
      for (let i = 0; i < stRef; i++) src.loadRef();
      const b = new Cell({ bits: src.loadBits(endBits - stBits), refs: Array.from({ length: endRef - stRef }, () => src.loadRef()) });
      return { type: "slice", cell: b };
    }
    case 0x07: {
      // vm_stk_tuple len:(## 16) data:(VmTuple len): each VmTuple n is (VmTuple n-1 or the first value) + the last value.
      const len = s.loadUint(16);
      const items = new Array<StackItem>(len);
      let n = len;
      let cur = s;
      while (n >= 2) {
        const head = cur.loadRef();
        pending.push({ s: cur.loadRef().beginParse(true), into: items, at: n - 1 });
        if (n === 2) pending.push({ s: head.beginParse(true), into: items, at: 0 });
        cur = head.beginParse(true);
        n = n === 2 ? 0 : n - 1;
      }
      if (n === 1) pending.push({ s: cur.loadRef().beginParse(true), into: items, at: 0 });
      return { type: "tuple", items };
    }
    default:
      return { type: "unsupported" };
  }
}

/**
 * A VmStack cell (vm_stack#_ depth:(## 24) stack:(VmStackList depth)), bottom first; a 422 when it
 * is past a result bound (values, nesting of tuples, bytes of its BoCs).
 */
export function parseVmStack(root: Cell): StackItem[] {
  let s = root.beginParse(true);
  const depth = s.loadUint(24);
  if (depth > MAX_RESULT_VALUES) throw resultPast(`${count(depth)} values; at most ${count(MAX_RESULT_VALUES)} are rendered`);
  const items = new Array<StackItem>(depth);
  const pending: Pending[] = [];
  for (let i = 0; i < depth; i++) {
    const rest = s.loadRef();
    pending.push({ s, into: items, at: depth - 1 - i }); // the top of the stack comes first
    s = rest.beginParse(true);
  }
  let values = 0;
  while (pending.length > 0) {
    const p = pending.pop()!;
    if (++values > MAX_RESULT_VALUES) throw resultPast(`more than ${count(MAX_RESULT_VALUES)} values, the elements of tuples counted each time they occur`);
    p.into[p.at] = vmValue(p.s, pending);
  }
  checkResult(items);
  return items;
}

/** The elements of a TVM list (null, or pairs whose second item is a list); undefined if it is not one. */
function listElements(item: StackItem): StackItem[] | undefined {
  const out: StackItem[] = [];
  let cur = item;
  while (cur.type === "tuple" && cur.items.length === 2) {
    out.push(cur.items[0]!);
    cur = cur.items[1]!;
  }
  return cur.type === "null" ? out : undefined;
}

/** The elements of a tuple or list as rendered: a list's, else the tuple's own. */
const renderedElements = (item: StackItem & { type: "tuple" }) => listElements(item) ?? item.items;

/** The nesting of tuples and lists as rendered (a list is one level, not a chain of pairs) and the bytes of the BoCs. */
function checkResult(items: StackItem[]): void {
  const todo: Array<[StackItem, number]> = items.map((item) => [item, 0]);
  let bytes = 0;
  while (todo.length > 0) {
    const [item, enclosing] = todo.pop()!;
    if (item.type === "cell" || item.type === "slice") {
      bytes += cellBoc(item.cell).length;
      if (bytes > MAX_RESULT_BOC_BYTES) throw resultPast(`its cells and slices are more than ${count(MAX_RESULT_BOC_BYTES)} bytes of BoCs, each counted every time it occurs`);
    } else if (item.type === "tuple") {
      if (enclosing + 1 > MAX_TUPLE_NESTING) throw resultPast(`its tuples and lists are nested more than ${MAX_TUPLE_NESTING} deep`);
      for (const e of renderedElements(item)) todo.push([e, enclosing + 1]);
    }
  }
}

// ---------------------------------------------------------------------------
// StackItems → API v2 JSON. Results are within checkResult's bounds, so the recursion over
// nested tuples is at most MAX_TUPLE_NESTING deep.

const bocBase64 = (c: Cell) => {
  const b = cellBoc(c);
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64");
};
const decimal = (item: TupleItem & { type: "int" | "nan" }) => (item.type === "nan" ? "NaN" : item.value.toString());

/** A stack value as tonlib's typed entry, in toncenter's JSON. */
export function typedJson(item: StackItem): Json {
  switch (item.type) {
    case "int":
    case "nan":
      return { "@type": "tvm.stackEntryNumber", number: { "@type": "tvm.numberDecimal", number: decimal(item) } };
    case "cell":
      return { "@type": "tvm.stackEntryCell", cell: { "@type": "tvm.cell", bytes: bocBase64(item.cell) } };
    case "slice":
      return { "@type": "tvm.stackEntrySlice", slice: { "@type": "tvm.slice", bytes: bocBase64(item.cell) } };
    case "null":
    case "tuple": {
      const list = listElements(item);
      if (list || item.type !== "tuple") return { "@type": "tvm.stackEntryList", list: { "@type": "tvm.list", elements: (list ?? []).map(typedJson) } };
      return { "@type": "tvm.stackEntryTuple", tuple: { "@type": "tvm.tuple", elements: item.items.map(typedJson) } };
    }
    default:
      return { "@type": "tvm.stackEntryUnsupported" };
  }
}

/** A stack value as a TvmStackEntry message (runGetMethodStd). */
export function typedProto(item: StackItem): TvmStackEntry {
  switch (item.type) {
    case "int":
    case "nan":
      return create(TvmStackEntrySchema, { variant: { case: "number", value: { number: { number: decimal(item) } } } });
    case "cell":
      return create(TvmStackEntrySchema, { variant: { case: "cell", value: { cell: { bytes: cellBoc(item.cell) } } } });
    case "slice":
      return create(TvmStackEntrySchema, { variant: { case: "slice", value: { slice: { bytes: cellBoc(item.cell) } } } });
    case "null":
    case "tuple": {
      const list = listElements(item);
      if (list || item.type !== "tuple") return create(TvmStackEntrySchema, { variant: { case: "list", value: { list: { elements: (list ?? []).map(typedProto) } } } });
      return create(TvmStackEntrySchema, { variant: { case: "tuple", value: { tuple: { elements: item.items.map(typedProto) } } } });
    }
    default:
      return create(TvmStackEntrySchema, { variant: { case: "unsupported", value: {} } });
  }
}

/** A legacy cell object past its bounds. */
class LegacyTooLarge extends Error {}

/**
 * toncenter's JSON form of a cell (tvm_valuetypes): data bits in base64 (zero-padded) and their
 * count, refs, special. It is a tree: a cell referenced twice is written twice, so the cells
 * written are counted against `budget` (shared by one result), and their depth is bounded.
 */
function legacyCellObject(root: Cell, budget: { cells: number }): Json {
  const make = (c: Cell, depth: number) => {
    if (--budget.cells < 0) throw new LegacyTooLarge(`it expands to more than ${count(MAX_LEGACY_CELLS)} cells as a tree (a cell is written out each time it is referenced)`);
    if (depth > MAX_LEGACY_CELL_DEPTH) throw new LegacyTooLarge(`its cells are more than ${MAX_LEGACY_CELL_DEPTH} deep`);
    const len = c.bits.length;
    const data = Buffer.alloc(Math.ceil(len / 8));
    for (let i = 0; i < len; i++) if (c.bits.at(i)) data[i >> 3]! |= 0x80 >> (i & 7);
    const refs: Json[] = [];
    return { object: { data: { b64: data.toString("base64"), len }, refs, special: c.isExotic }, refs };
  };
  const top = make(root, 0);
  const todo: Array<[Cell, Json[], number]> = [[root, top.refs, 0]];
  while (todo.length > 0) {
    const [c, refs, depth] = todo.pop()!;
    for (const r of c.refs) {
      const child = make(r, depth + 1);
      refs.push(child.object);
      todo.push([r, child.refs, depth + 1]);
    }
  }
  return top.object;
}

const hex = (n: bigint) => (n < 0n ? `-0x${(-n).toString(16)}` : `0x${n.toString(16)}`);

/** A stack value as toncenter's legacy [type, value] pair: numbers in hex, slices as "cell", tuples and lists as tonlib objects. */
function legacyJson(item: StackItem, budget: { cells: number }): Json {
  switch (item.type) {
    case "int":
      return ["num", hex(item.value)];
    case "nan":
      return ["num", "NaN"];
    case "cell":
    case "slice":
      return ["cell", { bytes: bocBase64(item.cell), object: legacyCellObject(item.cell, budget) }];
    case "null":
    case "tuple": {
      const typed = typedJson(item) as { [key: string]: Json };
      return typed.list ? ["list", typed.list] : ["tuple", typed.tuple!];
    }
    default:
      return ["unsupported", ""];
  }
}

/**
 * A result stack as toncenter's legacy pairs; a 422 when a cell's object is past its bounds (the
 * legacy form writes cells as trees, runGetMethodStd as BoCs).
 */
export function legacyStackJson(items: StackItem[]): Json[] {
  const budget = { cells: MAX_LEGACY_CELLS };
  return items.map((item, i) => {
    try {
      return legacyJson(item, budget);
    } catch (e) {
      if (!(e instanceof LegacyTooLarge)) throw e;
      throw apiError(422, `stack[${i}]: the legacy form of the result is too large: ${e.message}; runGetMethodStd returns the same result with cells as BoCs`);
    }
  });
}
