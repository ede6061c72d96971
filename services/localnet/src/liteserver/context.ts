// What the handler modules share: TL block ids, finding blocks and states of the chain, TON's
// validity checks and error messages, and the proofs most answers carry (state root proofs, shard
// descriptions from ShardHashes).
import { Cell } from "@ton/core";
import { loadShardDescr, SHARD_FULL, shardFromPrefix, shardPrefixLength, type ShardDescr } from "@tongate/block";
import type { TlObject } from "@tongate/tl";
import { serializeBoc } from "@tongate/ton";
import type { BlockRecord, Chain, ZeroState } from "../chain/chain.js";
import { LiteErrorCode, LiteServerError, notInDb } from "./errors.js";
import { cellEdge, dictGet, unpackBlock, unpackBlockExtra, unpackMcBlockExtra, unpackMcStateExtra, unpackState, Usage } from "./cells.js";

/** Merkle proofs the handlers attach (cut from real block and state cells). */
export interface ProofMaker {
  /** MerkleProof of a block keeping its header (BlockInfo, state_update hashes). */
  blockHeader(block: Cell): Cell;
  /** MerkleProof of a ShardStateUnsplit keeping the path to one account. */
  shardAccount(state: Cell, accountId: Buffer): Cell;
}

export type TlBlockId = { workchain: number; shard: bigint; seqno: number; root_hash: Buffer; file_hash: Buffer };
export type TlBlockIdShort = { workchain: number; shard: bigint; seqno: number };
export type TlAccountId = { workchain: number; id: Buffer };

/** ton::workchainInvalid. */
export const WORKCHAIN_INVALID = -0x80000000;
/** LiteQuery::fatal_error(std::string) answers with this code (validator/impl/liteserver.hpp). */
export const FATAL_ERROR = -400;
/** TON's LiteQuery::fatal_error(message): a liteServer.error with code -400. */
export const fatal = (message: string) => new LiteServerError(FATAL_ERROR, message);

/** TL `long` carries shard ids as signed 64-bit values (the full shard is -2^63). */
export const signedShard = (shard: bigint) => BigInt.asIntN(64, shard);
export const unsignedShard = (shard: bigint) => BigInt.asUintN(64, shard);

export const tlBlockId = (id: { workchain: number; shard: bigint; seqno: number; rootHash: Buffer; fileHash: Buffer }): TlObject => ({
  kind: "tonNode.blockIdExt",
  workchain: id.workchain,
  shard: signedShard(id.shard),
  seqno: id.seqno,
  root_hash: id.rootHash,
  file_hash: id.fileHash,
});

export const tlId = (r: BlockRecord): TlObject => tlBlockId(r.id);

export const tlZeroId = (z: ZeroState): TlObject => tlBlockId({ workchain: z.workchain, shard: SHARD_FULL, seqno: 0, rootHash: z.rootHash, fileHash: z.fileHash });

/** BlockIdExt::invalidate_clear(): what TON answers for "no such block". */
export const tlInvalidId = (): TlObject => ({
  kind: "tonNode.blockIdExt",
  workchain: WORKCHAIN_INVALID,
  shard: 0n,
  seqno: 0,
  root_hash: Buffer.alloc(32),
  file_hash: Buffer.alloc(32),
});

export const boc = (c: Cell) => c.toBoc({ idx: false, crc32: true });
/** std_boc_serialize_multi: several roots in one bag (an empty answer for none). */
export const multiBoc = (roots: Cell[]) => (roots.length > 0 ? serializeBoc(roots) : Buffer.alloc(0));

export const blockName = (id: { workchain: number; shard: bigint; seqno: number }) => `block (${id.workchain},${unsignedShard(id.shard).toString(16)},${id.seqno})`;

/** BlockIdExt::to_str(): "(wc,shard,seqno):ROOT_HASH:FILE_HASH", for TON's error messages. */
export function idStr(id: TlBlockId | BlockRecord | McRef): string {
  const x =
    "root_hash" in id
      ? id
      : "rec" in id
        ? { workchain: -1, shard: SHARD_FULL, seqno: id.seqno, root_hash: id.rootHash, file_hash: id.fileHash }
        : { workchain: id.id.workchain, shard: id.id.shard, seqno: id.id.seqno, root_hash: id.id.rootHash, file_hash: id.id.fileHash };
  const shard = unsignedShard(x.shard).toString(16).padStart(16, "0");
  return `(${x.workchain},${shard},${x.seqno}):${x.root_hash.toString("hex").toUpperCase()}:${x.file_hash.toString("hex").toUpperCase()}`;
}

const isZero = (b: Buffer) => b.every((x) => x === 0);
/** BlockId::is_valid(): a workchain and a shard. */
export const isValidId = (id: TlBlockIdShort) => id.workchain !== WORKCHAIN_INVALID && unsignedShard(id.shard) !== 0n;
/** BlockIdExt::is_valid_full(): valid, with both hashes set. */
export const isValidFull = (id: TlBlockId) => isValidId(id) && id.seqno >= 0 && !isZero(id.root_hash) && !isZero(id.file_hash);
/** BlockIdExt::is_masterchain_ext(): a full masterchain block id. */
export const isMasterchainExt = (id: TlBlockId) => isValidFull(id) && id.workchain === -1 && unsignedShard(id.shard) === SHARD_FULL;

export const sameId = (r: { id: { workchain: number; shard: bigint; seqno: number; rootHash: Buffer; fileHash: Buffer } }, id: TlBlockId) =>
  r.id.seqno === id.seqno && r.id.workchain === id.workchain && r.id.shard === unsignedShard(id.shard) && r.id.rootHash.equals(id.root_hash) && r.id.fileHash.equals(id.file_hash);

/** A masterchain block, or the masterchain zero state (seqno 0). */
export type McRef = { seqno: number; rootHash: Buffer; fileHash: Buffer; rec: BlockRecord | null };

export interface Ctx {
  chain: Chain;
  proofs: ProofMaker;
  clock: () => number;
  /** The newest masterchain block (liteServer.error if there is none yet). */
  last(): BlockRecord;
  /** The block with exactly this id, or "not in db". */
  findBlock(id: TlBlockId): BlockRecord;
  /** A masterchain block: "reference block must belong to the masterchain" for other ids, "not in db" for unknown ones. */
  mcBlock(id: TlBlockId): BlockRecord;
  /** The zero state with exactly this id (seqno 0), if any. */
  zeroState(id: TlBlockId): ZeroState | undefined;
  /** The masterchain block (or zero state) with this id, if the chain has it. */
  knownMc(id: TlBlockId): McRef | undefined;
  /** get_block_by_seqno: the block with this seqno of the shard of `workchain` holding account prefix `prefix`. */
  blockBySeqno(workchain: number, prefix: bigint, seqno: number): BlockRecord | undefined;
  /** get_block_by_lt / _by_unix_time: the first such block ending at or after lt, or generated at or after utime. */
  blockByLtOrUtime(workchain: number, prefix: bigint, at: { lt: bigint } | { utime: number }): BlockRecord | undefined;
}

/** Whether shard `shard` holds the accounts of 64-bit prefix `prefix` (a shard id used as an account prefix). */
export function shardHoldsPrefix(shard: bigint, prefix: bigint): boolean {
  const lowBit = shard & -shard;
  const mask = BigInt.asUintN(64, ~(lowBit * 2n - 1n));
  return (prefix & mask) === (shard & mask);
}

export function createCtx(chain: Chain, proofs: ProofMaker, clock: () => number): Ctx {
  const last = () => {
    const b = chain.lastMasterchain;
    if (!b) throw new LiteServerError(LiteErrorCode.notready, "masterchain has no blocks yet");
    return b;
  };
  const findBlock = (id: TlBlockId): BlockRecord => {
    const rec = chain.findBlock({ workchain: id.workchain, shard: id.shard, seqno: id.seqno, rootHash: id.root_hash, fileHash: id.file_hash });
    if (!rec) throw notInDb(blockName(id));
    return rec;
  };
  const zeroState = (id: TlBlockId) => {
    if (id.seqno !== 0 || unsignedShard(id.shard) !== SHARD_FULL) return undefined;
    return [chain.mcZero, chain.shardZero].find((z) => z.workchain === id.workchain && z.rootHash.equals(id.root_hash) && z.fileHash.equals(id.file_hash));
  };
  return {
    chain,
    proofs,
    clock,
    last,
    findBlock,
    zeroState,
    mcBlock: (id) => {
      if (!isMasterchainExt(id)) throw fatal("reference block must belong to the masterchain");
      return findBlock(id);
    },
    knownMc: (id) => {
      if (!isMasterchainExt(id)) return undefined;
      if (id.seqno === 0) {
        const z = zeroState(id);
        return z && z.workchain === -1 ? { seqno: 0, rootHash: z.rootHash, fileHash: z.fileHash, rec: null } : undefined;
      }
      const rec = chain.mcBlock(id.seqno);
      return rec && sameId(rec, id) ? { seqno: id.seqno, rootHash: rec.id.rootHash, fileHash: rec.id.fileHash, rec } : undefined;
    },
    blockBySeqno: (workchain, prefix, seqno) => {
      if (workchain === -1) return chain.mcBlock(seqno);
      for (const shard of chain.shardIdsOf(workchain)) {
        if (!shardHoldsPrefix(shard, prefix)) continue;
        const rec = chain.block({ workchain, shard, seqno });
        if (rec) return rec;
      }
      return undefined;
    },
    blockByLtOrUtime: (workchain, prefix, at) => {
      // a shard id's blocks are runs of seqnos whose end lts and times grow (a shard that split and
      // merged back has a gap between its runs): binary search each shard id that held the prefix (its
      // ancestors and descendants), keep the earliest hit
      const shards = workchain === -1 ? [SHARD_FULL] : chain.shardIdsOf(workchain).filter((s) => shardHoldsPrefix(s, prefix));
      const reached = (b: BlockRecord) => ("lt" in at ? at.lt <= b.endLt : b.genUtime >= at.utime);
      let best: BlockRecord | undefined;
      for (const shard of shards) {
        const range = chain.store.seqnoRange(workchain, shard);
        if (!range) continue;
        let [lo, hi] = range;
        let found: BlockRecord | undefined;
        while (lo <= hi) {
          const mid = Math.floor((lo + hi) / 2);
          // in a gap (the seqnos the shard's children or parent had) or not committed yet: the
          // nearest block below decides, and the seqnos between it and mid hold nothing
          let b: BlockRecord | undefined;
          for (let seqno = mid; seqno >= lo && !b; seqno--) b = chain.block({ workchain, shard, seqno });
          if (!b) {
            lo = mid + 1;
            continue;
          }
          if (reached(b)) {
            found = b;
            hi = b.id.seqno - 1;
          } else lo = mid + 1;
        }
        if (found && (!best || found.startLt < best.startLt)) best = found;
      }
      return best;
    },
  };
}

/** make_state_root_proof: the block's header with its state_update, pinning the state hash. */
export const stateRootProof = (ctx: Ctx, rec: BlockRecord): Cell => blockHeaderProof(ctx, rec);

const storedHeaderProofs = new WeakMap<BlockRecord, Cell>();

/**
 * The block's header proof (getBlockHeader, and the state root proof of most answers): the one the
 * store kept from when the block was built, else cut from the block. A block that left memory is
 * otherwise parsed whole for it — most of a second for a block of a few thousand transactions, on
 * the thread that answers every query.
 */
export function blockHeaderProof(ctx: Ctx, rec: BlockRecord): Cell {
  const stored = rec.meta.headerProof;
  if (!stored) return ctx.proofs.blockHeader(rec.root);
  let proof = storedHeaderProofs.get(rec);
  if (!proof) storedHeaderProofs.set(rec, (proof = Cell.fromBoc(stored)[0]!));
  return proof;
}

/** The header of a block (Block root and BlockInfo), as check_block_header / unpack_block_prev_blk_try read it. */
export function headerProof(root: Cell): Cell {
  const u = new Usage(root);
  u.loadTree(unpackBlock(u, root).info);
  return u.proof();
}

export interface FoundShard {
  /** The BinTree leaf cell (bt_leaf$0 ShardDescr): what liteServer.shardInfo.shard_descr carries. */
  leaf: Cell;
  shard: bigint;
  descr: ShardDescr;
  /** The shard's top block as that ShardHashes has it. */
  top: { workchain: number; shard: bigint; seqno: number; rootHash: Buffer; fileHash: Buffer };
}

/**
 * ShardConfig::get_shard_hash_raw_from: looks `shard` of `workchain` up in a ShardHashes dictionary
 * (HashmapE 32 ^(BinTree ShardDescr)), reading the path. `exact`: the leaf must be that shard; else a
 * leaf containing it.
 */
export function lookupShardHashes(u: Usage, root: Cell | null, workchain: number, shard: bigint, exact: boolean): FoundShard | null {
  if (!root) return null;
  const entry = dictGet(u, cellEdge(u, root), 32, BigInt.asUintN(32, BigInt(workchain)));
  if (!entry) return null;
  let node = entry.loadRef();
  const pfxLen = shardPrefixLength(shard);
  for (let depth = 0; ; depth++) {
    const s = u.load(node);
    if (!s.loadBit()) {
      const trueShard = depth === 0 ? SHARD_FULL : shardFromPrefix(depth, shard >> BigInt(64 - depth));
      if (exact && trueShard !== shard) return null;
      const descr = loadShardDescr(s);
      if (descr.type === "shard_descr_new") u.load(node.refs[node.refs.length - 1]!);
      return { leaf: node, shard: trueShard, descr, top: { workchain, shard: trueShard, seqno: descr.seqNo, rootHash: descr.rootHash, fileHash: descr.fileHash } };
    }
    if (depth >= pfxLen) return null;
    const bit = (shard >> BigInt(63 - depth)) & 1n;
    node = s.loadRef();
    const right = s.loadRef();
    if (bit) node = right;
  }
}

/** make_shard_info_proof: a masterchain state's ShardHashes entry for a shard, with the proof of what was read. */
export function shardInfoProof(mc: BlockRecord, workchain: number, shard: bigint, exact: boolean): { proof: Cell; found: FoundShard | null } {
  const u = new Usage(mc.stateRoot);
  const st = unpackState(u, mc.stateRoot);
  if (!st.custom) throw fatal("cannot extract ShardHashes from last mc state");
  const extra = unpackMcStateExtra(u, st.custom);
  const found = lookupShardHashes(u, extra.shardHashes, workchain, shard, exact);
  return { proof: u.proof(), found };
}

/** The top block of a shard in a masterchain block's McBlockExtra shard_hashes, with the proof of that path. */
export function mcBlockShardLink(mc: BlockRecord, workchain: number, shard: bigint): { proof: Cell; found: FoundShard } {
  const u = new Usage(mc.root);
  const blk = unpackBlock(u, mc.root);
  const extra = unpackBlockExtra(u, blk.extra);
  if (!extra.custom) throw fatal(`cannot unpack header of block ${blockName(mc.id)}`);
  const mcExtra = unpackMcBlockExtra(u, extra.custom);
  const found = lookupShardHashes(u, mcExtra.shardHashes, workchain, shard, false);
  if (!found) throw fatal("shard not found");
  return { proof: u.proof(), found };
}
