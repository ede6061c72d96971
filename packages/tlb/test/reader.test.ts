// The TL-B features message-schemes.tlb uses, read on small schemes, and the bounds of reading.
import { beginCell, Cell, Dictionary, type Builder } from "@ton/core";
import { describe, expect, it } from "vitest";
import { compileScheme, messageDecoder, parseScheme, readType, TlbSchemeError } from "../src/index.js";

const BASE = `
bool_false$0 = Bool; bool_true$1 = Bool;
nothing$0 {X:Type} = Maybe X; just$1 {X:Type} value:X = Maybe X;
left$0 {X:Type} {Y:Type} value:X = Either X Y; right$1 {X:Type} {Y:Type} value:Y = Either X Y;
var_uint$_ {n:#} len:(#< n) value:(uint (len * 8)) = VarUInteger n;
_ bit:(## 1) = Bit;
unary_zero$0 = Unary ~0; unary_succ$1 {n:#} x:(Unary ~n) = Unary ~(n + 1);
hml_short$0 {m:#} {n:#} len:(Unary ~n) {n <= m} s:(n * Bit) = HmLabel ~n m;
hml_long$10 {m:#} n:(#<= m) s:(n * Bit) = HmLabel ~n m;
hml_same$11 {m:#} v:Bit n:(#<= m) = HmLabel ~n m;
hm_edge#_ {n:#} {X:Type} {l:#} {m:#} label:(HmLabel ~l n) {n = (~m) + l} node:(HashmapNode m X) = Hashmap n X;
leaf#_ {X:Type} value:X = HashmapNode 0 X;
fork#_ {n:#} {X:Type} left:^(Hashmap n X) right:^(Hashmap n X) = HashmapNode (n + 1) X;
hme_empty$0 {n:#} {X:Type} = HashmapE n X; hme_root$1 {n:#} {X:Type} root:^(Hashmap n X) = HashmapE n X;
`;

function scheme(text: string) {
  return compileScheme(parseScheme(BASE + text));
}

function read(text: string, type: string, build: (b: Builder) => Builder, nats: number[] = []) {
  return readType(scheme(text), type, build(beginCell()).endCell(), nats);
}

describe("reading", () => {
  it("explicit, implicit and ## / #< / #<= fields; numbers as strings, bits as hex, Bool as boolean", () => {
    const r = read(
      `foo#2a {n:#} a:(## 4) b:(#< 5) c:(#<= 6) d:uint64 e:int8 f:bits12 g:(bits a) h:Bool i:uint1 j:int257 = Foo;`,
      "Foo",
      (b) => b.storeUint(0x2a, 8).storeUint(3, 4).storeUint(4, 3).storeUint(6, 3).storeUint(2n ** 63n, 64).storeInt(-5, 8)
        .storeUint(0xabc, 12).storeUint(5, 3).storeBit(true).storeBit(false).storeInt(-(2n ** 200n), 257),
    );
    expect(r).toEqual({
      ok: true,
      value: { "@type": "foo", a: "3", b: "4", c: "6", d: "9223372036854775808", e: "-5", f: "ABC", g: "B_", h: true, i: false, j: (-(2n ** 200n)).toString() },
    });
  });

  it("conditional fields, refs, Maybe, Either, VarUInteger, anonymous cells and unnamed fields", () => {
    const inner = beginCell().storeUint(7, 8).endCell();
    const r = read(
      `_ x:uint8 = Inner;
       bar$_ flags:(## 2) opt:flags . 1?uint8 cnt:(## 2) more:cnt?Inner r:^Inner m:(Maybe ^Inner) e:(Either Inner ^Inner)
         v:(VarUInteger 16) ^[ y:uint8 ] _:uint4 = Bar;`,
      "Bar",
      (b) => b.storeUint(0b10, 2).storeUint(9, 8).storeUint(0, 2).storeRef(inner).storeBit(true).storeRef(inner)
        .storeBit(true).storeRef(inner).storeUint(1, 4).storeUint(200, 8).storeRef(beginCell().storeUint(1, 8)).storeUint(15, 4),
    );
    expect(r).toEqual({
      ok: true,
      value: {
        "@type": "bar", flags: "2", opt: "9", cnt: "0",
        r: { x: "7" },
        m: { "@type": "just", value: { cell_reference: { x: "7" } } },
        e: { "@type": "right", value: { cell_reference: { x: "7" } } },
        v: { "@type": "var_uint", len: "1", value: "200" },
        "": "15",
      },
    });
  });

  it("untyped cells (Any, ^Cell) are handed back; a ^X bound to Any is wrapped, ^Cell is not", () => {
    const payload = beginCell().storeUint(1, 8).endCell();
    const s = scheme(`baz$_ a:(Maybe ^Cell) b:(Either Any ^Any) {X:Type} c:(Maybe ^X) = Baz X; _ (Baz Any) = BazAny;`);
    const r = readType(s, "BazAny", beginCell().storeBit(true).storeRef(payload).storeBit(true).storeRef(payload).storeBit(true).storeRef(payload).endCell());
    const boc = payload.toBoc({ idx: false, crc32: false }).toString("base64");
    expect(r).toEqual({ ok: true, value: { "": { "@type": "baz", a: { "@type": "just", value: boc }, b: { "@type": "right", value: boc }, c: { "@type": "just", value: { cell_reference: boc } } } } });
  });

  it("hashmaps: labels, forks and leaves as the scheme's constructors", () => {
    const dict = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Uint(16));
    dict.set(1, 100).set(2, 200);
    const r = read(`_ d:(HashmapE 8 uint16) = D;`, "D", (b) => b.storeDict(dict));
    expect(r.ok && JSON.stringify(r.value)).toBe(
      JSON.stringify({
        d: {
          "@type": "hme_root",
          root: {
            "@type": "hm_edge",
            label: { "@type": "hml_same", v: false, n: "6" },
            node: {
              "@type": "fork",
              left: { "@type": "hm_edge", label: { "@type": "hml_short", len: unary(1), s: "C_" }, node: { "@type": "leaf", value: "100" } },
              right: { "@type": "hm_edge", label: { "@type": "hml_short", len: unary(1), s: "4_" }, node: { "@type": "leaf", value: "200" } },
            },
          },
        },
      }),
    );
  });

  it("selects constructors by parameter (HashmapNode 0 / n+1) and by tag of any length", () => {
    const r = read(`a#0 = T; b$10 x:uint2 = T; c#ff = T; w {n:#} t:(Maybe (## 3)) = W n; _ w:(W 5) t:T t2:T = P;`, "P", (b) =>
      b.storeUint(0, 1).storeUint(0, 4).storeUint(0b1011, 4).storeUint(0xff, 8),
    );
    expect(r.ok).toBe(false); // `w` has no tag: TL-B gives it the CRC32 of its declaration
    const ok = read(`a#0 = T; b$10 x:uint2 = T; c#ff = T; _ t:T t2:T t3:T = P;`, "P", (b) => b.storeUint(0, 4).storeUint(0b1011, 4).storeUint(0xff, 8));
    expect(ok).toEqual({ ok: true, value: { t: { "@type": "a" }, t2: { "@type": "b", x: "3" }, t3: { "@type": "c" } } });
  });
});

function unary(n: number): object {
  let u: object = { "@type": "unary_zero" };
  for (let i = 0; i < n; i++) u = { "@type": "unary_succ", x: u };
  return u;
}

describe("errors", () => {
  it("name the constructor and the field where reading stopped", () => {
    const r = read(`_ x:uint8 = Inner; outer#01 a:uint8 b:(Maybe ^Inner) = Outer;`, "Outer", (b) => b.storeUint(1, 8).storeUint(5, 8).storeBit(true).storeRef(beginCell().storeUint(1, 4)));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toBe("outer.b > just.value > Inner.x: needs 8 bits, 4 left");
    const c = read(`c$_ a:(## 4) { a <= 3 } = C;`, "C", (b) => b.storeUint(9, 4));
    expect(!c.ok && c.error.message).toBe("c: constraint fails: 9 <= 3");
  });

  it("a scheme error names the line", () => {
    expect(() => compileScheme(parseScheme("a$0 x:Nope = A;"))).toThrow(new TlbSchemeError("line 1: a: unknown type 'Nope'"));
    expect(() => parseScheme("a$0 x:uint8 = A")).toThrow(TlbSchemeError);
  });
});

describe("bounds", () => {
  it("a 10,000-deep chain of refs is refused quickly, not recursed", () => {
    let cell = beginCell().storeBit(false).endCell();
    for (let i = 0; i < 10_000; i++) cell = beginCell().storeBit(true).storeRef(cell).endCell();
    const t0 = performance.now();
    const r = readType(scheme(`ch$_ next:(Maybe ^Chain) = Chain;`), "Chain", cell);
    expect(!r.ok && r.error.message).toMatch(/nested (deeper than 1100|too deep)/);
    const body = beginCell().storeUint(0x0f8a7ea5, 32).storeRef(cell).endCell();
    const d = messageDecoder().decode(body);
    expect(!d.ok && d.error.message).toMatch(/deeper than 1024/);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it("a wide hashmap stops at 4,096 references", () => {
    const s = scheme(`_ d:(HashmapE 16 uint8) = D;`);
    const wide = Dictionary.empty(Dictionary.Keys.Uint(16), Dictionary.Values.Uint(8));
    for (let i = 0; i < 5000; i++) wide.set(i, i & 255);
    const r = readType(s, "D", beginCell().storeDict(wide).endCell());
    expect(!r.ok && r.error.message).toMatch(/more than 4096 references/);
    const small = Dictionary.empty(Dictionary.Keys.Uint(16), Dictionary.Values.Uint(8));
    for (let i = 0; i < 1000; i++) small.set(i * 7, i & 255);
    expect(readType(s, "D", beginCell().storeDict(small).endCell()).ok).toBe(true);
  });
});

describe("message bodies", () => {
  const d = messageDecoder();
  it("names opcodes, also for bodies that fail to decode", () => {
    expect(d.opcodeName(0x0f8a7ea5)).toBe("jetton_transfer");
    expect(d.opcodeName(0xdeadbeef)).toBeNull();
    const bad = beginCell().storeUint(0x0f8a7ea5, 32).storeUint(1, 8).endCell();
    const r = d.decode(bad);
    expect(!r.ok && r.error.message).toMatch(/^jetton_transfer\.query_id: needs 64 bits/);
  });
  it("text and encrypted comments; an empty cell", () => {
    const text = d.decode(beginCell().storeUint(0, 32).storeStringTail("héllo").endCell());
    expect(text).toEqual({ ok: true, value: { "@type": "text_comment", text: "héllo" } });
    const enc = d.decode(beginCell().storeUint(0x2167da4b, 32).storeUint(0xabcdef, 24).endCell());
    expect(enc.ok && (enc.value as any)["@type"]).toBe("encrypted_text_comment");
    expect(d.decode(Cell.EMPTY)).toEqual({ ok: true, value: { "@type": "empty_cell" } });
  });
});
