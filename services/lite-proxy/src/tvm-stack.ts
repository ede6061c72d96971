// TVM stacks as API v2 writes them, both ways:
// - tonlib's typed entries (runGetMethodStd, and the elements of legacy tuples/lists):
//   {"@type":"tvm.stackEntryNumber","number":{"@type":"tvm.numberDecimal","number":"5"}}, …;
// - toncenter's legacy [type, value] pairs (runGetMethod): ["num","0x5"], ["cell",{"bytes":…}], ….
// Internally a stack is @ton/core TupleItems (bottom first), plus "unsupported" for values tonlib
// cannot represent (continuations, builders). Output follows tonlib's to_tonlib_api: a null or a
// chain of pairs ending in null is a list, any other tuple a tuple; slices are serialized as cells.
import { create } from "@bufbuild/protobuf";
import { Cell, type Slice, type TupleItem } from "@ton/core";
import type { StackItem } from "@tongate/contracts";
import { apiError } from "@tongate/runtime";
import { TvmStackEntrySchema, type TvmStackEntry } from "@tongate/proto/gen/tongate/v2/types_pb.js";

/** A result stack value: a TupleItem, or one tonlib cannot represent (continuation, builder). */
export type { StackItem };

/** A JSON value as the gateway hands over google.protobuf.Value contents. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const bad = (path: string, what: string) => apiError(422, `${path}: ${what}`);

const INT257_MAX = (1n << 256n) - 1n;
const INT257_MIN = -(1n << 256n);

/** A TVM integer from a decimal or 0x-hex string (optionally negative) or a JSON integer. */
function parseInt257(v: Json | undefined, path: string): bigint {
  let n: bigint | undefined;
  if (typeof v === "number" && Number.isSafeInteger(v)) n = BigInt(v);
  else if (typeof v === "string" && /^-?(0x[0-9a-f]+|\d+)$/i.test(v.trim())) {
    const t = v.trim();
    n = t.startsWith("-") ? -BigInt(t.slice(1)) : BigInt(t);
  }
  if (n === undefined) throw bad(path, `${JSON.stringify(v)} is not an integer (a decimal or 0x-prefixed hex string, or a JSON integer)`);
  if (n > INT257_MAX || n < INT257_MIN) throw bad(path, `${JSON.stringify(v)} does not fit a TVM integer (257 bits)`);
  return n;
}

/** The root cell of a base64 BoC. */
export function parseBocBase64(v: Json | undefined, path: string): Cell {
  if (typeof v !== "string" || v === "") throw bad(path, "must be a base64 BoC string");
  try {
    const cells = Cell.fromBoc(Buffer.from(v, "base64"));
    if (cells.length !== 1) throw new Error(`it has ${cells.length} roots, one is expected`);
    return cells[0]!;
  } catch (e) {
    throw bad(path, `${JSON.stringify(v.length > 64 ? v.slice(0, 64) + "…" : v)} is not a BoC: ${(e as Error).message}`);
  }
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

function typedElements(v: Json | undefined, path: string): TupleItem[] {
  if (!isObject(v) || !Array.isArray(v.elements)) throw bad(path, 'must be an object with an "elements" array of typed stack entries');
  return v.elements.map((e, i) => typedEntry(e, `${path}.elements[${i}]`));
}

/** One typed stack entry in toncenter's JSON: {"@type": "tvm.stackEntryNumber", "number": {"number": "5"}}, …. */
export function typedEntry(v: Json | undefined, path: string): TupleItem {
  if (!isObject(v)) throw bad(path, 'must be a typed stack entry such as {"@type":"tvm.stackEntryNumber","number":{"number":"5"}}');
  const type = v["@type"];
  const kind = typeof type === "string" ? TYPED_KINDS[type] : undefined;
  const inner = kind ? v[kind] : undefined;
  switch (kind) {
    case "number":
      return { type: "int", value: parseInt257(isObject(inner) ? inner.number : undefined, `${path}.number.number`) };
    case "cell":
      return { type: "cell", cell: parseBocBase64(isObject(inner) ? inner.bytes : undefined, `${path}.cell.bytes`) };
    case "slice":
      return { type: "slice", cell: parseBocBase64(isObject(inner) ? inner.bytes : undefined, `${path}.slice.bytes`) };
    case "tuple":
      return { type: "tuple", items: typedElements(inner, `${path}.tuple`) };
    case "list":
      return listToTuple(typedElements(inner, `${path}.list`));
    default:
      throw bad(path, `unsupported stack entry type ${JSON.stringify(type)}; expected one of ${Object.keys(TYPED_KINDS).slice(0, 5).join(", ")}`);
  }
}

/**
 * One legacy [type, value] entry, as toncenter's C++ API accepts them: num/int/number/integer with a
 * decimal or hex string (or a JSON integer); tvm.Cell/tvm.Slice with a base64 BoC; cell/slice with
 * {"bytes": base64 BoC} (a bare base64 string is taken too); tuple/tvm.Tuple and list/tvm.List with
 * {"elements": [typed entries]}.
 */
export function legacyEntry(v: Json | undefined, path: string): TupleItem {
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
      const cell = parseBocBase64(isObject(value) ? value.bytes : value, isObject(value) ? `${path}[1].bytes` : `${path}[1]`);
      return type.toLowerCase().endsWith("cell") ? { type: "cell", cell } : { type: "slice", cell };
    }
    case "tuple":
    case "tvm.Tuple":
      return { type: "tuple", items: typedElements(value, `${path}[1]`) };
    case "list":
    case "tvm.List":
      return listToTuple(typedElements(value, `${path}[1]`));
    default:
      throw bad(path, `unsupported stack entry type ${JSON.stringify(type)}; expected num, cell, slice, tvm.Cell, tvm.Slice, tuple or list`);
  }
}

// ---------------------------------------------------------------------------
// VmStack (the emulator's result) → StackItems

/** One VmStackValue; continuations (and anything unknown) are "unsupported". */
function vmValue(s: Slice): StackItem {
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
      let n = s.loadUint(16);
      const items: StackItem[] = [];
      let cur = s;
      while (n >= 2) {
        const head = cur.loadRef();
        items.unshift(vmValue(cur.loadRef().beginParse(true)));
        if (n === 2) items.unshift(vmValue(head.beginParse(true)));
        cur = head.beginParse(true);
        n = n === 2 ? 0 : n - 1;
      }
      if (n === 1) items.unshift(vmValue(cur.loadRef().beginParse(true)));
      return { type: "tuple", items };
    }
    default:
      return { type: "unsupported" };
  }
}

/** A VmStack cell (vm_stack#_ depth:(## 24) stack:(VmStackList depth)), bottom first. */
export function parseVmStack(root: Cell): StackItem[] {
  let s = root.beginParse(true);
  const depth = s.loadUint(24);
  const items: StackItem[] = [];
  for (let i = 0; i < depth; i++) {
    const rest = s.loadRef();
    items.unshift(vmValue(s));
    s = rest.beginParse(true);
  }
  return items;
}

// ---------------------------------------------------------------------------
// StackItems → API v2 JSON

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

const bocBytes = (c: Cell) => c.toBoc({ idx: false, crc32: false });
const bocBase64 = (c: Cell) => bocBytes(c).toString("base64");
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
      return create(TvmStackEntrySchema, { variant: { case: "cell", value: { cell: { bytes: bocBytes(item.cell) } } } });
    case "slice":
      return create(TvmStackEntrySchema, { variant: { case: "slice", value: { slice: { bytes: bocBytes(item.cell) } } } });
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

/** toncenter's JSON form of a cell (tvm_valuetypes): data bits in base64 (zero-padded) and their count, refs, special. */
function legacyCellObject(c: Cell): Json {
  const len = c.bits.length;
  const data = Buffer.alloc(Math.ceil(len / 8));
  for (let i = 0; i < len; i++) if (c.bits.at(i)) data[i >> 3]! |= 0x80 >> (i & 7);
  return { data: { b64: data.toString("base64"), len }, refs: c.refs.map(legacyCellObject), special: c.isExotic };
}

const hex = (n: bigint) => (n < 0n ? `-0x${(-n).toString(16)}` : `0x${n.toString(16)}`);

/** A stack value as toncenter's legacy [type, value] pair: numbers in hex, slices as "cell", tuples and lists as tonlib objects. */
export function legacyJson(item: StackItem): Json {
  switch (item.type) {
    case "int":
      return ["num", hex(item.value)];
    case "nan":
      return ["num", "NaN"];
    case "cell":
    case "slice":
      return ["cell", { bytes: bocBase64(item.cell), object: legacyCellObject(item.cell) }];
    case "null":
    case "tuple": {
      const typed = typedJson(item) as { [key: string]: Json };
      return typed.list ? ["list", typed.list] : ["tuple", typed.tuple!];
    }
    default:
      return ["unsupported", ""];
  }
}

/** A TvmStackEntry message (runGetMethodStd's input) in toncenter's JSON, to be read by typedEntry. */
export function typedEntryJson(e: TvmStackEntry): Json {
  const v = e.variant;
  const b64 = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString("base64");
  switch (v.case) {
    case "number":
      return { "@type": "tvm.stackEntryNumber", number: { number: v.value.number?.number ?? "" } };
    case "cell":
      return { "@type": "tvm.stackEntryCell", cell: { bytes: b64(v.value.cell?.bytes) } };
    case "slice":
      return { "@type": "tvm.stackEntrySlice", slice: { bytes: b64(v.value.slice?.bytes) } };
    case "tuple":
      return { "@type": "tvm.stackEntryTuple", tuple: { elements: (v.value.tuple?.elements ?? []).map(typedEntryJson) } };
    case "list":
      return { "@type": "tvm.stackEntryList", list: { elements: (v.value.list?.elements ?? []).map(typedEntryJson) } };
    default:
      return { "@type": "tvm.stackEntryUnsupported" };
  }
}
