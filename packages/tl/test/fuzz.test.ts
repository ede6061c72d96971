// Untrusted input: malformed bytes must fail fast with TlDecodeError, never anything else.
import { describe, expect, it } from "vitest";
import { liteApi, TlDecodeError, type TlObject, TlSchema } from "../src/index.js";
import { rng, sampleOf } from "./samples.js";

function expectDecodeError(f: () => unknown, message?: RegExp): void {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(TlDecodeError);
  if (message) expect((err as Error).message).toMatch(message);
}

const u32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v >>> 0);
  return b;
};
const idOf = (name: string) => u32(liteApi.byName(name)?.id as number);

describe("adversarial inputs", () => {
  it("empty, short and unknown-id inputs", () => {
    expectDecodeError(() => liteApi.decode(Buffer.alloc(0)), /truncated input: any object needs 4 bytes, 0 left/);
    expectDecodeError(() => liteApi.decode(Buffer.from([1, 2, 3])), /truncated/);
    expectDecodeError(() => liteApi.decode(u32(0x12345678)), /unknown constructor id 0x12345678/);
  });

  it("truncation anywhere in a valid message", () => {
    const full = liteApi.encode({ kind: "liteServer.error", code: 1, message: "hello world" });
    for (let n = 0; n < full.length; n++) expectDecodeError(() => liteApi.decode(full.subarray(0, n)));
  });

  it("trailing bytes", () => {
    const full = Buffer.concat([liteApi.encode({ kind: "liteServer.getTime" }), Buffer.alloc(4)]);
    expectDecodeError(() => liteApi.decode(full), /4 trailing bytes after any object \(at byte 4\)/);
  });

  it("huge bytes lengths are rejected before any allocation", () => {
    const msg = Buffer.concat([idOf("liteServer.sendMessage"), Buffer.from([0xfe, 0xff, 0xff, 0xff]), Buffer.alloc(16)]);
    expectDecodeError(() => liteApi.decode(msg), /declares 16777215 bytes/);
    const ff = Buffer.concat([idOf("liteServer.sendMessage"), Buffer.from([0xff, 0, 0, 0])]);
    expectDecodeError(() => liteApi.decode(ff), /0xff/);
  });

  it("absurd vector counts are rejected from the remaining length, in constant time", () => {
    const msg = Buffer.concat([idOf("liteServer.getLibraries"), u32(0xffffffff), Buffer.alloc(64)]);
    const t0 = performance.now();
    for (let i = 0; i < 1000; i++) expectDecodeError(() => liteApi.decode(msg), /4294967295 elements cannot fit in 64 remaining bytes/);
    expect(performance.now() - t0).toBeLessThan(500);
    // Exactly fitting counts still decode.
    const ok = Buffer.concat([idOf("liteServer.getLibraries"), u32(2), Buffer.alloc(64)]);
    expect((liteApi.decode(ok).library_list as Buffer[]).length).toBe(2);
    // Nested vectors: the bound uses each element's minimum size (vector liteServer.transactionId ≥ 4 bytes).
    const nested = Buffer.concat([idOf("liteServer.nonfinal.validatorGroups"), u32(1 << 30), Buffer.alloc(40)]);
    expectDecodeError(() => liteApi.decode(nested), /cannot fit/);
  });

  it("zero-size elements (vector true) are capped", () => {
    const s = TlSchema.parse("x.flags v:(vector true) = x.Flags;", { limits: { maxZeroSizeVector: 1000 } });
    expect(s.decode(Buffer.concat([u32(s.byName("x.flags")?.id as number), u32(1000)])).v).toHaveLength(1000);
    expectDecodeError(() => s.decode(Buffer.concat([u32(s.byName("x.flags")?.id as number), u32(0xffffffff)])), /exceed the limit of 1000/);
  });

  it("deep nesting is bounded", () => {
    const s = TlSchema.parse("t.node next:t.Tree = t.Tree; t.leaf = t.Tree;");
    const node = u32(s.byName("t.node")?.id as number);
    const leaf = u32(s.byName("t.leaf")?.id as number);
    const ok = Buffer.concat([...Array.from({ length: 50 }, () => node), leaf]);
    expect(s.decode(ok).kind).toBe("t.node");
    const deep = Buffer.concat([...Array.from({ length: 100_000 }, () => node), leaf]);
    expectDecodeError(() => s.decode(deep), /nesting deeper than 64/);
    const deeper = TlSchema.parse("t.node next:t.Tree = t.Tree; t.leaf = t.Tree;", { limits: { maxDepth: 200 } });
    expect(deeper.decode(Buffer.concat([...Array.from({ length: 150 }, () => node), leaf])).kind).toBe("t.node");
  });

  it("invalid Bool values", () => {
    const msg = Buffer.concat([idOf("liteServer.getShardInfo"), Buffer.alloc(80), Buffer.alloc(4), Buffer.alloc(8), u32(0x11111111)]);
    expectDecodeError(() => liteApi.decode(msg), /invalid Bool constructor 0x11111111/);
  });

  it("a wrong constructor inside a polymorphic field", () => {
    const v = liteApi.encode({
      kind: "liteServer.partialBlockProof",
      complete: true,
      from: { kind: "tonNode.blockIdExt", workchain: 0, shard: 0n, seqno: 0, root_hash: Buffer.alloc(32), file_hash: Buffer.alloc(32) },
      to: { kind: "tonNode.blockIdExt", workchain: 0, shard: 0n, seqno: 0, root_hash: Buffer.alloc(32), file_hash: Buffer.alloc(32) },
      steps: [],
    });
    const bad = Buffer.concat([v.subarray(0, v.length - 4), u32(1), idOf("liteServer.error"), Buffer.alloc(400)]);
    expectDecodeError(() => liteApi.decode(bad), /unknown constructor id 0xbba9e148 for liteServer.BlockLink/);
  });
});

describe("fuzz", () => {
  const rand = rng(0xc0ffee);
  const corpus: Buffer[] = [];
  for (const c of liteApi.all) {
    if (c.builtin) continue;
    for (const flags of ["none", "all", "random"] as const) corpus.push(liteApi.encode(sampleOf(liteApi, c.name, rand, { flags })));
  }
  const expectedTypes: Array<string | undefined> = [undefined, "Function", "Object", "liteServer.BlockTransactions", "adnl.Message"];

  function mutate(src: Buffer): Buffer {
    const b = Buffer.from(src);
    const r = rand();
    if (r < 0.25) {
      const n = 1 + ((rand() * 4) | 0);
      for (let i = 0; i < n && b.length; i++) b[(rand() * b.length) | 0] = (rand() * 256) | 0;
      return b;
    }
    if (r < 0.4) return b.subarray(0, (rand() * b.length) | 0);
    if (r < 0.55 && b.length >= 8) {
      // Overwrite an aligned word after the id with an interesting value (lengths, counts, ids).
      const words = [0xffffffff, 0x7fffffff, 0x10000, 254, 0xfffffffe, 0x997275b5, 0x1cb5c415, (rand() * 2 ** 32) >>> 0];
      b.writeUInt32LE(words[(rand() * words.length) | 0], 4 * (1 + ((rand() * (b.length / 4 - 1)) | 0)));
      return b;
    }
    if (r < 0.65) {
      const at = (rand() * (b.length + 1)) | 0;
      return Buffer.concat([b.subarray(0, at), Buffer.from([0xfe, 0xff, 0xff, 0x00]), b.subarray(at)]);
    }
    if (r < 0.75) return Buffer.concat([b, Buffer.alloc(((rand() * 8) | 0) + 1, (rand() * 256) | 0)]);
    if (r < 0.85) {
      const other = corpus[(rand() * corpus.length) | 0];
      return Buffer.concat([b.subarray(0, (rand() * b.length) | 0), other.subarray((rand() * other.length) | 0)]);
    }
    // Fully random, sometimes starting with a valid id.
    const n = (rand() * 300) | 0;
    const out = Buffer.allocUnsafe(n);
    for (let i = 0; i < n; i++) out[i] = (rand() * 256) | 0;
    if (n >= 4 && rand() < 0.5) out.writeUInt32LE(liteApi.all[(rand() * liteApi.all.length) | 0].id);
    return out;
  }

  it("10,000 random and mutated buffers: decode succeeds or throws TlDecodeError, and successes re-encode", () => {
    let ok = 0;
    let failed = 0;
    const t0 = performance.now();
    for (let i = 0; i < 10_000; i++) {
      const buf = mutate(corpus[(rand() * corpus.length) | 0]);
      const expected = expectedTypes[i % expectedTypes.length];
      let v: TlObject;
      try {
        v = liteApi.decode(buf, expected);
      } catch (e) {
        if (!(e instanceof TlDecodeError)) throw new Error(`non-TlDecodeError for ${buf.toString("hex")}: ${String(e)}`);
        failed++;
        continue;
      }
      ok++;
      // Whatever decodes is a valid value: it re-encodes, and that encoding decodes to the same value.
      const again = liteApi.encode(v);
      expect(liteApi.decode(again)).toEqual(v);
      // Also exercise decodeBare on arbitrary bytes.
      try {
        liteApi.decodeBare("liteServer.runMethodResult", buf);
      } catch (e) {
        if (!(e instanceof TlDecodeError)) throw e;
      }
    }
    expect(ok + failed).toBe(10_000);
    expect(failed).toBeGreaterThan(5_000);
    expect(ok).toBeGreaterThan(100);
    expect(performance.now() - t0).toBeLessThan(10_000);
  });
});
