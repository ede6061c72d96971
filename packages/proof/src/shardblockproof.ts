// liteServer.shardBlockProof (getShardBlockProof) and the shard_links of lookupBlockWithProof: a chain of
// links from a masterchain block down to a shard block (lite-client's check of shard block proofs). The
// first link's proof is the masterchain block reaching McBlockExtra.shard_hashes, which must list the
// link's block as the top of its shard; each further link's proof is the header of the block named by
// the link before it, whose prev_ref must name the link's block. Through a split the prev is the
// parent shard's block; through a merge (prev_blks_info) prev1 is the left child's, prev2 the right's.
import { shardChildren, shardIdOf, shardParent, type BlockInfo, type ExtBlkRef } from "@tongate/block";
import { blockIdToString, isMasterchainId, sameBlockId, shardU64 } from "./blockid.js";
import { shardBlockIdOf } from "./common.js";
import { fail, guard } from "./errors.js";
import { checkBlockProofBoc, checkBlockRootProofBoc } from "./header.js";
import { loadMcBlockExtra, loadProvenBlockExtra, lookupShard } from "./state.js";
import { type TonNodeBlockIdExt, checkBlockId, checkShape } from "./tl.js";

/** liteServer.shardBlockLink id:tonNode.blockIdExt proof:bytes. */
export interface LiteServerShardBlockLink {
  kind?: string;
  id: TonNodeBlockIdExt;
  proof: Buffer;
}

/** liteServer.shardBlockProof masterchain_id:tonNode.blockIdExt links:(vector liteServer.shardBlockLink). */
export interface LiteServerShardBlockProof {
  kind?: string;
  masterchain_id: TonNodeBlockIdExt;
  links: LiteServerShardBlockLink[];
}

export interface VerifiedShardBlockProof {
  mcBlock: TonNodeBlockIdExt;
  /** The blocks the links name, from the masterchain block's shard top down to the target. */
  path: TonNodeBlockIdExt[];
}

/** The previous blocks a header names, with the shard each belongs to. */
function prevIds(info: BlockInfo, id: TonNodeBlockIdExt): TonNodeBlockIdExt[] {
  const ref = (shard: bigint, r: ExtBlkRef): TonNodeBlockIdExt => ({ workchain: id.workchain, shard: BigInt.asIntN(64, shard), seqno: r.seqNo, root_hash: r.rootHash, file_hash: r.fileHash });
  const shard = shardIdOf(info.shard);
  if (info.prevRef.type === "prev_blks_info") {
    const [left, right] = shardChildren(shard);
    return [ref(left, info.prevRef.prev1), ref(right, info.prevRef.prev2)];
  }
  return [ref(info.afterSplit ? shardParent(shard) : shard, info.prevRef.prev)];
}

/**
 * Verifies the links from masterchain block `mcBlock` (trusted) down to `target`; returns the path. A
 * masterchain target has no links.
 */
export function verifyShardBlockLinks(links: readonly LiteServerShardBlockLink[], mcBlock: TonNodeBlockIdExt, target: TonNodeBlockIdExt, what = "shard block links"): TonNodeBlockIdExt[] {
  return guard(what, () => {
    if (!isMasterchainId(mcBlock)) fail(`${what}: ${blockIdToString(mcBlock)} is not a masterchain block`);
    if (isMasterchainId(target)) {
      if (links.length !== 0) fail(`${what}: a masterchain block needs no links, got ${links.length}`);
      return [];
    }
    if (links.length === 0) fail(`${what}: no links from ${blockIdToString(mcBlock)} to ${blockIdToString(target)}`);
    const path: TonNodeBlockIdExt[] = [];
    let from = mcBlock;
    for (const [i, link] of links.entries()) {
      const at = `${what}[${i}]`;
      const id = checkBlockId(link.id, `${at}.id`);
      if (!Buffer.isBuffer(link.proof)) fail(`${at}.proof: missing or not bytes`);
      if (i === 0) {
        const block = checkBlockRootProofBoc(link.proof, from, `${at}.proof`);
        const mc = loadMcBlockExtra(loadProvenBlockExtra(block, `${at}.proof`).custom, `${at}.proof`);
        const found = lookupShard(mc.shardHashes, id.workchain, shardU64(id), true, `${at}.proof`);
        if (found.type === "absent") fail(`${at}: ${blockIdToString(from)} has no shard top for ${blockIdToString(id)} (${found.reason})`);
        const top = shardBlockIdOf(found);
        if (!sameBlockId(top, id)) fail(`${at}: ${blockIdToString(from)} lists ${blockIdToString(top)} as the shard's top, not ${blockIdToString(id)}`);
      } else {
        const { info } = checkBlockProofBoc(link.proof, from, `${at}.proof`);
        if (!prevIds(info, from).some((p) => sameBlockId(p, id))) fail(`${at}: ${blockIdToString(from)} does not name ${blockIdToString(id)} as a previous block`);
      }
      path.push(id);
      from = id;
    }
    if (!sameBlockId(from, target)) fail(`${what}: the links end at ${blockIdToString(from)}, not at ${blockIdToString(target)}`);
    return path;
  });
}

/** Verifies a liteServer.shardBlockProof for `target` (the block asked about). */
export function verifyShardBlockProof(answer: LiteServerShardBlockProof | object, target: TonNodeBlockIdExt): VerifiedShardBlockProof {
  const what = "liteServer.shardBlockProof";
  const a = checkShape<LiteServerShardBlockProof>(answer, what, { masterchain_id: "id", links: "vector" });
  return { mcBlock: a.masterchain_id, path: verifyShardBlockLinks(a.links, a.masterchain_id, target, `${what}.links`) };
}
