// Reading proven masterchain/shard states and block extras: ShardHashes, ShardAccounts, OldMcBlocksInfo,
// ConfigParams — every lookup distinguishes "proven absent" from "pruned" (the latter is a ProofError).
import { type Cell, type Slice } from "@ton/core";
import { type ShardDescr, type ShardStateUnsplitHeader, SHARD_FULL, loadShardDescr, loadShardStateUnsplitHeader, shardChild, shardPrefixLength } from "@tongate/block";
import { isValidShard } from "./blockid.js";
import { hex, openCell, openMerkleProof } from "./cells.js";
import { dictELookup, dictLookup, loadHashmapERoot } from "./dict.js";
import { fail, guard } from "./errors.js";
import type { ProvenBlockRoot } from "./header.js";

/** Skips a CurrencyCollection (grams:Grams other:ExtraCurrencyCollection) without reading the dictionary. */
export function skipCurrencyCollection(s: Slice): void {
  s.loadCoins();
  s.loadMaybeRef();
}

/** Parses a proven ShardStateUnsplit root (virtual root of a state proof). */
export function loadProvenState(root: Cell, what: string): ShardStateUnsplitHeader {
  return guard(what, () => {
    const s = openCell(root, `${what}: state root`);
    const tag = s.preloadUint(32);
    if (tag !== 0x9023afe2) fail(`${what}: not a ShardStateUnsplit (tag 0x${tag.toString(16)})`);
    return loadShardStateUnsplitHeader(s);
  });
}

/** Opens a state MERKLE_PROOF against the state hash proven by a block's state_update and parses it. */
export function openStateProof(cell: Cell, stateHash: Buffer, what: string): { root: Cell; state: ShardStateUnsplitHeader } {
  const root = openMerkleProof(cell, stateHash, what);
  return { root, state: loadProvenState(root, what) };
}

// ---------------------------------------------------------------------------------------------------------
// McStateExtra / McBlockExtra / BlockExtra

export interface ConfigRoot {
  configAddr: Buffer;
  /** Root edge cell of the Hashmap 32 ^Cell (may have pruned parts). */
  root: Cell;
}

export interface ProvenMcStateExtra {
  shardHashes: Cell | null;
  config: ConfigRoot;
  /** The ^[ flags validator_info prev_blocks … ] cell. */
  inner: Cell;
}

export function loadMcStateExtra(state: ShardStateUnsplitHeader, what: string): ProvenMcStateExtra {
  return guard(what, () => {
    if (!state.custom) fail(`${what}: not a masterchain state (no McStateExtra)`);
    const s = openCell(state.custom, `${what}: McStateExtra`);
    const tag = s.loadUint(16);
    if (tag !== 0xcc26) fail(`${what}: McStateExtra has bad tag 0x${tag.toString(16)}`);
    const shardHashes = loadHashmapERoot(s);
    const configAddr = s.loadBuffer(32);
    const root = s.loadRef();
    const inner = s.loadRef();
    return { shardHashes, config: { configAddr, root }, inner };
  });
}

export interface ProvenBlockExtra {
  accountBlocks: Cell;
  custom: Cell | null;
}

export function loadProvenBlockExtra(block: ProvenBlockRoot, what: string): ProvenBlockExtra {
  return guard(what, () => {
    const extraCell = block.root.refs[3];
    const s = openCell(extraCell, `${what}: BlockExtra`);
    const tag = s.loadUint(32);
    if (tag !== 0x4a33f6fd) fail(`${what}: BlockExtra has bad tag 0x${tag.toString(16)}`);
    s.loadRef(); // in_msg_descr
    s.loadRef(); // out_msg_descr
    const accountBlocks = s.loadRef();
    s.skip(512); // rand_seed, created_by
    const custom = s.loadMaybeRef();
    return { accountBlocks, custom };
  });
}

export interface ProvenMcBlockExtra {
  keyBlock: boolean;
  /** The shard_hashes HashmapE as stored: its bit and root. */
  shardHashes: Cell | null;
  config: ConfigRoot | null;
}

export function loadMcBlockExtra(custom: Cell | null, what: string): ProvenMcBlockExtra {
  return guard(what, () => {
    if (!custom) fail(`${what}: not a masterchain block (no McBlockExtra)`);
    const s = openCell(custom, `${what}: McBlockExtra`);
    const tag = s.loadUint(16);
    if (tag !== 0xcca5) fail(`${what}: McBlockExtra has bad tag 0x${tag.toString(16)}`);
    const keyBlock = s.loadBit();
    const shardHashes = loadHashmapERoot(s);
    loadHashmapERoot(s); // shard_fees root
    skipCurrencyCollection(s); // shard_fees extra: fees
    skipCurrencyCollection(s); // shard_fees extra: create
    s.loadRef(); // ^[ prev_blk_signatures recover_create_msg mint_msg ]
    let config: ConfigRoot | null = null;
    if (keyBlock) {
      const configAddr = s.loadBuffer(32);
      config = { configAddr, root: s.loadRef() };
    }
    return { keyBlock, shardHashes, config };
  });
}

// ---------------------------------------------------------------------------------------------------------
// ShardHashes

export type ShardLookup =
  | { type: "found"; workchain: number; shard: bigint; leaf: Cell; descr: ShardDescr }
  | { type: "absent"; reason: string };

/**
 * The ShardDescr leaf for `shard` (unsigned) of `workchain` (block::ShardConfig::get_shard_hash_raw_from):
 * with `exact` the leaf must be that shard, else the leaf whose shard contains it.
 */
export function lookupShard(shardHashes: Cell | null, workchain: number, shard: bigint, exact: boolean, what: string): ShardLookup {
  return guard(what, () => {
    if (!isValidShard(shard)) fail(`${what}: invalid shard id ${BigInt.asUintN(64, shard).toString(16)}`);
    const r = dictELookup(shardHashes, 32, BigInt.asUintN(32, BigInt(workchain)), `${what}: ShardHashes`);
    if (r.type === "pruned") fail(`${what}: the ShardHashes entry of workchain ${workchain} is pruned in the proof`);
    if (r.type === "absent") return { type: "absent", reason: `workchain ${workchain} is absent from ShardHashes` };
    let node = r.value.loadRef();
    const len = shardPrefixLength(shard);
    let cur = SHARD_FULL;
    for (let depth = 0; ; depth++) {
      const s = openCell(node, `${what}: ShardHashes tree node of shard ${workchain}:${cur.toString(16)}`);
      if (!s.loadBit()) {
        if (exact && depth < len) return { type: "absent", reason: `shard ${shard.toString(16)} is inside leaf shard ${cur.toString(16)} (exact match requested)` };
        return { type: "found", workchain, shard: cur, leaf: node, descr: loadShardDescr(s) };
      }
      if (depth === len) return { type: "absent", reason: `shard ${shard.toString(16)} is split in ShardHashes` };
      const right = (shard >> BigInt(63 - depth)) & 1n;
      const l = s.loadRef();
      const rr = s.loadRef();
      node = right ? rr : l;
      cur = shardChild(cur, right === 1n);
    }
  });
}

// ---------------------------------------------------------------------------------------------------------
// ShardAccounts

export interface ProvenShardAccount {
  /** The Account cell as proven (usually pruned: only its hash is known). */
  account: Cell;
  accountHash: Buffer;
  lastTransHash: Buffer;
  lastTransLt: bigint;
}

/** Looks an account up in ShardStateUnsplit.accounts (HashmapAugE 256 ShardAccount DepthBalanceInfo). */
export function lookupShardAccount(accounts: Cell, accountId: Buffer, what: string): ProvenShardAccount | null {
  return guard(what, () => {
    const s = openCell(accounts, `${what}: ShardAccounts`);
    const root = loadHashmapERoot(s);
    const r = dictELookup(root, 256, BigInt("0x" + hex(accountId)), `${what}: ShardAccounts`);
    if (r.type === "pruned") fail(`${what}: the ShardAccounts path to account ${hex(accountId)} is pruned in the proof`);
    if (r.type === "absent") return null;
    const v = r.value;
    v.loadUint(5); // DepthBalanceInfo.split_depth
    skipCurrencyCollection(v); // DepthBalanceInfo.balance
    const account = v.loadRef();
    const lastTransHash = v.loadBuffer(32);
    const lastTransLt = v.loadUintBig(64);
    return { account, accountHash: account.hash(0), lastTransHash, lastTransLt };
  });
}

// ---------------------------------------------------------------------------------------------------------
// OldMcBlocksInfo (McStateExtra prev_blocks)

export interface OldMcBlock {
  key: boolean;
  endLt: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export function lookupPrevBlock(extra: ProvenMcStateExtra, seqno: number, what: string): OldMcBlock | null {
  return guard(what, () => {
    const s = openCell(extra.inner, `${what}: McStateExtra flags/validator_info/prev_blocks`);
    s.loadUint(16); // flags
    s.skip(32 + 32 + 1); // validator_info
    const root = loadHashmapERoot(s);
    const r = dictELookup(root, 32, BigInt(seqno), `${what}: prev_blocks`);
    if (r.type === "pruned") fail(`${what}: the prev_blocks entry of seqno ${seqno} is pruned in the proof`);
    if (r.type === "absent") return null;
    const v = r.value;
    v.skip(1 + 64); // KeyMaxLt extra
    const key = v.loadBit();
    const endLt = v.loadUintBig(64);
    const seq = v.loadUint(32);
    const rootHash = v.loadBuffer(32);
    const fileHash = v.loadBuffer(32);
    return { key, endLt, seqno: seq, rootHash, fileHash };
  });
}

// ---------------------------------------------------------------------------------------------------------
// ConfigParams

export type ConfigParamLookup = { type: "found"; cell: Cell } | { type: "absent" };

export function lookupConfigParam(config: ConfigRoot, id: number, what: string): ConfigParamLookup {
  return guard(what, () => {
    const r = dictLookup(config.root, 32, BigInt.asUintN(32, BigInt(id)), `${what}: ConfigParams`);
    if (r.type === "pruned") fail(`${what}: config param ${id} is pruned in the proof`);
    if (r.type === "absent") return { type: "absent" };
    const cell = r.value.loadRef();
    openCell(cell, `${what}: config param ${id}`);
    return { type: "found", cell };
  });
}
