// States of blocks, shards of a masterchain state, and the proofs tying shard blocks to the
// masterchain: getState, getShardInfo, lookupBlockWithProof, getShardBlockProof.
import { createHash } from "node:crypto";
import type { Cell } from "@ton/core";
import { shardChildren, shardIsAncestor, shardParent, type ExtBlkRef } from "@tongate/block";
import type { TlObject } from "@tongate/tl";
import type { BlockRecord } from "../chain/chain.js";
import { prevBlock, readMcStateOther, unpackBlock, unpackMcStateExtra, unpackState, Usage } from "./cells.js";
import {
  type Ctx,
  boc,
  blockName,
  fatal,
  headerProof,
  isMasterchainExt,
  isValidFull,
  isValidId,
  mcBlockShardLink,
  multiBoc,
  sameId,
  shardInfoProof,
  stateRootProof,
  tlBlockId,
  tlId,
  tlInvalidId,
  unsignedShard,
  WORKCHAIN_INVALID,
  type TlBlockId,
  type TlBlockIdShort,
} from "./context.js";
import { lookupBlockRecord } from "./core.js";
import type { LiteHandler } from "./dispatch.js";
import { notInDb } from "./errors.js";

type Link = { id: TlObject; proof: Cell };

/**
 * The links from masterchain block `mc` down to shard block `target` (continue_getShardBlockProof): first
 * the shard's top block in mc's McBlockExtra shard_hashes, then each block's prev_ref until `target`.
 */
export function shardBlockLinks(ctx: Ctx, mc: BlockRecord, target: BlockRecord): Link[] {
  const links: Link[] = [];
  let cur = mc;
  for (;;) {
    let prev: { workchain: number; shard: bigint; seqno: number; rootHash: Buffer; fileHash: Buffer };
    let proof: Cell;
    if (cur.id.workchain === -1) {
      const link = mcBlockShardLink(cur, target.id.workchain, target.id.shard | 1n);
      prev = link.found.top;
      proof = link.proof;
    } else {
      const info = cur.block.info;
      const ref = info.prevRef;
      let p: ExtBlkRef;
      let shard = cur.id.shard;
      if (ref.type === "prev_blks_info") {
        // after a merge: the left (prev1) or right (prev2) child, whichever leads to the target
        const [left, right] = shardChildren(cur.id.shard);
        shard = shardIsAncestor(left, target.id.shard) || shardIsAncestor(target.id.shard, left) ? left : right;
        p = shard === left ? ref.prev1 : ref.prev2;
      } else {
        p = ref.prev;
        if (info.afterSplit) shard = shardParent(cur.id.shard);
      }
      prev = { workchain: cur.id.workchain, shard, seqno: p.seqNo, rootHash: p.rootHash, fileHash: p.fileHash };
      proof = headerProof(cur.root);
    }
    links.push({ id: tlBlockId(prev), proof });
    if (prev.seqno === target.id.seqno && prev.rootHash.equals(target.id.rootHash)) return links;
    // Chains of shard blocks between masterchain blocks can't be longer than 8 (collator.cpp).
    if (links.length === 8) throw fatal("proof chain is too long");
    cur = ctx.findBlock({ workchain: prev.workchain, shard: prev.shard, seqno: prev.seqno, root_hash: prev.rootHash, file_hash: prev.fileHash });
  }
}

const tlLinks = (links: Link[]) => links.map((l) => ({ kind: "liteServer.shardBlockLink", id: l.id, proof: boc(l.proof) }));

/** The Block root and BlockInfo cell (not its refs): what unpacking a Block and its BlockInfo record reads. */
function infoProof(root: Cell): Cell {
  const u = new Usage(root);
  u.load(unpackBlock(u, root).info);
  return u.proof();
}

export function blockHandlers(ctx: Ctx): Record<string, LiteHandler> {
  const { chain } = ctx;
  return {
    "liteServer.getState": (q) => {
      const id = q.id as TlBlockId;
      if (!isValidFull(id)) throw fatal("invalid BlockIdExt");
      if (id.seqno === 0) {
        const z = ctx.zeroState(id);
        if (!z) throw notInDb(`zero state ${blockName(id)}`);
        return { kind: "liteServer.blockState", id: { ...id, kind: "tonNode.blockIdExt" }, root_hash: id.root_hash, file_hash: id.file_hash, data: z.boc };
      }
      const rec = ctx.findBlock(id);
      const data = boc(rec.stateRoot);
      return { kind: "liteServer.blockState", id: tlId(rec), root_hash: rec.stateRoot.hash(), file_hash: createHash("sha256").update(data).digest(), data };
    },

    "liteServer.getShardInfo": (q) => {
      const workchain = q.workchain as number;
      const shard = unsignedShard(q.shard as bigint);
      if (workchain === WORKCHAIN_INVALID || shard === 0n) throw fatal("requested shard is invalid");
      const mc = ctx.mcBlock(q.id as TlBlockId);
      const { proof, found } = shardInfoProof(mc, workchain, shard, q.exact as boolean);
      return {
        kind: "liteServer.shardInfo",
        id: tlId(mc),
        shardblk: found ? tlBlockId(found.top) : tlInvalidId(),
        shard_proof: multiBoc([stateRootProof(ctx, mc), proof]),
        shard_descr: found ? boc(found.leaf) : Buffer.alloc(0),
      };
    },

    "liteServer.lookupBlockWithProof": (q) => {
      const mode = q.mode as number;
      if (!((1 << (mode & 7)) & 0x16)) throw fatal("exactly one of mode.0, mode.1 and mode.2 bits must be set");
      const mcId = q.mc_block_id as TlBlockId;
      if (!isMasterchainExt(mcId)) throw fatal("masterchain block id must be specified");
      const rec = lookupBlockRecord(ctx, mode, q.id as TlBlockIdShort, q.lt as bigint | undefined, q.utime as number | undefined);
      const mcRefSeqno = rec.id.workchain === -1 ? rec.id.seqno : rec.mcSeqno;
      if (mcRefSeqno > mcId.seqno) throw fatal("specified mc block is older than block's masterchain ref");
      // lt / utime lookups prove where the previous block ends too (the previous block of the first one
      // is a zero state: no block to prove).
      let prevHeader: Buffer = Buffer.alloc(0);
      const prev = rec.meta.prev[0];
      if (mode & 6 && prev && prev.seqno > 0) {
        const p = chain.block(prev);
        if (!p) throw notInDb(blockName(prev));
        prevHeader = boc(infoProof(p.root));
      }
      let links: Link[] = [];
      let alt = rec;
      if (rec.id.workchain !== -1) {
        const committed = chain.mcBlock(mcRefSeqno);
        if (!committed) throw notInDb(`masterchain block ${mcRefSeqno}`);
        alt = committed;
        links = shardBlockLinks(ctx, alt, rec);
      }
      let clientMcStateProof: Buffer = Buffer.alloc(0);
      let mcBlockProof: Buffer = Buffer.alloc(0);
      if (!sameId(alt, mcId)) {
        // The client's masterchain block must list `alt` in its state's prev_blocks.
        const base = ctx.mcBlock(mcId);
        const u = new Usage(base.stateRoot);
        const st = unpackState(u, base.stateRoot);
        const other = readMcStateOther(u, unpackMcStateExtra(u, st.custom!).other);
        const old = prevBlock(u, other.prevBlocks, alt.id.seqno);
        if (!old || !old.rootHash.equals(alt.id.rootHash) || !old.fileHash.equals(alt.id.fileHash)) throw fatal("client mc blkid is not in prev_blocks");
        mcBlockProof = boc(u.proof());
        clientMcStateProof = boc(stateRootProof(ctx, base));
      }
      return {
        kind: "liteServer.lookupBlockResult",
        id: tlId(rec),
        mode,
        mc_block_id: tlId(alt),
        client_mc_state_proof: clientMcStateProof,
        mc_block_proof: mcBlockProof,
        shard_links: tlLinks(links),
        header: boc(headerProof(rec.root)),
        prev_header: prevHeader,
      };
    },

    "liteServer.getShardBlockProof": (q) => {
      const id = q.id as TlBlockId;
      if (!isValidId(id)) throw fatal("invalid block id");
      if (id.workchain === -1) {
        const mc = ctx.findBlock(id);
        return { kind: "liteServer.shardBlockProof", masterchain_id: tlId(mc), links: [] };
      }
      const rec = ctx.findBlock(id);
      const mc = chain.mcBlock(rec.mcSeqno);
      if (!mc) throw fatal("block doesn't have masterchain ref");
      return { kind: "liteServer.shardBlockProof", masterchain_id: tlId(mc), links: tlLinks(shardBlockLinks(ctx, mc, rec)) };
    },
  };
}
