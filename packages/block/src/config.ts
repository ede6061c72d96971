// Configuration parameters and masterchain state: ValidatorDescr / ValidatorSet (ConfigParam 32..37),
// config param accessors, McStateExtra (with OldMcBlocksInfo, ValidatorInfo, BlockCreateStats) and
// ShardStateUnsplit header access (works on Merkle proofs with pruned branches).
import {
  type Builder,
  type Cell,
  type CurrencyCollection,
  type Dictionary,
  type DictionaryValue,
  type Slice,
  CellType,
  Dictionary as Dict,
  beginCell,
  loadCurrencyCollection,
  storeCurrencyCollection,
} from "@ton/core";
import {
  type ExtBlkRef,
  type GlobalVersion,
  type BlkMasterInfo,
  loadBlkMasterInfo,
  loadExtBlkRef,
  loadGlobalVersion,
  storeBits256,
  storeExtBlkRef,
} from "./blockid.js";
import {
  type AugValue,
  type Augmentation,
  type HashmapAugECell,
  buildHashmap,
  emptyAugDict,
  loadHashmap,
  loadHashmapAugE,
  loadHashmapE,
  storeHashmapAugE,
  storeHashmapAugECell,
  storeHashmapE,
  valueCodec,
} from "./dict.js";
import { KEY_256 } from "./messages.js";
import { KEY_U16, type ConfigParams, type ShardHashes, loadConfigParams, loadShardHashes, storeConfigParams, storeShardHashes } from "./mcblock.js";
import { type ShardIdent, loadShardIdent } from "./shard.js";

// ---------------------------------------------------------------------------------------------
// Validators

/** ed25519_pubkey#8e81278a pubkey:bits256 = SigPubKey. */
export function loadSigPubKey(s: Slice): Buffer {
  const tag = s.loadUint(32);
  if (tag !== 0x8e81278a) throw new Error(`SigPubKey: bad tag 0x${tag.toString(16)}`);
  return s.loadBuffer(32);
}

export function storeSigPubKey(pubkey: Buffer) {
  return (b: Builder): void => {
    b.storeUint(0x8e81278a, 32);
    storeBits256(b, pubkey, "SigPubKey");
  };
}

/**
 * validator#53 public_key:SigPubKey weight:uint64
 * validator_addr#73 public_key:SigPubKey weight:uint64 adnl_addr:bits256
 */
export interface ValidatorDescr {
  type: "validator" | "validator_addr";
  publicKey: Buffer;
  weight: bigint;
  /** validator_addr only. */
  adnlAddr?: Buffer;
}

export function loadValidatorDescr(s: Slice): ValidatorDescr {
  const tag = s.loadUint(8);
  if (tag !== 0x53 && tag !== 0x73) throw new Error(`ValidatorDescr: bad tag 0x${tag.toString(16)}`);
  const publicKey = loadSigPubKey(s);
  const weight = s.loadUintBig(64);
  if (tag === 0x53) return { type: "validator", publicKey, weight };
  return { type: "validator_addr", publicKey, weight, adnlAddr: s.loadBuffer(32) };
}

export function storeValidatorDescr(src: ValidatorDescr) {
  return (b: Builder): void => {
    b.storeUint(src.type === "validator" ? 0x53 : 0x73, 8);
    b.store(storeSigPubKey(src.publicKey));
    b.storeUint(src.weight, 64);
    if (src.type === "validator_addr") storeBits256(b, src.adnlAddr ?? Buffer.alloc(32), "ValidatorDescr.adnl_addr");
  };
}

export const validatorDescrValue: DictionaryValue<ValidatorDescr> = valueCodec(loadValidatorDescr, storeValidatorDescr);

/**
 * validators#11 utime_since utime_until total:(## 16) main:(## 16) list:(Hashmap 16 ValidatorDescr)
 * validators_ext#12 … total_weight:uint64 list:(HashmapE 16 ValidatorDescr)
 */
export interface ValidatorSet {
  type: "validators" | "validators_ext";
  utimeSince: number;
  utimeUntil: number;
  total: number;
  main: number;
  /** validators_ext only (use validatorSetTotalWeight for either kind). */
  totalWeight?: bigint;
  list: Dictionary<number, ValidatorDescr>;
}

export function loadValidatorSet(s: Slice): ValidatorSet {
  const tag = s.loadUint(8);
  if (tag !== 0x11 && tag !== 0x12) throw new Error(`ValidatorSet: bad tag 0x${tag.toString(16)}`);
  const utimeSince = s.loadUint(32);
  const utimeUntil = s.loadUint(32);
  const total = s.loadUint(16);
  const main = s.loadUint(16);
  if (main > total || main < 1) throw new Error(`ValidatorSet: bad main ${main} / total ${total}`);
  if (tag === 0x11) {
    // Hashmap 16 (non-E): the root edge is inline and is the last field.
    const list = loadHashmap(s.asCell(), KEY_U16, validatorDescrValue);
    s.skip(s.remainingBits);
    while (s.remainingRefs > 0) s.loadRef();
    return { type: "validators", utimeSince, utimeUntil, total, main, list };
  }
  const totalWeight = s.loadUintBig(64);
  const list = loadHashmapE(s, KEY_U16, validatorDescrValue);
  return { type: "validators_ext", utimeSince, utimeUntil, total, main, totalWeight, list };
}

export function storeValidatorSet(src: ValidatorSet) {
  return (b: Builder): void => {
    b.storeUint(src.type === "validators" ? 0x11 : 0x12, 8);
    b.storeUint(src.utimeSince, 32).storeUint(src.utimeUntil, 32);
    b.storeUint(src.total, 16).storeUint(src.main, 16);
    if (src.type === "validators") {
      b.storeSlice(buildHashmap(src.list, KEY_U16, validatorDescrValue).beginParse());
    } else {
      b.storeUint(src.totalWeight ?? validatorSetTotalWeight(src), 64);
      b.store(storeHashmapE(src.list, KEY_U16, validatorDescrValue));
    }
  };
}

/** Validators ordered by index. */
export function validatorList(vs: ValidatorSet): ValidatorDescr[] {
  return [...vs.list.keys()].sort((a, b) => a - b).map((k) => vs.list.get(k)!);
}

/** Sum of the weights of all validators (validators_ext stores it as total_weight). */
export function validatorSetTotalWeight(vs: ValidatorSet): bigint {
  let sum = 0n;
  for (const v of vs.list.values()) sum += v.weight;
  return sum;
}

// ---------------------------------------------------------------------------------------------
// Config param accessors

function configDict(config: ConfigParams | Dictionary<number, Cell>): Dictionary<number, Cell> {
  return "configAddr" in config ? config.config : config;
}

/** The cell of config param `id`, or undefined. */
export function configParam(config: ConfigParams | Dictionary<number, Cell>, id: number): Cell | undefined {
  return configDict(config).get(id);
}

/** ConfigParam 32..37 (prev / prev_temp / cur / cur_temp / next / next_temp validators). */
export function configValidatorSet(config: ConfigParams | Dictionary<number, Cell>, id: 32 | 33 | 34 | 35 | 36 | 37 = 34): ValidatorSet | undefined {
  const c = configParam(config, id);
  return c ? loadValidatorSet(c.beginParse()) : undefined;
}

/** ConfigParam 8 (all zero if absent). */
export function configGlobalVersion(config: ConfigParams | Dictionary<number, Cell>): GlobalVersion {
  const c = configParam(config, 8);
  return c ? loadGlobalVersion(c.beginParse()) : { version: 0, capabilities: 0n };
}

/** ConfigParam 19 (global_id), if present. */
export function configGlobalId(config: ConfigParams | Dictionary<number, Cell>): number | undefined {
  const c = configParam(config, 19);
  return c ? c.beginParse().loadInt(32) : undefined;
}

/** ConfigParam 0 / 1 / 2 / 3 / 4 (config, elector, minter, fee collector, dns root addresses). */
export function configAddressParam(config: ConfigParams | Dictionary<number, Cell>, id: 0 | 1 | 2 | 3 | 4): Buffer | undefined {
  const c = configParam(config, id);
  return c ? c.beginParse().loadBuffer(32) : undefined;
}

// ---------------------------------------------------------------------------------------------
// McStateExtra parts

/** validator_info$_ validator_list_hash_short:uint32 catchain_seqno:uint32 nx_cc_updated:Bool. */
export interface ValidatorInfo {
  validatorListHashShort: number;
  catchainSeqno: number;
  nxCcUpdated: boolean;
}

export function loadValidatorInfo(s: Slice): ValidatorInfo {
  return { validatorListHashShort: s.loadUint(32), catchainSeqno: s.loadUint(32), nxCcUpdated: s.loadBit() };
}

export function storeValidatorInfo(src: ValidatorInfo) {
  return (b: Builder): void => void b.storeUint(src.validatorListHashShort, 32).storeUint(src.catchainSeqno, 32).storeBit(src.nxCcUpdated);
}

/** _ key:Bool max_end_lt:uint64 = KeyMaxLt. */
export interface KeyMaxLt {
  key: boolean;
  maxEndLt: bigint;
}

/** _ key:Bool blk_ref:ExtBlkRef = KeyExtBlkRef. */
export interface KeyExtBlkRef {
  key: boolean;
  blkRef: ExtBlkRef;
}

export const keyMaxLtAug: Augmentation<KeyMaxLt> = {
  load: (s) => ({ key: s.loadBit(), maxEndLt: s.loadUintBig(64) }),
  store: (v) => (b) => void b.storeBit(v.key).storeUint(v.maxEndLt, 64),
  fork: (a, b) => ({ key: a.key || b.key, maxEndLt: a.maxEndLt > b.maxEndLt ? a.maxEndLt : b.maxEndLt }),
  empty: () => ({ key: false, maxEndLt: 0n }),
};

export const keyExtBlkRefValue: DictionaryValue<KeyExtBlkRef> = valueCodec(
  (s) => ({ key: s.loadBit(), blkRef: loadExtBlkRef(s) }),
  (v) => (b) => void b.storeBit(v.key).store(storeExtBlkRef(v.blkRef)),
);

export const KEY_U32 = Dict.Keys.Uint(32);

/** _ (HashmapAugE 32 KeyExtBlkRef KeyMaxLt) = OldMcBlocksInfo; keyed by mc seqno. */
export type OldMcBlocksInfo = Dictionary<number, AugValue<KeyExtBlkRef, KeyMaxLt>>;

export function loadOldMcBlocksInfo(s: Slice): OldMcBlocksInfo {
  return loadHashmapAugE(s, KEY_U32, keyExtBlkRefValue, keyMaxLtAug).dict;
}

export function storeOldMcBlocksInfo(src: OldMcBlocksInfo) {
  return storeHashmapAugE(src, KEY_U32, keyExtBlkRefValue, keyMaxLtAug);
}

export function emptyOldMcBlocksInfo(): OldMcBlocksInfo {
  return emptyAugDict(KEY_U32, keyExtBlkRefValue, keyMaxLtAug);
}

/** counters#_ last_updated:uint32 total:uint64 cnt2048:uint64 cnt65536:uint64 = Counters. */
export interface Counters {
  lastUpdated: number;
  total: bigint;
  cnt2048: bigint;
  cnt65536: bigint;
}

/** creator_info#4 mc_blocks:Counters shard_blocks:Counters = CreatorStats. */
export interface CreatorStats {
  mcBlocks: Counters;
  shardBlocks: Counters;
}

function loadCounters(s: Slice): Counters {
  return { lastUpdated: s.loadUint(32), total: s.loadUintBig(64), cnt2048: s.loadUintBig(64), cnt65536: s.loadUintBig(64) };
}

function storeCounters(c: Counters, b: Builder): void {
  b.storeUint(c.lastUpdated, 32).storeUint(c.total, 64).storeUint(c.cnt2048, 64).storeUint(c.cnt65536, 64);
}

export function loadCreatorStats(s: Slice): CreatorStats {
  const tag = s.loadUint(4);
  if (tag !== 4) throw new Error(`CreatorStats: bad tag ${tag}`);
  return { mcBlocks: loadCounters(s), shardBlocks: loadCounters(s) };
}

export function storeCreatorStats(src: CreatorStats) {
  return (b: Builder): void => {
    b.storeUint(4, 4);
    storeCounters(src.mcBlocks, b);
    storeCounters(src.shardBlocks, b);
  };
}

export const creatorStatsValue: DictionaryValue<CreatorStats> = valueCodec(loadCreatorStats, storeCreatorStats);

/** uint32 augmentation of block_create_stats_ext: the number of entries below the node. */
export const entryCountAug: Augmentation<number> = {
  load: (s) => s.loadUint(32),
  store: (v) => (b) => void b.storeUint(v, 32),
  fork: (a, b) => a + b,
  empty: () => 0,
};

/**
 * block_create_stats#17 counters:(HashmapE 256 CreatorStats)
 * block_create_stats_ext#34 counters:(HashmapAugE 256 CreatorStats uint32) (extra = 1 per leaf)
 */
export type BlockCreateStats =
  | { type: "block_create_stats"; counters: Dictionary<bigint, CreatorStats> }
  | { type: "block_create_stats_ext"; counters: Dictionary<bigint, AugValue<CreatorStats, number>> };

export function loadBlockCreateStats(s: Slice): BlockCreateStats {
  const tag = s.loadUint(8);
  if (tag === 0x17) return { type: "block_create_stats", counters: loadHashmapE(s, KEY_256, creatorStatsValue) };
  if (tag === 0x34) return { type: "block_create_stats_ext", counters: loadHashmapAugE(s, KEY_256, creatorStatsValue, entryCountAug).dict };
  throw new Error(`BlockCreateStats: bad tag 0x${tag.toString(16)}`);
}

export function storeBlockCreateStats(src: BlockCreateStats) {
  return (b: Builder): void => {
    if (src.type === "block_create_stats") b.storeUint(0x17, 8).store(storeHashmapE(src.counters, KEY_256, creatorStatsValue));
    else b.storeUint(0x34, 8).store(storeHashmapAugE(src.counters, KEY_256, creatorStatsValue, entryCountAug));
  };
}

// ---------------------------------------------------------------------------------------------
// McStateExtra

/**
 * masterchain_state_extra#cc26 shard_hashes:ShardHashes config:ConfigParams
 *   ^[ flags:(## 16) validator_info:ValidatorInfo prev_blocks:OldMcBlocksInfo after_key_block:Bool
 *      last_key_block:(Maybe ExtBlkRef) block_create_stats:(flags . 0)?BlockCreateStats ]
 *   global_balance:CurrencyCollection = McStateExtra.
 */
export interface McStateExtra {
  shardHashes: ShardHashes;
  config: ConfigParams;
  flags: number;
  validatorInfo: ValidatorInfo;
  /** A dictionary, or its cells as a collator keeps them (one entry added per block: hashmapAugSet). */
  prevBlocks: OldMcBlocksInfo | HashmapAugECell<KeyMaxLt>;
  afterKeyBlock: boolean;
  lastKeyBlock: ExtBlkRef | null;
  /** Present iff flags & 1. */
  blockCreateStats?: BlockCreateStats;
  globalBalance: CurrencyCollection;
}

export function loadMcStateExtra(s: Slice): McStateExtra {
  const tag = s.loadUint(16);
  if (tag !== 0xcc26) throw new Error(`McStateExtra: bad tag 0x${tag.toString(16)}`);
  const shardHashes = loadShardHashes(s);
  const config = loadConfigParams(s);
  const r = s.loadRef().beginParse();
  const flags = r.loadUint(16);
  if (flags > 1) throw new Error(`McStateExtra: flags ${flags} > 1`);
  const validatorInfo = loadValidatorInfo(r);
  const prevBlocks = loadOldMcBlocksInfo(r);
  const afterKeyBlock = r.loadBit();
  const lastKeyBlock = r.loadBit() ? loadExtBlkRef(r) : null;
  const out: McStateExtra = {
    shardHashes,
    config,
    flags,
    validatorInfo,
    prevBlocks,
    afterKeyBlock,
    lastKeyBlock,
    globalBalance: undefined as unknown as CurrencyCollection,
  };
  if (flags & 1) out.blockCreateStats = loadBlockCreateStats(r);
  out.globalBalance = loadCurrencyCollection(s);
  return out;
}

export function storeMcStateExtra(src: McStateExtra) {
  return (b: Builder): void => {
    if (((src.flags & 1) === 1) !== (src.blockCreateStats !== undefined)) throw new Error("McStateExtra: block_create_stats must be present iff flags & 1");
    b.storeUint(0xcc26, 16);
    b.store(storeShardHashes(src.shardHashes));
    b.store(storeConfigParams(src.config));
    const r = beginCell().storeUint(src.flags, 16).store(storeValidatorInfo(src.validatorInfo)).store(
      src.prevBlocks instanceof Dict ? storeOldMcBlocksInfo(src.prevBlocks) : storeHashmapAugECell(src.prevBlocks, keyMaxLtAug),
    );
    r.storeBit(src.afterKeyBlock);
    if (src.lastKeyBlock) r.storeBit(1).store(storeExtBlkRef(src.lastKeyBlock));
    else r.storeBit(0);
    if (src.blockCreateStats) r.store(storeBlockCreateStats(src.blockCreateStats));
    b.storeRef(r.endCell());
    b.store(storeCurrencyCollection(src.globalBalance));
  };
}

/** Only the ConfigParams of a McStateExtra, skipping shard_hashes (which may be pruned in a proof). */
export function loadMcStateExtraConfig(s: Slice): ConfigParams {
  const tag = s.loadUint(16);
  if (tag !== 0xcc26) throw new Error(`McStateExtra: bad tag 0x${tag.toString(16)}`);
  s.loadMaybeRef(); // shard_hashes
  return loadConfigParams(s);
}

// ---------------------------------------------------------------------------------------------
// ShardStateUnsplit (header access; sub-trees kept as cells, which may be pruned)

/**
 * shard_state#9023afe2 with every sub-tree kept as a cell: out_msg_queue_info, accounts (parse
 * with @ton/core's loadShardAccounts when complete), the ^[…] part, and custom (McStateExtra).
 */
export interface ShardStateUnsplitHeader {
  globalId: number;
  shardId: ShardIdent;
  seqNo: number;
  vertSeqNo: number;
  genUtime: number;
  genLt: bigint;
  minRefMcSeqno: number;
  outMsgQueueInfo: Cell;
  beforeSplit: boolean;
  accounts: Cell;
  /** overload_history … master_ref, if that cell is not pruned. */
  other?: {
    overloadHistory: bigint;
    underloadHistory: bigint;
    totalBalance: CurrencyCollection;
    totalValidatorFees: CurrencyCollection;
    libraries: Cell | null;
    masterRef: BlkMasterInfo | null;
  };
  custom: Cell | null;
}

export function loadShardStateUnsplitHeader(s: Slice): ShardStateUnsplitHeader {
  const tag = s.loadUint(32);
  if (tag !== 0x9023afe2) throw new Error(`ShardStateUnsplit: bad tag 0x${tag.toString(16)}`);
  const globalId = s.loadInt(32);
  const shardId = loadShardIdent(s);
  const seqNo = s.loadUint(32);
  const vertSeqNo = s.loadUint(32);
  const genUtime = s.loadUint(32);
  const genLt = s.loadUintBig(64);
  const minRefMcSeqno = s.loadUint(32);
  const outMsgQueueInfo = s.loadRef();
  const beforeSplit = s.loadBit();
  const accounts = s.loadRef();
  const otherCell = s.loadRef();
  const custom = s.loadMaybeRef();
  const out: ShardStateUnsplitHeader = {
    globalId,
    shardId,
    seqNo,
    vertSeqNo,
    genUtime,
    genLt,
    minRefMcSeqno,
    outMsgQueueInfo,
    beforeSplit,
    accounts,
    custom,
  };
  if (otherCell.type === CellType.Ordinary) {
    const r = otherCell.beginParse();
    const overloadHistory = r.loadUintBig(64);
    const underloadHistory = r.loadUintBig(64);
    const totalBalance = loadCurrencyCollection(r);
    const totalValidatorFees = loadCurrencyCollection(r);
    const libraries = r.loadMaybeRef();
    const masterRef = r.loadBit() ? loadBlkMasterInfo(r) : null;
    out.other = { overloadHistory, underloadHistory, totalBalance, totalValidatorFees, libraries, masterRef };
  }
  return out;
}

/**
 * The ConfigParams of a masterchain state root (ShardStateUnsplit, e.g. the virtual root of a
 * liteServer config proof: only the path to the config has to be present).
 */
export function configFromMcState(stateRoot: Cell): ConfigParams {
  const root = stateRoot.type === CellType.MerkleProof ? stateRoot.refs[0] : stateRoot;
  const h = loadShardStateUnsplitHeader(root.beginParse());
  if (!h.custom) throw new Error("not a masterchain state (no McStateExtra)");
  return loadMcStateExtraConfig(h.custom.beginParse());
}
