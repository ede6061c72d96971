// Block headers behind Merkle proofs (crypto/block/check-proof.cpp check_block_header_proof).
import { type Cell, CellType } from "@ton/core";
import { type BlockInfo, loadBlockInfo, shardIdOf } from "@tongate/block";
import { blockIdToString, shardU64 } from "./blockid.js";
import { deserializeBoc, hex, isPruned, openCell, openMerkleProof } from "./cells.js";
import { fail, guard } from "./errors.js";
import type { TonNodeBlockIdExt } from "./tl.js";

/** A block proof's virtual root (its hash checked), and its BlockInfo if the proof carries it. */
export interface ProvenBlockRoot {
  /** Virtual root of the block (Block cell; refs may be pruned). */
  root: Cell;
  info: BlockInfo | null;
}

/** The proven parts of a block: its root (virtual, pruned), header, and what the caller asked to be present. */
export interface ProvenBlock extends ProvenBlockRoot {
  globalId: number;
  info: BlockInfo;
  /** Hash of the block's new state (state_update's new ShardState), when the proof carries the update. */
  stateHash: Buffer | null;
}

export interface HeaderNeeds {
  /** The MERKLE_UPDATE state_update must be present (its new hash is returned). */
  stateHash?: boolean;
}

/**
 * Parses the virtual root of a block proof whose hash already matched `id.root_hash`: block tag, info, and
 * the header's shard/seqno against `id` (when the info is present).
 */
export function checkBlockHeader(root: Cell, id: TonNodeBlockIdExt, what: string, needs: HeaderNeeds = {}): ProvenBlock {
  return guard(what, () => {
    if (!root.hash(0).equals(id.root_hash)) fail(`${what}: block root hash ${hex(root.hash(0))} differs from ${hex(id.root_hash)}`);
    const s = openCell(root, `${what}: block root`);
    const tag = s.loadUint(32);
    if (tag !== 0x11ef55aa) fail(`${what}: not a Block (tag 0x${tag.toString(16)})`);
    const globalId = s.loadInt(32);
    const infoCell = s.loadRef();
    s.loadRef(); // value_flow
    const stateUpdate = s.loadRef();
    s.loadRef(); // extra
    const info = checkInfo(infoCell, id, what);
    let stateHash: Buffer | null = null;
    if (stateUpdate.type === CellType.MerkleUpdate) {
      const u = stateUpdate.beginParse(true);
      u.skip(8 + 256);
      const declared = u.loadBuffer(32);
      const actual = stateUpdate.refs[1].hash(0);
      if (!declared.equals(actual)) fail(`${what}: state_update declares new hash ${hex(declared)} but its new state hashes to ${hex(actual)}`);
      stateHash = actual;
    } else if (stateUpdate.type !== CellType.PrunedBranch) {
      fail(`${what}: state_update is not a Merkle update cell`);
    }
    if (needs.stateHash && !stateHash) fail(`${what}: state_update is pruned, the proof must carry it (new state hash)`);
    return { root, globalId, info, stateHash };
  });
}

function checkInfo(infoCell: Cell, id: TonNodeBlockIdExt, what: string): BlockInfo {
  const info = loadBlockInfo(openCell(infoCell, `${what}: BlockInfo`));
  const hdrShard = shardIdOf(info.shard);
  if (info.shard.workchainId !== id.workchain || hdrShard !== shardU64(id) || info.seqNo !== id.seqno) {
    fail(`${what}: block header is for (${info.shard.workchainId},${hdrShard.toString(16).padStart(16, "0")},${info.seqNo}), not for ${blockIdToString(id)}`);
  }
  if (info.notMaster !== (id.workchain !== -1)) fail(`${what}: block header not_master=${info.notMaster} for workchain ${id.workchain}`);
  return info;
}

/**
 * A single-root BoC holding a MERKLE_PROOF of block `id` whose BlockInfo may be pruned (the liteserver's
 * transaction proofs only reach BlockExtra): checks the virtual hash, and the header when present.
 */
export function checkBlockRootProofBoc(boc: Buffer, id: TonNodeBlockIdExt, what: string): ProvenBlockRoot {
  const [cell] = deserializeBoc(boc, what, 1);
  const root = openMerkleProof(cell, id.root_hash, `${what} (block ${blockIdToString(id)})`);
  return guard(what, () => {
    const s = openCell(root, `${what}: block root`);
    const tag = s.loadUint(32);
    if (tag !== 0x11ef55aa) fail(`${what}: not a Block (tag 0x${tag.toString(16)})`);
    const infoCell = s.loadRef();
    return { root, info: isPruned(infoCell) ? null : checkInfo(infoCell, id, what) };
  });
}

/**
 * A single-root BoC holding a MERKLE_PROOF of block `id`: checks the virtual hash and the header and returns
 * the proven block.
 */
export function checkBlockProofBoc(boc: Buffer, id: TonNodeBlockIdExt, what: string, needs: HeaderNeeds = {}): ProvenBlock {
  const [cell] = deserializeBoc(boc, what, 1);
  return checkBlockProofCell(cell, id, what, needs);
}

export function checkBlockProofCell(cell: Cell, id: TonNodeBlockIdExt, what: string, needs: HeaderNeeds = {}): ProvenBlock {
  const root = openMerkleProof(cell, id.root_hash, `${what} (block ${blockIdToString(id)})`);
  return checkBlockHeader(root, id, what, needs);
}
