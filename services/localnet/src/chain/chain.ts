// The chain: a masterchain and workchain 0 (one shard), sealed block by block.
// Each seal collates workchain 0 (external messages and internal messages from
// the masterchain), then the masterchain (its externals and messages from
// workchain 0), builds both blocks, commits the shard block in the masterchain
// block's shard_hashes, and signs the masterchain block with the validator key.
import { createHash } from "node:crypto";
import { Address, Cell, Dictionary } from "@ton/core";
import { sign } from "@ton/crypto";
import {
  accountDepthBalance,
  binTreeFromShards,
  blockSignedMessage,
  emptyCryptoSignatures,
  computeValidatorSetHashShort,
  configValidatorSet,
  emptyOldMcBlocksInfo,
  masterchainValidators,
  type OldMcBlocksInfo,
  emptyShardFees,
  emptyShardHashes,
  SHARD_FULL,
  validatorNodeIdShort,
  type ExtBlkRef,
  type McBlockExtra,
  type McStateExtra,
  type ShardDescr,
} from "@tongate/block";
import { collate, queued, stateKey, type AccountStore, type Collation, type QueuedMessage } from "../collator.js";
import type { PrevBlocksInfo } from "@ton/sandbox";
import { withBoc } from "../boc-cache.js";
import type { TransactionExecutor } from "../executor.js";
import type { Genesis } from "../genesis.js";
import { shardAccountCell } from "../genesis.js";
import { deriveBytes } from "../keys.js";
import { LiteErrorCode, LiteServerError } from "../liteserver/errors.js";
import { AccountHistory, type TxRecord } from "./account-history.js";
import { buildBlock, type BlockIdExt, type BuiltBlock } from "./block-builder.js";
import type { ShardStateBuilder } from "./state.js";
import { specialAccountIds } from "../special-accounts.js";
import { collateMasterchain } from "../ticktock.js";

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

export interface BlockRecord extends BuiltBlock {
  /** The ShardStateUnsplit after this block. */
  stateRoot: Cell;
  startLt: bigint;
  endLt: bigint;
  genUtime: number;
  /** Masterchain blocks: their seqno; shard blocks: the masterchain block that committed them. */
  mcSeqno: number;
  transactions: TxRecord[];
  /** Total balance of the shard's accounts after this block. */
  balanceAfter: bigint;
  /** Masterchain blocks: the validator signatures (node id short, ed25519 signature). */
  signatures: { nodeIdShort: Buffer; signature: Buffer }[];
}

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
  /** Unix time source (tests move time by hand). */
  clock?: () => number;
  /** Told of every accepted external message and every seal, in order (persistence). */
  journal?: ChainJournal;
}

/**
 * What makes the chain what it is, given its genesis: the external messages it accepted and
 * the times it sealed at. Replaying them in order rebuilds the same blocks, byte for byte.
 */
export interface ChainJournal {
  /** `outMessages`: what the check predicted, so a replay plans its collation as the original did */
  external(boc: Buffer, outMessages?: number): void;
  seal(now: number): void;
}

const alignUp = (lt: bigint) => ((lt + LT_BLOCK_ALIGN) / LT_BLOCK_ALIGN) * LT_BLOCK_ALIGN;
const refOf = (b: { id: BlockIdExt; endLt: bigint }): ExtBlkRef => ({ endLt: b.endLt, seqNo: b.id.seqno, rootHash: b.id.rootHash, fileHash: b.id.fileHash });
const zeroRef = (z: ZeroState): ExtBlkRef => ({ endLt: 0n, seqNo: 0, rootHash: z.rootHash, fileHash: z.fileHash });

export class Chain {
  readonly genesis: Genesis;
  readonly mcZero: ZeroState;
  readonly shardZero: ZeroState;
  readonly masterchain: BlockRecord[] = [];
  readonly shardchain: BlockRecord[] = [];
  readonly history = new AccountHistory();
  private readonly byRootHash = new Map<string, BlockRecord>();
  readonly executor: TransactionExecutor;
  private readonly buildState: ShardStateBuilder;
  private readonly clock: () => number;
  private queues = new Map<number, QueuedMessage[]>([
    [-1, []],
    [0, []],
  ]);
  private waiters: { seqno: number; resolve: () => void }[] = [];
  private sealing: Promise<BlockRecord> | undefined;
  private readonly journal: ChainJournal | undefined;

  constructor(o: ChainOptions) {
    this.genesis = o.genesis;
    this.executor = o.executor;
    this.buildState = o.buildState;
    this.clock = o.clock ?? (() => Math.floor(Date.now() / 1000));
    this.journal = o.journal;
    for (const [id, sa] of o.genesis.accounts) this.history.setVersion(AccountHistory.key(0, id), 0, shardAccountCell(sa));
    for (const [id, sa] of o.genesis.masterchainAccounts) this.history.setVersion(AccountHistory.key(-1, id), 0, shardAccountCell(sa));
    this.shardZero = this.zeroState(0);
    this.mcZero = this.zeroState(-1);
  }

  private accountsOf(workchain: number, seqno: number): Map<string, Cell> {
    const out = new Map<string, Cell>();
    const prefix = `${workchain}:`;
    for (const key of this.history.keys()) {
      if (!key.startsWith(prefix)) continue;
      const c = this.history.at(key, seqno);
      if (c) out.set(key.slice(prefix.length), c);
    }
    return out;
  }

  private static balanceOf(accounts: Map<string, Cell>): bigint {
    let total = 0n;
    // The balance alone (the ShardAccounts leaf extra), without parsing whole accounts.
    for (const c of accounts.values()) total += accountDepthBalance(c.refs[0]!).balance.coins;
    return total;
  }

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
    const mc = this.masterchain;
    if (mc.length === 0) return undefined;
    const id = (b: BlockRecord) => ({ workchain: -1, shard: SHARD_FULL, seqno: b.id.seqno, rootHash: b.id.rootHash, fileHash: b.id.fileHash });
    const key = [...mc].reverse().find((b) => b.block.info.keyBlock) ?? mc[0]!;
    return { lastMcBlocks: mc.slice(-16).reverse().map(id), prevKeyBlock: id(key) };
  }

  /** McStateExtra.prev_blocks: every earlier masterchain block, keyed by seqno, with key-block flags. */
  private prevBlocks(): OldMcBlocksInfo {
    const d = emptyOldMcBlocksInfo();
    for (const b of this.masterchain) {
      const key = b.block.info.keyBlock;
      d.set(b.id.seqno, { extra: { key, maxEndLt: b.endLt }, value: { key, blkRef: refOf(b) } });
    }
    return d;
  }

  private mcStateExtra(shards: ShardDescr | undefined, lastKeyBlock: ExtBlkRef | null, afterKeyBlock: boolean): McStateExtra {
    const shardHashes = emptyShardHashes();
    if (shards) shardHashes.set(0, binTreeFromShards([{ shard: SHARD_FULL, leaf: shards }]));
    const config = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), this.genesis.config);
    const p0 = config.get(0)?.beginParse();
    return {
      shardHashes,
      config: { configAddr: p0 ? p0.loadBuffer(32) : Buffer.alloc(32, 0x55), config },
      flags: 0,
      validatorInfo: { validatorListHashShort: this.validatorListHashShort, catchainSeqno: 0, nxCcUpdated: false },
      prevBlocks: this.prevBlocks(),
      afterKeyBlock,
      lastKeyBlock,
      globalBalance: { coins: LOCALNET_TOTAL_SUPPLY },
    };
  }

  private zeroState(workchain: number): ZeroState {
    const accounts = this.accountsOf(workchain, 0);
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
      mcExtra: workchain === -1 ? this.mcStateExtra(undefined, null, false) : undefined,
    });
    const boc = root.toBoc({ idx: false, crc32: true });
    return { workchain, root, boc, rootHash: root.hash(), fileHash: createHash("sha256").update(boc).digest() };
  }

  get lastMasterchain(): BlockRecord | undefined {
    return this.masterchain[this.masterchain.length - 1];
  }

  get lastShard(): BlockRecord | undefined {
    return this.shardchain[this.shardchain.length - 1];
  }

  blockByRootHash(hash: Buffer): BlockRecord | undefined {
    return this.byRootHash.get(hash.toString("hex"));
  }

  /** Queues an external message after checking that its contract accepts it now. */
  async sendExternal(boc: Buffer): Promise<void> {
    let msg: QueuedMessage;
    try {
      const roots = Cell.fromBoc(boc);
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
      lt: alignUp(this.lastMasterchain?.endLt ?? 0n),
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
    this.journal?.external(boc, dry.outMessages);
  }

  /**
   * Queues an external message that was accepted before (journal replay): no check again. Without
   * the predicted out-message count every transaction after it in the block is planned again
   * (collation re-plans at each misprediction).
   */
  replayExternal(boc: Buffer, expectedOutMessages?: number): void {
    const msg = queued(Cell.fromBoc(boc)[0]!);
    if (expectedOutMessages !== undefined) msg.expectedOutMessages = expectedOutMessages;
    const info = msg.message.info;
    if (info.type !== "external-in") throw new Error("journal: not an inbound external message");
    this.queues.get(info.dest.workChain)!.push(msg);
  }

  /** Seals the next shard block and the masterchain block that commits it. Calls are serialized. */
  seal(at?: number): Promise<BlockRecord> {
    const next = (this.sealing ?? Promise.resolve()).then(() => this.sealOnce(at));
    this.sealing = next.catch(() => undefined as never);
    return next;
  }

  /** Accounts as the collation of block `seqno` sees and writes them. */
  private store(seqno: number): AccountStore {
    return {
      get: (wc, id) => this.history.latest(AccountHistory.key(wc, id)),
      set: (wc, id, cell) => this.history.setVersion(AccountHistory.key(wc, id), seqno, cell),
    };
  }

  private async sealOnce(at?: number): Promise<BlockRecord> {
    const now = at ?? Math.max(this.clock(), this.lastMasterchain?.genUtime ?? this.genesis.now);
    this.journal?.seal(now);
    // Both queues are taken now, in the same tick as the journal entry, so a replay of the
    // journal puts every message in the same block.
    const q0 = this.queues.get(0)!;
    const qmExternal = this.queues.get(-1)!;
    this.queues.set(0, []);
    this.queues.set(-1, []);
    const mcPrev = this.lastMasterchain;
    const mcSeqno = (mcPrev?.id.seqno ?? 0) + 1;
    const mcPrevRef = mcPrev ? refOf(mcPrev) : zeroRef(this.mcZero);

    // Workchain 0, referring to the previous masterchain block.
    const shPrev = this.lastShard;
    const sh = await this.produce({
      workchain: 0,
      now,
      mcSeqno,
      queue: q0,
      prev: shPrev,
      zero: this.shardZero,
      startLt: alignUp(mcPrevRef.endLt > (shPrev?.endLt ?? 0n) ? mcPrevRef.endLt : (shPrev?.endLt ?? 0n)),
      masterRef: mcPrevRef,
      keyBlock: false,
    });

    // The masterchain block: its externals and messages from workchain 0, committing the shard block.
    const keyBlock = mcSeqno === 1;
    const lastKey = keyBlock ? null : this.masterchain[0] ? refOf(this.masterchain[0]) : null;
    const stateExtra = this.mcStateExtra(this.shardDescr(sh.record, mcSeqno, mcPrev?.id.seqno ?? 0, now), lastKey, keyBlock);
    const toMasterchain = sh.collation.outbound.filter((m) => m.message.info.type === "internal" && m.message.info.dest.workChain === -1);
    const mc = await this.produce({
      workchain: -1,
      now,
      mcSeqno,
      queue: [...qmExternal, ...toMasterchain],
      prev: mcPrev,
      zero: this.mcZero,
      startLt: alignUp(sh.record.endLt),
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
    });
    // Messages from the masterchain to workchain 0 are delivered in the next shard block.
    this.queues.get(0)!.push(...mc.collation.outbound.filter((m) => m.message.info.type === "internal" && m.message.info.dest.workChain === 0));

    const v = this.genesis.validator;
    const rec = mc.record;
    rec.signatures.push({ nodeIdShort: validatorNodeIdShort(v.publicKey), signature: sign(blockSignedMessage(rec.id.rootHash, rec.id.fileHash), v.secretKey) });
    this.waiters = this.waiters.filter((w) => (w.seqno <= mcSeqno ? (w.resolve(), false) : true));
    return rec;
  }

  /** Collates the next block of one workchain, builds its state and block, and records it. */
  private async produce(p: {
    workchain: -1 | 0;
    now: number;
    /** The masterchain block this seal produces. */
    mcSeqno: number;
    queue: QueuedMessage[];
    prev: BlockRecord | undefined;
    zero: ZeroState;
    startLt: bigint;
    keyBlock: boolean;
    /** Shard blocks: the masterchain block they refer to. */
    masterRef?: ExtBlkRef;
    /** Masterchain blocks: McStateExtra and McBlockExtra. */
    stateExtra?: McStateExtra;
    blockExtra?: McBlockExtra;
  }): Promise<{ record: BlockRecord; collation: Collation }> {
    const { workchain, now, startLt } = p;
    const seqno = (p.prev?.id.seqno ?? 0) + 1;
    const minRefMcSeqno = p.mcSeqno - 1;
    const randSeed = deriveBytes(this.genesis.seed, `rand/${workchain}/${seqno}`);
    const options = { workchain, inShard: (a: Address) => a.workChain === workchain, now, startLt, blockRandSeed: randSeed, prevBlocksInfo: this.prevBlocksInfo() };
    // The masterchain block also runs the special accounts' tick and tock transactions (ticktock.ts).
    const collation =
      workchain === -1
        ? await collateMasterchain(this.executor, this.store(seqno), p.queue, options, specialAccountIds(this.genesis.config))
        : await collate(this.executor, this.store(seqno), p.queue, options);
    const endLt = collation.endLt > startLt ? collation.endLt : startLt + 1n;
    const accounts = this.accountsOf(workchain, seqno);
    const balanceAfter = Chain.balanceOf(accounts);
    const state = this.buildState({
      globalId: this.genesis.globalId,
      workchain,
      shard: SHARD_FULL,
      seqno,
      genUtime: now,
      genLt: endLt,
      minRefMcSeqno,
      accounts,
      totalBalance: balanceAfter,
      masterRef: p.masterRef,
      mcExtra: p.stateExtra,
    });
    const built = buildBlock({
      globalId: this.genesis.globalId,
      workchain,
      shard: SHARD_FULL,
      seqno,
      genUtime: now,
      startLt,
      endLt,
      prev: p.prev ? refOf(p.prev) : zeroRef(p.zero),
      masterRef: p.masterRef,
      genSoftware: { version: 13, capabilities: 0n },
      minRefMcSeqno,
      prevKeyBlockSeqno: 0,
      keyBlock: p.keyBlock,
      validatorListHashShort: this.validatorListHashShort,
      catchainSeqno: 0,
      oldState: p.prev?.stateRoot ?? p.zero.root,
      newState: state,
      balanceBefore: p.prev ? p.prev.balanceAfter : Chain.balanceOf(this.accountsOf(workchain, 0)),
      balanceAfter,
      transactions: collation.transactions,
      randSeed,
      createdBy: Buffer.alloc(32),
      mcExtra: p.blockExtra,
    });
    return { record: this.record(built, state, collation, p.mcSeqno), collation };
  }

  /** The masterchain's description of a shard block (shard_hashes leaf). */
  private shardDescr(sh: BlockRecord, mcSeqno: number, minRefMcSeqno: number, now: number): ShardDescr {
    return {
      type: "shard_descr",
      seqNo: sh.id.seqno,
      regMcSeqno: mcSeqno,
      startLt: sh.startLt,
      endLt: sh.endLt,
      rootHash: sh.id.rootHash,
      fileHash: sh.id.fileHash,
      beforeSplit: false,
      beforeMerge: false,
      wantSplit: false,
      wantMerge: false,
      nxCcUpdated: false,
      flags: 0,
      nextCatchainSeqno: 0,
      nextValidatorShard: SHARD_FULL,
      minRefMcSeqno,
      genUtime: now,
      splitMergeAt: { type: "fsm_none" },
      feesCollected: { coins: 0n },
      fundsCreated: { coins: 0n },
    };
  }

  private record(built: BuiltBlock, stateRoot: Cell, c: { transactions: { account: Address; cell: Cell; transaction: { lt: bigint } }[] }, mcSeqno: number): BlockRecord {
    const info = built.block.info;
    const rec: BlockRecord = {
      ...built,
      stateRoot,
      startLt: info.startLt,
      endLt: info.endLt,
      genUtime: info.genUtime,
      mcSeqno,
      transactions: [],
      signatures: [],
      balanceAfter: built.block.valueFlow.toNextBlk.coins,
    };
    for (const t of c.transactions) {
      const tx: TxRecord = { lt: t.transaction.lt, hash: t.cell.hash(), cell: t.cell, block: { workchain: built.id.workchain, shard: built.id.shard, seqno: built.id.seqno }, mcSeqno };
      rec.transactions.push(tx);
      this.history.addTransaction(AccountHistory.key(t.account.workChain, t.account.hash), tx);
    }
    (built.id.workchain === -1 ? this.masterchain : this.shardchain).push(rec);
    this.byRootHash.set(built.id.rootHash.toString("hex"), rec);
    return rec;
  }

  /** Resolves when the masterchain reaches `seqno`; liteServer.error timeout after `timeoutMs`. */
  waitMasterchainSeqno(seqno: number, timeoutMs: number): Promise<void> {
    if ((this.lastMasterchain?.id.seqno ?? 0) >= seqno) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const w = { seqno, resolve: () => (clearTimeout(timer), resolve()) };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(new LiteServerError(LiteErrorCode.timeout, `timed out waiting for masterchain block ${seqno}`));
      }, Math.min(Math.max(timeoutMs, 0), 60_000));
      this.waiters.push(w);
    });
  }
}
