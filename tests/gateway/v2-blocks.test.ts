// API v2 block methods end to end: gateway → lite-proxy → liteserver pool → ADNL → a localnet with a few
// blocks of traffic. Every answer is checked against v2.json and against the blocks the localnet holds.
import { Address } from "@ton/core";
import { verifyBlockLinkBack, type LiteServerBlockLinkBack } from "@tongate/proof";
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, postJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { v2ErrorErrors, v2ResponseErrors } from "../support/v2-schema.js";
import { startTestLocalnet } from "../support/localnet.js";

let net: Localnet;
let t: Embedded;

const MC_SHARD = "-9223372036854775808";

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "v2-blocks" });
  // Traffic: two transfers, each sealed in a block of its own, then an empty block.
  await net.faucet(new Address(0, Buffer.alloc(32, 0x11)), 3_000_000_000n);
  await net.faucet(new Address(0, Buffer.alloc(32, 0x22)), 2_000_000_000n);
  await net.chain.seal();
  t = await startEmbedded({ globalConfig: net.globalConfig() });
});

afterAll(async () => {
  await t?.close();
  await net?.close();
});

type Rec = (typeof net.chain.masterchain)[number];

/** A localnet block as toncenter's ton.blockIdExt. */
const blockId = (r: Rec) => ({
  "@type": "ton.blockIdExt",
  workchain: r.id.workchain,
  shard: BigInt.asIntN(64, r.id.shard).toString(),
  seqno: r.id.seqno,
  root_hash: r.id.rootHash.toString("base64"),
  file_hash: r.id.fileHash.toString("base64"),
});

/** GET /api/v2/<method>?<params>; a 200 must validate against v2.json, an error against its error schema. */
async function get(method: string, params: Record<string, string | number | bigint> = {}) {
  const q = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const r = await getJson(`${t.url}/api/v2/${method}${q ? `?${q}` : ""}`);
  const path = method === "shards" ? "/api/v2/getShards" : `/api/v2/${method}`;
  expect(r.status === 200 ? v2ResponseErrors(path, r.body) : v2ErrorErrors(r.body)).toBeNull();
  return r;
}

const mcBlock = (seqno: number) => net.chain.masterchain[seqno - 1]!;
/** The shard block committed by masterchain block `seqno` (one workchain-0 block per seal). */
const shardBlock = (seqno: number) => net.chain.shardchain.find((b) => b.mcSeqno === seqno)!;

describe("API v2 blocks over a localnet", () => {
  it("lookupBlock finds masterchain and shard blocks by seqno, lt and unixtime (GET, POST, jsonRPC)", async () => {
    const mc = mcBlock(3);
    expect((await get("lookupBlock", { workchain: -1, shard: MC_SHARD, seqno: 3 })).body.result).toEqual(blockId(mc));
    const sh = shardBlock(3);
    const byLt = await get("lookupBlock", { workchain: 0, shard: MC_SHARD, lt: sh.startLt + 1n });
    expect(byLt.body.result).toEqual(blockId(sh));
    const utime = mcBlock(3).genUtime;
    const byTime = (await get("lookupBlock", { workchain: -1, shard: MC_SHARD, unixtime: utime })).body.result;
    expect(byTime).toEqual(blockId(net.chain.masterchain.find((b) => b.genUtime >= utime)!));

    const post = await postJson(`${t.url}/api/v2/lookupBlock`, { workchain: 0, shard: MC_SHARD, seqno: sh.id.seqno });
    expect(post.status).toBe(200);
    expect(v2ResponseErrors("/api/v2/lookupBlock", post.body)).toBeNull();
    expect(post.body.result).toEqual(blockId(sh));
    const rpc = await postJson(`${t.url}/api/v2/jsonRPC`, { jsonrpc: "2.0", id: 7, method: "lookupBlock", params: { workchain: -1, shard: MC_SHARD, seqno: 2 } });
    expect(rpc.body).toMatchObject({ ok: true, id: 7, result: blockId(mcBlock(2)) });
  });

  it("lookupBlock: one selector exactly, a shard id, a block that exists", async () => {
    const two = await get("lookupBlock", { workchain: -1, shard: MC_SHARD, seqno: 2, lt: 5 });
    expect(two.status).toBe(422);
    expect(two.body.error).toMatch(/exactly one of seqno, lt, unixtime/);
    expect((await get("lookupBlock", { workchain: -1, shard: MC_SHARD })).status).toBe(422);
    const zero = await get("lookupBlock", { workchain: 0, shard: 0, seqno: 1 });
    expect(zero.status).toBe(422);
    expect(zero.body.error).toMatch(/^shard: /);
    const future = await get("lookupBlock", { workchain: -1, shard: MC_SHARD, seqno: 10_000 });
    expect(future.status).toBe(404);
    expect(future.body.error).toMatch(/block \(-1,8000000000000000\) with seqno 10000 was not found/);
  });

  it("getShards (and /shards) lists the shard block each masterchain block commits", async () => {
    for (const seqno of [1, 3]) {
      const r = await get("getShards", { seqno });
      expect(r.status).toBe(200);
      expect(r.body.result).toEqual({ "@type": "blocks.shards", shards: [blockId(shardBlock(seqno))] });
    }
    const alias = await get("shards", { seqno: 2 });
    expect(alias.body.result.shards).toEqual([blockId(shardBlock(2))]);
    expect((await get("getShards", { seqno: 10_000 })).status).toBe(404);
  });

  it("getBlockHeader: the header fields of masterchain and shard blocks, with or without their hashes", async () => {
    const mc = mcBlock(3);
    const r = await get("getBlockHeader", { workchain: -1, shard: MC_SHARD, seqno: 3 });
    expect(r.status).toBe(200);
    const i = mc.block.info;
    expect(r.body.result).toEqual({
      "@type": "blocks.header",
      id: blockId(mc),
      global_id: -239,
      version: i.version,
      after_merge: false,
      after_split: false,
      before_split: false,
      want_merge: i.wantMerge,
      want_split: i.wantSplit,
      validator_list_hash_short: i.genValidatorListHashShort | 0,
      catchain_seqno: i.genCatchainSeqno,
      min_ref_mc_seqno: i.minRefMcSeqno,
      is_key_block: false,
      prev_key_block_seqno: i.prevKeyBlockSeqno,
      start_lt: mc.startLt.toString(),
      end_lt: mc.endLt.toString(),
      gen_utime: mc.genUtime,
      prev_blocks: [blockId(mcBlock(2))],
    });
    expect((await get("getBlockHeader", { workchain: -1, shard: MC_SHARD, seqno: 1 })).body.result).toMatchObject({ is_key_block: true, prev_blocks: [{ seqno: 0 }] });

    const sh = shardBlock(3);
    const withHashes = await get("getBlockHeader", { workchain: 0, shard: MC_SHARD, seqno: sh.id.seqno, root_hash: sh.id.rootHash.toString("hex"), file_hash: sh.id.fileHash.toString("base64") });
    expect(withHashes.status).toBe(200);
    expect(withHashes.body.result).toMatchObject({ id: blockId(sh), start_lt: sh.startLt.toString(), prev_blocks: [blockId(shardBlock(2))] });

    const wrong = await get("getBlockHeader", { workchain: 0, shard: MC_SHARD, seqno: sh.id.seqno, root_hash: Buffer.alloc(32, 9).toString("hex") });
    expect(wrong.status).toBe(404);
    expect(wrong.body.error).toMatch(/^root_hash: /);
    const unknown = await get("getBlockHeader", { workchain: 0, shard: MC_SHARD, seqno: sh.id.seqno, root_hash: Buffer.alloc(32, 9).toString("hex"), file_hash: Buffer.alloc(32, 9).toString("hex") });
    expect(unknown.status).toBe(404);
    expect((await get("getBlockHeader", { workchain: 0, shard: MC_SHARD, seqno: 1, root_hash: "nope" })).status).toBe(422);
  });

  it("getMasterchainBlockSignatures: the validator's signature of the block, checked against the validator set", async () => {
    for (const seqno of [1, 4]) {
      const r = await get("getMasterchainBlockSignatures", { seqno });
      expect(r.status).toBe(200);
      const sig = mcBlock(seqno).signatures[0]!;
      expect(r.body.result).toEqual({
        "@type": "blocks.blockSignatures",
        id: blockId(mcBlock(seqno)),
        signatures: [{ "@type": "blocks.signature", node_id_short: sig.nodeIdShort.toString("base64"), signature: sig.signature.toString("base64") }],
      });
    }
    expect((await get("getMasterchainBlockSignatures", { seqno: 10_000 })).status).toBe(404);
    expect((await get("getMasterchainBlockSignatures", { seqno: 0 })).status).toBe(422);
  });

  it("getShardBlockProof: links down to the shard block and back links from the trusted masterchain block that verify", async () => {
    const sh = shardBlock(2);
    const last = net.chain.lastMasterchain!;
    const r = await get("getShardBlockProof", { workchain: 0, shard: MC_SHARD, seqno: sh.id.seqno });
    expect(r.status).toBe(200);
    const res = r.body.result;
    expect(res.from).toEqual(blockId(last));
    expect(res.mc_id).toEqual(blockId(mcBlock(2)));
    expect(res.links.map((l: { id: unknown }) => l.id)).toEqual([blockId(sh)]);
    expect(res.mc_proof).toHaveLength(1);
    const link = res.mc_proof[0];
    expect(link).toMatchObject({ "@type": "blocks.blockLinkBack", from: blockId(last), to: blockId(mcBlock(2)), to_key_block: false });
    // The back link is a real proof: @tongate/proof accepts it.
    const id = (b: ReturnType<typeof blockId>) => ({ workchain: b.workchain, shard: BigInt(b.shard), seqno: b.seqno, root_hash: Buffer.from(b.root_hash, "base64"), file_hash: Buffer.from(b.file_hash, "base64") });
    const b64 = (s: string) => Buffer.from(s, "base64");
    const tl: LiteServerBlockLinkBack = { kind: "liteServer.blockLinkBack", to_key_block: link.to_key_block, from: id(link.from), to: id(link.to), dest_proof: b64(link.dest_proof), proof: b64(link.proof), state_proof: b64(link.state_proof) };
    expect(verifyBlockLinkBack(tl)).toMatchObject({ type: "back" });

    const anchored = await get("getShardBlockProof", { workchain: 0, shard: MC_SHARD, seqno: sh.id.seqno, from_seqno: 2 });
    expect(anchored.body.result).toMatchObject({ from: blockId(mcBlock(2)), mc_id: blockId(mcBlock(2)), mc_proof: [] });
    const tooOld = await get("getShardBlockProof", { workchain: 0, shard: MC_SHARD, seqno: sh.id.seqno, from_seqno: 1 });
    expect(tooOld.status).toBe(422);
    expect(tooOld.body.error).toMatch(/^from_seqno: /);
    const mcSelf = await get("getShardBlockProof", { workchain: -1, shard: MC_SHARD, seqno: 3, from_seqno: 3 });
    expect(mcSelf.body.result).toMatchObject({ from: blockId(mcBlock(3)), mc_id: blockId(mcBlock(3)), links: [], mc_proof: [] });
  });

  it("getOutMsgQueueSize: one entry per shard's latest block", async () => {
    const r = await get("getOutMsgQueueSize");
    expect(r.status).toBe(200);
    const ids = r.body.result.shards.map((x: { id: { seqno: number; workchain: number } }) => [x.id.workchain, x.id.seqno]);
    expect(ids).toEqual([
      [-1, net.chain.lastMasterchain!.id.seqno],
      [0, net.chain.lastShard!.id.seqno],
    ]);
    expect(r.body.result.shards.every((x: { size: number }) => x.size === 0)).toBe(true);
    expect(r.body.result.ext_msg_queue_size_limit).toBeGreaterThan(0);
  });
});
