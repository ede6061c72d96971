import { describe, expect, it } from "vitest";
import { liteApi, TlDecodeError, TlEncodeError, type TlObject, TlSchema, TlSchemaError } from "../src/index.js";
import { rng, sampleOf } from "./samples.js";

const h = (s: string) => Buffer.from(s.replace(/\s+/g, ""), "hex");

function roundTrip(value: TlObject): Buffer {
  const bytes = liteApi.encode(value);
  const back = liteApi.decode(bytes);
  expect(back).toEqual(value);
  // Canonical: re-encoding the decoded value gives the same bytes.
  expect(liteApi.encode(back).equals(bytes)).toBe(true);
  expect(bytes.length % 4).toBe(0);
  return bytes;
}

describe("round trips of every lite_api constructor and function", () => {
  const all = liteApi.all.filter((c) => !c.builtin);
  it("covers the whole liteServer API", () => {
    expect(all.filter((c) => c.isFunction && c.name.startsWith("liteServer.")).length).toBe(34);
    expect(all.filter((c) => !c.isFunction && c.name.startsWith("liteServer.")).length).toBe(49);
  });
  for (const c of all) {
    it(`${c.isFunction ? "function" : "constructor"} ${c.name}`, () => {
      const rand = rng(c.id);
      for (const flags of ["none", "all", "random", "random", "random"] as const) {
        const v = sampleOf(liteApi, c.name, rand, { flags });
        const bytes = roundTrip(v);
        expect(liteApi.peekId(bytes)).toBe(c.id);
        if (c.isFunction) {
          expect(liteApi.decode(bytes, "Function")).toEqual(v);
        } else {
          expect(liteApi.decode(bytes, c.type)).toEqual(v);
          // Bare form: same bytes without the 4-byte id.
          const bare = liteApi.encodeBare(c.name, v);
          expect(bare.equals(bytes.subarray(4))).toBe(true);
          expect(liteApi.decodeBare(c.name, bare)).toEqual(v);
        }
      }
    });
  }
});

describe("wire format", () => {
  it("matches the documented getMasterchainInfo query frame payload", () => {
    const queryId = h("77c1545b96fa136b8e01cc08338bec47e8a43215492dda6d4d7e286382bb00c4");
    const inner = liteApi.encode({ kind: "liteServer.getMasterchainInfo" });
    const query = liteApi.encode({ kind: "liteServer.query", data: inner });
    const frame = liteApi.encode({ kind: "adnl.message.query", query_id: queryId, query });
    expect(frame.toString("hex")).toBe(
      "7af98bb4" + "77c1545b96fa136b8e01cc08338bec47e8a43215492dda6d4d7e286382bb00c4" + "0c" + "df068c79" + "04" + "2ee6b589" + "000000" + "000000",
    );
    const msg = liteApi.decode(frame, "adnl.Message");
    expect(msg.kind).toBe("adnl.message.query");
    const q = liteApi.decode(msg.query as Buffer, "Function");
    expect(q.kind).toBe("liteServer.query");
    expect(liteApi.decode(q.data as Buffer, "Function")).toEqual({ kind: "liteServer.getMasterchainInfo" });
  });

  it("matches the documented masterchainInfo answer frame payload", () => {
    const answer = h(`81288385
      ffffffff 0000000000000080 27405801
      e585a47bd5978f6a4fb2b56aa2082ec9deac33aaae19e78241b97522e1fb43d4
      876851b60521311853f59c002d46b0bd80054af4bce340787a00bd04e0123517
      8b4d3b38b06bb484015faf9821c3ba1c609a25b74f30e1e585b8c8e820ef0976
      ffffffff
      17a3a92992aabea785a7a090985a265cd31f323d849da51239737e321fb05569
      5e994fcf4d425c0a6ce6a792594b7173205f740a39cd56f537defd28b48a0f6e`);
    const v = liteApi.decode(answer, liteApi.functionResultType("liteServer.getMasterchainInfo"));
    expect(v).toMatchObject({
      kind: "liteServer.masterchainInfo",
      last: { kind: "tonNode.blockIdExt", workchain: -1, shard: -0x8000000000000000n, seqno: 0x01584027 },
      init: { kind: "tonNode.zeroStateIdExt", workchain: -1 },
    });
    expect((v.state_root_hash as Buffer).toString("hex")).toBe("8b4d3b38b06bb484015faf9821c3ba1c609a25b74f30e1e585b8c8e820ef0976");
    const framed = liteApi.encode({ kind: "adnl.message.answer", query_id: Buffer.alloc(32, 7), answer });
    expect(framed.subarray(36, 37).toString("hex")).toBe("b8"); // 184-byte answer, short length form
    expect(framed.length).toBe(4 + 32 + 1 + 184 + 3);
    expect(liteApi.encode(v).equals(answer)).toBe(true);
  });

  it("encodes bytes with the short form below 254 and 0xFE + 3-byte length from 254", () => {
    for (const [n, header] of [
      [0, "00"],
      [1, "01"],
      [3, "03"],
      [253, "fd"],
      [254, "fefe0000"],
      [255, "feff0000"],
      [70000, "fe701101"],
    ] as const) {
      const data = Buffer.alloc(n, 0xab);
      const enc = liteApi.encodeBare("bytes", data);
      expect(enc.subarray(0, header.length / 2).toString("hex"), `n=${n}`).toBe(header);
      expect(enc.length % 4).toBe(0);
      expect(enc.length).toBe(Math.ceil((header.length / 2 + n) / 4) * 4);
      expect(Buffer.compare(enc.subarray(header.length / 2 + n), Buffer.alloc(enc.length - header.length / 2 - n))).toBe(0);
      expect((liteApi.decodeBare("bytes", enc) as Buffer).equals(data)).toBe(true);
    }
  });

  it("strings are UTF-8 with the bytes framing", () => {
    const enc = liteApi.encode({ kind: "liteServer.error", code: -400, message: "ошибка ✓" });
    expect(liteApi.decode(enc)).toEqual({ kind: "liteServer.error", code: -400, message: "ошибка ✓" });
    const bad = Buffer.from(enc);
    bad[9] = 0xff; // inside the string data
    expect(() => liteApi.decode(bad)).toThrow(/UTF-8/);
  });

  it("numbers: int is signed 32-bit, # unsigned, long a signed bigint; unsigned inputs are accepted", () => {
    expect(liteApi.decodeBare("int", liteApi.encodeBare("int", 0xffffffff))).toBe(-1);
    expect(liteApi.decodeBare("#", liteApi.encodeBare("#", 0xffffffff))).toBe(0xffffffff);
    expect(liteApi.decodeBare("long", liteApi.encodeBare("long", 0x8000000000000000n))).toBe(-0x8000000000000000n);
    expect(liteApi.decodeBare("long", liteApi.encodeBare("long", 5))).toBe(5n);
    expect(liteApi.encodeBare("long", -2n).toString("hex")).toBe("feffffffffffffff");
    expect(liteApi.decodeBare("double", liteApi.encodeBare("double", 1.5))).toBe(1.5);
    expect(liteApi.decodeBare("vector int256", liteApi.encodeBare("(vector int256)", [Buffer.alloc(32, 1)]))).toEqual([Buffer.alloc(32, 1)]);
    expect(liteApi.decodeBare("Bool", h("b5757299"))).toBe(true);
    expect(liteApi.decodeBare("Bool", h("379779bc"))).toBe(false);
    expect(liteApi.encodeBare("Vector int", [7]).toString("hex")).toBe("15c4b51c" + "01000000" + "07000000");
  });

  it("flag-only `true` fields take no bytes and decode as true", () => {
    const v = {
      kind: "liteServer.listBlockTransactions",
      id: { kind: "tonNode.blockIdExt", workchain: 0, shard: 1n, seqno: 2, root_hash: Buffer.alloc(32), file_hash: Buffer.alloc(32) },
      mode: (1 << 5) | (1 << 6),
      count: 10,
      reverse_order: true,
      want_proof: true,
    };
    const a = liteApi.encode(v);
    const b = liteApi.encode({ ...v, mode: 0, reverse_order: undefined, want_proof: false });
    expect(a.length).toBe(b.length);
    expect(liteApi.decode(a)).toEqual(v);
    expect(liteApi.decode(b)).toEqual({ ...v, mode: 0, reverse_order: undefined, want_proof: undefined });
  });

  it("decodePrefix reads the waitMasterchainSeqno prefix and the query after it", () => {
    const data = Buffer.concat([
      liteApi.encode({ kind: "liteServer.waitMasterchainSeqno", seqno: 100, timeout_ms: 5000 }),
      liteApi.encode({ kind: "liteServer.getMasterchainInfo" }),
    ]);
    expect(() => liteApi.decode(data, "Function")).toThrow(/4 trailing bytes/);
    const first = liteApi.decodePrefix(data, "Function");
    expect(first.value).toEqual({ kind: "liteServer.waitMasterchainSeqno", seqno: 100, timeout_ms: 5000 });
    const second = liteApi.decodePrefix(data, "Function", first.end);
    expect(second).toEqual({ value: { kind: "liteServer.getMasterchainInfo" }, end: data.length });
  });

  it("expected types restrict what decode and encode accept", () => {
    const err = liteApi.encode({ kind: "liteServer.error", code: 1, message: "x" });
    expect(() => liteApi.decode(err, "liteServer.MasterchainInfo")).toThrow(/unknown constructor id 0xbba9e148 for liteServer.MasterchainInfo/);
    expect(liteApi.decode(err, ["liteServer.MasterchainInfo", "liteServer.Error"]).kind).toBe("liteServer.error");
    expect(liteApi.decode(err, "Object").kind).toBe("liteServer.error");
    expect(() => liteApi.decode(err, "Function")).toThrow(TlDecodeError);
    expect(() => liteApi.encode({ kind: "liteServer.error", code: 1, message: "x" }, "liteServer.MasterchainInfo")).toThrow(TlEncodeError);
    expect(() => liteApi.decode(err, "liteServer.error")).toThrow(/use decodeBare/);
    expect(() => liteApi.decode(err, "nope.Nope")).toThrow(TlSchemaError);
  });

  it("accepts Uint8Array input and returns views into it", () => {
    const buf = liteApi.encode({ kind: "liteServer.sendMessage", body: Buffer.from("abc") });
    const u8 = new Uint8Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
    const v = liteApi.decode(u8);
    expect((v.body as Buffer).toString()).toBe("abc");
    expect((v.body as Buffer).buffer).toBe(u8.buffer);
  });
});

describe("encode validation (flags are the caller's responsibility)", () => {
  const blk = { kind: "tonNode.blockIdExt", workchain: -1, shard: -0x8000000000000000n, seqno: 1, root_hash: Buffer.alloc(32), file_hash: Buffer.alloc(32) };
  const rmr = { kind: "liteServer.runMethodResult", mode: 4, id: blk, shardblk: blk, exit_code: 0, result: Buffer.from("r") };

  it("accepts consistent flags", () => {
    expect(() => liteApi.encode(rmr)).not.toThrow();
    expect(() => liteApi.encode({ ...rmr, proof: null, shard_proof: undefined })).not.toThrow();
  });
  it("rejects a set bit whose field is missing", () => {
    expect(() => liteApi.encode({ ...rmr, mode: 5 })).toThrow(/liteServer.runMethodResult.shard_proof: mode has bit 0 set but the field is/);
  });
  it("rejects a present field whose bit is clear", () => {
    expect(() => liteApi.encode({ ...rmr, state_proof: Buffer.alloc(1) })).toThrow(/state_proof: field is present .* bit 1 of mode is clear/);
  });
  it("rejects `true` fields without their bit, and bits without `true`", () => {
    const lbt = { kind: "liteServer.getBlockOutMsgQueueSize", mode: 0, id: blk };
    expect(() => liteApi.encode({ ...lbt, want_proof: true })).toThrow(/bit 0 of mode is clear/);
    expect(() => liteApi.encode({ ...lbt, mode: 1 })).toThrow(/bit 0 set/);
    expect(liteApi.encode({ ...lbt, mode: 1, want_proof: true }).length).toBe(liteApi.encode(lbt).length);
  });
  it("rejects wrong shapes and ranges with the field path", () => {
    expect(() => liteApi.encode({ ...rmr, exit_code: 2 ** 32 })).toThrow(/liteServer.runMethodResult.exit_code: expected an integer/);
    expect(() => liteApi.encode({ ...rmr, exit_code: 1.5 })).toThrow(TlEncodeError);
    expect(() => liteApi.encode({ ...rmr, mode: -1 })).toThrow(/mode: expected an integer in \[0, 2\^32\)/);
    expect(() => liteApi.encode({ ...rmr, id: { ...blk, root_hash: Buffer.alloc(31) } })).toThrow(/root_hash: expected 32 bytes/);
    expect(() => liteApi.encode({ ...rmr, id: { ...blk, shard: 2n ** 64n } })).toThrow(/shard/);
    expect(() => liteApi.encode({ ...rmr, id: { ...blk, shard: "1" } })).toThrow(/shard: expected a bigint/);
    expect(() => liteApi.encode({ ...rmr, id: { ...blk, kind: "tonNode.blockId" } })).toThrow(/expected kind tonNode.blockIdExt/);
    expect(() => liteApi.encode({ ...rmr, id: undefined })).toThrow(/runMethodResult.id: expected an object/);
    expect(() => liteApi.encode({ kind: "liteServer.nope" })).toThrow(/kind liteServer.nope is not/);
    expect(() => liteApi.encode({ kind: "liteServer.error", code: 1, message: Buffer.from("x") })).toThrow(/message: expected a string/);
    expect(() => liteApi.encode({ kind: "liteServer.getLibraries", library_list: "x" })).toThrow(/library_list: expected an array/);
    expect(() => liteApi.encode({ kind: "liteServer.getShardInfo", id: blk, workchain: 0, shard: 0n, exact: 1 })).toThrow(/exact: expected a boolean/);
  });
  it("rejects bytes over 16 MiB - 1", () => {
    expect(() => liteApi.encodeBare("bytes", Buffer.alloc(1 << 24))).toThrow(/exceed the TL maximum/);
  });
  it("rejects cyclic values", () => {
    const s = TlSchema.parse("t.node next:t.Tree = t.Tree; t.leaf = t.Tree;");
    const a: Record<string, unknown> = { kind: "t.node" };
    a.next = a;
    expect(() => s.encode(a as unknown as TlObject)).toThrow(TlEncodeError);
  });
  it("is reusable after an error (shared scratch buffer)", () => {
    expect(() => liteApi.encode({ ...rmr, mode: 5 })).toThrow();
    expect(liteApi.decode(liteApi.encode(rmr))).toEqual(rmr);
  });
});
