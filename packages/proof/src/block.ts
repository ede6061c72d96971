// liteServer.blockHeader and liteServer.blockData.
import { createHash } from "node:crypto";
import type { Cell } from "@ton/core";
import type { BlockInfo } from "@tongate/block";
import { deserializeBoc, hex, isPruned } from "./cells.js";
import { expectTrustedId } from "./common.js";
import { fail, guard } from "./errors.js";
import { checkBlockHeader, checkBlockProofBoc } from "./header.js";
import { loadMcBlockExtra, loadProvenBlockExtra } from "./state.js";
import { type LiteServerBlockData, type LiteServerBlockHeader, type TonNodeBlockIdExt, checkShape } from "./tl.js";

export interface VerifiedBlockHeader {
  id: TonNodeBlockIdExt;
  mode: number;
  globalId: number;
  info: BlockInfo;
  /** New state hash from state_update (present when mode.0 asked for it, or the proof carries it anyway). */
  stateHash: Buffer | null;
  /** Virtual root of the block (other parts pruned unless the mode asked for them). */
  root: Cell;
}

/**
 * Verifies a liteServer.blockHeader (getBlockHeader / lookupBlock): header_proof is a Merkle proof of the
 * block whose virtual hash is id.root_hash, and its BlockInfo is for id's shard and seqno. The parts the
 * mode asked for must be present: mode.0 state_update, mode.1 value_flow, mode.4 extra (and McBlockExtra
 * for a masterchain block).
 */
export function verifyBlockHeader(answer: LiteServerBlockHeader | object, trusted: TonNodeBlockIdExt): VerifiedBlockHeader {
  const what = "liteServer.blockHeader";
  const a = checkShape<LiteServerBlockHeader>(answer, what, { id: "id", mode: "int", header_proof: "bytes" });
  return guard(what, () => {
    expectTrustedId(a.id, trusted, what);
    const block = checkBlockProofBoc(a.header_proof, a.id, `${what}: header_proof`, { stateHash: (a.mode & 1) !== 0 });
    if (a.mode & 2 && isPruned(block.root.refs[1])) fail(`${what}: mode.1 asks for value_flow but it is pruned`);
    if (a.mode & 16) {
      const extra = loadProvenBlockExtra(block, `${what}: header_proof`);
      if (a.id.workchain === -1) loadMcBlockExtra(extra.custom, `${what}: header_proof`);
    }
    return { id: a.id, mode: a.mode, globalId: block.globalId, info: block.info, stateHash: block.stateHash, root: block.root };
  });
}

export interface VerifiedBlockData {
  id: TonNodeBlockIdExt;
  /** The block's root cell (the whole block). */
  root: Cell;
  globalId: number;
  info: BlockInfo;
}

/**
 * Verifies a liteServer.blockData (getBlock): the BoC's root cell hash is id.root_hash, sha256 of the BoC
 * bytes is id.file_hash, and the block header is for id's shard and seqno.
 */
export function verifyBlockData(answer: LiteServerBlockData | object, trusted: TonNodeBlockIdExt): VerifiedBlockData {
  const what = "liteServer.blockData";
  const a = checkShape<LiteServerBlockData>(answer, what, { id: "id", data: "bytes" });
  return guard(what, () => {
    expectTrustedId(a.id, trusted, what);
    const fileHash = createHash("sha256").update(a.data).digest();
    if (!fileHash.equals(a.id.file_hash)) fail(`${what}: sha256 of the block data is ${hex(fileHash)}, not file_hash ${hex(a.id.file_hash)}`);
    const [root] = deserializeBoc(a.data, `${what}: data`, 1);
    if (root.level() !== 0) fail(`${what}: block data has pruned branches`);
    if (!root.hash().equals(a.id.root_hash)) fail(`${what}: block root hash is ${hex(root.hash())}, not root_hash ${hex(a.id.root_hash)}`);
    const block = checkBlockHeader(root, a.id, `${what}: data`);
    return { id: a.id, root, globalId: block.globalId, info: block.info };
  });
}
