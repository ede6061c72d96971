// API v2: getMasterchainBlockSignatures, getShardBlockProof, lookupBlock, getShards, getBlockHeader, getOutMsgQueueSize.
// Each call runs on one liteserver session; block headers, shard lists and masterchain block links are
// checked against their proofs (@tongate/proof) before they are answered.
import { create } from "@bufbuild/protobuf";
import { shardChildren, shardParent, type BlkPrevInfo, type ExtBlkRef } from "@tongate/block";
import {
  sameBlockId,
  verifyAllShardsInfo,
  verifyPartialBlockProof,
} from "@tongate/proof";
import type { LiteServerBlockLinkBack, LiteServerPartialBlockProof } from "@tongate/tl";
import {
  BlockLinkBackSchema,
  BlockSignatureSchema,
  GetBlockHeaderResponseSchema,
  GetMasterchainBlockSignaturesResponseSchema,
  GetOutMsgQueueSizeResponseSchema,
  GetShardBlockProofResponseSchema,
  GetShardsResponseSchema,
  LookupBlockResponseSchema,
  OutMsgQueueSizeSchema,
  ShardBlockLinkSchema,
  type GetBlockHeaderRequest,
  type GetMasterchainBlockSignaturesRequest,
  type GetShardBlockProofRequest,
  type GetShardsRequest,
  type LookupBlockRequest,
} from "@tongate/proto/gen/tongate/v2/blocks_pb.js";
import { apiError } from "@tongate/runtime";
import { blockHeader, blockName, lookupBlock, masterchainBlock, orNotFound, type BlockHeader, type BlockSelector } from "./block-lookup.js";
import { tlBlockId, type BlockIdExt } from "@tongate/liteclient";
import { MASTERCHAIN_SHARD, verified, type ChainReader } from "./chain.js";
import type { PoolSession } from "@tongate/liteclient";
import { tonBlockId } from "./values.js";

/** The zero state of the masterchain as a block id (seqno 0): the block before masterchain block 1. */
async function zeroState(s: PoolSession): Promise<BlockIdExt> {
  const info = await s.query({ kind: "liteServer.getMasterchainInfo" });
  return { workchain: -1, shard: MASTERCHAIN_SHARD, seqno: 0, root_hash: info.init.root_hash, file_hash: info.init.file_hash };
}

/** liteServer.getBlockProof from `from` to `to` (mode 0x1001: with the target, relative to the newer of the two), verified and complete. */
async function blockProof(s: PoolSession, method: string, from: BlockIdExt, to: BlockIdExt): Promise<LiteServerPartialBlockProof> {
  const answer = (await orNotFound(
    s.query({ kind: "liteServer.getBlockProof", mode: 0x1001, known_block: tlBlockId(from), target_block: tlBlockId(to) }),
    `the proof from masterchain block ${from.seqno} to ${to.seqno}`,
  ));
  const v = verified(method, () => verifyPartialBlockProof(answer, from, to));
  if (!v.complete) throw apiError(502, `${method}: the liteserver's proof from masterchain block ${from.seqno} to ${to.seqno} is incomplete`);
  return answer;
}

/** The ids of the blocks before a block (one, or two after a merge), from its header's prev_ref. */
function prevBlocks(h: BlockHeader): BlockIdExt[] {
  const shard = BigInt.asUintN(64, h.id.shard);
  const id = (s: bigint, r: ExtBlkRef): BlockIdExt => ({ workchain: h.id.workchain, shard: BigInt.asIntN(64, s), seqno: r.seqNo, root_hash: r.rootHash, file_hash: r.fileHash });
  const prev: BlkPrevInfo = h.info.prevRef;
  if (prev.type === "prev_blks_info") {
    const [left, right] = shardChildren(shard);
    return [id(left, prev.prev1), id(right, prev.prev2)];
  }
  return [id(h.info.afterSplit ? shardParent(shard) : shard, prev.prev)];
}

export function blocksMethods(chain: ChainReader) {
  return {
    /**
     * The validator signatures of a masterchain block, as tonlib gets them: the proof from the block before
     * it ends with a forward link to the block carrying its signatures, checked against the validator set.
     */
    getMasterchainBlockSignatures(req: GetMasterchainBlockSignaturesRequest) {
      const method = "getMasterchainBlockSignatures";
      return chain.withSession(method, async (s) => {
        const target = (await lookupBlock(s, method, -1, MASTERCHAIN_SHARD, { seqno: req.seqno })).id;
        const prev = req.seqno === 1 ? await zeroState(s) : (await lookupBlock(s, method, -1, MASTERCHAIN_SHARD, { seqno: req.seqno - 1 })).id;
        const last = (await blockProof(s, method, prev, target)).steps.at(-1);
        if (last?.kind !== "liteServer.blockLinkForward") throw apiError(502, `${method}: the liteserver's proof of masterchain block ${req.seqno} carries no signatures`);
        const signatures = last.signatures.signatures;
        return create(GetMasterchainBlockSignaturesResponseSchema, {
          id: tonBlockId(target),
          signatures: signatures.map((x) => create(BlockSignatureSchema, { nodeIdShort: x.node_id_short, signature: x.signature })),
        });
      });
    },

    /**
     * tonlib's blocks.getShardBlockProof: the links from the masterchain block that commits the block down to
     * it (mc_id, links), and the backward link from the trusted masterchain block (`from`: from_seqno, else the
     * latest) to mc_id (mc_proof).
     */
    getShardBlockProof(req: GetShardBlockProofRequest) {
      const method = "getShardBlockProof";
      return chain.withSession(method, async (s) => {
        const block = (await lookupBlock(s, method, req.workchain, req.shard, { seqno: req.seqno })).id;
        const from = await masterchainBlock(s, method, req.fromSeqno);
        const answer = (await orNotFound(s.query({ kind: "liteServer.getShardBlockProof", id: tlBlockId(block) }), `the proof of block ${blockName(block)}`));
        const mc = answer.masterchain_id;
        if (from.seqno < mc.seqno) {
          throw apiError(422, `from_seqno: masterchain block ${from.seqno} is older than block ${mc.seqno}, the first to commit block ${blockName(block)}`);
        }
        const back = sameBlockId(from, mc) ? [] : (await blockProof(s, method, from, mc)).steps;
        const backLinks = back.filter((l): l is LiteServerBlockLinkBack => l.kind === "liteServer.blockLinkBack");
        if (backLinks.length !== back.length) throw apiError(502, `${method}: the liteserver's proof back to masterchain block ${mc.seqno} has a forward link`);
        return create(GetShardBlockProofResponseSchema, {
          from: tonBlockId(from),
          mcId: tonBlockId(mc),
          links: answer.links.map((l) => create(ShardBlockLinkSchema, { id: tonBlockId(l.id), proof: l.proof })),
          mcProof: backLinks.map((l) =>
            create(BlockLinkBackSchema, {
              toKeyBlock: l.to_key_block,
              from: tonBlockId(l.from),
              to: tonBlockId(l.to),
              destProof: l.dest_proof,
              proof: l.proof,
              stateProof: l.state_proof,
            }),
          ),
        });
      });
    },

    lookupBlock(req: LookupBlockRequest) {
      const method = "lookupBlock";
      // The gateway lets exactly one of seqno, lt and unixtime through (the proto's message rule).
      const by: BlockSelector = req.seqno !== undefined ? { seqno: req.seqno } : req.lt !== undefined ? { lt: req.lt } : { utime: req.unixtime! };
      return chain.withSession(method, async (s) => {
        const id = (await lookupBlock(s, method, req.workchain, req.shard, by)).id;
        return create(LookupBlockResponseSchema, { workchain: id.workchain, shard: id.shard, seqno: id.seqno, rootHash: id.root_hash, fileHash: id.file_hash });
      });
    },

    /** The shard blocks a masterchain block commits (McBlockExtra.shard_hashes, proven). */
    getShards(req: GetShardsRequest) {
      const method = "getShards";
      return chain.withSession(method, async (s) => {
        const mc = await masterchainBlock(s, method, req.seqno);
        const answer = await s.query({ kind: "liteServer.getAllShardsInfo", id: tlBlockId(mc) });
        const v = verified(method, () => verifyAllShardsInfo(answer, mc));
        return create(GetShardsResponseSchema, { shards: v.shards.map((x) => tonBlockId(x.blockId)) });
      });
    },

    getBlockHeader(req: GetBlockHeaderRequest) {
      const method = "getBlockHeader";
      return chain.withSession(method, async (s) => {
        const h = await blockHeader(s, method, req);
        const i = h.info;
        return create(GetBlockHeaderResponseSchema, {
          id: tonBlockId(h.id),
          globalId: h.globalId,
          version: i.version,
          afterMerge: i.afterMerge,
          afterSplit: i.afterSplit,
          beforeSplit: i.beforeSplit,
          wantMerge: i.wantMerge,
          wantSplit: i.wantSplit,
          // tonlib's int32: the uint32 hash reads negative past 2^31.
          validatorListHashShort: i.genValidatorListHashShort | 0,
          catchainSeqno: i.genCatchainSeqno,
          minRefMcSeqno: i.minRefMcSeqno,
          isKeyBlock: i.keyBlock,
          prevKeyBlockSeqno: i.prevKeyBlockSeqno,
          startLt: i.startLt,
          endLt: i.endLt,
          genUtime: i.genUtime,
          prevBlocks: prevBlocks(h).map(tonBlockId),
        });
      });
    },

    /** liteServer.getOutMsgQueueSizes (no proof exists for it): the queue of every shard's latest block. */
    getOutMsgQueueSize() {
      const method = "getOutMsgQueueSize";
      return chain.withSession(method, async (s) => {
        const answer = await s.query({ kind: "liteServer.getOutMsgQueueSizes", mode: 0 });
        return create(GetOutMsgQueueSizeResponseSchema, {
          shards: answer.shards.map((x) => create(OutMsgQueueSizeSchema, { id: tonBlockId(x.id), size: x.size })),
          extMsgQueueSizeLimit: answer.ext_msg_queue_size_limit,
        });
      });
    },
  };
}
