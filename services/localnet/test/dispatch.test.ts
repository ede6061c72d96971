// The liteserver dispatcher on raw TL bytes: routing, the waitMasterchainSeqno
// prefix, and liteServer.error answers for anything wrong.
import { liteApi, type TlObject } from "@tongate/tl";
import { describe, expect, it } from "vitest";
import { createLiteDispatcher } from "../src/liteserver/dispatch.js";
import { LiteErrorCode, notInDb } from "../src/liteserver/errors.js";

const waited: number[] = [];
const dispatch = createLiteDispatcher({
  handlers: {
    "liteServer.getTime": () => ({ kind: "liteServer.currentTime", now: 1234 }),
    "liteServer.getBlock": () => {
      throw notInDb("block (0,8000000000000000,5)");
    },
    "liteServer.getVersion": () => {
      throw new Error("boom");
    },
  },
  waitMasterchainSeqno: async (seqno) => {
    waited.push(seqno);
  },
});

const query = (...fns: TlObject[]) =>
  liteApi.encode({ kind: "liteServer.query", data: Buffer.concat(fns.map((f) => liteApi.encode(f))) });
const answer = async (bytes: Buffer) => liteApi.decode(Buffer.from(await dispatch(bytes, {} as never)));

describe("liteserver dispatch", () => {
  it("routes a query to its handler and encodes the result", async () => {
    expect(await answer(query({ kind: "liteServer.getTime" }))).toEqual({ kind: "liteServer.currentTime", now: 1234 });
  });

  it("honours the waitMasterchainSeqno prefix", async () => {
    const r = await answer(query({ kind: "liteServer.waitMasterchainSeqno", seqno: 42, timeout_ms: 1000 }, { kind: "liteServer.getTime" }));
    expect(r.kind).toBe("liteServer.currentTime");
    expect(waited).toContain(42);
  });

  it("answers liteServer.error for unknown, failing and malformed queries", async () => {
    const unknown = await answer(query({ kind: "liteServer.getOutMsgQueueSizes", mode: 0 }));
    expect(unknown).toMatchObject({ kind: "liteServer.error", code: LiteErrorCode.protoviolation });
    const nf = await answer(query({ kind: "liteServer.getBlock", id: { kind: "tonNode.blockIdExt", workchain: 0, shard: -(2n ** 63n), seqno: 5, root_hash: Buffer.alloc(32), file_hash: Buffer.alloc(32) } }));
    expect(nf).toMatchObject({ kind: "liteServer.error", code: LiteErrorCode.notready, message: "block (0,8000000000000000,5): not in db" });
    expect(await answer(query({ kind: "liteServer.getVersion" }))).toMatchObject({ kind: "liteServer.error", code: LiteErrorCode.error, message: "boom" });
    for (const garbage of [Buffer.alloc(0), Buffer.from("hello world"), Buffer.alloc(64, 0xff)]) {
      expect((await answer(garbage)).kind).toBe("liteServer.error");
    }
    const trailing = liteApi.encode({ kind: "liteServer.query", data: Buffer.concat([liteApi.encode({ kind: "liteServer.getTime" }), Buffer.alloc(4)]) });
    expect(await answer(trailing)).toMatchObject({ kind: "liteServer.error", code: LiteErrorCode.protoviolation });
  });
});
