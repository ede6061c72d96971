// The chain: a masterchain and workchain 0 (one shard, or several that split and merge), sealed
// together. Each seal collates every shard of workchain 0 (external messages, internal messages
// from the masterchain and from other shards sent in earlier seals), then the masterchain (its
// externals and the messages workchain 0 sent it), builds the blocks, commits the shard blocks in
// the masterchain block's shard_hashes, signs the masterchain block with the validator key, and
// stores everything in one transaction of the ChainStore.
//
// Memory: the states of the last `stateWindow` masterchain blocks (and the shard blocks they
// commit) are kept as cells; older blocks are records read again from the store when asked, and
// their states are gone unless the chain is archival (then they are read back from the store's
// cells). McStateExtra.prev_blocks grows by one entry per block and is updated in place
// (hashmapAugSet), so a seal costs the same at block 10 and at block 100,000.
import { createHash, createPrivateKey, sign as ed25519Sign, type KeyObject } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Address, beginCell, Cell, Dictionary } from "@ton/core";
import { LruMap } from "@tongate/runtime";
import { EXTERNAL_MESSAGE_LIMITS, MAX_MSG_CELLS, readBoc } from "@tongate/ton";
import {
  accountDepthBalance,
  binTreeFromShards,
  blockSignedMessage,
  emptyCryptoSignatures,
  computeValidatorSetHashShort,
  configValidatorSet,
  emptyShardFees,
  emptyShardHashes,
  hashmapAugSet,
  hashmapReplaceOffPath,
  keyExtBlkRefValue,
  keyMaxLtAug,
  masterchainValidators,
  proveBlockHeader,
  SHARD_FULL,
  shardChildren,
  shardContainsAccount,
  shardParent,
  shardPrefixLength,
  validatorNodeIdShort,
  walkHashmap,
  type ExtBlkRef,
  type HashmapAugECell,
  type KeyMaxLt,
  type McBlockExtra,
  type McStateExtra,
  type ShardDescr,
} from "@tongate/block";
import { collate, queued, stateKey, type AccountStore, type Collation, type QueuedMessage } from "../collator.js";
import type { PrevBlocksInfo } from "@ton/sandbox";
import { withBoc, type TransactionExecutor } from "@tongate/emulator";
import type { Genesis } from "../genesis.js";
import { shardAccountCell } from "../genesis.js";
import { deriveBytes } from "../keys.js";
import { EmulatorLibraries } from "../libraries.js";
import { LiteErrorCode, LiteServerError } from "../liteserver/errors.js";
import { AccountHistory, type TxRecord } from "./account-history.js";
import { buildBlock, type SplitMergeFlags } from "./block-builder.js";
import { BlockRecord, type RecordSource } from "./block-record.js";
import type { ShardStateBuilder } from "./state.js";
import type { BlockKey, ChainStore, StoredBlockMeta } from "./store.js";
import { specialAccountIds } from "../special-accounts.js";
import { collateMasterchain } from "../ticktock.js";

export { BlockRecord } from "./block-record.js";
export type { BlockIdExt } from "./block-record.js";

export const LT_BLOCK_ALIGN = 1_000_000n;

/**
 * McStateExtra.global_balance: localnet's total supply (4 billion TON, mainnet's order of
 * magnitude), of which the genesis wallets hold a part. The amount is chosen for clients:
 * @ton/core's loadMasterchainStateExtra (behind ton-lite-client's getConfig) reads ConfigParams'
 * `config:^(Hashmap …)` as a Maybe-ref, one bit too many, so it reads global_balance one bit
 * late. With an 8-byte amount whose first byte is below 0x40 that misread still finds the config
 * and an empty extra-currency dictionary instead of failing.
 */
export const LOCALNET_TOTAL_SUPPLY = 4_000_000_000n * 1_000_000_000n;

/** Masterchain blocks whose states stay in memory by default (about four minutes at one block a second). */
export const DEFAULT_STATE_WINDOW = 256;
/** Shard counts `--shards` takes: workchain 0 split to depth 0..4. */
export const SHARD_COUNTS = [1, 2, 4, 8, 16] as const;
/** The deepest shards localnet makes (16 shards of workchain 0). */
export const MAX_SHARD_DEPTH = 4;

export interface ZeroState {
  workchain: number;
  rootHash: Buffer;
  fileHash: Buffer;
  root: Cell;
  boc: Buffer;
}

export interface ChainOptions {
  genesis: Genesis;
  executor: TransactionExecutor;
  buildState: ShardStateBuilder;
  store: ChainStore;
  /** Unix time source (tests move time by hand). */
  clock?: () => number;
  /** Masterchain blocks whose states stay in memory (DEFAULT_STATE_WINDOW). */
  stateWindow?: number;
  /** Serve states older than the window, read back from the store (else TON's "state already gc'd"). */
  archival?: boolean;
  /** Split workchain 0 into this many shards in the first blocks (1, 2, 4, 8 or 16). */
  shards?: number;
  /**
   * Milliseconds each seal serves its shard blocks as signed but not yet committed (getBlock,
   * nonfinal.getPendingShardBlocks) before it collates the masterchain block that commits them; 0: none.
   */
  pendingWindowMs?: number;
}

/** A planned shard block of one seal. */
interface ShardPlan {
  shard: bigint;
  /** The previous blocks: none (the zero state), one, or the two merged. */
  prev: BlockRecord[];
  flags: SplitMergeFlags;
}

/** A block a seal produced, with what the store needs of it. */
interface Produced {
  rec: BlockRecord;
  collation: Collation;
  boc: Buffer;
}

/** What the store keeps about the head, rewritten by every seal. */
interface StoredHead {
  mcSeqno: number;
  tips: [number, string, number][];
  keyBlocks: number[];
  /** Internal messages waiting for the next seal (BoCs, base64). */
  queue: string[];
  pendingSplits: string[];
  pendingMerges: string[];
  /** The depth --shards still splits toward (0: reached; a restart does not split a merged chain again). */
  targetDepth?: number;
}

/** The DER (PKCS #8) header of an Ed25519 private key; the 32-byte seed follows. */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

const alignUp = (lt: bigint) => ((lt + LT_BLOCK_ALIGN) / LT_BLOCK_ALIGN) * LT_BLOCK_ALIGN;
const refOf = (b: { id: { seqno: number; rootHash: Buffer; fileHash: Buffer }; endLt: bigint }): ExtBlkRef => ({ endLt: b.endLt, seqNo: b.id.seqno, rootHash: b.id.rootHash, fileHash: b.id.fileHash });
const zeroRef = (z: ZeroState): ExtBlkRef => ({ endLt: 0n, seqNo: 0, rootHash: z.rootHash, fileHash: z.fileHash });
/** A shard id as TON tools print it: 16 hex digits. */
const hex16 = (shard: bigint) => shard.toString(16).padStart(16, "0");
const keyHex = (k: BlockKey) => `${k.workchain}:${BigInt.asUintN(64, k.shard).toString(16)}:${k.seqno}`;
const noSplitMerge = (): SplitMergeFlags => ({ beforeSplit: false, afterSplit: false, afterMerge: false, wantSplit: false, wantMerge: false });
/** split_state#5f327da5 left:^ShardStateUnsplit right:^ShardStateUnsplit = ShardState (block.tlb). */
const SPLIT_STATE_TAG = 0x5f327da5;
const byShard = (a: { shard: bigint }, b: { shard: bigint }) => (a.shard < b.shard ? -1 : a.shard > b.shard ? 1 : 0);

/** ton::ErrorCode::error "state already gc'd": what a non-archival node answers for a state it dropped. */
export const stateGcError = () => new LiteServerError(LiteErrorCode.error, "state already gc'd");

export class Chain implements RecordSource {
  readonly genesis: Genesis;
  readonly mcZero: ZeroState;
  readonly shardZero: ZeroState;
  readonly history = new AccountHistory();
  readonly executor: TransactionExecutor;
  readonly store: ChainStore;
  readonly stateWindow: number;
  readonly archival: boolean;
  private windowMs = 0;
  private readonly buildState: ShardStateBuilder;
  private readonly clock: () => number;
  /** Blocks of the window, with their states: masterchain by seqno, shard blocks by key. */
  private readonly mcHot = new Map<number, BlockRecord>();
  private readonly shardHot = new Map<string, BlockRecord>();
  /** Older blocks read back from the store, and states read back from it (archival). */
  private readonly cold = new LruMap<string, BlockRecord>(256);
  private readonly coldStates = new LruMap<string, Cell>(4);
  private head: BlockRecord | undefined;
  /** Workchain 0's shards and their newest blocks (undefined: the zero state). */
  private tips: { shard: bigint; rec: BlockRecord | undefined }[] = [{ shard: SHARD_FULL, rec: undefined }];
  private keyBlocks: number[] = [];
  private prevBlocksCell: HashmapAugECell<KeyMaxLt> = { root: null, extra: keyMaxLtAug.empty() };
  private readonly mcConfig: McStateExtra["config"];
  /** Shards to split or merge (by the parent) at the next seal, and the shard depth to reach. */
  private pendingSplits = new Set<bigint>();
  private pendingMerges = new Set<bigint>();
  private targetDepth = 0;
  private queues = new Map<number, QueuedMessage[]>([
    [-1, []],
    [0, []],
  ]);
  private waiters: { seqno: number; resolve: () => void }[] = [];
  private sealing: Promise<BlockRecord> | undefined;
  /** The shard blocks of the seal under way while it serves them as pending (see pendingWindowMs). */
  private pending: Produced[] = [];
  private validatorKey: KeyObject | undefined;
  private readonly libraries = new EmulatorLibraries();

  private constructor(o: ChainOptions) {
    this.genesis = o.genesis;
    this.executor = o.executor;
    this.buildState = o.buildState;
    this.store = o.store;
    this.clock = o.clock ?? (() => Math.floor(Date.now() / 1000));
    this.stateWindow = Math.max(16, o.stateWindow ?? DEFAULT_STATE_WINDOW);
    this.archival = o.archival ?? false;
    this.pendingWindowMs = o.pendingWindowMs ?? 0;
    const config = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), this.genesis.config);
    const p0 = config.get(0)?.beginParse();
    // The config dictionary's cells are the genesis config's: every state shares them.
    this.mcConfig = { configAddr: p0 ? p0.loadBuffer(32) : Buffer.alloc(32, 0x55), config, root: this.genesis.config };
    this.shardZero = this.zeroState(0);
    this.mcZero = this.zeroState(-1);
    const shards = o.shards ?? 1;
    if (!SHARD_COUNTS.includes(shards as (typeof SHARD_COUNTS)[number])) throw new RangeError(`shards must be one of ${SHARD_COUNTS.join(", ")}`);
    this.targetDepth = Math.log2(shards);
  }

  /** Opens the chain in `store`: continues the stored one, or starts from genesis. */
  static open(o: ChainOptions): Chain {
    const chain = new Chain(o);
    if (!chain.load()) {
      for (const [id, sa] of o.genesis.accounts) chain.history.setVersion(AccountHistory.key(0, id), 0, shardAccountCell(sa));
      for (const [id, sa] of o.genesis.masterchainAccounts) chain.history.setVersion(AccountHistory.key(-1, id), 0, shardAccountCell(sa));
    }
    return chain;
  }

  /** Milliseconds each seal serves its shard blocks as pending before committing them (ChainOptions.pendingWindowMs). */
  get pendingWindowMs(): number {
    return this.windowMs;
  }

  /** Takes effect from the next seal. */
  set pendingWindowMs(ms: number) {
    if (!Number.isInteger(ms) || ms < 0) throw new RangeError(`the pending window must be a whole number of milliseconds, 0 or more (got ${ms})`);
    this.windowMs = ms;
  }

  // ---------------------------------------------------------------------------------------------
  // Reading blocks

  get lastMasterchain(): BlockRecord | undefined {
    return this.head;
  }

  /** The newest block of the first shard of workchain 0 (the only one unless split). */
  get lastShard(): BlockRecord | undefined {
    return this.tips[0]?.rec;
  }

  /** Workchain 0's current shards with their newest blocks. */
  get shardTips(): readonly { shard: bigint; rec: BlockRecord | undefined }[] {
    return this.tips;
  }

  /** The newest block of the shard holding `account` (workchain 0), or the masterchain head. */
  tipFor(address: Address): BlockRecord | undefined {
    if (address.workChain === -1) return this.head;
    return this.tips.find((t) => shardContainsAccount(t.shard, address.hash))?.rec;
  }

  /** A block by its key (workchain, shard, seqno), from the window or the store. */
  block(k: BlockKey): BlockRecord | undefined {
    if (k.workchain === -1 && k.shard === SHARD_FULL) {
      const hot = this.mcHot.get(k.seqno);
      if (hot) return hot;
    } else {
      const hot = this.shardHot.get(keyHex(k));
      if (hot) return hot;
    }
    const hex = keyHex(k);
    const cold = this.cold.get(hex);
    if (cold) return cold;
    const meta = this.store.block(k);
    if (!meta || (this.head && meta.mcSeqno > this.head.id.seqno)) return undefined;
    const rec = new BlockRecord(meta, this);
    this.cold.set(hex, rec);
    return rec;
  }

  mcBlock(seqno: number): BlockRecord | undefined {
    return seqno >= 1 ? this.block({ workchain: -1, shard: SHARD_FULL, seqno }) : undefined;
  }

  /** The block with exactly this id (its key and both hashes), committed or pending. */
  findBlock(id: { workchain: number; shard: bigint; seqno: number; rootHash: Buffer; fileHash: Buffer }): BlockRecord | undefined {
    const same = (rec: BlockRecord | undefined) =>
      rec && rec.id.seqno === id.seqno && rec.id.workchain === id.workchain && rec.id.shard === BigInt.asUintN(64, id.shard) && rec.id.rootHash.equals(id.rootHash) && rec.id.fileHash.equals(id.fileHash) ? rec : undefined;
    return same(this.block({ workchain: id.workchain, shard: BigInt.asUintN(64, id.shard), seqno: id.seqno })) ?? this.pending.map((p) => p.rec).find((rec) => same(rec));
  }

  /**
   * Shard blocks signed but not committed by a masterchain block yet (liteServer.nonfinal.*): those of
   * the seal under way during its pending window, else none.
   */
  get pendingShardBlocks(): readonly BlockRecord[] {
    return this.pending.map((p) => p.rec);
  }

  /** Every shard id workchain `workchain` has had blocks in (few: splits and merges make them). */
  shardIdsOf(workchain: number): bigint[] {
    return workchain === -1 ? [SHARD_FULL] : this.store.shardsOf(workchain);
  }

  /** The masterchain seqnos of the key blocks, ascending. */
  get keyBlockSeqnos(): readonly number[] {
    return this.keyBlocks;
  }

  /**
   * Every masterchain block, oldest first. Reads the whole chain: for tests and tools, not for the
   * liteserver (which looks blocks up by key).
   */
  get masterchain(): BlockRecord[] {
    const out: BlockRecord[] = [];
    for (let s = 1; s <= (this.head?.id.seqno ?? 0); s++) out.push(this.mcBlock(s)!);
    return out;
  }

  /** Every block of workchain 0, by the masterchain block that committed it, then shard. Reads the whole chain (tests, tools). */
  get shardchain(): BlockRecord[] {
    const out: BlockRecord[] = [];
    for (const shard of this.shardIdsOf(0)) {
      const [first, last] = this.store.seqnoRange(0, shard) ?? [1, 0];
      for (let seqno = first; seqno <= last; seqno++) {
        const b = this.block({ workchain: 0, shard, seqno });
        if (b) out.push(b);
      }
    }
    return out.sort((a, b) => a.mcSeqno - b.mcSeqno || byShard(a.id, b.id));
  }

  /** The transaction of an account with exactly this lt. */
  transaction(workchain: number, account: Buffer, lt: bigint): TxRecord | undefined {
    const t = this.store.transaction(workchain, account, lt);
    return t && t.mcSeqno <= (this.head?.id.seqno ?? 0) ? { lt: t.lt, hash: t.hash, cell: Cell.fromBoc(t.boc)[0]!, block: t.block, mcSeqno: t.mcSeqno } : undefined;
  }

  /** Up to `count` transactions of an account going back from (and including) lt. */
  transactionsFrom(workchain: number, account: Buffer, lt: bigint, count: number): TxRecord[] {
    const head = this.head?.id.seqno ?? 0;
    return this.store
      .transactionsFrom(workchain, account, lt, count)
      .filter((t) => t.mcSeqno <= head)
      .map((t) => ({ lt: t.lt, hash: t.hash, cell: Cell.fromBoc(t.boc)[0]!, block: t.block, mcSeqno: t.mcSeqno }));
  }

  // RecordSource: what a record reads when it does not hold it.

  blockBoc(r: BlockRecord): Buffer {
    // a pending block is in the store only once its masterchain block commits it
    const pending = this.pending.find((p) => p.rec === r);
    if (pending) return pending.boc;
    const boc = this.store.blockBoc(r.key);
    if (!boc) throw new LiteServerError(LiteErrorCode.notready, `block ${r.id.workchain}:${r.id.shard.toString(16)}:${r.id.seqno} not in db`);
    return boc;
  }

  stateOf(r: BlockRecord): Cell {
    const head = this.head?.id.seqno ?? 0;
    // Blocks of the window that this process did not build (after a restart) are read back too.
    if (!this.archival && r.mcSeqno <= head - this.stateWindow) throw stateGcError();
    const hex = r.meta.stateHash.toString("hex");
    let state = this.coldStates.get(hex);
    if (!state) this.coldStates.set(hex, (state = this.store.loadCells(r.meta.stateRef, r.meta.stateHash)));
    return state;
  }

  transactionsOf(r: BlockRecord): TxRecord[] {
    const out: TxRecord[] = [];
    const block = { workchain: r.id.workchain, shard: r.id.shard, seqno: r.id.seqno };
    for (const [, ab] of r.block.extra.accountBlocks) {
      for (const [lt, t] of ab.value.transactions) out.push({ lt, hash: t.value.raw.hash(), cell: t.value.raw, block, mcSeqno: r.mcSeqno });
    }
    return out.sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
  }

  // ---------------------------------------------------------------------------------------------
  // Shard splits and merges

  /**
   * Splits `shard` of workchain 0 (every current shard free to split when omitted): its next block is
   * before_split, the one after it two after_split blocks. Returns the shards that will split; a
   * RangeError says why a shard cannot (unknown, at depth 4, splitting or merging already).
   */
  requestSplit(shard?: bigint): bigint[] {
    this.notSplittingToStart();
    const targets = shard === undefined ? this.tips.map((t) => t.shard).filter((s) => shardPrefixLength(s) < MAX_SHARD_DEPTH && !this.busy(s)) : [shard];
    if (targets.length === 0) throw new RangeError(`no shard of workchain 0 can split now (at depth ${MAX_SHARD_DEPTH}, or splitting or merging already); the shards: ${this.shardList()}`);
    for (const s of targets) {
      if (!this.tips.some((t) => t.shard === s)) throw new RangeError(`workchain 0 has no shard ${hex16(s)}; its shards: ${this.shardList()}`);
      if (shardPrefixLength(s) >= MAX_SHARD_DEPTH) throw new RangeError(`shard ${hex16(s)} is at depth ${MAX_SHARD_DEPTH}, localnet's deepest`);
      if (this.busy(s)) throw new RangeError(`shard ${hex16(s)} is splitting or merging already`);
    }
    for (const s of targets) this.pendingSplits.add(s);
    return targets;
  }

  /**
   * Merges the two children of `parent` (every pair of sibling shards free to merge when omitted):
   * their next blocks want a merge, the one after them is one after_merge block. Returns the parents.
   */
  requestMerge(parent?: bigint): bigint[] {
    this.notSplittingToStart();
    const has = (s: bigint) => this.tips.some((t) => t.shard === s);
    const mergeable = (p: bigint) => shardPrefixLength(p) < MAX_SHARD_DEPTH && shardChildren(p).every((c) => has(c) && !this.busy(c));
    const pairs: bigint[] = [];
    if (parent !== undefined) {
      if (parent === 0n || shardPrefixLength(parent) >= MAX_SHARD_DEPTH || !shardChildren(parent).every(has)) {
        throw new RangeError(`shard ${hex16(parent)} is not the parent of two current shards; the shards: ${this.shardList()}`);
      }
      if (!mergeable(parent)) throw new RangeError(`the children of shard ${hex16(parent)} are splitting or merging already`);
      pairs.push(parent);
    } else {
      for (const t of this.tips) {
        if (t.shard === SHARD_FULL) continue;
        const p = shardParent(t.shard);
        if (!pairs.includes(p) && mergeable(p)) pairs.push(p);
      }
      if (pairs.length === 0) throw new RangeError(`no two shards of workchain 0 can merge now; the shards: ${this.shardList()}`);
    }
    for (const p of pairs) this.pendingMerges.add(p);
    return pairs;
  }

  /** Whether a current shard has a split or a merge under way (requested, or its last block announced it). */
  private busy(shard: bigint): boolean {
    const rec = this.tips.find((t) => t.shard === shard)?.rec;
    return (
      this.pendingSplits.has(shard) ||
      (shard !== SHARD_FULL && this.pendingMerges.has(shardParent(shard))) ||
      (rec?.meta.beforeSplit ?? false) ||
      (rec?.block.info.wantMerge ?? false)
    );
  }

  /** Splits and merges wait until `--shards` is reached: the first seals split every shard. */
  private notSplittingToStart(): void {
    if (this.tips.some((t) => shardPrefixLength(t.shard) < this.targetDepth)) {
      throw new RangeError(`workchain 0 is still splitting into its first ${2 ** this.targetDepth} shards; seal a few blocks first`);
    }
  }

  private shardList(): string {
    return this.tips.map((t) => hex16(t.shard)).join(", ");
  }

  /** The blocks of workchain 0 the next seal produces, from the tips and the pending splits and merges. */
  private planShards(): ShardPlan[] {
    // --shards: split every shallower shard until the depth is reached, then leave the shards alone
    if (this.targetDepth > 0) {
      const shallow = this.tips.filter((t) => shardPrefixLength(t.shard) < this.targetDepth);
      if (shallow.length === 0) this.targetDepth = 0;
      for (const t of shallow) if (!t.rec?.meta.beforeSplit) this.pendingSplits.add(t.shard);
    }
    const plans: ShardPlan[] = [];
    const done = new Set<bigint>();
    const tipOf = (s: bigint) => this.tips.find((x) => x.shard === s)?.rec;
    for (const t of this.tips) {
      if (done.has(t.shard)) continue;
      const rec = t.rec;
      if (rec?.meta.beforeSplit) {
        for (const child of shardChildren(t.shard)) plans.push({ shard: child, prev: [rec], flags: { ...noSplitMerge(), afterSplit: true } });
        continue;
      }
      const parent = t.shard === SHARD_FULL ? undefined : shardParent(t.shard);
      const pair = parent !== undefined && this.pendingMerges.has(parent) ? shardChildren(parent).map(tipOf) : undefined;
      if (parent !== undefined && pair?.[0] && pair[1]) {
        const [left, right] = [pair[0], pair[1]];
        if (left.block.info.wantMerge && right.block.info.wantMerge) {
          // both announced the merge in the previous seal: one block of the parent follows them
          plans.push({ shard: parent, prev: [left, right], flags: { ...noSplitMerge(), afterMerge: true } });
          this.pendingMerges.delete(parent);
        } else {
          for (const p of [left, right]) plans.push({ shard: p.id.shard, prev: [p], flags: { ...noSplitMerge(), wantMerge: true } });
        }
        done.add(left.id.shard).add(right.id.shard);
        continue;
      }
      const split = this.pendingSplits.delete(t.shard);
      plans.push({ shard: t.shard, prev: rec ? [rec] : [], flags: { ...noSplitMerge(), beforeSplit: split, wantSplit: split } });
    }
    return plans.sort(byShard);
  }

  // ---------------------------------------------------------------------------------------------
  // Accounts

  private static balanceOf(accounts: Map<string, Cell>): bigint {
    let total = 0n;
    // The balance alone (the ShardAccounts leaf extra), without parsing whole accounts.
    for (const c of accounts.values()) total += accountDepthBalance(c.refs[0]!).balance.coins;
    return total;
  }

  /** The current accounts of a shard (ShardAccount cells by account id hex). */
  private accountsOf(workchain: number, shard: bigint): Map<string, Cell> {
    const out = new Map<string, Cell>();
    const prefix = `${workchain}:`;
    for (const key of this.history.keys()) {
      if (!key.startsWith(prefix)) continue;
      const id = key.slice(prefix.length);
      if (workchain === 0 && shard !== SHARD_FULL && !shardContainsAccount(shard, Buffer.from(id, "hex"))) continue;
      const c = this.history.latest(key);
      if (c) out.set(id, c);
    }
    return out;
  }

  /** Accounts as the collation of a block committed by masterchain block `mcSeqno` sees and writes them. */
  private accountStore(mcSeqno: number): AccountStore {
    return {
      get: (wc, id) => this.history.latest(AccountHistory.key(wc, id)),
      set: (wc, id, cell) => {
        const key = AccountHistory.key(wc, id);
        this.sealWrites.push(key);
        this.history.setVersion(key, mcSeqno, cell);
      },
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Masterchain state parts

  /** gen_validator_list_hash_short of the one validator set (config param 34). */
  private get validatorListHashShort(): number {
    if (this.vsetHash === undefined) {
      const config = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), this.genesis.config);
      this.vsetHash = computeValidatorSetHashShort(0, masterchainValidators(configValidatorSet(config, 34)!));
    }
    return this.vsetHash;
  }

  private vsetHash: number | undefined;

  /** c7's previous-blocks info: the last 16 masterchain blocks (newest first) and the last key block. */
  private prevBlocksInfo(): PrevBlocksInfo | undefined {
    const head = this.head;
    if (!head) return undefined;
    const id = (b: BlockRecord) => ({ workchain: -1, shard: SHARD_FULL, seqno: b.id.seqno, rootHash: b.id.rootHash, fileHash: b.id.fileHash });
    const last: BlockRecord[] = [];
    for (let s = head.id.seqno; s >= 1 && last.length < 16; s--) last.push(this.mcBlock(s)!);
    const key = this.mcBlock(this.keyBlocks[this.keyBlocks.length - 1] ?? 1)!;
    return { lastMcBlocks: last.map(id), prevKeyBlock: id(key) };
  }

  private mcStateExtra(shards: { shard: bigint; descr: ShardDescr }[], lastKeyBlock: ExtBlkRef | null, afterKeyBlock: boolean): McStateExtra {
    const shardHashes = emptyShardHashes();
    if (shards.length > 0) shardHashes.set(0, binTreeFromShards(shards.map((s) => ({ shard: s.shard, leaf: s.descr }))));
    return {
      shardHashes,
      config: this.mcConfig,
      flags: 0,
      validatorInfo: { validatorListHashShort: this.validatorListHashShort, catchainSeqno: 0, nxCcUpdated: false },
      prevBlocks: this.prevBlocksCell,
      afterKeyBlock,
      lastKeyBlock,
      globalBalance: { coins: LOCALNET_TOTAL_SUPPLY },
    };
  }

  private zeroState(workchain: number): ZeroState {
    const accounts = new Map<string, Cell>();
    for (const [id, sa] of workchain === 0 ? this.genesis.accounts : this.genesis.masterchainAccounts) accounts.set(id, shardAccountCell(sa));
    const root = this.buildState({
      globalId: this.genesis.globalId,
      workchain,
      shard: SHARD_FULL,
      seqno: 0,
      genUtime: this.genesis.now,
      genLt: 0n,
      minRefMcSeqno: 0,
      accounts,
      totalBalance: Chain.balanceOf(accounts),
      mcExtra: workchain === -1 ? this.mcStateExtra([], null, false) : undefined,
    });
    const boc = root.toBoc({ idx: false, crc32: true });
    return { workchain, root, boc, rootHash: root.hash(), fileHash: createHash("sha256").update(boc).digest() };
  }

  // ---------------------------------------------------------------------------------------------
  // Messages

  /** Queues an external message after checking that its contract accepts it now. */
  async sendExternal(boc: Buffer): Promise<void> {
    let msg: QueuedMessage;
    try {
      // as a liteserver takes one: within config param 43 (several roots were always taken, the first one used)
      const roots = readBoc(boc, { ...EXTERNAL_MESSAGE_LIMITS, roots: { max: MAX_MSG_CELLS } });
      // A one-root BoC goes to the emulator as it arrived (no re-serialization).
      msg = queued(roots.length === 1 ? withBoc(roots[0]!, boc.toString("base64")) : roots[0]!);
    } catch (e) {
      throw new LiteServerError(LiteErrorCode.protoviolation, `cannot parse external message: ${(e as Error).message}`);
    }
    const info = msg.message.info;
    if (info.type !== "external-in") throw new LiteServerError(LiteErrorCode.protoviolation, "not an inbound external message");
    const wc = info.dest.workChain;
    if (wc !== 0 && wc !== -1) throw new LiteServerError(LiteErrorCode.protoviolation, `workchain ${wc} does not exist`);
    const current = this.history.latest(AccountHistory.key(wc, info.dest.hash));
    const dry = await this.executor.check(info.dest, current, msg.cell, {
      now: this.clock(),
      lt: alignUp(this.head?.endLt ?? 0n),
      randomSeed: Buffer.alloc(32),
    });
    if ("rejected" in dry) {
      throw new LiteServerError(
        LiteErrorCode.error,
        `cannot apply external message to current state : External message was not accepted${dry.exitCode !== undefined ? `\nexitcode=${dry.exitCode}` : ""}: ${dry.rejected}`,
      );
    }
    msg.checkedOnState = stateKey(current);
    msg.expectedOutMessages = dry.outMessages;
    this.queues.get(wc)!.push(msg);
  }

  /**
   * Queues an external message that was accepted before (a journal of an older tongate, replayed
   * into the store once): no check again.
   */
  replayExternal(boc: Buffer, expectedOutMessages?: number): void {
    const msg = queued(Cell.fromBoc(boc)[0]!);
    if (expectedOutMessages !== undefined) msg.expectedOutMessages = expectedOutMessages;
    const info = msg.message.info;
    if (info.type !== "external-in") throw new Error("journal: not an inbound external message");
    this.queues.get(info.dest.workChain)!.push(msg);
  }

  // ---------------------------------------------------------------------------------------------
  // Sealing

  /** Seals the next blocks of workchain 0's shards and the masterchain block that commits them. Calls are serialized. */
  seal(at?: number): Promise<BlockRecord> {
    const next = (this.sealing ?? Promise.resolve()).then(() => this.sealOnce(at));
    this.sealing = next.catch(() => undefined as never);
    return next;
  }

  /**
   * One seal; if it fails (an emulation, building a block, the store), nothing of it stays: the
   * account versions it wrote go, its messages go back in the queues, the pending splits and
   * merges are as before, and the head does not move.
   */
  private async sealOnce(at?: number): Promise<BlockRecord> {
    // Both queues are taken now: what arrives while this seal runs goes in the next one.
    const q0 = this.queues.get(0)!;
    const qmExternal = this.queues.get(-1)!;
    this.queues.set(0, []);
    this.queues.set(-1, []);
    const before = { splits: new Set(this.pendingSplits), merges: new Set(this.pendingMerges), targetDepth: this.targetDepth };
    this.sealWrites = [];
    try {
      return await this.sealAttempt(at, q0, qmExternal);
    } catch (e) {
      const mcSeqno = (this.head?.id.seqno ?? 0) + 1;
      for (const key of this.sealWrites) this.history.dropVersion(key, mcSeqno);
      this.queues.set(0, [...q0, ...this.queues.get(0)!]);
      this.queues.set(-1, [...qmExternal, ...this.queues.get(-1)!]);
      this.pendingSplits = before.splits;
      this.pendingMerges = before.merges;
      this.targetDepth = before.targetDepth;
      this.pending = [];
      throw e;
    } finally {
      this.sealWrites = [];
    }
  }

  /** Account versions a seal under way wrote (keys), to undo if it fails. */
  private sealWrites: string[] = [];

  private async sealAttempt(at: number | undefined, q0: QueuedMessage[], qmExternal: QueuedMessage[]): Promise<BlockRecord> {
    const now = at ?? Math.max(this.clock(), this.head?.genUtime ?? this.genesis.now);
    const mcPrev = this.head;
    const mcSeqno = (mcPrev?.id.seqno ?? 0) + 1;
    const mcPrevRef = mcPrev ? refOf(mcPrev) : zeroRef(this.mcZero);
    const built: Produced[] = [];

    // Workchain 0, each shard referring to the previous masterchain block.
    const plans = this.planShards();
    const toMasterchain: QueuedMessage[] = [];
    const nextQueue: QueuedMessage[] = [];
    for (const plan of plans) {
      const mine = q0.filter((m) => m.message.info.type !== "external-out" && shardContainsAccount(plan.shard, m.message.info.dest.hash));
      let prevEnd = 0n;
      for (const p of plan.prev) if (p.endLt > prevEnd) prevEnd = p.endLt;
      const sh = await this.produce({
        workchain: 0,
        shard: plan.shard,
        now,
        mcSeqno,
        queue: mine,
        prev: plan.prev,
        flags: plan.flags,
        startLt: alignUp(mcPrevRef.endLt > prevEnd ? mcPrevRef.endLt : prevEnd),
        masterRef: mcPrevRef,
        keyBlock: false,
      });
      built.push(sh);
      for (const m of sh.collation.outbound) {
        if (m.message.info.type !== "internal") continue;
        // to the masterchain in this seal; to another shard in the next one (as the real collator's queues do)
        (m.message.info.dest.workChain === -1 ? toMasterchain : nextQueue).push(m);
      }
    }
    const newTips = built.map((b) => ({ shard: b.rec.id.shard, rec: b.rec }));

    // The shard blocks are signed now. Mainnet commits them in a later masterchain block; here the
    // seal serves them as pending for a window, then commits them in its own masterchain block, so
    // each masterchain block commits what it always did (pendingWindowMs 0: no wait at all).
    if (this.windowMs > 0) {
      this.pending = built;
      await sleep(this.windowMs);
    }

    // The masterchain block: its externals and messages from workchain 0, committing the shard blocks.
    const keyBlock = mcSeqno === 1;
    const lastKey = keyBlock ? null : this.keyBlocks.length ? refOf(this.mcBlock(this.keyBlocks[this.keyBlocks.length - 1]!)!) : null;
    const descrs = newTips.map((t) => ({ shard: t.shard, descr: this.shardDescr(t.rec, mcSeqno, mcPrev?.id.seqno ?? 0, now) }));
    const stateExtra = this.mcStateExtra(descrs, lastKey, keyBlock);
    const mc = await this.produce({
      workchain: -1,
      shard: SHARD_FULL,
      now,
      mcSeqno,
      queue: [...qmExternal, ...toMasterchain],
      prev: mcPrev ? [mcPrev] : [],
      flags: noSplitMerge(),
      startLt: alignUp(built.reduce((lt, b) => (b.rec.endLt > lt ? b.rec.endLt : lt), 0n)),
      keyBlock,
      stateExtra,
      blockExtra: {
        keyBlock,
        shardHashes: stateExtra.shardHashes,
        shardFees: emptyShardFees(),
        prevBlkSignatures: emptyCryptoSignatures(),
        recoverCreateMsg: null,
        mintMsg: null,
        config: keyBlock ? stateExtra.config : undefined,
      },
      shards: newTips.map((t) => t.rec.key),
    });
    // Messages from the masterchain to workchain 0, and between shards, are delivered in the next seal.
    for (const m of mc.collation.outbound) if (m.message.info.type === "internal" && m.message.info.dest.workChain === 0) nextQueue.push(m);
    const rec = mc.rec;
    const v = this.genesis.validator;
    // Ed25519 signatures are deterministic: node's OpenSSL gives tweetnacl's bytes, ~100× faster
    this.validatorKey ??= createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, v.secretKey.subarray(0, 32)]), format: "der", type: "pkcs8" });
    rec.meta.signatures.push({ nodeIdShort: validatorNodeIdShort(v.publicKey), signature: ed25519Sign(null, blockSignedMessage(rec.id.rootHash, rec.id.fileHash), this.validatorKey) });

    // Everything in one transaction: a crash leaves the chain as it was before this seal.
    const keyBlocks = keyBlock ? [...this.keyBlocks, mcSeqno] : this.keyBlocks;
    const queue = [...nextQueue, ...this.queues.get(0)!.filter((m) => m.message.info.type === "internal")];
    await this.store.write(() => {
      for (const b of [...built, mc]) this.persist(b);
      const head: StoredHead = {
        mcSeqno,
        tips: newTips.map((t) => [t.rec.id.workchain, t.rec.id.shard.toString(), t.rec.id.seqno]),
        keyBlocks,
        queue: queue.map((m) => m.cell.toBoc().toString("base64")),
        pendingSplits: [...this.pendingSplits].map(String),
        pendingMerges: [...this.pendingMerges].map(String),
        targetDepth: this.targetDepth,
      };
      this.store.putMeta("head", head);
    });

    // The prev_blocks entry of this block, for the next masterchain state. The sub-trees off the path
    // of the next entry are in the store now: read them from there when needed instead of holding
    // them (they grow by one entry per block, forever).
    const key = rec.keyBlock;
    const entry = { extra: { key, maxEndLt: rec.endLt }, value: { key, blkRef: refOf(rec) } };
    this.prevBlocksCell = hashmapAugSet(this.prevBlocksCell.root, 32, BigInt(mcSeqno), { extra: entry.extra, store: (b) => keyExtBlkRefValue.serialize(entry.value, b) }, keyMaxLtAug);
    const stored = (c: Cell) => {
      const n = this.store.numberOf(c);
      return n === undefined ? c : this.store.cell(n);
    };
    this.prevBlocksCell = { root: hashmapReplaceOffPath(this.prevBlocksCell.root!, 32, BigInt(mcSeqno + 1), stored), extra: this.prevBlocksCell.extra };

    // Only now is the seal visible: the blocks join the window, the head moves.
    this.queues.get(0)!.push(...nextQueue);
    this.keyBlocks = keyBlocks;
    for (const b of built) this.shardHot.set(keyHex(b.rec.key), b.rec);
    this.mcHot.set(mcSeqno, rec);
    this.tips = newTips;
    this.head = rec;
    this.pending = [];
    // From the next block on, transactions and get-methods resolve this state's public libraries.
    this.executor.setLibraries(this.libraries.of(rec.stateRoot));
    this.evict();
    this.waiters = this.waiters.filter((w) => (w.seqno <= mcSeqno ? (w.resolve(), false) : true));
    return rec;
  }

  /** Writes a sealed block, its transactions and its state's new cells (inside the seal's transaction). */
  private persist({ rec, collation, boc }: Produced): void {
    rec.meta.stateRef = this.store.putCells(rec.stateRoot);
    this.store.putBlock(rec.meta, boc);
    for (const t of collation.transactions) {
      this.store.putTransaction(t.account.workChain, t.account.hash, { lt: t.transaction.lt, hash: t.cell.hash(), boc: t.cell.toBoc({ idx: false, crc32: false }), block: rec.key, mcSeqno: rec.mcSeqno });
    }
  }

  /** Blocks older than the window leave memory (the tips stay: the next seal builds on them). */
  private evict(): void {
    const oldest = (this.head?.id.seqno ?? 0) - this.stateWindow;
    if (oldest < 1) return;
    for (const [seqno, rec] of this.mcHot) {
      if (seqno > oldest) break; // inserted in seqno order
      this.mcHot.delete(seqno);
      rec.release();
    }
    const tips = new Set(this.tips.map((t) => t.rec));
    for (const [k, rec] of this.shardHot) {
      if (rec.mcSeqno > oldest) break;
      if (tips.has(rec)) continue;
      this.shardHot.delete(k);
      rec.release();
    }
  }

  /** Collates the next block of one shard (or the masterchain), builds its state and block. */
  private async produce(p: {
    workchain: -1 | 0;
    shard: bigint;
    now: number;
    /** The masterchain block this seal produces. */
    mcSeqno: number;
    queue: QueuedMessage[];
    prev: BlockRecord[];
    flags: SplitMergeFlags;
    startLt: bigint;
    keyBlock: boolean;
    /** Shard blocks: the masterchain block they refer to. */
    masterRef?: ExtBlkRef;
    /** Masterchain blocks: McStateExtra and McBlockExtra, and the shard blocks committed. */
    stateExtra?: McStateExtra;
    blockExtra?: McBlockExtra;
    shards?: BlockKey[];
  }): Promise<Produced> {
    const { workchain, shard, now, startLt } = p;
    const seqno = Math.max(0, ...p.prev.map((b) => b.id.seqno)) + 1;
    const minRefMcSeqno = p.mcSeqno - 1;
    const zero = workchain === -1 ? this.mcZero : this.shardZero;
    // The state the block starts from, as the validator sees it: the previous state; after a split
    // the parent's (whole); after a merge both states (split_state).
    const before = this.stateBefore(p.prev, p.flags, shard, zero);
    const randSeed = deriveBytes(this.genesis.seed, `rand/${workchain}/${shard === SHARD_FULL ? "" : shard.toString(16) + "/"}${seqno}`);
    const options = {
      workchain,
      inShard: (a: Address) => a.workChain === workchain && (workchain === -1 || shardContainsAccount(shard, a.hash)),
      now,
      startLt,
      blockRandSeed: randSeed,
      prevBlocksInfo: this.prevBlocksInfo(),
    };
    // The masterchain block also runs the special accounts' tick and tock transactions (ticktock.ts).
    const collation =
      workchain === -1
        ? await collateMasterchain(this.executor, this.accountStore(p.mcSeqno), p.queue, options, specialAccountIds(this.genesis.config))
        : await collate(this.executor, this.accountStore(p.mcSeqno), p.queue, options);
    const endLt = collation.endLt > startLt ? collation.endLt : startLt + 1n;
    const accounts = this.accountsOf(workchain, shard);
    const balanceAfter = Chain.balanceOf(accounts);
    const state = this.buildState({
      globalId: this.genesis.globalId,
      workchain,
      shard,
      seqno,
      genUtime: now,
      genLt: endLt,
      minRefMcSeqno,
      accounts,
      totalBalance: balanceAfter,
      masterRef: p.masterRef,
      mcExtra: p.stateExtra,
      beforeSplit: p.flags.beforeSplit,
    });
    const prevRefs = p.prev.map(refOf);
    const built = buildBlock({
      globalId: this.genesis.globalId,
      workchain,
      shard,
      seqno,
      genUtime: now,
      startLt,
      endLt,
      prev: prevRefs.length === 2 ? [prevRefs[0]!, prevRefs[1]!] : (prevRefs[0] ?? zeroRef(zero)),
      splitMerge: p.flags,
      masterRef: p.masterRef,
      genSoftware: { version: 13, capabilities: 0n },
      minRefMcSeqno,
      prevKeyBlockSeqno: 0,
      keyBlock: p.keyBlock,
      validatorListHashShort: this.validatorListHashShort,
      catchainSeqno: 0,
      oldState: before.root,
      newState: state,
      balanceBefore: before.balance,
      balanceAfter,
      transactions: collation.transactions,
      randSeed,
      createdBy: Buffer.alloc(32),
      mcExtra: p.blockExtra,
    });
    const meta: StoredBlockMeta = {
      workchain,
      shard,
      seqno,
      rootHash: built.id.rootHash,
      fileHash: built.id.fileHash,
      startLt,
      endLt,
      genUtime: now,
      mcSeqno: p.mcSeqno,
      keyBlock: p.keyBlock,
      stateHash: state.hash(),
      stateRef: -1,
      balanceAfter: built.block.valueFlow.toNextBlk.coins,
      prev: p.prev.length ? p.prev.map((b) => b.key) : [{ workchain, shard: SHARD_FULL, seqno: 0 }],
      beforeSplit: p.flags.beforeSplit,
      afterSplit: p.flags.afterSplit,
      afterMerge: p.flags.afterMerge,
      signatures: [],
      shards: p.shards ?? [],
      headerProof: proveBlockHeader(built.root).toBoc({ idx: false, crc32: true }),
    };
    const block = { workchain, shard, seqno };
    const transactions: TxRecord[] = collation.transactions.map((t) => ({ lt: t.transaction.lt, hash: t.cell.hash(), cell: t.cell, block, mcSeqno: p.mcSeqno }));
    return { rec: new BlockRecord(meta, this, { root: built.root, state, transactions }), collation, boc: built.boc };
  }

  /**
   * The old side of a block's state_update and the balance it starts from, as TON's validator sees
   * them (validator/impl/shard.cpp): after a split, both children start from the parent's whole
   * state (ShardStateQ::split keeps the root, only the block id changes) and from this half's
   * balance (ShardState::split sums the accounts left in the half); after a merge, from a virtual
   * split_state#5f327da5 of the two states, the left (lower) shard first (ShardStateQ::merge_with).
   */
  private stateBefore(prev: BlockRecord[], flags: SplitMergeFlags, shard: bigint, zero: ZeroState): { root: Cell; balance: bigint } {
    if (prev.length === 0) return { root: zero.root, balance: Chain.balanceOf(this.accountsIn(zero.root)) };
    if (flags.afterMerge) {
      const [left, right] = [...prev].sort((a, b) => byShard(a.id, b.id));
      const root = beginCell().storeUint(SPLIT_STATE_TAG, 32).storeRef(left!.stateRoot).storeRef(right!.stateRoot).endCell();
      return { root, balance: left!.balanceAfter + right!.balanceAfter };
    }
    const parent = prev[0]!;
    if (!flags.afterSplit) return { root: parent.stateRoot, balance: parent.balanceAfter };
    const half = [...this.accountsIn(parent.stateRoot)].filter(([id]) => shardContainsAccount(shard, Buffer.from(id, "hex")));
    return { root: parent.stateRoot, balance: Chain.balanceOf(new Map(half)) };
  }

  /** The ShardAccount cells of a state's accounts dictionary, by account id hex. */
  private accountsIn(stateRoot: Cell): Map<string, Cell> {
    const out = new Map<string, Cell>();
    const dict = stateRoot.refs[1]!.beginParse().loadMaybeRef();
    if (!dict) return out;
    for (const node of walkHashmap(dict, 256)) {
      if (node.type !== "leaf") continue;
      const s = node.rest!;
      // DepthBalanceInfo: split_depth:(#<= 30) balance:CurrencyCollection
      s.loadUint(5);
      s.loadCoins();
      s.loadMaybeRef();
      const account = s.loadRef();
      const sa = beginCell().storeRef(account).storeBuffer(s.loadBuffer(32)).storeUint(s.loadUintBig(64), 64).endCell();
      out.set(node.path.toString(16).padStart(64, "0"), sa);
    }
    return out;
  }

  /** The masterchain's description of a shard block (shard_hashes leaf). */
  private shardDescr(sh: BlockRecord, mcSeqno: number, minRefMcSeqno: number, now: number): ShardDescr {
    const info = sh.meta;
    const wantMerge = sh.block.info.wantMerge;
    return {
      type: "shard_descr",
      seqNo: sh.id.seqno,
      regMcSeqno: mcSeqno,
      startLt: sh.startLt,
      endLt: sh.endLt,
      rootHash: sh.id.rootHash,
      fileHash: sh.id.fileHash,
      beforeSplit: info.beforeSplit,
      beforeMerge: wantMerge,
      wantSplit: info.beforeSplit,
      wantMerge,
      nxCcUpdated: false,
      flags: 0,
      nextCatchainSeqno: 0,
      nextValidatorShard: sh.id.shard,
      minRefMcSeqno,
      genUtime: now,
      splitMergeAt: { type: "fsm_none" },
      feesCollected: { coins: 0n },
      fundsCreated: { coins: 0n },
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Restart

  /** Continues the chain the store holds: the head, the shard tips, their states and accounts. */
  private load(): boolean {
    const head = this.store.getMeta<StoredHead>("head");
    if (!head) return false;
    const hot = (k: BlockKey): BlockRecord => {
      const meta = this.store.block(k);
      if (!meta) throw new Error(`the chain store has no block ${k.workchain}:${k.shard.toString(16)}:${k.seqno} its head names: the directory is damaged`);
      const root = Cell.fromBoc(this.store.blockBoc(k)!)[0]!;
      return new BlockRecord(meta, this, { root, state: this.store.loadCells(meta.stateRef, meta.stateHash), transactions: undefined });
    };
    const mc = hot({ workchain: -1, shard: SHARD_FULL, seqno: head.mcSeqno });
    this.head = mc;
    this.mcHot.set(mc.id.seqno, mc);
    this.tips = head.tips.map(([workchain, shard, seqno]) => {
      const rec = hot({ workchain, shard: BigInt(shard), seqno });
      this.shardHot.set(keyHex(rec.key), rec);
      return { shard: rec.id.shard, rec };
    });
    this.keyBlocks = head.keyBlocks;
    this.pendingSplits = new Set(head.pendingSplits.map(BigInt));
    this.pendingMerges = new Set(head.pendingMerges.map(BigInt));
    this.targetDepth = head.targetDepth ?? 0;
    this.queues.set(0, head.queue.map((b) => queued(Cell.fromBoc(Buffer.from(b, "base64"))[0]!)));
    for (const [id, c] of this.accountsIn(mc.stateRoot)) this.history.setVersion(AccountHistory.key(-1, id), mc.mcSeqno, c);
    for (const t of this.tips) for (const [id, c] of this.accountsIn(t.rec!.stateRoot)) this.history.setVersion(AccountHistory.key(0, id), t.rec!.mcSeqno, c);
    this.prevBlocksCell = prevBlocksOf(mc.stateRoot);
    this.executor.setLibraries(this.libraries.of(mc.stateRoot));
    return true;
  }

  /** Resolves when the masterchain reaches `seqno`; liteServer.error timeout after `timeoutMs`. */
  waitMasterchainSeqno(seqno: number, timeoutMs: number): Promise<void> {
    if ((this.head?.id.seqno ?? 0) >= seqno) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const w = { seqno, resolve: () => (clearTimeout(timer), resolve()) };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(new LiteServerError(LiteErrorCode.timeout, `timed out waiting for masterchain block ${seqno}`));
      }, Math.min(Math.max(timeoutMs, 0), 60_000));
      this.waiters.push(w);
    });
  }

  /** Waits for a seal in progress, then closes the store. */
  async close(): Promise<void> {
    await this.sealing?.catch(() => undefined);
    await this.store.close();
  }
}

/** McStateExtra.prev_blocks of a masterchain state, as the cells a collator updates. */
function prevBlocksOf(mcState: Cell): HashmapAugECell<KeyMaxLt> {
  // ShardStateUnsplit's refs: out_msg_queue_info, accounts, ^[…], then custom (Maybe ^McStateExtra)
  const extra = mcState.refs[3]!.beginParse();
  extra.skip(16); // masterchain_state_extra#cc26
  extra.loadMaybeRef(); // shard_hashes
  extra.skip(256); // config_addr
  extra.loadRef(); // config
  const other = extra.loadRef().beginParse();
  other.skip(16 + 32 + 32 + 1); // flags, validator_info
  const root = other.loadMaybeRef();
  return { root, extra: keyMaxLtAug.load(other) };
}
