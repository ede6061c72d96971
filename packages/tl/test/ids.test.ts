import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { crc32, liteApi, TlSchema, TlSchemaError } from "../src/index.js";

const require = createRequire(import.meta.url);

describe("crc32", () => {
  it("is the IEEE CRC-32", () => {
    expect(crc32("123456789")).toBe(0xcbf43926);
    expect(crc32("")).toBe(0);
  });
});

describe("constructor ids of lite_api.tl", () => {
  const known: Array<[string, number, string]> = [
    // name, id, little-endian wire bytes
    ["liteServer.query", 0x798c06df, "df068c79"],
    ["liteServer.getMasterchainInfo", 0x89b5e62e, "2ee6b589"],
    ["liteServer.masterchainInfo", 0x85832881, "81288385"],
    ["adnl.message.query", 0xb48bf97a, "7af98bb4"],
    ["adnl.message.answer", 0x0fac8416, "1684ac0f"],
    ["tcp.ping", 0x4d082b9a, "9a2b084d"],
    ["liteServer.waitMasterchainSeqno", 0xbaeab892, "92b8eaba"],
    ["liteServer.error", 0xbba9e148, "48e1a9bb"],
    ["pub.ed25519", 0x4813b4c6, "c6b41348"],
    // Built-ins, computed from their declarations in the schema.
    ["int", 0xa8509bda, "da9b50a8"],
    ["vector", 0x1cb5c415, "15c4b51c"],
    ["true", 0x3fedd339, "39d3ed3f"],
    ["boolTrue", 0x997275b5, "b5757299"],
    ["boolFalse", 0xbc799737, "379779bc"],
    // Explicit ids in the schema text.
    ["liteServer.transactionId", 0xb12f65af, "af652fb1"],
    ["liteServer.signatureSet.ordinary", 0xf644a6e6, "e6a644f6"],
    ["liteServer.getValidatorStats", 0x091a58bc, "bc581a09"],
  ];
  for (const [name, id, wire] of known) {
    it(`${name} = 0x${id.toString(16).padStart(8, "0")}`, () => {
      const c = liteApi.byName(name);
      expect(c?.id).toBe(id);
      expect(liteApi.byId(id)?.name).toBe(name);
      const le = Buffer.alloc(4);
      le.writeUInt32LE(id);
      expect(le.toString("hex")).toBe(wire);
    });
  }

  it("encodes the boxed ids little-endian on the wire", () => {
    expect(liteApi.encode({ kind: "liteServer.getMasterchainInfo" }).toString("hex")).toBe("2ee6b589");
    expect(liteApi.encode({ kind: "tcp.ping", random_id: 0n }).subarray(0, 4).toString("hex")).toBe("9a2b084d");
  });

  it("explicit ids equal the CRC of the definitions they preserve (the normalizer agrees with tl-parser)", () => {
    // Old definitions from earlier lite_api.tl revisions, before fields were added and the id pinned.
    expect(crc32("liteServer.transactionId mode:# account:mode.0?int256 lt:mode.1?long hash:mode.2?int256 = liteServer.TransactionId")).toBe(0xb12f65af);
    expect(
      crc32("liteServer.signatureSet validator_set_hash:int catchain_seqno:int signatures:vector liteServer.signature = liteServer.SignatureSet"),
    ).toBe(0xf644a6e6);
  });

  it("normalizes the declaration text like TON's tl-parser", () => {
    expect(liteApi.byName("vector")?.normalized).toBe("vector t:Type # [ t ] = Vector t");
    expect(liteApi.byName("int128")?.normalized).toBe("int128 4*[ int ] = Int128");
    expect(liteApi.byName("int")?.normalized).toBe("int ? = Int");
    expect(liteApi.byName("liteServer.transactionList")?.normalized).toBe(
      "liteServer.transactionList ids:vector tonNode.blockIdExt transactions:bytes = liteServer.TransactionList",
    );
    // A declaration spread over two lines.
    expect(liteApi.byName("liteServer.dispatchQueueMessages")?.normalized).toBe(
      "liteServer.dispatchQueueMessages mode:# id:tonNode.blockIdExt messages:vector liteServer.dispatchQueueMessage complete:Bool proof:mode.0?bytes messages_boc:mode.2?bytes = liteServer.DispatchQueueMessages",
    );
  });

  it("knows every declaration of lite_api.tl plus the TCP transport objects", () => {
    const text = readFileSync(new URL("../schema/lite_api.tl", import.meta.url), "utf8");
    const declared = text.match(/^[a-zA-Z][\w.]*(?=[\s#])/gm) ?? [];
    for (const name of declared) expect(liteApi.byName(name), name).toBeDefined();
    expect(liteApi.functions.map((f) => f.name)).toContain("liteServer.nonfinal.getPendingShardBlocks");
    expect(liteApi.functionResultType("liteServer.getMasterchainInfo")).toBe("liteServer.MasterchainInfo");
    expect(liteApi.functionResultType("liteServer.query")).toBe("Object");
    expect(liteApi.functionResultType("tcp.ping")).toBe("tcp.Pong");
    expect(() => liteApi.functionResultType("liteServer.masterchainInfo")).toThrow(TlSchemaError);
  });
});

/** Constructor and function ids in ton-lite-client's generated codec (dist/schema.js). */
function tonLiteClientIds(): Map<string, number> {
  const src = readFileSync(require.resolve("ton-lite-client/dist/schema.js"), "utf8");
  const codecsAt = src.indexOf("exports.Codecs = {");
  expect(codecsAt).toBeGreaterThan(0);
  const codecs = src.slice(codecsAt);
  const ids = new Map<string, number>();
  // Boxed codecs: `if (kind === 'name') { encoder.writeInt32(id);`
  for (const m of codecs.matchAll(/if \(kind === '([^']+)'\) \{\s*encoder\.writeInt32\((-?\d+)\);/g)) ids.set(m[1], Number(m[2]) >>> 0);
  // Functions: `key: { encodeRequest: (src, encoder) => { encoder.writeInt32(id); exports.Codecs.key.encode…`
  for (const m of src.slice(0, codecsAt).matchAll(/encoder\.writeInt32\((-?\d+)\); exports\.Codecs\.(\w+)\.encode/g)) {
    const at = codecs.indexOf(`\n    ${m[2]}: {`);
    const kind = /kind: '([^']+)'/.exec(codecs.slice(at))?.[1];
    expect(kind, m[2]).toBeDefined();
    ids.set(kind as string, Number(m[1]) >>> 0);
  }
  return ids;
}

describe("ids agree with ton-lite-client's schema", () => {
  const theirs = tonLiteClientIds();
  // Differences explained by schema history / a ton-tl bug, checked explicitly below.
  const renamed = new Map([["liteServer.signatureSet", "liteServer.signatureSet.ordinary"]]);
  // ton-tl hashes the raw line including "#091a58bc" instead of using the explicit id; TON uses 0x091a58bc.
  const tonTlBug = new Map([["liteServer.getValidatorStats", crc32("liteServer.getValidatorStats#091a58bc mode:# id:tonNode.blockIdExt limit:int start_after:mode.0?int256 modified_after:mode.2?int = liteServer.ValidatorStats")]]);

  it("extracts a meaningful number of ids", () => {
    expect(theirs.size).toBeGreaterThanOrEqual(60);
  });

  it("every constructor and function present in both schemas has the same id", () => {
    let compared = 0;
    for (const [name, id] of theirs) {
      if (tonTlBug.has(name)) continue;
      const ours = liteApi.byName(renamed.get(name) ?? name);
      expect(ours, `${name} is in ton-lite-client's schema but not ours`).toBeDefined();
      expect({ name, id: ours?.id.toString(16) }).toEqual({ name, id: id.toString(16) });
      compared++;
    }
    expect(compared).toBe(theirs.size - tonTlBug.size);
  });

  it("the only mismatch is ton-tl ignoring an explicit #id", () => {
    for (const [name, bad] of tonTlBug) {
      expect(theirs.get(name)).toBe(bad);
      expect(liteApi.byName(name)?.id).toBe(0x091a58bc);
    }
  });
});

describe("schema parser", () => {
  it("accepts extra schema text and comments, with sections per text", () => {
    const s = TlSchema.parse([
      "/* block\ncomment */ foo.bar x:int = foo.Bar; // trailing",
      "tcp.pong random_id:long = tcp.Pong;\n---functions---\ntcp.ping random_id:long = tcp.Pong;",
    ]);
    expect(s.byName("foo.bar")?.isFunction).toBe(false);
    expect(s.byName("tcp.ping")?.isFunction).toBe(true);
    expect(s.byName("tcp.ping")?.id).toBe(0x4d082b9a);
    expect(s.byName("tcp.pong")?.isFunction).toBe(false);
    // Built-in types work without their declarations.
    expect(s.decode(s.encode({ kind: "foo.bar", x: -5 }))).toEqual({ kind: "foo.bar", x: -5 });
  });

  it("drops parentheses, braces and extra whitespace from the id text, and honours explicit ids", () => {
    const a = TlSchema.parse("a.b  xs:( vector  (vector int) )\n  m:# y:m.3?%a.C = a.B;\na.c = a.C;");
    expect(a.byName("a.b")?.normalized).toBe("a.b xs:vector vector int m:# y:m.3?%a.C = a.B");
    expect(a.byName("a.b")?.id).toBe(crc32("a.b xs:vector vector int m:# y:m.3?%a.C = a.B"));
    const c = TlSchema.parse("a.b#deadbeef xs:(vector int) = a.B;");
    expect(c.byName("a.b")?.id).toBe(0xdeadbeef);
    const v = a.encode({ kind: "a.b", xs: [[1], []], m: 8, y: { kind: "a.c" } });
    expect(a.decode(v)).toEqual({ kind: "a.b", xs: [[1], []], m: 8, y: { kind: "a.c" } });
  });

  it("ignores identical repeated declarations but rejects conflicting ones", () => {
    const extra = "adnl.message.query query_id:int256 query:bytes = adnl.Message;";
    expect(() => TlSchema.parse([readFileSync(new URL("../schema/lite_api.tl", import.meta.url), "utf8"), extra])).not.toThrow();
    expect(() => TlSchema.parse(["x.a v:int = x.A;", "x.a v:long = x.A;"])).toThrow(/redefined/);
    expect(() => TlSchema.parse("x.a#00000001 = x.A; x.b#00000001 = x.A;")).toThrow(/same id/);
  });

  it("reports schema errors clearly", () => {
    expect(() => TlSchema.parse("x.a v:x.Unknown = x.A;")).toThrow(TlSchemaError);
    expect(() => TlSchema.parse("x.a v:x.Unknown = x.A;")).toThrow(/unknown type x.Unknown/);
    expect(() => TlSchema.parse("x.a mode:int v:mode.0?int = x.A;")).toThrow(/not an earlier # field/);
    expect(() => TlSchema.parse("x.a kind:int = x.A;")).toThrow(/kind/);
    expect(() => TlSchema.parse("x.a v:int x.A;")).toThrow(/line 1/);
    expect(() => TlSchema.parse("x.a v:int = x.A")).toThrow(/expected ';'/);
    expect(() => TlSchema.parse("x.a $ = x.A;")).toThrow(/unexpected character/);
    expect(() => TlSchema.parse("x.a v:mode.40?int mode:# = x.A;")).toThrow(/out of range/);
  });

  it("registers unsupported constructors (generics) with their id but refuses to use them", () => {
    const s = TlSchema.parse("x.box {X:Type} v:X = x.Box X;");
    expect(s.byName("x.box")?.id).toBe(crc32("x.box X:Type v:X = x.Box X"));
    expect(() => s.encode({ kind: "x.box", v: 1 })).toThrow(/generic/);
  });
});
