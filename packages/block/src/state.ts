// Shard state: ShardAccounts (with the DepthBalanceInfo augmentation), OutMsgQueueInfo,
// LibDescr, ShardStateUnsplit / ShardState, and Merkle proofs of account states.
//
// Parts of a state may be pruned (a state inside a Merkle proof or a block's state_update): a
// reference field whose cell is pruned, or contains pruned cells, is kept as that Cell and
// re-stored verbatim; the accounts dictionary is loaded partially (the present accounts plus
// AugPrunedParts), so its unpruned nodes are rebuilt and give the original hashes.
import {
  type Builder,
  type CurrencyCollection,
  type Dictionary,
  type DictionaryValue,
  type ShardAccount as CoreShardAccount,
  type Slice,
  Cell,
  CellType,
  Dictionary as Dict,
  beginCell,
  loadAccount,
  loadCurrencyCollection,
  storeAccount,
  storeCurrencyCollection,
} from "@ton/core";
import { type BlkMasterInfo, loadBlkMasterInfo, storeBits256, storeBlkMasterInfo } from "./blockid.js";
import { type McStateExtra, loadMcStateExtra, storeMcStateExtra } from "./config.js";
import { addCurrencyCollections, zeroCurrencyCollection } from "./currency.js";
import {
  type AugPrunedParts,
  type AugValue,
  type Augmentation,
  buildHashmap,
  emptyAugDict,
  loadHashmap,
  loadHashmapAugE,
  loadHashmapAugEPartial,
  loadHashmapE,
  storeHashmapAugE,
  storeHashmapE,
  valueCodec,
  walkHashmap,
} from "./dict.js";
import { KEY_SHARD96 } from "./mcblock.js";
import { collectCellHashes, makeMerkleProof } from "./merkle.js";
import { KEY_256, hashKey } from "./messages.js";
import { type ShardIdent, loadShardIdent, storeShardIdent } from "./shard.js";

/** A sub-structure that is pruned or contains pruned cells (Merkle proof / update): kept as its cell. */
function isPartial(cell: Cell): boolean {
  return cell.isExotic || cell.level() > 0;
}

// ---------------------------------------------------------------------------------------------
// ShardAccount, DepthBalanceInfo

/**
 * account_descr$_ account:^Account last_trans_hash:bits256 last_trans_lt:uint64 = ShardAccount.
 * The Account is kept as its cell (byte-exact; in a Merkle proof it may be a pruned branch whose
 * hash(0) is the account's hash).
 */
export interface ShardAccount {
  account: Cell;
  lastTransHash: Buffer;
  lastTransLt: bigint;
}

export function loadShardAccount(s: Slice): ShardAccount {
  return { account: s.loadRef(), lastTransHash: s.loadBuffer(32), lastTransLt: s.loadUintBig(64) };
}

export function storeShardAccount(src: ShardAccount) {
  return (b: Builder): void => {
    b.storeRef(src.account);
    storeBits256(b, src.lastTransHash, "ShardAccount.last_trans_hash");
    b.storeUint(src.lastTransLt, 64);
  };
}

export const shardAccountValue: DictionaryValue<ShardAccount> = valueCodec(loadShardAccount, storeShardAccount);

/** account_none$0: the Account of a ShardAccount that does not exist. */
export function accountNoneCell(): Cell {
  return beginCell().storeBit(0).endCell();
}

/** Our ShardAccount from @ton/core's (the Account is serialized with @ton/core's storeAccount). */
export function shardAccountFromCore(src: CoreShardAccount): ShardAccount {
  const account = src.account ? beginCell().storeBit(1).store(storeAccount(src.account)).endCell() : accountNoneCell();
  const h = Buffer.from(src.lastTransactionHash.toString(16).padStart(64, "0"), "hex");
  return { account, lastTransHash: h, lastTransLt: src.lastTransactionLt };
}

/** @ton/core's ShardAccount (parses the Account cell; fails on a pruned Account). */
export function shardAccountToCore(src: ShardAccount): CoreShardAccount {
  const s = src.account.beginParse();
  const account = s.loadBit() ? loadAccount(s) : null;
  return { account, lastTransactionHash: BigInt("0x" + src.lastTransHash.toString("hex")), lastTransactionLt: src.lastTransLt };
}

/** depth_balance$_ split_depth:(#<= 30) balance:CurrencyCollection = DepthBalanceInfo. */
export interface DepthBalanceInfo {
  splitDepth: number;
  balance: CurrencyCollection;
}

export function loadDepthBalanceInfo(s: Slice): DepthBalanceInfo {
  const splitDepth = s.loadUint(5);
  if (splitDepth > 30) throw new Error(`DepthBalanceInfo: split_depth ${splitDepth} > 30`);
  return { splitDepth, balance: loadCurrencyCollection(s) };
}

export function storeDepthBalanceInfo(src: DepthBalanceInfo) {
  return (b: Builder): void => {
    if (src.splitDepth < 0 || src.splitDepth > 30) throw new Error("DepthBalanceInfo: split_depth must be 0..30");
    b.storeUint(src.splitDepth, 5).store(storeCurrencyCollection(src.balance));
  };
}

/**
 * The ShardAccounts augmentation (block-parse.cpp DepthBalanceInfo / Aug_ShardAccounts): a fork
 * carries max(split_depth) and the sum of the balances; the empty dictionary 0 and zero.
 */
export const depthBalanceInfoAug: Augmentation<DepthBalanceInfo> = {
  load: loadDepthBalanceInfo,
  store: storeDepthBalanceInfo,
  fork: (a, b) => ({ splitDepth: Math.max(a.splitDepth, b.splitDepth), balance: addCurrencyCollections(a.balance, b.balance) }),
  empty: () => ({ splitDepth: 0, balance: zeroCurrencyCollection() }),
};

function skipVarUint(s: Slice, lenBits: number): void {
  const len = s.loadUint(lenBits);
  s.skip(len * 8);
}

/**
 * The leaf extra of an account (Aug_ShardAccounts::eval_leaf → Account::skip_copy_depth_balance):
 * split_depth = the anycast depth of its address (0 without anycast), balance = its balance;
 * account_none gives split_depth 0 and a zero balance.
 */
export function accountDepthBalance(account: Cell): DepthBalanceInfo {
  const s = account.beginParse();
  if (!s.loadBit()) return { splitDepth: 0, balance: zeroCurrencyCollection() };
  // addr:MsgAddressInt
  const tag = s.loadUint(2);
  if (tag !== 2 && tag !== 3) throw new Error(`Account: bad MsgAddressInt tag ${tag}`);
  let splitDepth = 0;
  if (s.loadBit()) {
    splitDepth = s.loadUint(5); // anycast_info$_ depth:(#<= 30) rewrite_pfx:(bits depth)
    if (splitDepth < 1 || splitDepth > 30) throw new Error(`Account: bad anycast depth ${splitDepth}`);
    s.skip(splitDepth);
  }
  if (tag === 2) {
    s.skip(8 + 256);
  } else {
    const len = s.loadUint(9);
    s.skip(32 + len);
  }
  // storage_stat:StorageInfo: used:StorageUsed (cells, bits: VarUInteger 7) storage_extra last_paid due_payment
  skipVarUint(s, 3);
  skipVarUint(s, 3);
  const extraTag = s.loadUint(3); // storage_extra_none$000 / storage_extra_info$001 dict_hash:uint256 (was public_cells = 0)
  if (extraTag === 1) s.skip(256);
  else if (extraTag !== 0) throw new Error(`Account: bad StorageExtraInfo tag ${extraTag}`);
  s.skip(32);
  if (s.loadBit()) skipVarUint(s, 4);
  // storage:AccountStorage: last_trans_lt:uint64 balance:CurrencyCollection
  s.skip(64);
  return { splitDepth, balance: loadCurrencyCollection(s) };
}

/** A ShardAccounts leaf with its extra derived from the account. */
export function shardAccountEntry(src: ShardAccount): AugValue<ShardAccount, DepthBalanceInfo> {
  return { extra: accountDepthBalance(src.account), value: src };
}

// ---------------------------------------------------------------------------------------------
// ShardAccounts

/** _ (HashmapAugE 256 ShardAccount DepthBalanceInfo) = ShardAccounts; keyed by account id (uint256). */
export type ShardAccounts = Dictionary<bigint, AugValue<ShardAccount, DepthBalanceInfo>>;

export function emptyShardAccounts(): ShardAccounts {
  return emptyAugDict(KEY_256, shardAccountValue, depthBalanceInfoAug);
}

/** ShardAccounts (complete dictionary). */
export function loadShardAccounts(s: Slice): ShardAccounts {
  return loadHashmapAugE(s, KEY_256, shardAccountValue, depthBalanceInfoAug).dict;
}

/**
 * ShardAccounts that may contain pruned branches (a state in a Merkle proof / update): the accounts
 * present, the root extra if it can be parsed, and the pruned parts (undefined when complete).
 */
export function loadShardAccountsPartial(s: Slice): { accounts: ShardAccounts; extra?: DepthBalanceInfo; pruned?: AugPrunedParts } {
  const r = loadHashmapAugEPartial(s, KEY_256, shardAccountValue, depthBalanceInfoAug);
  const out: { accounts: ShardAccounts; extra?: DepthBalanceInfo; pruned?: AugPrunedParts } = { accounts: r.dict };
  if (r.extra !== undefined) out.extra = r.extra;
  if (r.pruned) out.pruned = r.pruned;
  return out;
}

/** Stores ShardAccounts with every fork extra computed (and, for a partial one, its pruned parts). */
export function storeShardAccounts(src: ShardAccounts, pruned?: AugPrunedParts) {
  return storeHashmapAugE(src, KEY_256, shardAccountValue, depthBalanceInfoAug, pruned);
}

/** The account id (uint256 dictionary key) of a 32-byte address hash. */
export function accountKey(accountId: Buffer | bigint): bigint {
  return typeof accountId === "bigint" ? accountId : hashKey(accountId);
}

// ---------------------------------------------------------------------------------------------
// OutMsgQueueInfo

/** _ enqueued_lt:uint64 out_msg:^MsgEnvelope = EnqueuedMsg (the envelope kept as its cell). */
export interface EnqueuedMsg {
  enqueuedLt: bigint;
  outMsg: Cell;
}

export function loadEnqueuedMsg(s: Slice): EnqueuedMsg {
  return { enqueuedLt: s.loadUintBig(64), outMsg: s.loadRef() };
}

export function storeEnqueuedMsg(src: EnqueuedMsg) {
  return (b: Builder): void => void b.storeUint(src.enqueuedLt, 64).storeRef(src.outMsg);
}

export const enqueuedMsgValue: DictionaryValue<EnqueuedMsg> = valueCodec(loadEnqueuedMsg, storeEnqueuedMsg);

/** uint64 augmentation of OutMsgQueue and DispatchQueue: the minimum lt below a node, 0 when empty. */
export const minLtAug: Augmentation<bigint> = {
  load: (s) => s.loadUintBig(64),
  store: (v) => (b) => void b.storeUint(v, 64),
  fork: (a, b) => (a < b ? a : b),
  empty: () => 0n,
};

/** Key of OutMsgQueue: [ workchain:int32 next_addr_pfx:uint64 msg_hash:bits256 ], 352 bits. */
export const KEY_352 = Dict.Keys.BigUint(352);
export const KEY_64 = Dict.Keys.BigUint(64);

/** _ (HashmapAugE 352 EnqueuedMsg uint64) = OutMsgQueue (leaf extra: the message's created_lt). */
export type OutMsgQueue = Dictionary<bigint, AugValue<EnqueuedMsg, bigint>>;

/** processed_upto$_ last_msg_lt:uint64 last_msg_hash:bits256 = ProcessedUpto. */
export interface ProcessedUpto {
  lastMsgLt: bigint;
  lastMsgHash: Buffer;
}

export const processedUptoValue: DictionaryValue<ProcessedUpto> = valueCodec(
  (s) => ({ lastMsgLt: s.loadUintBig(64), lastMsgHash: s.loadBuffer(32) }),
  (v) => (b) => {
    b.storeUint(v.lastMsgLt, 64);
    storeBits256(b, v.lastMsgHash, "ProcessedUpto.last_msg_hash");
  },
);

/** _ (HashmapE 96 ProcessedUpto) = ProcessedInfo; key [ shard:uint64 mc_seqno:uint32 ]. */
export type ProcessedInfo = Dictionary<bigint, ProcessedUpto>;

/** _ messages:(HashmapE 64 EnqueuedMsg) count:uint48 = AccountDispatchQueue; messages keyed by created_lt. */
export interface AccountDispatchQueue {
  messages: Dictionary<bigint, EnqueuedMsg>;
  count: bigint;
}

export const accountDispatchQueueValue: DictionaryValue<AccountDispatchQueue> = valueCodec(
  (s) => ({ messages: loadHashmapE(s, KEY_64, enqueuedMsgValue), count: s.loadUintBig(48) }),
  (v) => (b) => void b.store(storeHashmapE(v.messages, KEY_64, enqueuedMsgValue)).storeUint(v.count, 48),
);

/** _ (HashmapAugE 256 AccountDispatchQueue uint64) = DispatchQueue; key sender address, extra min created_lt. */
export type DispatchQueue = Dictionary<bigint, AugValue<AccountDispatchQueue, bigint>>;

/** out_msg_queue_extra#0 dispatch_queue:DispatchQueue out_queue_size:(Maybe uint48) = OutMsgQueueExtra. */
export interface OutMsgQueueExtra {
  dispatchQueue: DispatchQueue;
  outQueueSize: bigint | null;
}

/**
 * _ out_queue:OutMsgQueue proc_info:ProcessedInfo extra:(Maybe OutMsgQueueExtra) = OutMsgQueueInfo.
 * (Older states had ihr_pending:IhrPendingInfo there; empty, it is the same bit as extra = nothing.)
 */
export interface OutMsgQueueInfo {
  outQueue: OutMsgQueue;
  procInfo: ProcessedInfo;
  extra: OutMsgQueueExtra | null;
}

export function loadOutMsgQueueInfo(s: Slice): OutMsgQueueInfo {
  const outQueue = loadHashmapAugE(s, KEY_352, enqueuedMsgValue, minLtAug).dict;
  const procInfo = loadHashmapE(s, KEY_SHARD96, processedUptoValue);
  let extra: OutMsgQueueExtra | null = null;
  if (s.loadBit()) {
    const tag = s.loadUint(4);
    if (tag !== 0) throw new Error(`OutMsgQueueExtra: bad tag ${tag}`);
    const dispatchQueue = loadHashmapAugE(s, KEY_256, accountDispatchQueueValue, minLtAug).dict;
    const outQueueSize = s.loadBit() ? s.loadUintBig(48) : null;
    extra = { dispatchQueue, outQueueSize };
  }
  return { outQueue, procInfo, extra };
}

export function storeOutMsgQueueInfo(src: OutMsgQueueInfo) {
  return (b: Builder): void => {
    b.store(storeHashmapAugE(src.outQueue, KEY_352, enqueuedMsgValue, minLtAug));
    b.store(storeHashmapE(src.procInfo, KEY_SHARD96, processedUptoValue));
    if (!src.extra) {
      b.storeBit(0);
      return;
    }
    b.storeBit(1).storeUint(0, 4);
    b.store(storeHashmapAugE(src.extra.dispatchQueue, KEY_256, accountDispatchQueueValue, minLtAug));
    if (src.extra.outQueueSize === null) b.storeBit(0);
    else b.storeBit(1).storeUint(src.extra.outQueueSize, 48);
  };
}

/**
 * An empty queue (what a chain that delivers every message within its blocks has). By default
 * with out_msg_queue_extra = (empty dispatch queue, out_queue_size 0), as current mainnet states
 * have it; `withExtra = false` gives the older bare form (extra = nothing).
 */
export function emptyOutMsgQueueInfo(withExtra = true): OutMsgQueueInfo {
  return {
    outQueue: emptyAugDict(KEY_352, enqueuedMsgValue, minLtAug),
    procInfo: Dict.empty(KEY_SHARD96, processedUptoValue),
    extra: withExtra ? { dispatchQueue: emptyAugDict(KEY_256, accountDispatchQueueValue, minLtAug), outQueueSize: 0n } : null,
  };
}

// ---------------------------------------------------------------------------------------------
// LibDescr

const trueValue: DictionaryValue<true> = { parse: () => true, serialize: () => undefined };

/** shared_lib_descr$00 lib:^Cell publishers:(Hashmap 256 True) = LibDescr. */
export interface LibDescr {
  lib: Cell;
  /** Account ids of the publishers (a non-empty set). */
  publishers: Dictionary<bigint, true>;
}

export function loadLibDescr(s: Slice): LibDescr {
  const tag = s.loadUint(2);
  if (tag !== 0) throw new Error(`LibDescr: bad tag ${tag}`);
  const lib = s.loadRef();
  // the publishers Hashmap is inline: its root edge is the rest of the cell
  const rest = beginCell().storeSlice(s).endCell();
  return { lib, publishers: loadHashmap(rest, KEY_256, trueValue) };
}

export function storeLibDescr(src: LibDescr) {
  return (b: Builder): void => {
    const pub = buildHashmap(src.publishers, KEY_256, trueValue);
    b.storeUint(0, 2).storeRef(src.lib).storeSlice(pub.beginParse());
  };
}

export const libDescrValue: DictionaryValue<LibDescr> = valueCodec(loadLibDescr, storeLibDescr);

/** HashmapE 256 LibDescr, keyed by library (code cell) hash. */
export type Libraries = Dictionary<bigint, LibDescr>;

export function emptyLibraries(): Libraries {
  return Dict.empty(KEY_256, libDescrValue);
}

/** A LibDescr for a library cell published by the given accounts. */
export function libDescr(lib: Cell, publishers: (Buffer | bigint)[]): LibDescr {
  const p = Dict.empty(KEY_256, trueValue);
  for (const a of publishers) p.set(accountKey(a), true);
  return { lib, publishers: p };
}

// ---------------------------------------------------------------------------------------------
// ShardStateUnsplit

/** The ^[ overload_history … master_ref ] part of a ShardStateUnsplit. */
export interface ShardStateOther {
  overloadHistory: bigint;
  underloadHistory: bigint;
  totalBalance: CurrencyCollection;
  totalValidatorFees: CurrencyCollection;
  libraries: Libraries;
  masterRef: BlkMasterInfo | null;
}

/**
 * shard_state#9023afe2 global_id:int32 shard_id:ShardIdent seq_no:uint32 vert_seq_no:#
 *   gen_utime:uint32 gen_lt:uint64 min_ref_mc_seqno:uint32 out_msg_queue_info:^OutMsgQueueInfo
 *   before_split:(## 1) accounts:^ShardAccounts
 *   ^[ overload_history:uint64 underload_history:uint64 total_balance:CurrencyCollection
 *      total_validator_fees:CurrencyCollection libraries:(HashmapE 256 LibDescr)
 *      master_ref:(Maybe BlkMasterInfo) ]
 *   custom:(Maybe ^McStateExtra) = ShardStateUnsplit.
 *
 * A `Cell` in a ref field is a part that is pruned or contains pruned cells (Merkle proof / update),
 * re-stored verbatim. `accountsPruned` is set when `accounts` is a partially present dictionary.
 */
export interface ShardStateUnsplit {
  globalId: number;
  shardId: ShardIdent;
  seqNo: number;
  vertSeqNo: number;
  genUtime: number;
  genLt: bigint;
  minRefMcSeqno: number;
  outMsgQueueInfo: OutMsgQueueInfo | Cell;
  beforeSplit: boolean;
  accounts: ShardAccounts | Cell;
  accountsPruned?: AugPrunedParts;
  other: ShardStateOther | Cell;
  custom: McStateExtra | Cell | null;
}

function loadShardStateOther(s: Slice): ShardStateOther {
  const overloadHistory = s.loadUintBig(64);
  const underloadHistory = s.loadUintBig(64);
  const totalBalance = loadCurrencyCollection(s);
  const totalValidatorFees = loadCurrencyCollection(s);
  const libraries = loadHashmapE(s, KEY_256, libDescrValue);
  const masterRef = s.loadBit() ? loadBlkMasterInfo(s) : null;
  s.endParse();
  return { overloadHistory, underloadHistory, totalBalance, totalValidatorFees, libraries, masterRef };
}

function storeShardStateOther(src: ShardStateOther) {
  return (b: Builder): void => {
    b.storeUint(src.overloadHistory, 64).storeUint(src.underloadHistory, 64);
    b.store(storeCurrencyCollection(src.totalBalance)).store(storeCurrencyCollection(src.totalValidatorFees));
    b.store(storeHashmapE(src.libraries, KEY_256, libDescrValue));
    if (src.masterRef) b.storeBit(1).store(storeBlkMasterInfo(src.masterRef));
    else b.storeBit(0);
  };
}

export function loadShardStateUnsplit(s: Slice): ShardStateUnsplit {
  const tag = s.loadUint(32);
  if (tag !== 0x9023afe2) throw new Error(`ShardStateUnsplit: bad tag 0x${tag.toString(16)}`);
  const globalId = s.loadInt(32);
  const shardId = loadShardIdent(s);
  const seqNo = s.loadUint(32);
  const vertSeqNo = s.loadUint(32);
  const genUtime = s.loadUint(32);
  const genLt = s.loadUintBig(64);
  const minRefMcSeqno = s.loadUint(32);
  const q = s.loadRef();
  const beforeSplit = s.loadBit();
  const a = s.loadRef();
  const o = s.loadRef();
  const c = s.loadMaybeRef();
  s.endParse();
  const state: ShardStateUnsplit = {
    globalId,
    shardId,
    seqNo,
    vertSeqNo,
    genUtime,
    genLt,
    minRefMcSeqno,
    outMsgQueueInfo: isPartial(q) ? q : loadOutMsgQueueInfo(q.beginParse()),
    beforeSplit,
    accounts: a,
    other: isPartial(o) ? o : loadShardStateOther(o.beginParse()),
    custom: c === null ? null : isPartial(c) ? c : loadMcStateExtra(c.beginParse()),
  };
  if (!a.isExotic) {
    const as = a.beginParse();
    const r = loadShardAccountsPartial(as);
    as.endParse();
    state.accounts = r.accounts;
    if (r.pruned) state.accountsPruned = r.pruned;
  }
  return state;
}

export function storeShardStateUnsplit(src: ShardStateUnsplit) {
  return (b: Builder): void => {
    const ref = <T>(v: T | Cell, store: (v: T) => (b: Builder) => void): Cell => (v instanceof Cell ? v : beginCell().store(store(v)).endCell());
    b.storeUint(0x9023afe2, 32);
    b.storeInt(src.globalId, 32);
    b.store(storeShardIdent(src.shardId));
    b.storeUint(src.seqNo, 32).storeUint(src.vertSeqNo, 32);
    b.storeUint(src.genUtime, 32).storeUint(src.genLt, 64);
    b.storeUint(src.minRefMcSeqno, 32);
    b.storeRef(ref(src.outMsgQueueInfo, storeOutMsgQueueInfo));
    b.storeBit(src.beforeSplit);
    b.storeRef(ref(src.accounts, (accounts: ShardAccounts) => storeShardAccounts(accounts, src.accountsPruned)));
    b.storeRef(ref(src.other, storeShardStateOther));
    b.storeMaybeRef(src.custom === null ? null : ref(src.custom, storeMcStateExtra));
  };
}

/** The state's root cell (its hash is the state hash of BlockIdExt-less APIs, and of state_update). */
export function shardStateCell(src: ShardStateUnsplit): Cell {
  return beginCell().store(storeShardStateUnsplit(src)).endCell();
}

/** _ ShardStateUnsplit = ShardState; split_state#5f327da5 left:^ShardStateUnsplit right:^ShardStateUnsplit = ShardState. */
export type ShardState = { type: "unsplit"; state: ShardStateUnsplit } | { type: "split_state"; left: ShardStateUnsplit; right: ShardStateUnsplit };

export function loadShardState(s: Slice): ShardState {
  const tag = s.preloadUint(32);
  if (tag === 0x5f327da5) {
    s.skip(32);
    const left = loadShardStateUnsplit(s.loadRef().beginParse());
    const right = loadShardStateUnsplit(s.loadRef().beginParse());
    return { type: "split_state", left, right };
  }
  return { type: "unsplit", state: loadShardStateUnsplit(s) };
}

export function storeShardState(src: ShardState) {
  return (b: Builder): void => {
    if (src.type === "unsplit") {
      b.store(storeShardStateUnsplit(src.state));
    } else {
      b.storeUint(0x5f327da5, 32);
      b.storeRef(shardStateCell(src.left));
      b.storeRef(shardStateCell(src.right));
    }
  };
}

/** Parses a state root cell, or the MERKLE_PROOF of one (its virtual root, with pruned parts). */
export function parseShardState(root: Cell): ShardStateUnsplit {
  const r = root.type === CellType.MerkleProof ? root.refs[0] : root;
  return loadShardStateUnsplit(r.beginParse());
}

/** A complete state's accounts (throws if the accounts dictionary is pruned or partial). */
export function stateAccounts(state: ShardStateUnsplit): ShardAccounts {
  if (state.accounts instanceof Cell || state.accountsPruned) throw new Error("ShardStateUnsplit: the accounts dictionary is (partly) pruned");
  return state.accounts;
}

// ---------------------------------------------------------------------------------------------
// Account state proofs

/** Where an account lookup in a ShardAccounts dictionary ended, and the cells it read. */
export interface ShardAccountLookup {
  /** The ShardAccount, if the account exists. */
  account: ShardAccount | null;
  /** Its leaf extra, if it exists. */
  extra: DepthBalanceInfo | null;
  /** The dictionary edges read on the way (root first). */
  path: Cell[];
}

function keyBitsAt(key: bigint, from: number, len: number): bigint {
  return (key >> BigInt(256 - from - len)) & ((1n << BigInt(len)) - 1n);
}

/**
 * Looks an account up in the root edge of a ShardAccounts dictionary the way the node does (reads
 * only the edges on the key's path), so it also works on a pruned dictionary as long as that path
 * is present. Throws if it runs into a pruned branch.
 */
export function lookupShardAccount(dictRoot: Cell, accountId: Buffer | bigint): ShardAccountLookup {
  const key = accountKey(accountId);
  const path: Cell[] = [];
  let cell = dictRoot;
  let consumed = 0;
  for (;;) {
    if (cell.isExotic) throw new Error("ShardAccounts: the path to the account is pruned");
    path.push(cell);
    // walk one edge: a single-node walk gives the label without descending
    const node = walkHashmap(cell, 256 - consumed).next().value!;
    const labelLen = node.pathLen;
    if (node.path !== keyBitsAt(key, consumed, labelLen)) return { account: null, extra: null, path };
    consumed += labelLen;
    if (node.type === "leaf") {
      const rest = node.rest!;
      const extra = loadDepthBalanceInfo(rest);
      return { account: loadShardAccount(rest), extra, path };
    }
    cell = keyBitsAt(key, consumed, 1) === 0n ? node.left! : node.right!;
    consumed += 1;
  }
}

/** Options of proveShardAccount. */
export interface ProveShardAccountOptions {
  /**
   * Keep the whole Account tree in the proof (default false: like a liteserver, whose
   * liteServer.accountState sends the account separately, the Account cell is pruned and the proof
   * pins its hash).
   */
  withAccount?: boolean;
}


/**
 * A MERKLE_PROOF of a ShardStateUnsplit that keeps what a liteserver's getAccountState state proof
 * keeps: the state root, the ^[ … ] cell, the ShardAccounts root cell and the dictionary edges on
 * the account's key path (down to its leaf, or to where the key leaves the dictionary: a proof of
 * absence); everything else is pruned. Works on a complete state and on a pruned one in which that
 * path is present. The proof's virtual hash is the state hash (stateRoot.hash(0)).
 */
export function proveShardAccount(stateRoot: Cell, accountId: Buffer | bigint, opts: ProveShardAccountOptions = {}): Cell {
  const root = stateRoot.type === CellType.MerkleProof ? stateRoot.refs[0] : stateRoot;
  const keep = new Set<string>();
  const add = (c: Cell) => keep.add(c.hash().toString("hex"));
  add(root);
  const s = root.beginParse();
  if (s.loadUint(32) !== 0x9023afe2) throw new Error("proveShardAccount: not a ShardStateUnsplit");
  const accountsCell = root.refs[1];
  const otherCell = root.refs[2];
  if (!otherCell.isExotic) add(otherCell);
  if (accountsCell.isExotic) throw new Error("proveShardAccount: the accounts dictionary is pruned");
  add(accountsCell);
  const dictRoot = accountsCell.beginParse().loadMaybeRef();
  if (dictRoot) {
    const found = lookupShardAccount(dictRoot, accountId);
    for (const c of found.path) add(c);
    if (found.account && opts.withAccount) {
      if (found.account.account.isExotic) throw new Error("proveShardAccount: the account is pruned in this state");
      collectCellHashes(found.account.account, keep);
    }
  }
  return makeMerkleProof(root, keep);
}

/**
 * Reads an account from a state proof (proveShardAccount, or a liteserver's state proof): checks
 * nothing but the structure; compare `proof.refs[0].hash(0)` with the trusted state hash first.
 */
export function shardAccountFromProof(proof: Cell, accountId: Buffer | bigint): ShardAccountLookup {
  const root = proof.type === CellType.MerkleProof ? proof.refs[0] : proof;
  const accountsCell = root.refs[1];
  if (accountsCell.isExotic) throw new Error("state proof: the accounts dictionary is pruned");
  const dictRoot = accountsCell.beginParse().loadMaybeRef();
  if (!dictRoot) return { account: null, extra: null, path: [] };
  return lookupShardAccount(dictRoot, accountId);
}
