// liteServer.shardInfo (getShardInfo) and liteServer.allShardsInfo (getAllShardsInfo).
import { type ShardDescr, type ShardHashes, loadShardHashes, shardHashesList } from "@tongate/block";
import { blockIdToString, isInvalidBlockId, sameBlockId, shardU64 } from "./blockid.js";
import { assertComplete, deserializeBoc, hex } from "./cells.js";
import { checkMcStateProof, expectMasterchain, expectTrustedId, shardBlockIdOf } from "./common.js";
import { fail, guard } from "./errors.js";
import { checkBlockRootProofBoc } from "./header.js";
import { loadMcBlockExtra, loadMcStateExtra, loadProvenBlockExtra, lookupShard } from "./state.js";
import { type LiteServerAllShardsInfo, type LiteServerShardInfo, type TonNodeBlockIdExt, checkShape } from "./tl.js";

export interface ShardInfoRequest {
  workchain: number;
  /** Shard id (unsigned or as the signed TL long). */
  shard: bigint;
  exact: boolean;
}

export interface VerifiedShardInfo {
  mcBlock: TonNodeBlockIdExt;
  /** The shard's top block in the masterchain state; null if proven not found (needs the request). */
  shardBlock: TonNodeBlockIdExt | null;
  descr: ShardDescr | null;
}

/**
 * Verifies a liteServer.shardInfo: shard_proof = [mc block header with state_update, mc state with the
 * ShardHashes path]; the ShardHashes leaf (bt_leaf + ShardDescr) is the shard_descr BoC and names shardblk.
 * With `request`, the leaf is looked up as the liteserver does (exact or containing shard) and an empty
 * answer is checked to be a proven absence.
 */
export function verifyShardInfo(answer: LiteServerShardInfo | object, trusted: TonNodeBlockIdExt, request?: ShardInfoRequest): VerifiedShardInfo {
  const what = "liteServer.shardInfo";
  const a = checkShape<LiteServerShardInfo>(answer, what, { id: "id", shardblk: "id", shard_proof: "bytes", shard_descr: "bytes" });
  return guard(what, () => {
    expectTrustedId(a.id, trusted, what);
    expectMasterchain(a.id, what);
    const { state } = checkMcStateProof(a.shard_proof, a.id, `${what}: shard_proof`);
    const extra = loadMcStateExtra(state, `${what}: shard_proof`);
    if (isInvalidBlockId(a.shardblk)) {
      if (!request) fail(`${what}: empty shardblk: absence can only be checked against the request`);
      const r = lookupShard(extra.shardHashes, request.workchain, BigInt.asUintN(64, request.shard), request.exact, `${what}: shard_proof`);
      if (r.type === "found") fail(`${what}: shardblk is empty but the masterchain state has ${blockIdToString(shardBlockIdOf(r))}`);
      if (a.shard_descr.length !== 0) fail(`${what}: shard_descr must be empty when shardblk is empty`);
      return { mcBlock: a.id, shardBlock: null, descr: null };
    }
    const found = request
      ? lookupShard(extra.shardHashes, request.workchain, BigInt.asUintN(64, request.shard), request.exact, `${what}: shard_proof`)
      : lookupShard(extra.shardHashes, a.shardblk.workchain, shardU64(a.shardblk), true, `${what}: shard_proof`);
    if (found.type === "absent") fail(`${what}: masterchain state has no such shard (${found.reason}) but shardblk is ${blockIdToString(a.shardblk)}`);
    const top = shardBlockIdOf(found);
    if (!sameBlockId(top, a.shardblk)) fail(`${what}: masterchain state lists ${blockIdToString(top)}, not shardblk ${blockIdToString(a.shardblk)}`);
    const [leaf] = deserializeBoc(a.shard_descr, `${what}: shard_descr`, 1);
    if (!leaf.hash(0).equals(found.leaf.hash(0))) fail(`${what}: shard_descr hashes to ${hex(leaf.hash(0))}, the proven ShardHashes leaf to ${hex(found.leaf.hash(0))}`);
    return { mcBlock: a.id, shardBlock: top, descr: found.descr };
  });
}

export interface VerifiedAllShardsInfo {
  mcBlock: TonNodeBlockIdExt;
  /** The proven ShardHashes of the masterchain block. */
  shardHashes: ShardHashes;
  shards: { workchain: number; shard: bigint; descr: ShardDescr; blockId: TonNodeBlockIdExt }[];
}

/**
 * Verifies a liteServer.allShardsInfo: proof is a Merkle proof of the masterchain block reaching
 * McBlockExtra.shard_hashes; data is that HashmapE (one bit + root), which must be the proven one.
 */
export function verifyAllShardsInfo(answer: LiteServerAllShardsInfo | object, trusted: TonNodeBlockIdExt): VerifiedAllShardsInfo {
  const what = "liteServer.allShardsInfo";
  const a = checkShape<LiteServerAllShardsInfo>(answer, what, { id: "id", proof: "bytes", data: "bytes" });
  return guard(what, () => {
    expectTrustedId(a.id, trusted, what);
    expectMasterchain(a.id, what);
    const block = checkBlockRootProofBoc(a.proof, a.id, `${what}: proof`);
    const mc = loadMcBlockExtra(loadProvenBlockExtra(block, `${what}: proof`).custom, `${what}: proof`);
    const [data] = deserializeBoc(a.data, `${what}: data`, 1);
    if (data.bits.length !== 1 || data.refs.length !== (data.bits.at(0) ? 1 : 0)) fail(`${what}: data is not a ShardHashes (HashmapE 32) cell`);
    const present = data.bits.at(0);
    if (present !== (mc.shardHashes !== null)) fail(`${what}: data says ShardHashes is ${present ? "non-empty" : "empty"}, the proven block says otherwise`);
    if (mc.shardHashes && !data.refs[0].hash(0).equals(mc.shardHashes.hash(0))) {
      fail(`${what}: data's ShardHashes root hashes to ${hex(data.refs[0].hash(0))}, the proven one to ${hex(mc.shardHashes.hash(0))}`);
    }
    assertComplete(data, `${what}: data`);
    const shardHashes = loadShardHashes(data.beginParse());
    const shards = shardHashesList(shardHashes).map((x) => {
      const blockId: TonNodeBlockIdExt = {
        workchain: x.workchainId,
        shard: BigInt.asIntN(64, x.shard),
        seqno: x.descr.seqNo,
        root_hash: x.descr.rootHash,
        file_hash: x.descr.fileHash,
      };
      return { workchain: x.workchainId, shard: x.shard, descr: x.descr, blockId };
    });
    return { mcBlock: a.id, shardHashes, shards };
  });
}
