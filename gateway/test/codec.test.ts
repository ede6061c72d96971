// Unit tests of the request codec (gateway/src/codec/parse.ts) on the contract's
// real request messages: query strings, JSON bodies and the input rules of the
// options proto. Every client mistake is an InputError whose message starts with
// the parameter it is about (or names the group of parameters).
import { toJson, type DescMessage, type Message, type MessageShape } from "@bufbuild/protobuf";
import { ListValueSchema } from "@bufbuild/protobuf/wkt";
import { GetAddressInformationRequestSchema } from "@tongate/proto/gen/tongate/v2/accounts_pb.js";
import { GetShardsRequestSchema, LookupBlockRequestSchema } from "@tongate/proto/gen/tongate/v2/blocks_pb.js";
import { GetConfigParamRequestSchema, GetLibrariesRequestSchema } from "@tongate/proto/gen/tongate/v2/config_pb.js";
import { LiteProxy } from "@tongate/proto/gen/tongate/v2/lite_proxy_pb.js";
import { RunGetMethodRequestSchema, RunGetMethodStdRequestSchema } from "@tongate/proto/gen/tongate/v2/run_get_method_pb.js";
import { EstimateFeeRequestSchema, Send, SendBocRequestSchema } from "@tongate/proto/gen/tongate/v2/send_pb.js";
import { GetBlockTransactionsRequestSchema, GetTransactionsRequestSchema } from "@tongate/proto/gen/tongate/v2/transactions_pb.js";
import { DetectAddressRequestSchema } from "@tongate/proto/gen/tongate/v2/utils_pb.js";
import { GetActionsRequestSchema } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import { describe, expect, it } from "vitest";
import { InputError, parseBody, parseQuery, type ParseOptions } from "../src/codec/parse.js";

const RAW = "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8";
const FRIENDLY = "EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N";
const HASH_HEX = "83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8";
const HASH_B64 = "g9/VUuY3KbRy/LzIxF68xmkXAlWLaOx1J+G6QDoPMag=";
/** A one-cell bag of cells, standard base64. */
const BOC = "te6cckEBAQEAAgAAAEysuc0=";
const MIN_INT64 = -(2n ** 63n);
const MAX_INT64 = 2n ** 63n - 1n;

const v2 = { rejectUnknown: false };
const v3 = { rejectUnknown: true };

function query<D extends DescMessage>(desc: D, qs: string, opts: ParseOptions = v2): MessageShape<D> {
  return parseQuery(desc, new URLSearchParams(qs), opts) as unknown as MessageShape<D>;
}

function body<D extends DescMessage>(desc: D, json: unknown, opts: ParseOptions = v2): MessageShape<D> {
  // Through JSON text, as the gateway receives it.
  return parseBody(desc, JSON.parse(JSON.stringify(json)), opts) as unknown as MessageShape<D>;
}

/** The InputError `f` throws (failing the test when it throws nothing or something else). */
function inputError(f: () => unknown): InputError {
  try {
    f();
  } catch (e) {
    expect(e, String(e)).toBeInstanceOf(InputError);
    expect((e as InputError).status).toBe(422);
    return e as InputError;
  }
  throw new Error("expected an InputError, nothing was thrown");
}

const queryError = (desc: DescMessage, qs: string, opts = v2) => inputError(() => query(desc, qs, opts)).message;
const bodyError = (desc: DescMessage, json: unknown, opts = v2) => inputError(() => body(desc, json, opts)).message;


describe("the requests tested are the contract's", () => {
  it("are the input messages of API v2 RPCs (LiteProxy, Send)", () => {
    const inputs = new Set([...LiteProxy.methods, ...Send.methods].map((m) => m.input.typeName));
    for (const d of [
      GetAddressInformationRequestSchema,
      GetShardsRequestSchema,
      LookupBlockRequestSchema,
      GetConfigParamRequestSchema,
      GetLibrariesRequestSchema,
      RunGetMethodRequestSchema,
      RunGetMethodStdRequestSchema,
      EstimateFeeRequestSchema,
      SendBocRequestSchema,
      GetBlockTransactionsRequestSchema,
      GetTransactionsRequestSchema,
      DetectAddressRequestSchema,
    ]) {
      expect(inputs, d.typeName).toContain(d.typeName);
    }
  });
});

describe("parseQuery", () => {
  it("takes numbers given as strings, leaving absent optional fields unset", () => {
    const m = query(GetAddressInformationRequestSchema, `address=${encodeURIComponent(RAW)}&seqno=123`);
    expect(m.address).toBe(RAW);
    expect(m.seqno).toBe(123);
    const n = query(GetAddressInformationRequestSchema, `address=${FRIENDLY}`);
    expect(n.address).toBe(FRIENDLY);
    expect(n.seqno).toBeUndefined();
  });

  it("rejects what is not an integer, naming the field", () => {
    for (const bad of ["abc", "1.5", "", "0x10", "1e3", " 1"]) {
      expect(queryError(GetShardsRequestSchema, `seqno=${encodeURIComponent(bad)}`), bad).toMatch(/^seqno: expected an integer, got /);
    }
  });

  it("makes a list of a repeated key (getLibraries libraries)", () => {
    const m = query(GetLibrariesRequestSchema, `libraries=${HASH_HEX}&libraries=${encodeURIComponent(HASH_B64)}`);
    expect(m.libraries).toEqual([HASH_HEX, HASH_B64]);
    expect(query(GetLibrariesRequestSchema, `libraries=${HASH_HEX}`).libraries).toEqual([HASH_HEX]);
    expect(query(GetLibrariesRequestSchema, "").libraries).toEqual([]);
  });

  it("checks each item of a list, naming it by index", () => {
    expect(queryError(GetLibrariesRequestSchema, `libraries=${HASH_HEX}&libraries=nothex`)).toMatch(/^libraries\[1\]: "nothex" is not a 256-bit hash/);
  });

  it("takes the last value of a repeated key for a single field", () => {
    expect(query(GetShardsRequestSchema, "seqno=1&seqno=2&seqno=3").seqno).toBe(3);
    // Only the last one is checked, as only the last one counts.
    expect(query(GetShardsRequestSchema, "seqno=0&seqno=7").seqno).toBe(7);
  });

  it("takes true/1 and false/0 for a bool, and nothing else", () => {
    const base = `address=${FRIENDLY}`;
    for (const [v, b] of [
      ["true", true],
      ["1", true],
      ["false", false],
      ["0", false],
    ] as const) {
      expect(query(GetTransactionsRequestSchema, `${base}&archival=${v}`).archival, v).toBe(b);
    }
    expect(query(GetTransactionsRequestSchema, base).archival).toBeUndefined();
    for (const v of ["yes", "", "2", "TRUE"]) {
      expect(queryError(GetTransactionsRequestSchema, `${base}&archival=${v}`), v).toMatch(/^archival: expected true or false, got /);
    }
  });

  it("takes the int64 extremes for shard, exactly, and rejects one past them", () => {
    const base = "workchain=-1&seqno=1";
    const min = query(LookupBlockRequestSchema, `${base}&shard=-9223372036854775808`);
    expect(min.shard).toBe(MIN_INT64);
    expect(typeof min.shard).toBe("bigint");
    expect(min.workchain).toBe(-1);
    expect(query(LookupBlockRequestSchema, `${base}&shard=9223372036854775807`).shard).toBe(MAX_INT64);
    // 2^53 + 1: a double would round it.
    expect(query(LookupBlockRequestSchema, `${base}&shard=9007199254740993`).shard).toBe(9007199254740993n);
    expect(queryError(LookupBlockRequestSchema, `${base}&shard=9223372036854775808`)).toMatch(/^shard: 9223372036854775808 is out of range/);
    expect(queryError(LookupBlockRequestSchema, `${base}&shard=-9223372036854775809`)).toMatch(/^shard: -9223372036854775809 is out of range/);
    expect(queryError(LookupBlockRequestSchema, `${base}&shard=123456789012345678901234`)).toMatch(/^shard: expected an integer/);
  });

  it("rejects an int32 out of range, naming the field", () => {
    const base = "shard=-9223372036854775808&seqno=1";
    expect(query(LookupBlockRequestSchema, `${base}&workchain=2147483647`).workchain).toBe(2147483647);
    expect(query(LookupBlockRequestSchema, `${base}&workchain=-2147483648`).workchain).toBe(-2147483648);
    expect(queryError(LookupBlockRequestSchema, `${base}&workchain=2147483648`)).toMatch(/^workchain: 2147483648 is out of range \(-2147483648\.\.2147483647\)/);
    expect(queryError(LookupBlockRequestSchema, `${base}&workchain=-2147483649`)).toMatch(/^workchain: -2147483649 is out of range/);
  });

  it("ignores unknown keys with rejectUnknown: false", () => {
    const m = query(GetShardsRequestSchema, "seqno=5&api_key=secret&foo=1&foo=2", v2);
    expect(m.seqno).toBe(5);
  });

  it("rejects unknown keys with rejectUnknown: true, naming each and what is accepted", () => {
    expect(queryError(GetShardsRequestSchema, "seqno=5&foo=1", v3)).toMatch(/^unknown parameter "foo"; accepted: seqno$/);
    expect(queryError(LookupBlockRequestSchema, "workchain=0&shard=1&seqno=1&foo=1&bar=2", v3)).toMatch(
      /^unknown parameters "foo", "bar"; accepted: workchain, shard, seqno, lt, unixtime$/,
    );
  });

  it("takes config_id as an alias of getConfigParam's param", () => {
    expect(query(GetConfigParamRequestSchema, "config_id=34").param).toBe(34);
    expect(query(GetConfigParamRequestSchema, "param=15").param).toBe(15);
    // An alias is a known key, even when unknown keys are rejected.
    expect(query(GetConfigParamRequestSchema, "config_id=34&seqno=9", v3)).toMatchObject({ param: 34, seqno: 9 });
    expect(queryError(GetConfigParamRequestSchema, "seqno=9")).toMatch(/^param: required parameter is missing/);
  });

  it("refuses message fields in a query string, pointing to a POST body", () => {
    expect(queryError(RunGetMethodStdRequestSchema, `address=${FRIENDLY}&method=seqno&stack=x`)).toMatch(/^stack: cannot be given in the query string; send it in a POST JSON body/);
  });
});

describe("parseBody", () => {
  it("wants a JSON object", () => {
    for (const b of [null, [], "x", 1, true]) {
      expect(inputError(() => parseBody(GetShardsRequestSchema, b, v2)).message, JSON.stringify(b)).toMatch(/^the request body must be a JSON object/);
    }
  });

  it("takes numbers and numeric strings, and null as not given", () => {
    expect(body(GetShardsRequestSchema, { seqno: 7 }).seqno).toBe(7);
    expect(body(GetShardsRequestSchema, { seqno: "7" }).seqno).toBe(7);
    expect(body(GetAddressInformationRequestSchema, { address: RAW, seqno: null }).seqno).toBeUndefined();
    expect(bodyError(GetShardsRequestSchema, { seqno: 1.5 })).toMatch(/^seqno: expected an integer, got 1\.5/);
    expect(bodyError(GetShardsRequestSchema, { seqno: [1] })).toMatch(/^seqno: expected an integer/);
    expect(bodyError(GetShardsRequestSchema, { seqno: null })).toMatch(/^seqno: required parameter is missing/);
  });

  it("takes an int64 as a decimal string, not as an imprecise JSON number", () => {
    const base = { workchain: -1, seqno: 1 };
    expect(body(LookupBlockRequestSchema, { ...base, shard: "-9223372036854775808" }).shard).toBe(MIN_INT64);
    expect(body(LookupBlockRequestSchema, { ...base, shard: 8000000000000000 }).shard).toBe(8000000000000000n);
    // -9223372036854775808 as a JSON number is a double that is not a safe integer.
    expect(bodyError(LookupBlockRequestSchema, { ...base, shard: -9223372036854775808 })).toMatch(/^shard: expected an integer/);
  });

  it("takes bools as JSON booleans, 1/0 and their strings", () => {
    const base = { address: RAW, body: BOC };
    for (const [v, b] of [
      [true, true],
      [false, false],
      [1, true],
      [0, false],
      ["true", true],
      ["0", false],
    ] as const) {
      expect(body(EstimateFeeRequestSchema, { ...base, ignore_chksig: v }).ignoreChksig, String(v)).toBe(b);
    }
    expect(bodyError(EstimateFeeRequestSchema, { ...base, ignore_chksig: "no" })).toMatch(/^ignore_chksig: expected true or false, got "no"/);
  });

  it("builds runGetMethodStd's typed stack by each entry's \"@type\", nested tuples included", () => {
    const m = body(RunGetMethodStdRequestSchema, {
      address: RAW,
      method: "get_wallet_data",
      stack: [
        { "@type": "tvm.stackEntryNumber", number: { "@type": "tvm.numberDecimal", number: "-123" } },
        { "@type": "tvm.stackEntryCell", cell: { "@type": "tvm.cell", bytes: BOC } },
        {
          "@type": "tvm.stackEntryTuple",
          tuple: {
            "@type": "tvm.tuple",
            elements: [
              { "@type": "tvm.stackEntrySlice", slice: { "@type": "tvm.slice", bytes: BOC } },
              { "@type": "tvm.stackEntryTuple", tuple: { "@type": "tvm.tuple", elements: [{ "@type": "tvm.stackEntryNumber", number: { number: "7" } }] } },
            ],
          },
        },
        { "@type": "tvm.stackEntryList", list: { "@type": "tvm.list", elements: [] } },
      ],
      seqno: 100,
    });
    expect(m.address).toBe(RAW);
    expect(m.method).toBe("get_wallet_data");
    expect(m.seqno).toBe(100);
    expect(m.stack.map((e) => e.variant.case)).toEqual(["number", "cell", "tuple", "list"]);
    const [num, cell, tuple, list] = m.stack;
    expect(num!.variant.case === "number" && num!.variant.value.number?.number).toBe("-123");
    expect(cell!.variant.case === "cell" && Buffer.from(cell!.variant.value.cell!.bytes).toString("base64")).toBe(BOC);
    if (tuple!.variant.case !== "tuple") throw new Error("not a tuple");
    const elements = tuple!.variant.value.tuple!.elements;
    expect(elements.map((e) => e.variant.case)).toEqual(["slice", "tuple"]);
    const inner = elements[1]!.variant;
    if (inner.case !== "tuple") throw new Error("not a tuple");
    const deepest = inner.value.tuple!.elements[0]!.variant;
    expect(deepest.case === "number" && deepest.value.number?.number).toBe("7");
    expect(list!.variant.case === "list" && list!.variant.value.list!.elements).toEqual([]);
  });

  it("rejects an unknown or missing \"@type\" in a typed stack, listing the accepted types", () => {
    const accepted = "tvm.stackEntrySlice, tvm.stackEntryCell, tvm.stackEntryNumber, tvm.stackEntryTuple, tvm.stackEntryList, tvm.stackEntryUnsupported";
    const base = { address: RAW, method: "seqno" };
    expect(bodyError(RunGetMethodStdRequestSchema, { ...base, stack: [{ "@type": "tvm.stackEntryNumber", number: { number: "1" } }, { "@type": "tvm.stackEntryFloat" }] })).toBe(
      `stack[1]: "@type" must be one of ${accepted}; got "tvm.stackEntryFloat"`,
    );
    expect(bodyError(RunGetMethodStdRequestSchema, { ...base, stack: [{ number: { number: "1" } }] })).toBe(`stack[0]: "@type" must be one of ${accepted}; got null`);
    // Inside a tuple, the path leads to the entry.
    const nested = { "@type": "tvm.stackEntryTuple", tuple: { elements: [{ "@type": "num" }] } };
    expect(bodyError(RunGetMethodStdRequestSchema, { ...base, stack: [nested] })).toMatch(/^stack\[0\]\.tuple\.elements\[0\]: "@type" must be one of tvm\.stackEntrySlice/);
    expect(bodyError(RunGetMethodStdRequestSchema, { ...base, stack: ["num"] })).toMatch(/^stack\[0\]: expected a JSON object/);
  });

  it("checks values inside stack entries, naming their path", () => {
    const base = { address: RAW, method: "seqno" };
    expect(bodyError(RunGetMethodStdRequestSchema, { ...base, stack: [{ "@type": "tvm.stackEntryCell", cell: { bytes: "not base64!" } }] })).toMatch(/^stack\[0\]\.cell\.bytes: expected base64 data/);
    expect(bodyError(RunGetMethodStdRequestSchema, { ...base, stack: [{ "@type": "tvm.stackEntryCell", cell: { bytes: BOC, foo: 1 } }] }, v3)).toMatch(/^unknown parameter "stack\[0\]\.cell\.foo"; accepted: bytes$/);
    // The same unknown key is ignored in API v2.
    expect(body(RunGetMethodStdRequestSchema, { ...base, stack: [{ "@type": "tvm.stackEntryCell", cell: { bytes: BOC, foo: 1 } }] }).stack).toHaveLength(1);
  });

  it("keeps runGetMethod's legacy stack of [type, value] pairs as they are", () => {
    const cell = { bytes: BOC, object: { data: { b64: "", len: 0 }, refs: [], special: false } };
    const m = body(RunGetMethodRequestSchema, { address: FRIENDLY, method: "seqno", stack: [["num", "0x1"], ["cell", cell], ["num", 5]] });
    expect(m.stack.map((l) => toJson(ListValueSchema, l))).toEqual([["num", "0x1"], ["cell", cell], ["num", 5]]);
    expect(body(RunGetMethodRequestSchema, { address: FRIENDLY, method: "seqno", stack: [] }).stack).toEqual([]);
    expect(bodyError(RunGetMethodRequestSchema, { address: FRIENDLY, method: "seqno", stack: [{ num: 1 }] })).toMatch(/^stack\[0\]: expected a JSON array/);
    expect(bodyError(RunGetMethodRequestSchema, { address: FRIENDLY, method: "seqno", stack: ["num"] })).toMatch(/^stack\[0\]: expected a JSON array/);
    // 1e400 is Infinity once parsed: a Value would take it and fail to give it back
    const overflow = JSON.parse(`{"address":"${FRIENDLY}","method":"seqno","stack":[["num",{"n":[1e400]}]]}`);
    expect(inputError(() => parseBody(RunGetMethodRequestSchema, overflow, v2)).message).toBe("stack[0]: a number is out of the range of a double");
  });

  it("takes a method given as a number as its decimal string", () => {
    expect(body(RunGetMethodRequestSchema, { address: RAW, method: 85143, stack: [] }).method).toBe("85143");
    expect(body(RunGetMethodStdRequestSchema, { address: RAW, method: 0, stack: [] }).method).toBe("0");
    expect(bodyError(RunGetMethodRequestSchema, { address: RAW, method: true, stack: [] })).toMatch(/^method: expected a string, got true/);
  });

  it("takes config_id as an alias of getConfigParam's param", () => {
    expect(body(GetConfigParamRequestSchema, { config_id: 34 }).param).toBe(34);
    expect(body(GetConfigParamRequestSchema, { config_id: "34" }, v3).param).toBe(34);
    expect(body(GetConfigParamRequestSchema, { param: 12 }).param).toBe(12);
  });
});

describe("rules", () => {
  it("requires required fields, in query strings and bodies", () => {
    expect(queryError(GetAddressInformationRequestSchema, "seqno=5")).toMatch(/^address: required parameter is missing$/);
    expect(bodyError(RunGetMethodRequestSchema, { address: RAW, method: "seqno" })).toMatch(/^stack: required parameter is missing$/);
    expect(bodyError(RunGetMethodStdRequestSchema, { address: RAW, stack: [] })).toMatch(/^method: required parameter is missing$/);
    expect(queryError(LookupBlockRequestSchema, "workchain=0&seqno=1")).toMatch(/^shard: required parameter is missing$/);
    expect(queryError(SendBocRequestSchema, "")).toMatch(/^boc: required parameter is missing$/);
  });

  it("refuses an empty required string", () => {
    expect(queryError(GetAddressInformationRequestSchema, "address=")).toMatch(/^address: must not be empty$/);
    expect(bodyError(DetectAddressRequestSchema, { address: "" })).toMatch(/^address: must not be empty$/);
    expect(bodyError(RunGetMethodRequestSchema, { address: RAW, method: "", stack: [] })).toMatch(/^method: must not be empty$/);
    expect(bodyError(SendBocRequestSchema, { boc: "" })).toMatch(/^boc: must not be empty$/);
  });

  it("checks formats: addresses and BoCs", () => {
    expect(queryError(GetAddressInformationRequestSchema, "address=EQ123")).toMatch(/^address: "EQ123" is not a TON address: .*Accepted: /);
    expect(bodyError(SendBocRequestSchema, { boc: "@@@" })).toMatch(/^boc: expected a bag of cells in base64$/);
  });

  it("applies gte and lte bounds", () => {
    expect(queryError(GetShardsRequestSchema, "seqno=0")).toMatch(/^seqno: must be at least 1, got 0$/);
    expect(queryError(GetShardsRequestSchema, "seqno=-5")).toMatch(/^seqno: must be at least 1, got -5$/);
    expect(query(GetShardsRequestSchema, "seqno=1").seqno).toBe(1);
    const block = "workchain=0&shard=-9223372036854775808&seqno=1";
    expect(query(GetBlockTransactionsRequestSchema, `${block}&count=10000`).count).toBe(10000);
    expect(queryError(GetBlockTransactionsRequestSchema, `${block}&count=10001`)).toMatch(/^count: must be at most 10000, got 10001$/);
    expect(queryError(GetBlockTransactionsRequestSchema, `${block}&count=0`)).toMatch(/^count: must be at least 1, got 0$/);
    expect(bodyError(GetTransactionsRequestSchema, { address: RAW, limit: 1001 })).toMatch(/^limit: must be at most 1000, got 1001$/);
    // int64 bounds compare exactly.
    expect(queryError(GetTransactionsRequestSchema, `address=${FRIENDLY}&to_lt=-1`)).toMatch(/^to_lt: must be at least 0, got -1$/);
    expect(queryError(GetBlockTransactionsRequestSchema, `${block}&after_lt=0&after_hash=${HASH_HEX}`)).toMatch(/^after_lt: must be at least 1, got 0$/);
  });

  it("bounds the number of items (maxItems)", () => {
    const hashes = (n: number) => Array.from({ length: n }, () => `libraries=${HASH_HEX}`).join("&");
    expect(query(GetLibrariesRequestSchema, hashes(256)).libraries).toHaveLength(256);
    expect(queryError(GetLibrariesRequestSchema, hashes(257))).toMatch(/^libraries: at most 256 values, got 257$/);
    expect(bodyError(GetLibrariesRequestSchema, { libraries: Array.from({ length: 300 }, () => HASH_B64) })).toMatch(/^libraries: at most 256 values, got 300$/);
  });

  it("wants exactly one of lookupBlock's seqno, lt and unixtime", () => {
    const base = "workchain=-1&shard=-9223372036854775808";
    const bySeqno = query(LookupBlockRequestSchema, `${base}&seqno=10`);
    expect([bySeqno.seqno, bySeqno.lt, bySeqno.unixtime]).toEqual([10, undefined, undefined]);
    const byLt = query(LookupBlockRequestSchema, `${base}&lt=47000000000001`);
    expect([byLt.seqno, byLt.lt, byLt.unixtime]).toEqual([undefined, 47000000000001n, undefined]);
    expect(query(LookupBlockRequestSchema, `${base}&unixtime=1700000000`).unixtime).toBe(1700000000);
    expect(queryError(LookupBlockRequestSchema, base)).toMatch(/^exactly one of seqno, lt, unixtime must be given, got 0$/);
    expect(queryError(LookupBlockRequestSchema, `${base}&seqno=10&lt=5`)).toMatch(/^exactly one of seqno, lt, unixtime must be given, got 2$/);
    expect(bodyError(LookupBlockRequestSchema, { workchain: 0, shard: "0", seqno: 1, lt: 1, unixtime: 1 })).toMatch(/^exactly one of seqno, lt, unixtime must be given, got 3$/);
    // A zero counts as given: presence is what matters, not the value.
    expect(query(LookupBlockRequestSchema, `${base}&unixtime=0`).unixtime).toBe(0);
  });

  it("wants getTransactions' lt and hash together or not at all", () => {
    const base = `address=${FRIENDLY}`;
    const neither = query(GetTransactionsRequestSchema, base);
    expect([neither.lt, neither.hash]).toEqual([undefined, undefined]);
    const both = query(GetTransactionsRequestSchema, `${base}&lt=47000000000001&hash=${HASH_HEX}`);
    expect([both.lt, both.hash]).toEqual([47000000000001n, HASH_HEX]);
    expect(queryError(GetTransactionsRequestSchema, `${base}&lt=47000000000001`)).toMatch(/^lt and hash must be given together$/);
    expect(queryError(GetTransactionsRequestSchema, `${base}&hash=${HASH_HEX}`)).toMatch(/^lt and hash must be given together$/);
    expect(bodyError(GetTransactionsRequestSchema, { address: RAW, hash: HASH_B64 })).toMatch(/^lt and hash must be given together$/);
    // null is "not given", on both sides.
    expect(body(GetTransactionsRequestSchema, { address: RAW, lt: null, hash: null }).lt).toBeUndefined();
  });

  it("checks getConfigParam's param whether given by name or by its config_id alias", () => {
    expect(queryError(GetConfigParamRequestSchema, "config_id=x")).toMatch(/^param: expected an integer/);
    expect(bodyError(GetConfigParamRequestSchema, { config_id: 2 ** 31 })).toMatch(/^param: 2147483648 is out of range/);
    expect(bodyError(GetConfigParamRequestSchema, {})).toMatch(/^param: required parameter is missing$/);
  });
});

describe("deep nesting", () => {
  /** A typed stack entry: a tuple nested `depth` times around a number. */
  function nestedTuple(depth: number): unknown {
    let entry: unknown = { "@type": "tvm.stackEntryNumber", number: { "@type": "tvm.numberDecimal", number: "1" } };
    for (let i = 0; i < depth; i++) entry = { "@type": "tvm.stackEntryTuple", tuple: { "@type": "tvm.tuple", elements: [entry] } };
    return entry;
  }

  function tupleDepth(m: Message & { stack: unknown[] }): number {
    let d = 0;
    let e = (m.stack as { variant: { case?: string; value?: unknown } }[])[0]!;
    while (e.variant.case === "tuple") {
      d++;
      e = (e.variant.value as { tuple: { elements: typeof e[] } }).tuple.elements[0]!;
    }
    return d;
  }

  it("takes tuples nested within the limit", () => {
    const m = body(RunGetMethodStdRequestSchema, { address: RAW, method: "seqno", stack: [nestedTuple(15)] });
    expect(tupleDepth(m)).toBe(15);
  });

  // parse.ts counts message levels (MAX_DEPTH = 32): a tuple entry is two of them
  // (tvm.stackEntryTuple, tvm.tuple), so 15 nested tuples (plus the number at
  // the bottom) reach 32 and 16 go beyond.
  it("answers an InputError beyond 32 levels, naming the path, not a crash", () => {
    for (const depth of [16, 40, 1000, 100_000]) {
      // Built without JSON text: JSON.stringify itself would overflow the stack at the largest depth.
      const stack = [nestedTuple(depth)];
      const e = inputError(() => parseBody(RunGetMethodStdRequestSchema, { address: RAW, method: "seqno", stack }, v2));
      expect(e.message, `depth ${depth}`).toMatch(/^stack\[0\](?:\.tuple\.elements\[0\])+: nested too deeply$/);
    }
  });

  // The path of a nested message ends in "." for its fields; the message drops it.
  it("names the too-deep path without a trailing dot", () => {
    const e = inputError(() => parseBody(RunGetMethodStdRequestSchema, { address: RAW, method: "seqno", stack: [nestedTuple(16)] }, v2));
    expect(e.message).toBe(`stack[0]${".tuple.elements[0]".repeat(16)}: nested too deeply`);
  });

  function nestedList(depth: number): unknown {
    let v: unknown = ["num", "1"];
    for (let i = 0; i < depth; i++) v = ["tuple", v];
    return v;
  }

  it("takes runGetMethod's legacy stack nested within the limit", () => {
    const m = body(RunGetMethodRequestSchema, { address: RAW, method: "seqno", stack: [nestedList(20)] });
    expect(toJson(ListValueSchema, m.stack[0]!)).toEqual(nestedList(20));
  });

  it("answers an InputError for very deeply nested arrays in runGetMethod's legacy stack, not a crash", () => {
    for (const depth of [1000, 100_000]) {
      const e = inputError(() => parseBody(RunGetMethodRequestSchema, { address: RAW, method: "seqno", stack: [nestedList(depth)] }, v2));
      expect(e.message, `depth ${depth}`).toMatch(/^stack\[0\]: /);
    }
  });

  // Legacy stack entries (google.protobuf.Value/ListValue) are decoded by
  // protobuf-es's fromJson, under the same depth limit as the rest of the body.
  it("applies the 32-level limit to runGetMethod's legacy stack too", () => {
    const e = inputError(() => parseBody(RunGetMethodRequestSchema, { address: RAW, method: "seqno", stack: [nestedList(40)] }, v2));
    expect(e.message).toMatch(/^stack\[0\]: nested too deeply$/);
  });
});

describe("a parameter given by a header, a pattern (API v3 /actions)", () => {
  it("takes the header's value in place of the parameter's, as one item", () => {
    const headers = { "x-actions-version": "v2" };
    expect(query(GetActionsRequestSchema, "supported_action_types=latest&supported_action_types=jettons", { ...v3, headers }).supportedActionTypes).toEqual(["v2"]);
    expect(query(GetActionsRequestSchema, "", { ...v3, headers }).supportedActionTypes).toEqual(["v2"]);
    expect(body(GetActionsRequestSchema, {}, { ...v3, headers }).supportedActionTypes).toEqual(["v2"]);
    expect(query(GetActionsRequestSchema, "supported_action_types=v3", v3).supportedActionTypes).toEqual(["v3"]);
  });

  it("names the header when its value breaks the parameter's rules", () => {
    expect(inputError(() => query(GetActionsRequestSchema, "", { ...v3, headers: { "x-actions-version": "v2,v3" } })).message).toMatch(/^X-Actions-Version header: contains invalid characters/);
  });

  it("checks each item of a list against the pattern", () => {
    expect(query(GetActionsRequestSchema, "action_type=jetton_transfer&action_type=nft.v3", v3).actionType).toEqual(["jetton_transfer", "nft.v3"]);
    expect(inputError(() => query(GetActionsRequestSchema, "action_type=ok&action_type=not-ok", v3)).message).toMatch(/^action_type\[1\]: contains invalid characters \(expected \^\[A-Za-z0-9_\.\]\+\$\), got "not-ok"/);
    expect(inputError(() => query(GetActionsRequestSchema, "exclude_action_type=", v3)).message).toMatch(/^exclude_action_type\[0\]/);
  });
});
