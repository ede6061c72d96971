// Byte-exact interop with ton-lite-client's generated codec (ton-tl), used as an independent oracle.
//
// Their conventions differ: camelCase field names, long as a decimal string, absent conditional fields as
// null. Their codec also predates some schema changes (no transactionId.metadata) and writes `true` flag
// fields as a Bool (a ton-tl bug), so samples avoid those.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { liteApi, type TlObject } from "../src/index.js";

const require = createRequire(import.meta.url);
const theirSchema = require("ton-lite-client/dist/schema.js");
const { TLReadBuffer, TLWriteBuffer } = createRequire(require.resolve("ton-lite-client"))("ton-tl");
const Codecs: Record<string, any> = theirSchema.Codecs;
const Functions: Record<string, any> = theirSchema.Functions;

const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const key = (name: string) => name.replaceAll(".", "_");

/** Our value → their value shape. */
function toTheirs(v: unknown): unknown {
  if (typeof v === "bigint") return v.toString();
  if (Buffer.isBuffer(v)) return Buffer.from(v);
  if (Array.isArray(v)) return v.map(toTheirs);
  if (v !== null && typeof v === "object") {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) o[k === "kind" ? k : camel(k)] = toTheirs(x);
    return o;
  }
  return v;
}

/** Their decoded value with absent (null) fields removed, comparable to toTheirs(ours). */
function stripNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripNulls);
  if (v !== null && typeof v === "object" && !Buffer.isBuffer(v)) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== null) o[k] = stripNulls(x);
    return o;
  }
  return v;
}

function theirEncode(value: TlObject): Buffer {
  const w = new TLWriteBuffer();
  const c = liteApi.byName(value.kind);
  if (!c) throw new Error(value.kind);
  if (c.isFunction) Functions[key(c.name)].encodeRequest(toTheirs(value), w);
  else Codecs[key(c.type)].encode(toTheirs(value), w);
  return Buffer.from(w.build());
}

function theirDecode(kind: string, bytes: Buffer): unknown {
  // Their readInt64 mutates the input buffer; give it a copy.
  const r = new TLReadBuffer(Buffer.from(bytes));
  const c = liteApi.byName(kind);
  if (!c) throw new Error(kind);
  let v: unknown;
  if (c.isFunction) {
    expect(r.readUInt32()).toBe(c.id);
    v = Codecs[key(c.name)].decode(r);
  } else {
    v = Codecs[key(c.type)].decode(r);
  }
  expect(() => r.readUInt8(), "their decoder left bytes unread").toThrow();
  return stripNulls(v);
}

/** ours → bytes must equal theirs → bytes; each side decodes the other's bytes to the same value. */
function check(value: TlObject): Buffer {
  const ours = liteApi.encode(value);
  const theirs = theirEncode(value);
  expect(ours.toString("hex")).toBe(theirs.toString("hex"));
  expect(theirDecode(value.kind, ours)).toEqual(toTheirs(value));
  expect(liteApi.decode(theirs)).toEqual(value);
  return ours;
}

const h32 = (b: number) => Buffer.alloc(32, b);
const blk = (seqno: number, shard = -0x8000000000000000n, workchain = -1) => ({
  kind: "tonNode.blockIdExt",
  workchain,
  shard,
  seqno,
  root_hash: h32(seqno & 0xff),
  file_hash: h32((seqno + 1) & 0xff),
});

describe("interop with ton-lite-client", () => {
  it("liteServer.query(liteServer.getMasterchainInfo) inside adnl.message.query", () => {
    const inner = check({ kind: "liteServer.getMasterchainInfo" });
    const query = check({ kind: "liteServer.query", data: inner });
    check({ kind: "adnl.message.query", query_id: h32(0x5a), query });
  });

  it("liteServer.masterchainInfo and its adnl.message.answer", () => {
    const answer = check({
      kind: "liteServer.masterchainInfo",
      last: blk(22560807),
      state_root_hash: h32(0x8b),
      init: { kind: "tonNode.zeroStateIdExt", workchain: -1, root_hash: h32(0x17), file_hash: h32(0x5e) },
    });
    check({ kind: "adnl.message.answer", query_id: h32(1), answer });
  });

  it("liteServer.accountState with short and long bytes", () => {
    for (const [n, big] of [[0, 0], [5, 1], [253, 2], [254, 3], [300, 70_000]]) {
      check({
        kind: "liteServer.accountState",
        id: blk(7),
        shardblk: blk(8, 0x2000000000000000n, 0),
        shard_proof: Buffer.alloc(n, 1),
        proof: Buffer.alloc((n * 3) % 1000, 2),
        state: Buffer.alloc(big, 3),
      });
    }
  });

  it("liteServer.runMethodResult under every combination of its flag bits", () => {
    for (let mode = 0; mode < 32; mode++) {
      const v: Record<string, unknown> = { kind: "liteServer.runMethodResult", mode, id: blk(1), shardblk: blk(2), exit_code: -14 };
      if (mode & 1) {
        v.shard_proof = Buffer.from("shard proof");
        v.proof = Buffer.alloc(300, 9);
      }
      if (mode & 2) v.state_proof = Buffer.from("state");
      if (mode & 8) v.init_c7 = Buffer.from("c7");
      if (mode & 16) v.lib_extras = Buffer.from("libs");
      if (mode & 4) v.result = Buffer.from("result stack");
      check(v as TlObject);
    }
  });

  it("liteServer.runSmcMethod and getAccountState requests", () => {
    const account = { kind: "liteServer.accountId", workchain: 0, id: h32(0xee) };
    check({ kind: "liteServer.runSmcMethod", mode: 4, id: blk(3), account, method_id: 85143n, params: Buffer.from("b5ee9c72", "hex") });
    check({ kind: "liteServer.getAccountState", id: blk(3), account });
  });

  it("liteServer.blockTransactions with a vector of transactionId with varied flags", () => {
    const ids = [
      { kind: "liteServer.transactionId", mode: 0 },
      { kind: "liteServer.transactionId", mode: 1, account: h32(1) },
      { kind: "liteServer.transactionId", mode: 2, lt: 123456789012345n },
      { kind: "liteServer.transactionId", mode: 4, hash: h32(3) },
      { kind: "liteServer.transactionId", mode: 7, account: h32(4), lt: -5n, hash: h32(6) },
    ];
    check({ kind: "liteServer.blockTransactions", id: blk(9), req_count: 40, incomplete: true, ids, proof: Buffer.alloc(0) });
    check({ kind: "liteServer.blockTransactions", id: blk(9), req_count: 0, incomplete: false, ids: [], proof: Buffer.from("p") });
  });

  it("liteServer.error", () => {
    check({ kind: "liteServer.error", code: 651, message: "block is not applied" });
    check({ kind: "liteServer.error", code: -400, message: "x".repeat(300) });
  });

  it("more requests and answers: lookupBlock, getConfigParams, getLibraries, partialBlockProof, waitMasterchainSeqno, transactionList", () => {
    const id = { kind: "tonNode.blockId", workchain: -1, shard: -0x8000000000000000n, seqno: 5 };
    check({ kind: "liteServer.lookupBlock", mode: 1, id });
    check({ kind: "liteServer.lookupBlock", mode: 2, id, lt: 44000000000001n });
    check({ kind: "liteServer.lookupBlock", mode: 4, id, utime: 1700000000 });
    check({ kind: "liteServer.getConfigParams", mode: 0, id: blk(4), param_list: [0, 1, 34, -1] });
    check({ kind: "liteServer.getLibraries", library_list: [h32(1), h32(2)] });
    check({ kind: "liteServer.waitMasterchainSeqno", seqno: 100, timeout_ms: 3000 });
    check({ kind: "liteServer.transactionList", ids: [blk(1), blk(2)], transactions: Buffer.alloc(500, 7) });
    check({
      kind: "liteServer.partialBlockProof",
      complete: true,
      from: blk(1),
      to: blk(2),
      steps: [
        { kind: "liteServer.blockLinkBack", to_key_block: false, from: blk(1), to: blk(2), dest_proof: Buffer.from("d"), proof: Buffer.from("p"), state_proof: Buffer.from("s") },
      ],
    });
    check({ kind: "liteServer.getBlockProof", mode: 1, known_block: blk(1), target_block: blk(9) });
    check({ kind: "liteServer.getBlockProof", mode: 0, known_block: blk(1) });
  });
});
