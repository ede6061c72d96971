// Get-method stacks both ways, on VmStack cells built here: what the emulator returns read into
// values and rendered (within the result bounds, without recursion over what a contract chose to
// nest), and what a client sends read within the input bounds.
import { create } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import { beginCell, Cell, serializeTuple, type TupleItem } from "@ton/core";
import { TvmStackEntrySchema, type TvmStackEntry } from "@tongate/proto/gen/tongate/v2/types_pb.js";
import { describe, expect, it } from "vitest";
import { legacyStack, typedStack, type Json } from "../src/stack-input.js";
import { legacyStackJson, parseVmStack, typedJson, typedProto, type StackItem } from "../src/tvm-stack.js";

/** The 422 a call answers, its message. */
function refused(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ConnectError);
    return (e as ConnectError).rawMessage;
  }
  throw new Error("accepted");
}

const int = (n: number): TupleItem => ({ type: "int", value: BigInt(n) });
const tuple = (...items: TupleItem[]): TupleItem => ({ type: "tuple", items });
const list = (...items: TupleItem[]): TupleItem => items.reduceRight<TupleItem>((tail, head) => tuple(head, tail), { type: "null" });

function chain(n: number): Cell {
  let c = beginCell().storeUint(0, 8).endCell();
  for (let i = 1; i < n; i++) c = beginCell().storeUint(i & 0xff, 8).storeRef(c).endCell();
  return c;
}

/** `n` cells, each referring to the next four times. */
function sharedSubtrees(n: number): Cell {
  let c = Cell.EMPTY;
  for (let i = 1; i < n; i++) c = beginCell().storeRef(c).storeRef(c).storeRef(c).storeRef(c).endCell();
  return c;
}

/** A VmStack of one entry whose value is the VmStackValue cell `value` (as a 1-tuple). */
const stackOfValueCell = (value: Cell) => beginCell().storeUint(1, 24).storeRef(Cell.EMPTY).storeUint(7, 8).storeUint(1, 16).storeRef(value).endCell();

/** The VmStackValue cell of a 4-tuple whose elements are all the value in `v` (vm_stk_tuple, VmTuple 4). */
function quadOf(v: Cell): Cell {
  const t2 = beginCell().storeRef(v).storeRef(v).endCell();
  const t3 = beginCell().storeRef(t2).storeRef(v).endCell();
  return beginCell().storeUint(7, 8).storeUint(4, 16).storeRef(t3).storeRef(v).endCell();
}

describe("parseVmStack", () => {
  it("reads every kind of value as @ton/core writes it", () => {
    const cell = beginCell().storeUint(0xabc, 12).storeRef(chain(3)).endCell();
    const items: TupleItem[] = [
      int(-5),
      { type: "int", value: (1n << 255n) + 3n },
      { type: "null" },
      { type: "nan" },
      { type: "cell", cell },
      { type: "slice", cell },
      tuple(),
      tuple(int(1)),
      tuple(int(1), int(2)),
      tuple(int(1), tuple(int(2), list(int(3), int(4))), { type: "cell", cell }, int(5), int(6)),
      list(int(1), int(2), int(3)),
    ];
    const back = parseVmStack(serializeTuple(items));
    expect(back.map((x) => JSON.stringify(typedJson(x)))).toEqual(items.map((x) => JSON.stringify(typedJson(x as StackItem))));
  });

  it("a list of 10,000 values (pairs 10,000 deep) is one list, read and rendered without recursion over its pairs", () => {
    const items = Array.from({ length: 10_000 }, (_, i) => int(i));
    const back = parseVmStack(serializeTuple([list(...items.slice(0, 200))]));
    expect((typedJson(back[0]!) as { list: { elements: Json[] } }).list.elements).toHaveLength(200);
    // the VmStack of a long list, made without @ton/core's recursive serializer
    let tail = beginCell().storeUint(0, 8).endCell(); // null
    for (let i = items.length - 1; i >= 0; i--) {
      const head = beginCell().storeUint(1, 8).storeInt(i, 64).endCell();
      tail = beginCell().storeUint(7, 8).storeUint(2, 16).storeRef(head).storeRef(tail).endCell();
    }
    const long = parseVmStack(beginCell().storeUint(1, 24).storeRef(Cell.EMPTY).storeSlice(tail.beginParse()).endCell());
    const rendered = typedJson(long[0]!) as { list: { elements: Json[] } };
    expect(rendered.list.elements).toHaveLength(10_000);
    expect(rendered.list.elements[9_999]).toEqual({ "@type": "tvm.stackEntryNumber", number: { "@type": "tvm.numberDecimal", number: "9999" } });
    expect(typedProto(long[0]!).variant.case).toBe("list");
    expect(legacyStackJson(long)[0]).toMatchObject(["list", { "@type": "tvm.list" }]);
  });

  it("tuples nested 1,000 deep: a 422, not a stack overflow", () => {
    let value = beginCell().storeUint(1, 8).storeInt(7, 64).endCell();
    for (let i = 0; i < 1_000; i++) value = beginCell().storeUint(7, 8).storeUint(1, 16).storeRef(value).endCell();
    expect(refused(() => parseVmStack(stackOfValueCell(value)))).toBe("the get-method's result is past a bound: its tuples and lists are nested more than 16 deep");
    let ok = beginCell().storeUint(0, 8).endCell();
    for (let i = 0; i < 15; i++) ok = beginCell().storeUint(7, 8).storeUint(1, 16).storeRef(ok).endCell();
    expect(parseVmStack(stackOfValueCell(ok))).toHaveLength(1);
  });

  it("tuples whose elements are one tuple (4^40 values in 120 cells): a 422 at once", () => {
    let v = beginCell().storeUint(1, 8).storeInt(7, 64).endCell();
    for (let i = 0; i < 40; i++) v = quadOf(v);
    const t0 = performance.now();
    expect(refused(() => parseVmStack(stackOfValueCell(v)))).toBe("the get-method's result is past a bound: more than 65,536 values, the elements of tuples counted each time they occur");
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it("a cell 1,023 deep (TON's deepest): its BoC in the typed form, a 422 in the legacy one", () => {
    const deep = chain(1_024);
    const items = parseVmStack(serializeTuple([{ type: "cell", cell: deep }]));
    const typed = typedProto(items[0]!);
    expect(typed.variant.case === "cell" && Buffer.from(typed.variant.value.cell!.bytes).equals(deep.toBoc({ idx: false, crc32: false }))).toBe(true);
    expect(refused(() => legacyStackJson(items))).toMatch(/^stack\[0\]: the legacy form of the result is too large: its cells are more than 128 deep/);
  });

  it("a cell repeated in a tuple past 8 MiB of BoCs: a 422", () => {
    let big = Cell.EMPTY;
    for (let i = 0; i < 400; i++) big = beginCell().storeBuffer(Buffer.alloc(120, i)).storeRef(big).endCell(); // ~50 kB of BoC
    const items = Array.from({ length: 200 }, (): TupleItem => ({ type: "cell", cell: big }));
    expect(refused(() => parseVmStack(serializeTuple([tuple(...items)])))).toBe("the get-method's result is past a bound: its cells and slices are more than 8,388,608 bytes of BoCs, each counted every time it occurs");
  });
});

describe("legacyStackJson", () => {
  /** toncenter's cell object, recursively: what the iterative one must equal. */
  const reference = (c: Cell): Json => {
    const data = Buffer.alloc(Math.ceil(c.bits.length / 8));
    for (let i = 0; i < c.bits.length; i++) if (c.bits.at(i)) data[i >> 3]! |= 0x80 >> (i & 7);
    return { data: { b64: data.toString("base64"), len: c.bits.length }, refs: c.refs.map(reference), special: c.isExotic };
  };

  it("writes cells as toncenter does, refs in order", () => {
    const a = beginCell().storeUint(1, 3).endCell();
    const c = beginCell().storeUint(0x5, 4).storeRef(a).storeRef(beginCell().storeRef(a).storeUint(9, 9).endCell()).storeRef(chain(5)).endCell();
    const [entry] = legacyStackJson([{ type: "cell", cell: c }]);
    expect(entry).toEqual(["cell", { bytes: c.toBoc({ idx: false, crc32: false }).toString("base64"), object: reference(c) }]);
  });

  it("a cell of 4^63 paths: a 422 naming the entry and runGetMethodStd", () => {
    const items: StackItem[] = [int(1), { type: "cell", cell: sharedSubtrees(64) }];
    expect(refused(() => legacyStackJson(items))).toBe(
      "stack[1]: the legacy form of the result is too large: it expands to more than 16,384 cells as a tree (a cell is written out each time it is referenced); runGetMethodStd returns the same result with cells as BoCs",
    );
  });

  it("the budget is the whole stack's, and the depth is bounded", () => {
    const c = sharedSubtrees(7); // 4^6 + … = 5,461 cells as a tree
    expect(legacyStackJson([{ type: "cell", cell: c }, { type: "slice", cell: c }, { type: "cell", cell: c }])).toHaveLength(3);
    expect(refused(() => legacyStackJson([{ type: "cell", cell: c }, { type: "cell", cell: c }, { type: "cell", cell: c }, { type: "cell", cell: c }]))).toMatch(/^stack\[3\]: /);
    expect(legacyStackJson([{ type: "cell", cell: chain(129) }])).toHaveLength(1);
    expect(refused(() => legacyStackJson([{ type: "cell", cell: chain(130) }]))).toMatch(/^stack\[0\]: the legacy form of the result is too large: its cells are more than 128 deep/);
  });
});

describe("input stacks", () => {
  const typedNum = (n: number): TvmStackEntry => create(TvmStackEntrySchema, { variant: { case: "number", value: { number: { number: String(n) } } } });
  const typedTuple = (...elements: TvmStackEntry[]): TvmStackEntry => create(TvmStackEntrySchema, { variant: { case: "tuple", value: { tuple: { elements } } } });
  const typedCell = (c: Cell): TvmStackEntry => create(TvmStackEntrySchema, { variant: { case: "cell", value: { cell: { bytes: c.toBoc() } } } });
  const nestedTyped = (n: number) => {
    let e = typedNum(1);
    for (let i = 0; i < n; i++) e = typedTuple(e);
    return e;
  };

  it("tuples nested 16 deep, not 17 (nor 1,000)", () => {
    expect(typedStack([nestedTyped(16)])).toHaveLength(1);
    expect(refused(() => typedStack([nestedTyped(17)]))).toMatch(/^stack\[0\](\.tuple\.elements\[0\]){16}\.tuple: tuples and lists may be nested 16 deep$/);
    expect(refused(() => typedStack([nestedTyped(1_000)]))).toMatch(/nested 16 deep$/);
    const legacyNested = (n: number): Json => {
      let e: Json = { "@type": "tvm.stackEntryNumber", number: { number: "1" } };
      for (let i = 1; i < n; i++) e = { "@type": "tvm.stackEntryTuple", tuple: { elements: [e] } };
      return ["tuple", { elements: [e] }];
    };
    expect(legacyStack([legacyNested(16)], (e) => e)).toHaveLength(1);
    expect(refused(() => legacyStack([legacyNested(17)], (e) => e))).toMatch(/nested 16 deep$/);
  });

  it("256 values, the elements of tuples counted", () => {
    const tuple255 = typedTuple(...Array.from({ length: 255 }, (_, i) => typedNum(i)));
    expect(typedStack([tuple255])).toHaveLength(1);
    expect(refused(() => typedStack([tuple255, typedNum(1)]))).toBe("stack[1]: a stack may have at most 256 values, the elements of its tuples and lists counted");
  });

  it("the depth of the VmStack the emulator gets, named at the entry that makes it", () => {
    const proto = (item: TupleItem): TvmStackEntry => {
      if (item.type === "cell") return typedCell(item.cell);
      if (item.type === "tuple") return typedTuple(...item.items.map(proto));
      return typedNum(1);
    };
    const ints = (n: number) => Array.from({ length: n }, () => int(1));
    const cases: Array<[TupleItem[], number]> = [
      [[{ type: "cell", cell: chain(200) }, ...ints(100)], 0],
      [[int(1), tuple({ type: "cell", cell: chain(250) }, int(2), int(3)), ...ints(10)], 1],
      [[tuple(tuple({ type: "cell", cell: chain(10) })), ...ints(248)], 0],
    ];
    for (const [items, at] of cases) {
      const depth = serializeTuple(items).depth();
      expect(depth).toBeGreaterThan(256);
      expect(refused(() => typedStack(items.map(proto)))).toMatch(new RegExp(`^stack\\[${at}\\]: the stack is ${depth} cells deep at this entry as the emulator takes it`));
    }
    const fits: TupleItem[] = [{ type: "cell", cell: chain(200) }, ...ints(56)];
    expect(serializeTuple(fits).depth()).toBe(256);
    expect(typedStack(fits.map(proto))).toHaveLength(57);
  });

  it("a number of a million digits is refused by its length", () => {
    expect(refused(() => legacyStack([["num", "9".repeat(1_000_000)]], (e) => e))).toMatch(/^stack\[0\]\[1\]: a number of 1,000,000 characters does not fit a TVM integer/);
  });
});
