// Hostile values for the adversarial fuzz suite, every one from a seeded generator: bags of cells
// (deep chains, shared subtrees, trees past every bound, exotic cells with good and broken hashes,
// headers that lie), TVM stacks in the three shapes the APIs take (huge, nested, full of those
// cells), and JSON that is deep, huge, mistyped, duplicated or not UTF-8. Values too deep for
// JSON.stringify are written as text (RawJson); the big ones are built once and shared.
import { beginCell, Cell, convertToMerkleProof, Dictionary, generateMerkleProof, generateMerkleUpdate } from "@ton/core";
import { chainCells, rawBoc, sharedCells, treeCells, type RawCell } from "./boc-bytes.js";

export type Rng = () => number;

export const pick = <T>(r: Rng, a: readonly T[]): T => a[Math.floor(r() * a.length)]!;

/** One of `choices` by weight. */
export function weighted<T>(r: Rng, choices: readonly (readonly [number, T])[]): T {
  let x = r() * choices.reduce((s, [w]) => s + w, 0);
  for (const [w, v] of choices) if ((x -= w) < 0) return v;
  return choices[choices.length - 1]![1];
}

/** JSON text written as it is where a value is serialized by `json`. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON of `v`, with RawJson inlined (JSON.stringify cannot write 100,000-deep values). */
export function json(v: unknown): string {
  if (v instanceof RawJson) return v.text;
  if (Array.isArray(v)) return `[${v.map(json).join(",")}]`;
  if (v !== null && typeof v === "object") return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${json(x)}`).join(",")}}`;
  return JSON.stringify(v) ?? "null";
}

// ---- bags of cells ---------------------------------------------------------------------------

const hash32 = (fill: number) => Buffer.alloc(32, fill);
const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const small = () => beginCell().storeUint(0xdeadbeef, 32).storeRef(beginCell().storeUint(7, 8).endCell()).endCell();
const boc = (c: Cell) => c.toBoc({ idx: false, crc32: false });

/** A one-cell bag whose single cell is exotic with `data` (and `refs` to empty cells after it). */
function exoticBoc(data: Buffer, o: { levelMask?: number; refs?: number } = {}): Buffer {
  const refs = Array.from({ length: o.refs ?? 0 }, (_, i) => i + 1);
  return rawBoc([{ data, exotic: true, levelMask: o.levelMask, refs }, ...refs.map((): RawCell => ({}))]);
}

function dict(): Dictionary<number, number> {
  const d = Dictionary.empty(Dictionary.Keys.Uint(16), Dictionary.Values.Uint(32));
  for (let i = 0; i < 64; i++) d.set(i * 7, i);
  return d;
}

/** The bags by name: `heavy` ones (hundreds of kilobytes) are drawn rarely. */
const BOCS: Record<string, { build: () => Buffer; heavy?: boolean; valid?: boolean }> = {
  "small": { build: () => boc(small()), valid: true },
  "empty-cell": { build: () => boc(Cell.EMPTY), valid: true },
  "chain-300": { build: () => rawBoc(chainCells(301)), valid: true },
  "chain-500": { build: () => rawBoc(chainCells(501)), valid: true },
  "chain-1000": { build: () => rawBoc(chainCells(1001)), valid: true },
  "chain-5000": { build: () => rawBoc(chainCells(5001)), valid: true },
  "chain-100000": { build: () => rawBoc(chainCells(100_001)), heavy: true, valid: true },
  // 64 cells each referencing the next four times: 4^64 paths
  "shared-64x4": { build: () => rawBoc(sharedCells(64)), valid: true },
  "shared-1000x4": { build: () => rawBoc(sharedCells(1000)), valid: true },
  // every cell full: 1023 bits, four refs, five levels
  "max-refs": { build: () => rawBoc(treeCells(1365, 1023)), valid: true },
  "tree-10k": { build: () => rawBoc(treeCells(10_000)), valid: true },
  "tree-100k": { build: () => rawBoc(treeCells(100_000)), heavy: true, valid: true },
  "tree-150k": { build: () => rawBoc(treeCells(150_000)), heavy: true, valid: true },
  "indexed-crc": { build: () => rawBoc(treeCells(40, 200), { index: true, crc: true }), valid: true },
  // headers that lie about the bag
  "declares-1M-cells": { build: () => rawBoc(chainCells(3), { declaredCells: 1_000_000 }) },
  "declares-1M-cells-index": { build: () => rawBoc(chainCells(3), { declaredCells: 1_000_000, index: true }) },
  "declares-2^32-cells": { build: () => rawBoc(chainCells(3), { refSize: 4, declaredCells: 0xffffffff, declaredRoots: 0xffffffff }) },
  "declares-2^63-bytes": { build: () => rawBoc(chainCells(3), { offSize: 8, declaredTotalSize: 2n ** 63n - 1n }) },
  "declares-more-roots": { build: () => rawBoc(chainCells(3), { declaredRoots: 5 }) },
  "no-roots": { build: () => rawBoc(chainCells(3), { roots: [] }) },
  "root-out-of-range": { build: () => rawBoc(chainCells(3), { roots: [7] }) },
  "absent-cells": { build: () => rawBoc(chainCells(3), { declaredAbsent: 2 }) },
  "ref-size-0": { build: () => rawBoc([{}], { refSize: 0 }) },
  "ref-size-7": { build: () => rawBoc(chainCells(3), { refSize: 7 }) },
  "off-size-0": { build: () => rawBoc(chainCells(3), { offSize: 0 }) },
  "off-size-9": { build: () => rawBoc(chainCells(3), { offSize: 9 }) },
  "crc-wrong": { build: () => rawBoc(treeCells(40, 200), { crc: "wrong" }) },
  "truncated-1M-header": { build: () => rawBoc(treeCells(1000), { declaredCells: 1_000_000 }).subarray(0, 40) },
  "cycle": { build: () => rawBoc([{ refs: [1] }, { refs: [0] }]) },
  "self-ref": { build: () => rawBoc([{ refs: [0] }]) },
  "ref-out-of-range": { build: () => rawBoc([{ refs: [5] }, {}]) },
  "refs-5": { build: () => rawBoc([{ refs: [1, 1, 1, 1, 1] }, {}]) },
  "refs-7": { build: () => rawBoc([{ refs: [1, 1, 1, 1, 1, 1, 1] }, {}]) },
  "bits-1024": { build: () => rawBoc([{ data: Buffer.alloc(128, 0xff), bitLength: 1024 }]) },
  "ordinary-with-level": { build: () => rawBoc([{ levelMask: 7, refs: [1] }, {}]) },
  // exotic cells
  "pruned-branch": { build: () => exoticBoc(Buffer.concat([Buffer.from([1, 1]), hash32(0x11), u16(5)]), { levelMask: 1 }) },
  "pruned-branch-level-0": { build: () => exoticBoc(Buffer.concat([Buffer.from([1, 0]), hash32(0x11), u16(5)])) },
  "pruned-branch-short": { build: () => exoticBoc(Buffer.from([1, 1, 2, 3]), { levelMask: 1 }) },
  "library-cell": { build: () => exoticBoc(Buffer.concat([Buffer.from([2]), hash32(0x22)])), valid: true },
  "library-cell-short": { build: () => exoticBoc(Buffer.from([2, 1, 2, 3])) },
  "merkle-proof": { build: () => boc(convertToMerkleProof(small())), valid: true },
  "merkle-proof-pruned": { build: () => boc(generateMerkleProof(dict(), [7, 14], Dictionary.Keys.Uint(16))), valid: true },
  "merkle-proof-deep": { build: () => boc(convertToMerkleProof(Cell.fromBoc(rawBoc(chainCells(1001)))[0]!)), valid: true },
  "merkle-proof-bad-hash": { build: () => exoticBoc(Buffer.concat([Buffer.from([3]), hash32(0x33), u16(0)]), { refs: 1 }) },
  "merkle-proof-bad-depth": { build: () => exoticBoc(Buffer.concat([Buffer.from([3]), Cell.EMPTY.hash(), u16(9)]), { refs: 1 }) },
  "merkle-update": { build: () => boc(generateMerkleUpdate(dict(), 7, Dictionary.Keys.Uint(16), 99)), valid: true },
  "merkle-update-bad-hashes": { build: () => exoticBoc(Buffer.concat([Buffer.from([4]), hash32(0x44), hash32(0x45), u16(0), u16(0)]), { refs: 2 }) },
  "exotic-type-0": { build: () => exoticBoc(Buffer.from([0, 1, 2])) },
  "exotic-type-5": { build: () => exoticBoc(Buffer.concat([Buffer.from([5]), hash32(0x55)])) },
  "exotic-type-255": { build: () => exoticBoc(Buffer.from([255])) },
  "exotic-no-data": { build: () => exoticBoc(Buffer.alloc(0)) },
  // not bags of cells at all
  "empty": { build: () => Buffer.alloc(0) },
  "magic-only": { build: () => Buffer.from([0xb5, 0xee, 0x9c, 0x72]) },
  "old-magic-indexed": { build: () => Buffer.concat([Buffer.from([0x68, 0xff, 0x65, 0xf3]), boc(small()).subarray(4)]) },
  "old-magic-crc": { build: () => Buffer.concat([Buffer.from([0xac, 0xc3, 0xa7, 0x28]), boc(small()).subarray(4)]) },
};

const built = new Map<string, { bytes: Buffer; base64: string }>();

/** A bag by name, built once. */
export function namedBoc(name: string): { bytes: Buffer; base64: string } {
  let b = built.get(name);
  if (!b) {
    const bytes = BOCS[name]!.build();
    built.set(name, (b = { bytes, base64: bytes.toString("base64") }));
  }
  return b;
}

export const bocNames = Object.keys(BOCS);
/** Bags @ton/core parses: what passes the parse and goes on to whatever comes next. */
export const parseableBocs = bocNames.filter((n) => BOCS[n]!.valid);

/** A hostile bag: a named one (heavy ones rarely), or a small one cut short, with flipped bytes, or random bytes. */
export function hostileBoc(r: Rng): { name: string; bytes: Buffer } {
  const kind = weighted(r, [
    [70, "named"],
    [10, "cut"],
    [10, "flipped"],
    [5, "random"],
  ] as const);
  if (kind === "named") {
    let name = pick(r, bocNames);
    if (BOCS[name]!.heavy && r() < 0.9) name = pick(r, bocNames.filter((n) => !BOCS[n]!.heavy));
    return { name, bytes: namedBoc(name).bytes };
  }
  const base = namedBoc(pick(r, ["small", "indexed-crc", "merkle-proof-pruned", "max-refs", "chain-300"])).bytes;
  if (kind === "cut") {
    const at = Math.floor(r() * base.length);
    return { name: `cut at ${at}`, bytes: base.subarray(0, at) };
  }
  if (kind === "flipped") {
    const bytes = Buffer.from(base.subarray(0, Math.min(base.length, 4096)));
    const flips: number[] = [];
    for (let k = 1 + Math.floor(r() * 4); k > 0; k--) {
      const at = Math.floor(r() * Math.min(bytes.length, 64));
      bytes[at] = Math.floor(r() * 256);
      flips.push(at);
    }
    return { name: `bytes ${flips.join(",")} changed`, bytes };
  }
  const bytes = Buffer.from(Array.from({ length: 1 + Math.floor(r() * 2000) }, () => Math.floor(r() * 256)));
  return { name: `${bytes.length} random bytes`, bytes };
}

/** How a bag is written in a string field: base64 mostly, or base64url, hex, wrapped lines, no padding, trailing junk. */
export function bocText(r: Rng, bytes: Buffer): string {
  const b64 = base64Of(bytes);
  return weighted<() => string>(r, [
    [80, () => b64],
    [4, () => bytes.toString("base64url")],
    [4, () => (bytes.length < 200_000 ? bytes.toString("hex") : b64)],
    [3, () => (b64.match(/.{1,76}/g) ?? []).join("\n")],
    [3, () => b64.replace(/=+$/, "")],
    [3, () => b64 + pick(r, ["!!", "====", " ", "\u0000", "é"])],
    [3, () => "data:application/octet-stream;base64," + b64],
  ] as const)();
}

/** The base64 of a bag, kept with a named one (the 100,000-deep chain is 670 KB of it). */
function base64Of(bytes: Buffer): string {
  for (const b of built.values()) if (b.bytes === bytes) return b.base64;
  return bytes.toString("base64");
}

// ---- numbers and strings ---------------------------------------------------------------------

const digits = (n: number, d = "9") => d.repeat(n);

/** A TVM integer as the APIs take it (a string, sometimes a JSON number), mostly out of range or malformed. */
export function tvmNumber(r: Rng): unknown {
  if (r() < 0.03) return pick(r, [digits(100_000), "0x" + "f".repeat(100_000)]);
  return pick(r, [
    "0",
    "-1",
    "0x" + "f".repeat(64), // 2^256 − 1: fits
    "0x1" + "0".repeat(64), // 2^256: does not
    "-0x1" + "0".repeat(64),
    (2n ** 256n).toString(),
    "-" + (2n ** 256n + 1n).toString(),
    digits(78),
    digits(5000),
    "1e5",
    "0x",
    "-",
    "",
    " 12 ",
    "12abc",
    "NaN",
    "Infinity",
    1e308,
    -0,
    2 ** 53 + 1,
    0.5,
    true,
    null,
    [],
    {},
    new RawJson("1" + "0".repeat(400)),
    new RawJson("-1e400"),
  ]);
}

/** A decimal string of a million digits: parsing it as a BigInt takes the event loop for a while. */
export const millionDigits = () => new RawJson(`"${digits(1_000_000, "7")}"`);

/** JSON nested `depth` deep: arrays, objects, or both, around `inner`. */
export function deepJson(depth: number, kind: "array" | "object" | "mixed" = "array", inner = "1"): RawJson {
  if (kind === "array") return new RawJson("[".repeat(depth) + inner + "]".repeat(depth));
  if (kind === "object") return new RawJson('{"a":'.repeat(depth) + inner + "}".repeat(depth));
  return new RawJson('[{"a":'.repeat(depth) + inner + "}]".repeat(depth));
}

/** A nesting depth: mostly what a parser meets at its bound, rarely 100,000. */
const depth = (r: Rng) => weighted(r, [
  [6, pick(r, [64, 100, 256, 257, 1000])],
  [3, pick(r, [5000, 10_000])],
  [1, 100_000],
] as const);

/** A long string: of one letter, escapes, NULs, emoji, lone surrogates; rarely near a megabyte. */
export function longString(r: Rng): unknown {
  const n = weighted(r, [
    [8, 1000],
    [5, 10_000],
    [2, 100_000],
    [0.5, 900_000],
  ] as const);
  return pick(r, [
    () => "A".repeat(n),
    () => "\u0000".repeat(Math.min(n, 100_000)),
    () => new RawJson(`"${"\\u00e9".repeat(Math.min(n, 100_000))}"`),
    () => "🦄".repeat(Math.min(n, 100_000)),
    () => new RawJson(`"${"\\ud800".repeat(Math.min(n, 50_000))}"`),
    () => "0:" + "0".repeat(n),
    () => "EQ" + "A".repeat(n),
  ])();
}

/** Any hostile JSON value: deep, long, huge, of the wrong type. */
export function hostileValue(r: Rng): unknown {
  return weighted<() => unknown>(r, [
    [3, () => deepJson(depth(r), pick(r, ["array", "object", "mixed"] as const))],
    [2, () => longString(r)],
    [2, () => tvmNumber(r)],
    [2, () => pick(r, [null, true, false, 0, -1, 1.5, "", [], {}, [[]], { "": null }, "null", "[object Object]"])],
    [1, () => new RawJson(pick(r, ["1e400", "-1e400", "1e-400", "123456789012345678901234567890", "-0.0", digits(5000)]))],
    [1, () => ({ __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } })],
    [1, () => new RawJson(`[${Array.from({ length: r() < 0.9 ? 1000 : 50_000 }, (_, i) => i).join(",")}]`)],
    [1, () => new RawJson(`{${Array.from({ length: r() < 0.9 ? 1000 : 20_000 }, (_, i) => `"k${i}":${i}`).join(",")}}`)],
  ] as const)();
}

// ---- TVM stacks ------------------------------------------------------------------------------

/** The three ways API v2 and v3 take a stack: legacy [type, value] pairs, tonlib's typed entries, v3's {type, value}. */
export type StackShape = "legacy" | "typed" | "v3";

const typedNum = (n: unknown) => ({ "@type": "tvm.stackEntryNumber", number: { "@type": "tvm.numberDecimal", number: n } });
const typedCell = (b64: unknown, slice = false) => (slice ? { "@type": "tvm.stackEntrySlice", slice: { "@type": "tvm.slice", bytes: b64 } } : { "@type": "tvm.stackEntryCell", cell: { "@type": "tvm.cell", bytes: b64 } });

/** A tuple `depth` deep around a number, written as text. */
export function nestedTuple(shape: StackShape, depth: number, kind: "tuple" | "list" = "tuple"): RawJson {
  if (shape === "v3") return new RawJson(`{"type":"${kind}","value":[`.repeat(depth) + '{"type":"num","value":"1"}' + "]}".repeat(depth));
  const open = kind === "tuple" ? '{"@type":"tvm.stackEntryTuple","tuple":{"@type":"tvm.tuple","elements":[' : '{"@type":"tvm.stackEntryList","list":{"@type":"tvm.list","elements":[';
  const typed = open.repeat(depth) + json(typedNum("1")) + "]}}".repeat(depth);
  return new RawJson(shape === "typed" ? typed : `["${kind}",{"elements":[${typed}]}]`);
}

/** One entry of the shape: a number, a cell or slice with a hostile bag, a nested tuple, or a malformed entry. */
export function stackEntry(r: Rng, shape: StackShape, cell: () => string = () => bocText(r, hostileBoc(r).bytes)): unknown {
  const kind = weighted(r, [
    [4, "num"],
    [5, "cell"],
    [2, "slice"],
    [2, "tuple"],
    [3, "malformed"],
  ] as const);
  // a typed tuple takes 75 bytes a level: 10,000 levels are most of a megabyte
  if (kind === "tuple") return nestedTuple(shape, weighted(r, [[8, pick(r, [1, 2, 16, 255, 256, 300])], [3, 1000], [1, 5000], [0.3, 10_000]] as const), pick(r, ["tuple", "list"] as const));
  if (shape === "legacy") {
    if (kind === "num") return [pick(r, ["num", "int", "number", "integer"]), tvmNumber(r)];
    if (kind === "cell" || kind === "slice") {
      const type = kind === "cell" ? pick(r, ["cell", "tvm.Cell"]) : pick(r, ["slice", "tvm.Slice"]);
      return [type, type.startsWith("tvm.") || r() < 0.3 ? cell() : { bytes: cell() }];
    }
    return pick(r, [() => ["num"], () => [1, 2], () => "num", () => null, () => ({}), () => ["cell", { bytes: 5 }], () => ["unknown", 1], () => ["tuple", 5], () => ["list", { elements: hostileValue(r) }], () => ["num", "1", "2"]])();
  }
  if (shape === "typed") {
    if (kind === "num") return typedNum(tvmNumber(r));
    if (kind === "cell" || kind === "slice") return typedCell(cell(), kind === "slice");
    return pick(r, [() => ({ "@type": "tvm.stackEntryNumber" }), () => ({ "@type": "tvm.stackEntryCell", cell: "x" }), () => ({ "@type": "nope" }), () => ({ "@type": "tvm.stackEntryUnsupported" }), () => ["num", "1"], () => hostileValue(r), () => ({ "@type": "tvm.stackEntryTuple", tuple: { elements: hostileValue(r) } })])();
  }
  if (kind === "num") return { type: "num", value: tvmNumber(r) };
  if (kind === "cell" || kind === "slice") return { type: kind, value: cell() };
  return pick(r, [() => ({ type: "num" }), () => ({ type: "cell", value: 5 }), () => ({ type: "nope", value: "1" }), () => ({ value: "1" }), () => ["num", "1"], () => hostileValue(r), () => ({ type: "num", value: "1", extra: hostileValue(r) })])();
}

/** A stack of the shape: of a hostile length (up to 10,000 entries), or not a list at all. */
export function hostileStack(r: Rng, shape: StackShape): unknown {
  const size = weighted<() => number>(r, [
    [10, () => 1 + Math.floor(r() * 4)],
    [3, () => pick(r, [0, 16, 64])],
    [3, () => pick(r, [255, 256, 257, 300, 400])],
    [1.5, () => 1000],
    [0.5, () => 10_000],
    [1, () => -1],
  ] as const)();
  if (size < 0) return hostileValue(r);
  if (size > 16) {
    // many entries: one kind repeated, as a client sending a big stack would
    const num = json(shape === "legacy" ? ["num", "1"] : shape === "typed" ? typedNum("1") : { type: "num", value: "1" });
    const other = r() < 0.3 ? json(stackEntry(r, shape, () => namedBoc("small").base64)) : num;
    // within the gateway's body limit, or the test would only meet that limit
    const entry = other.length * size < 900_000 ? other : num;
    return new RawJson(`[${Array(size).fill(entry).join(",")}]`);
  }
  return Array.from({ length: size }, () => stackEntry(r, shape));
}

/** A stack the APIs parse that is hostile to what runs it: deep and shared cells, 255–10,000 entries, deep tuples. */
export function parseableHostileStack(r: Rng, shape: StackShape): unknown {
  const cellOf = (name: string) => {
    const b64 = namedBoc(name).base64;
    return shape === "legacy" ? ["tvm.Cell", b64] : shape === "typed" ? typedCell(b64) : { type: "cell", value: b64 };
  };
  const num = shape === "legacy" ? ["num", "1"] : shape === "typed" ? typedNum("1") : { type: "num", value: "1" };
  return weighted<() => unknown>(r, [
    [6, () => [cellOf(pick(r, ["chain-300", "shared-64x4", "shared-1000x4", "max-refs", "tree-10k", "merkle-proof", "merkle-proof-pruned", "merkle-update", "library-cell", "small"]))]],
    [1, () => [cellOf(pick(r, ["chain-500", "chain-1000", "merkle-proof-deep"]))]],
    [2, () => new RawJson(`[${Array(pick(r, [255, 256, 300, 1000, 10_000])).fill(json(num)).join(",")}]`)],
    [2, () => (shape === "v3" ? [num] : [nestedTuple(shape, pick(r, [16, 255, 256, 300]), pick(r, ["tuple", "list"] as const))])],
  ] as const)();
}

// ---- JSON-RPC --------------------------------------------------------------------------------

/** A JSON-RPC id: deep arrays and objects, a megabyte string, huge and odd numbers, wrong types. */
export function hostileId(r: Rng): unknown {
  return weighted<() => unknown>(r, [
    [3, () => deepJson(weighted(r, [[3, 10], [3, 1000], [2, 10_000], [1, 100_000]] as const), pick(r, ["array", "object", "mixed"] as const))],
    [1, () => "x".repeat(weighted(r, [[6, 1000], [2, 100_000], [1, 1_000_000]] as const))],
    [2, () => new RawJson(pick(r, ["1e400", "-1e400", digits(1000), "-0", "0.5", "1e-400"]))],
    [2, () => pick(r, [null, true, false, [], {}, [1, 2], { id: 1 }, "", "\u0000", 2 ** 64])],
    [1, () => new RawJson('"\\ud800\\udfff\\ud800"')],
    [1, () => new RawJson(`[${Array.from({ length: 10_000 }, (_, i) => i).join(",")}]`)],
    [2, () => Math.floor(r() * 1e6)],
  ] as const)();
}

// ---- request bodies --------------------------------------------------------------------------

/** A body that is not plain JSON of `obj`: duplicate keys, invalid UTF-8, a BOM, NULs, cut short, trailing junk, deep. */
export function hostileBodyBytes(r: Rng, obj: Record<string, unknown>): string | Buffer {
  const text = json(obj);
  const key = Object.keys(obj)[0] ?? "address";
  return weighted<() => string | Buffer>(r, [
    [3, () => `${text.slice(0, -1)}${text.length > 2 ? "," : ""}${JSON.stringify(key)}:${json(hostileValue(r))}}`],
    [2, () => `{${JSON.stringify(key)}:${json(hostileValue(r))},${text.slice(1)}`],
    [3, () => Buffer.concat([Buffer.from(`{${JSON.stringify(key)}:"`), Buffer.from(pick(r, [[0xff, 0xfe], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]])), Buffer.from(`"${text.length > 2 ? "," + text.slice(1) : "}"}`)])],
    [1, () => Buffer.concat([Buffer.from(text.slice(0, -1)), Buffer.from([0x2c, 0xff, 0xff]), Buffer.from("}")])],
    [1, () => "\ufeff" + text],
    [1, () => text.slice(0, Math.floor(r() * text.length))],
    [1, () => text + pick(r, ["}", "]", " x", "\u0000", text, "//", "\n{}"])],
    [1, () => text.replace(/"/g, "'")],
    [2, () => deepJson(depth(r), pick(r, ["array", "object", "mixed"] as const)).text],
    [1, () => pick(r, ["", "null", "[]", '"x"', "1", "true", "{", "\u0000", "{}".repeat(1000)])],
  ] as const)();
}
