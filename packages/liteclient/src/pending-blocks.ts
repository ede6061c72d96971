// A watcher of shard blocks that are signed but not yet committed by a masterchain block: it polls
// liteServer.nonfinal.getPendingShardBlocks, reads each new block once (getBlock, its root hash
// checked against the id), emits its transactions, and follows the masterchain to say which
// masterchain block committed each block it emitted. This is what toncenter calls "confirmed" (in a
// signed shard block) and "finalized" (committed by a masterchain block).
import { EventEmitter } from "node:events";
import type { Cell } from "@ton/core";
import { blockTransactions, parseBlock, shardChildren, shardIntersects, shardParent, shardToSigned, type BlkPrevInfo, type ExtBlkRef } from "@tongate/block";
import { verifyAllShardsInfo, verifyBlockData } from "@tongate/proof";
import type { LiteAnswer } from "./lite-api.js";
import { MASTERCHAIN_SHARD, tlBlockId, type BlockIdExt } from "./block-id.js";
import { LiteServerError } from "./errors.js";
import { checkAnswer, getBlockHeader, type LiteQuerier } from "./verified.js";

/** One transaction of a pending shard block. */
export interface PendingBlockTransaction {
  /** The account as a raw address, upper-case hex: "0:ABC…". */
  account: string;
  hash: Buffer;
  lt: bigint;
  /** The hash of the inbound message cell; null for a transaction without one (tick-tock). */
  inMsgHash: Buffer | null;
  /** The Transaction cell. */
  cell: Cell;
}

export interface PendingShardBlock {
  id: BlockIdExt;
  transactions: PendingBlockTransaction[];
}

export interface PendingBlocksEvents {
  /** A shard block signed but not committed yet, read once. */
  block: [PendingShardBlock];
  /** Masterchain block `mcSeqno` committed these blocks (each emitted as `block` before). */
  committed: [mcSeqno: number, blocks: BlockIdExt[]];
  /** Whether the liteservers answer nonfinal.getPendingShardBlocks: said on the first answer and on every change. */
  supported: [boolean];
  /** A poll that failed (no liteserver, a timeout, a block that did not match its id); the next poll tries again. */
  warning: [Error];
}

/** What the watcher queries: a pool (one session, so one liteserver, per poll), or anything typed like one. */
export interface PendingBlocksSource {
  session(): LiteQuerier;
}

export interface PendingBlocksOptions {
  /** Poll period. Default 200 ms. */
  intervalMs?: number;
  /** Poll period while the liteservers do not support nonfinal queries. Default 30 s. */
  unsupportedIntervalMs?: number;
  /** Block ids remembered (emitted, and waiting for their masterchain block); older ones are forgotten. Default 1024. */
  remember?: number;
  /** Deadline of each query. Default 5 s. */
  timeoutMs?: number;
  /** Masterchain blocks examined per poll when the watcher is behind. Default 16. */
  mcBlocksPerPoll?: number;
}

/** A shard block's chains are at most 8 long between two masterchain blocks (collator.cpp); a little slack. */
const MAX_WALK = 16;

interface Emitted {
  id: BlockIdExt;
  /** The blocks before it (two after a merge). */
  prev: BlockIdExt[];
  committed: boolean;
}

const keyOf = (id: { workchain: number; shard: bigint; seqno: number }) => `${id.workchain}:${BigInt.asUintN(64, id.shard).toString(16)}:${id.seqno}`;
const sameBlock = (a: BlockIdExt, b: BlockIdExt) => keyOf(a) === keyOf(b) && Buffer.from(a.root_hash).equals(Buffer.from(b.root_hash));

/** The ids of the blocks before a block of `shard` (unsigned), from its BlockInfo. */
function prevIds(workchain: number, shard: bigint, info: { afterMerge: boolean; afterSplit: boolean; prevRef: BlkPrevInfo }): BlockIdExt[] {
  const id = (s: bigint, r: ExtBlkRef): BlockIdExt => ({ workchain, shard: shardToSigned(s), seqno: r.seqNo, root_hash: r.rootHash, file_hash: r.fileHash });
  const ref = info.prevRef;
  if (ref.type === "prev_blks_info") {
    const [left, right] = shardChildren(shard);
    return [id(left, ref.prev1), id(right, ref.prev2)];
  }
  return [id(info.afterSplit ? shardParent(shard) : shard, ref.prev)];
}

/** The transactions of a block and the ids of the blocks before it. */
function readBlock(id: BlockIdExt, root: Cell): { transactions: PendingBlockTransaction[]; prev: BlockIdExt[] } {
  const block = parseBlock(root);
  const workchain = id.workchain;
  const transactions = blockTransactions(block.extra.accountBlocks).map((t) => ({
    account: `${workchain}:${t.address.toString(16).padStart(64, "0").toUpperCase()}`,
    hash: t.raw.hash(),
    lt: t.lt,
    inMsgHash: t.raw.refs[0]!.beginParse().loadMaybeRef()?.hash() ?? null,
    cell: t.raw,
  }));
  return { transactions, prev: prevIds(workchain, BigInt.asUintN(64, id.shard), block.info) };
}

export class PendingBlocks extends EventEmitter<PendingBlocksEvents> {
  /** null until the first answer to getPendingShardBlocks. */
  supported: boolean | null = null;
  private readonly emitted = new Map<string, Emitted>();
  private readonly intervalMs: number;
  private readonly unsupportedIntervalMs: number;
  private readonly remember: number;
  private readonly timeoutMs: number;
  private readonly mcBlocksPerPoll: number;
  /** The last masterchain block whose shard tops were looked at (or the head when nothing waited). */
  private mcSeqno: number | null = null;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly source: PendingBlocksSource,
    options: PendingBlocksOptions = {},
  ) {
    super();
    this.intervalMs = options.intervalMs ?? 200;
    this.unsupportedIntervalMs = options.unsupportedIntervalMs ?? 30_000;
    this.remember = options.remember ?? 1024;
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.mcBlocksPerPoll = options.mcBlocksPerPoll ?? 16;
    this.schedule(0);
  }

  /** Block ids held now (emitted ones, committed or not), at most `remember`. */
  get rememberedBlocks(): number {
    return this.emitted.size;
  }

  /** Stops polling; resolves once a poll under way has ended. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.running = this.poll().then(
        (next) => this.schedule(next),
        (e: unknown) => {
          this.emit("warning", e instanceof Error ? e : new Error(String(e)));
          this.schedule(this.intervalMs);
        },
      );
    }, ms);
    this.timer.unref();
  }

  /** One round: new pending blocks, then the masterchain blocks since the last round. Returns the delay to the next. */
  private async poll(): Promise<number> {
    const lite = this.source.session();
    const options = { timeoutMs: this.timeoutMs };
    // The head before the list: a block the list shows as pending is committed by a later masterchain
    // block than this one, so looking from here on misses no commit.
    const head = (await lite.query({ kind: "liteServer.getMasterchainInfo" }, options)).last.seqno;
    let pending: LiteAnswer<"liteServer.nonfinal.getPendingShardBlocks">;
    try {
      pending = await lite.query({ kind: "liteServer.nonfinal.getPendingShardBlocks", mode: 0 }, options);
    } catch (e) {
      // A liteServer.error: this liteserver does not serve nonfinal queries (older than TON 2024.04, or
      // not configured to). Ask again rarely; anything else (no liteserver, a timeout) is a bad moment.
      if (!(e instanceof LiteServerError)) throw e;
      this.setSupported(false);
      return this.unsupportedIntervalMs;
    }
    this.setSupported(true);
    for (const id of pending.signed_blocks) {
      if (this.closed) return this.intervalMs;
      if (this.emitted.has(keyOf(id))) continue;
      const fn = "liteServer.getBlock";
      const answer = await lite.query({ kind: fn, id }, options);
      // the data must be the block the id names (its root and file hashes)
      const { root } = checkAnswer(fn, lite, () => verifyBlockData(answer, tlBlockId(id)));
      const { transactions, prev } = readBlock(id, root);
      this.remembered({ id, prev, committed: false });
      this.emit("block", { id, transactions });
    }
    await this.followMasterchain(lite, head);
    return this.intervalMs;
  }

  private setSupported(supported: boolean): void {
    if (this.supported === supported) return;
    this.supported = supported;
    this.emit("supported", supported);
  }

  private remembered(e: Emitted): void {
    this.emitted.set(keyOf(e.id), e);
    // a Map iterates in insertion order: the first keys are the oldest
    for (const k of this.emitted.keys()) {
      if (this.emitted.size <= this.remember) break;
      this.emitted.delete(k);
    }
  }

  /** Looks at each masterchain block after the last one seen up to `head`, for the emitted blocks it commits. */
  private async followMasterchain(lite: LiteQuerier, head: number): Promise<void> {
    const waiting = () => [...this.emitted.values()].some((e) => !e.committed);
    if (this.mcSeqno === null || !waiting()) {
      this.mcSeqno = head;
      return;
    }
    const options = { timeoutMs: this.timeoutMs };
    const last = Math.min(head, this.mcSeqno + this.mcBlocksPerPoll);
    for (let seqno = this.mcSeqno + 1; seqno <= last && !this.closed; seqno++) {
      const mc = (await lite.query({ kind: "liteServer.lookupBlock", mode: 1, id: { workchain: -1, shard: MASTERCHAIN_SHARD, seqno } }, options)).id;
      const fn = "liteServer.getAllShardsInfo";
      const answer = await lite.query({ kind: fn, id: mc }, options);
      const { shards } = checkAnswer(fn, lite, () => verifyAllShardsInfo(answer, mc));
      const committed: BlockIdExt[] = [];
      for (const top of shards) committed.push(...(await this.commitDown(lite, top.blockId)));
      this.mcSeqno = seqno;
      if (committed.length > 0) this.emit("committed", seqno, committed);
      if (!waiting()) {
        this.mcSeqno = head;
        return;
      }
    }
  }

  /**
   * The emitted blocks a shard top commits: the top and the blocks before it, down the prev links (through
   * splits and merges) until a block already committed or older than every emitted block of its shard.
   */
  private async commitDown(lite: LiteQuerier, top: BlockIdExt): Promise<BlockIdExt[]> {
    const out: BlockIdExt[] = [];
    const stack: BlockIdExt[] = [top];
    for (let steps = 0; stack.length > 0 && steps < MAX_WALK; steps++) {
      const id = stack.pop()!;
      const known = this.emitted.get(keyOf(id));
      if (known?.committed) continue;
      if (known && sameBlock(known.id, id)) {
        known.committed = true;
        out.push(known.id);
        stack.push(...known.prev);
        continue;
      }
      // a block this watcher did not emit: go below it only if an emitted block may be there
      if (!this.mayHoldWaiting(id)) continue;
      const header = await getBlockHeader(lite, id, { timeoutMs: this.timeoutMs });
      stack.push(...prevIds(id.workchain, BigInt.asUintN(64, id.shard), header.info));
    }
    return out;
  }

  /** Whether an emitted, uncommitted block of this block's shard (or a shard it split from or merged into) has a lower seqno. */
  private mayHoldWaiting(id: BlockIdExt): boolean {
    const shard = BigInt.asUintN(64, id.shard);
    for (const e of this.emitted.values()) {
      if (e.committed || e.id.workchain !== id.workchain || e.id.seqno >= id.seqno) continue;
      if (shardIntersects(shard, BigInt.asUintN(64, e.id.shard))) return true;
    }
    return false;
  }
}
