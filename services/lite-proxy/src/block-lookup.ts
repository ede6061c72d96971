// Blocks as the v2 block and transaction methods find them: lookupBlock by seqno / lt / utime with the
// header proof checked, and a block id completed from (workchain, shard, seqno) when the client leaves its
// hashes out. Also the error rule these methods share: "not in db" is a 404 naming what was missing
// (a failed proof check, a 502, is chain.ts's verified()).
import { shardIntersects, type BlockInfo } from "@tongate/block";
import { verifyBlockHeader } from "@tongate/proof";
import { apiError } from "@tongate/runtime";
import { parseHash } from "@tongate/ton";
import type { LiteServerBlockHeader } from "@tongate/tl";
import { verified } from "./chain.js";
import { LiteServerError, MASTERCHAIN_SHARD, tlBlockId, type BlockIdExt, type PoolSession } from "@tongate/liteclient";
import { withInput } from "./utils.js";


/** "(workchain,shard hex,seqno)", as liteservers name blocks. */
export const blockName = (b: { workchain: number; shard: bigint; seqno?: number }) =>
  `(${b.workchain},${BigInt.asUintN(64, b.shard).toString(16)}${b.seqno === undefined ? "" : `,${b.seqno}`})`;

/** The liteserver's answer, or a 404 naming `what` when the liteserver does not have it ("not in db"). */
export async function orNotFound<T>(answer: Promise<T>, what: string, hint = ""): Promise<T> {
  try {
    return await answer;
  } catch (e) {
    if (e instanceof LiteServerError && e.notInDb) throw apiError(404, `${what} was not found on the liteservers${hint} (${e.message})`);
    throw e;
  }
}

export interface BlockHeader {
  id: BlockIdExt;
  globalId: number;
  info: BlockInfo;
}

export type BlockSelector = { seqno: number } | { lt: bigint } | { utime: number };

/** A shard id is a prefix followed by a 1 bit and zeros: 0 is none (the liteserver would answer a bare error). */
function checkShard(shard: bigint): void {
  if (BigInt.asUintN(64, shard) === 0n) throw apiError(422, "shard: 0 is not a shard id (a whole workchain is -9223372036854775808)");
}

const describe = (by: BlockSelector) => ("seqno" in by ? `seqno ${by.seqno}` : "lt" in by ? `lt ${by.lt}` : `unixtime ${by.utime}`);

/**
 * liteServer.lookupBlock: the block of the shard containing `shard` with this seqno, the one holding lt, or
 * the one of utime; null when the liteservers do not have such a block. The header proof is checked, and
 * the block must be the one asked for.
 */
export async function findBlock(s: PoolSession, method: string, workchain: number, shard: bigint, by: BlockSelector): Promise<BlockHeader | null> {
  checkShard(shard);
  let answer: LiteServerBlockHeader;
  try {
    answer = await s.query({
      kind: "liteServer.lookupBlock",
      mode: "seqno" in by ? 1 : "lt" in by ? 2 : 4,
      id: { kind: "tonNode.blockId", workchain, shard, seqno: "seqno" in by ? by.seqno : 0 },
      lt: "lt" in by ? by.lt : undefined,
      utime: "utime" in by ? by.utime : undefined,
    });
  } catch (e) {
    if (e instanceof LiteServerError && e.notInDb) return null;
    throw e;
  }
  // The answer's mode is the lookup's (1 seqno, 2 lt, 4 utime), not getBlockHeader's list of included parts.
  const header = { ...answer, mode: 0 };
  const h = verified(method, () => verifyBlockHeader(header, header.id));
  const asked = "seqno" in by ? h.id.seqno === by.seqno : true;
  if (h.id.workchain !== workchain || !asked || !shardIntersects(BigInt.asUintN(64, h.id.shard), BigInt.asUintN(64, shard))) {
    throw apiError(502, `${method}: asked for the block ${blockName({ workchain, shard })} with ${describe(by)}, the liteserver answered ${blockName(h.id)}`);
  }
  return { id: h.id, globalId: h.globalId, info: h.info };
}

/** findBlock, with a 404 when there is no such block. */
export async function lookupBlock(s: PoolSession, method: string, workchain: number, shard: bigint, by: BlockSelector): Promise<BlockHeader> {
  const h = await findBlock(s, method, workchain, shard, by);
  if (!h) throw apiError(404, `block ${blockName({ workchain, shard })} with ${describe(by)} was not found on the liteservers (not produced yet, or older than they keep)`);
  return h;
}

/** The masterchain block with this seqno, or the latest one. */
export async function masterchainBlock(s: PoolSession, method: string, seqno: number | undefined): Promise<BlockIdExt> {
  if (seqno !== undefined) return (await lookupBlock(s, method, -1, MASTERCHAIN_SHARD, { seqno })).id;
  return (await s.query({ kind: "liteServer.getMasterchainInfo" })).last;
}

/** A block as the API's parameters give it: root_hash and file_hash are optional (looked up when left out). */
export interface BlockRef {
  workchain: number;
  shard: bigint;
  seqno: number;
  rootHash?: string;
  fileHash?: string;
}

function givenHashes(ref: BlockRef): { root?: Buffer; file?: Buffer } {
  checkShard(ref.shard);
  return {
    root: ref.rootHash === undefined ? undefined : withInput("root_hash", ref.rootHash, () => parseHash(ref.rootHash!)),
    file: ref.fileHash === undefined ? undefined : withInput("file_hash", ref.fileHash, () => parseHash(ref.fileHash!)),
  };
}

/** The looked-up header of `ref`, which must match the hashes the client gave. */
async function lookupRef(s: PoolSession, method: string, ref: BlockRef, hashes: { root?: Buffer; file?: Buffer }): Promise<BlockHeader> {
  const h = await lookupBlock(s, method, ref.workchain, ref.shard, { seqno: ref.seqno });
  const wrong = hashes.root && !hashes.root.equals(h.id.root_hash) ? "root_hash" : hashes.file && !hashes.file.equals(h.id.file_hash) ? "file_hash" : null;
  if (wrong) throw apiError(404, `${wrong}: block ${blockName(h.id)} has another ${wrong}; no block with the given one was found`);
  return h;
}

/** The full id of `ref`: as given when both hashes are, else looked up. */
export async function resolveBlockId(s: PoolSession, method: string, ref: BlockRef): Promise<BlockIdExt> {
  const { root, file } = givenHashes(ref);
  if (root && file) return { workchain: ref.workchain, shard: ref.shard, seqno: ref.seqno, root_hash: root, file_hash: file };
  return (await lookupRef(s, method, ref, { root, file })).id;
}

/** The proven header of `ref` (liteServer.getBlockHeader when both hashes are given, else lookupBlock). */
export async function blockHeader(s: PoolSession, method: string, ref: BlockRef): Promise<BlockHeader> {
  const { root, file } = givenHashes(ref);
  if (!(root && file)) return lookupRef(s, method, ref, { root, file });
  const id: BlockIdExt = { workchain: ref.workchain, shard: ref.shard, seqno: ref.seqno, root_hash: root, file_hash: file };
  const answer = await orNotFound(s.query({ kind: "liteServer.getBlockHeader", id: tlBlockId(id), mode: 0 }), `block ${blockName(id)} with the given hashes`);
  const h = verified(method, () => verifyBlockHeader(answer, id));
  return { id: h.id, globalId: h.globalId, info: h.info };
}
