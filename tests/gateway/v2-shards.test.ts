// API v2 over a localnet whose workchain 0 is split into shards (--shards 4), split to 8 and merged
// back: getShards (and /shards) lists exactly the shard blocks each masterchain block commits,
// lookupBlock and getShardBlockProof find shard blocks of every shard, and a transfer to an account
// of another shard shows in getAddressBalance. Every answer is checked against v2.json.
import { Address } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { shardContainsAccount } from "@tongate/block";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { v2ErrorErrors, v2ResponseErrors } from "../support/v2-schema.js";
import { startTestLocalnet } from "../support/localnet.js";

let net: Localnet;
let t: Embedded;
/** An address outside the faucet's shard (at every depth up to 3), funded by the faucet. */
let far: Address;

type Rec = (typeof net.chain.masterchain)[number];

const blockId = (r: Rec) => ({
  "@type": "ton.blockIdExt",
  workchain: r.id.workchain,
  shard: BigInt.asIntN(64, r.id.shard).toString(),
  seqno: r.id.seqno,
  root_hash: r.id.rootHash.toString("base64"),
  file_hash: r.id.fileHash.toString("base64"),
});

async function get(method: string, params: Record<string, string | number | bigint> = {}) {
  const q = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const r = await getJson(`${t.url}/api/v2/${method}${q ? `?${q}` : ""}`);
  const path = method === "shards" ? "/api/v2/getShards" : `/api/v2/${method}`;
  expect(r.status === 200 ? v2ResponseErrors(path, r.body) : v2ErrorErrors(r.body), JSON.stringify(r.body)).toBeNull();
  return r;
}

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "v2-shards", shards: 4 });
  for (let i = 0; i < 3; i++) await net.chain.seal(); // 4 shards
  const faucet = net.faucetAddress!;
  far = new Address(0, Buffer.alloc(32, (faucet.hash[0]! ^ 0xe0) & 0xff));
  await net.faucet(far, 3_000_000_000n);
  await net.chain.seal(); // the message crosses shards in this seal
  net.chain.requestSplit();
  await net.chain.seal();
  await net.chain.seal(); // 8 shards
  net.chain.requestMerge();
  await net.chain.seal();
  await net.chain.seal(); // 4 again
  t = await startEmbedded({ globalConfig: net.globalConfig() });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await net?.close();
});

describe("API v2 over a sharded localnet", () => {
  it("getShards (and /shards) lists exactly the shard blocks each masterchain block commits", async () => {
    const counts: number[] = [];
    for (const mc of net.chain.masterchain) {
      const want = mc.meta.shards.map((k) => blockId(net.chain.block(k)!));
      const r = await get(mc.id.seqno % 2 ? "getShards" : "shards", { seqno: mc.id.seqno });
      expect(r.status).toBe(200);
      expect(r.body.result).toEqual({ "@type": "blocks.shards", shards: want });
      counts.push(want.length);
    }
    expect(counts.slice(0, 4)).toEqual([1, 2, 2, 4]);
    expect(counts).toContain(8);
    expect(counts.at(-1)).toBe(4);
  });

  it("lookupBlock and getShardBlockProof find the blocks of every shard, through the split and the merge", async () => {
    for (const b of net.chain.shardchain) {
      const shard = BigInt.asIntN(64, b.id.shard).toString();
      const found = await get("lookupBlock", { workchain: 0, shard, seqno: b.id.seqno });
      expect(found.body.result).toEqual(blockId(b));
      const proof = await get("getShardBlockProof", { workchain: 0, shard, seqno: b.id.seqno });
      expect(proof.status).toBe(200);
      // from the newest masterchain block (mc_proof back to the one that committed it), then the link down
      expect(proof.body.result.from).toEqual(blockId(net.chain.lastMasterchain!));
      expect(proof.body.result.mc_id.seqno).toBe(b.mcSeqno);
      expect(proof.body.result.links.at(-1)?.id).toEqual(blockId(b));
    }
  });

  it("a transfer to an account of another shard arrives: getAddressBalance", async () => {
    const faucetShard = net.chain.shardTips.find((s) => shardContainsAccount(s.shard, net.faucetAddress!.hash))!.shard;
    expect(shardContainsAccount(faucetShard, far.hash)).toBe(false);
    const r = await get("getAddressBalance", { address: far.toRawString() });
    expect(r.status).toBe(200);
    // the new account pays its first transaction's fees out of the 3 TON
    expect(BigInt(r.body.result)).toBeGreaterThan(2_999_000_000n);
    expect(BigInt(r.body.result)).toBeLessThanOrEqual(3_000_000_000n);
  });
});
