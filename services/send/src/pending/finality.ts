// The finality of pending traces, from the chain's signed but uncommitted shard blocks
// (@tongate/liteclient's PendingBlocks) and the indexer's blocks.indexed events:
// - confirmed: a transaction of the trace is in a signed shard block. The root is matched by the
//   external message's hash; every other transaction by its account and an in-message that a
//   confirmed transaction of the trace sent (the real messages, whose lts differ from the emulated
//   ones). A confirmed transaction is the real one from then on (its BoC, its in-message hash). The
//   trace's finality is the lowest of its transactions'.
// - finalized: every transaction confirmed, and the masterchain blocks that committed them indexed
//   (blocks.indexed; or the watcher's `committed` when no indexer has published for a while, e.g.
//   the send service alone): the trace leaves the pending store, API v3's traces have it. Where no
//   signed block was seen (a liteserver without nonfinal queries, a localnet without a pending
//   window), a trace whose external message the index has delivered is finalized on blocks.indexed,
//   when the process has the store (`landed`).
// - invalidated (removed, logged, counted): a real transaction that differs from the emulated one
//   (aborted or not, compute phase, out messages); another external message landing on the root's
//   account first (the state the emulation ran on is gone: a replayed seqno, a drained balance);
//   the TTL (60 s, as toncenter's ttl tracker).
import { Cell, loadTransaction, type Transaction } from "@ton/core";
import type { EventEmitter } from "node:events";
import type { BlockIdExt, PendingBlocksEvents, PendingShardBlock } from "@tongate/liteclient";
import { Finality, type PendingTrace, type PendingTransaction } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { LruMap, type Logger } from "@tongate/runtime";
import { transactionMessageCells } from "./transaction-messages.js";
import { NO_TRANSITIONS, type PendingTransitions } from "./events.js";
import type { PendingMetrics } from "./metrics.js";
import { hex, traceIdOf, type PendingEntry, type PendingStore } from "./pending-store.js";

/** Without a blocks.indexed event for this long, the watcher's `committed` finalizes (no indexer runs). */
const INDEXER_QUIET_MS = 30_000;
/** Block ids remembered with the masterchain block that committed them. */
const COMMITS_KEPT = 4096;

const blockKey = (workchain: number, shard: string, seqno: number) => `${workchain}:${shard}:${seqno}`;
const idKey = (id: BlockIdExt) => blockKey(id.workchain, BigInt.asIntN(64, BigInt(id.shard)).toString(), id.seqno);

/** What a transaction did, as far as a client would tell an emulated one from the real one. */
function outcome(tx: Transaction): string {
  const d = tx.description;
  if (d.type !== "generic") return d.type;
  const compute = d.computePhase.type === "vm" ? `vm:${d.computePhase.success}:${d.computePhase.exitCode}` : `skipped:${d.computePhase.reason}`;
  return `${d.aborted}/${compute}/${d.actionPhase?.success ?? "-"}/${tx.outMessagesCount}`;
}

const loadTx = (boc: string) => {
  const cell = Cell.fromBase64(boc);
  return { cell, tx: loadTransaction(cell.beginParse()) };
};

export class FinalityTracker {
  /** Masterchain block that committed each confirmed shard block. */
  private readonly committed = new LruMap<string, number>(COMMITS_KEPT);
  private lastIndexedEventAt = -Infinity;
  private indexedSeqno = 0;
  /** One update at a time: the store is read, changed and written back. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: PendingStore,
    private readonly metrics: PendingMetrics,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
    /** Of these external message hashes (base64), those the index has delivered; none without a store. */
    private readonly landed: (externalHashes: string[]) => Promise<Set<string>> = async () => new Set(),
    /** Told when a trace is confirmed whole or invalidated (its pending.traces events: this replica made the transition). */
    private readonly transitions: PendingTransitions = NO_TRANSITIONS,
  ) {}

  /** Follows a watcher's blocks and commits (PendingBlocks). */
  attach(watcher: EventEmitter<PendingBlocksEvents>): void {
    watcher.on("block", (b) => this.serial(() => this.onBlock(b)));
    watcher.on("committed", (mc, ids) => this.serial(() => this.onCommitted(mc, ids)));
  }

  /** The indexer has masterchain block `mcSeqno` (blocks.indexed). */
  indexed(mcSeqno: number): Promise<void> {
    this.lastIndexedEventAt = this.now();
    this.indexedSeqno = Math.max(this.indexedSeqno, mcSeqno);
    return this.serial(async () => {
      await this.finalize((mc) => mc <= this.indexedSeqno);
      await this.finalizeLanded();
    });
  }

  /** Finalizes the traces whose external message the index has delivered, confirmed or not. */
  private async finalizeLanded(): Promise<void> {
    const entries = await this.store.all();
    if (entries.length === 0) return;
    const b64 = (e: PendingEntry) => Buffer.from(e.trace.externalHash).toString("base64");
    const landed = await this.landed(entries.map(b64));
    for (const entry of entries) {
      if (!landed.has(b64(entry))) continue;
      await this.store.remove(traceIdOf(entry));
      this.metrics.transitions.inc({ to: "finalized", reason: "indexed" });
      this.log.debug({ traceId: traceIdOf(entry) }, "pending: trace finalized (its external message is indexed)");
    }
  }

  /** Resolves once every update queued so far is done. */
  settled(): Promise<void> {
    return this.queue;
  }

  private serial(fn: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(fn).catch((err: unknown) => this.log.warn({ err }, "pending: a finality update failed"));
    return this.queue;
  }

  private async onBlock(block: PendingShardBlock): Promise<void> {
    if (block.transactions.length === 0) return;
    const entries = await this.store.all();
    if (entries.length === 0) return;
    const shard = BigInt.asIntN(64, BigInt(block.id.shard)).toString();
    const txs = [...block.transactions].sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
    for (const entry of entries) {
      const accounts = new Set(entry.accounts);
      let changed = false;
      for (const real of txs) {
        if (!accounts.has(real.account)) continue;
        const i = this.match(entry, real.account, real.inMsgHash);
        if (i === undefined) {
          if (this.superseded(entry, real.account, real.cell)) {
            await this.invalidate(entry, "superseded", `another external message landed on ${real.account} first`);
            changed = false;
            break;
          }
          continue;
        }
        const emulated = loadTx(entry.trace.transactions[i]!.boc).tx;
        const realTx = loadTransaction(real.cell.beginParse());
        if (outcome(emulated) !== outcome(realTx)) {
          await this.invalidate(entry, "differs", `transaction ${i} on ${real.account} ran differently on chain (${outcome(realTx)}) than emulated (${outcome(emulated)})`);
          changed = false;
          break;
        }
        this.confirm(entry.trace.transactions[i]!, real.cell, real.inMsgHash, { workchain: block.id.workchain, shard, seqno: block.id.seqno });
        changed = true;
        this.metrics.transitions.inc({ to: "confirmed", reason: "" });
      }
      if (changed) {
        const before = entry.trace.finality;
        entry.trace.finality = lowest(entry.trace);
        await this.store.put(entry);
        if (before < Finality.CONFIRMED && entry.trace.finality === Finality.CONFIRMED) this.transitions.changed(entry.trace);
      }
    }
  }

  private async onCommitted(mcSeqno: number, ids: BlockIdExt[]): Promise<void> {
    for (const id of ids) this.committed.set(idKey(id), mcSeqno);
    // no indexer publishes here: what a masterchain block commits is final; else the indexer may
    // have had this block before the watcher saw its commit
    const quiet = this.now() - this.lastIndexedEventAt > INDEXER_QUIET_MS;
    await this.finalize((mc) => quiet || mc <= this.indexedSeqno);
  }

  /** Finalizes (removes) the traces whose every transaction is committed by a masterchain block that `final` accepts. */
  private async finalize(final: (mcSeqno: number) => boolean): Promise<void> {
    for (const entry of await this.store.all()) {
      const mcs = entry.trace.transactions.map((t) => (t.finality >= Finality.CONFIRMED ? this.committed.get(blockKey(t.blockWorkchain, t.blockShard, t.blockSeqno)) : undefined));
      if (mcs.some((m) => m === undefined || !final(m))) continue;
      await this.store.remove(traceIdOf(entry));
      this.metrics.transitions.inc({ to: "finalized", reason: "" });
      this.log.debug({ traceId: traceIdOf(entry), mcSeqno: Math.max(...(mcs as number[])) }, "pending: trace finalized");
    }
  }

  /** The index of the emulated transaction a real one on `account` with in-message `inMsgHash` is, if any. */
  private match(entry: PendingEntry, account: string, inMsgHash: Buffer | null): number | undefined {
    if (!inMsgHash) return undefined;
    const t = entry.trace;
    if (t.transactions[0]!.finality === Finality.PENDING) return inMsgHash.equals(Buffer.from(t.externalHash)) ? 0 : undefined;
    // a message a confirmed transaction of the trace sent
    const sent = new Set<string>();
    for (const tx of t.transactions) if (tx.finality >= Finality.CONFIRMED) for (const out of transactionMessageCells(Cell.fromBase64(tx.boc)).outMsgs) sent.add(out.hash().toString("hex"));
    if (!sent.has(inMsgHash.toString("hex"))) return undefined;
    const i = t.transactions.findIndex((tx, i) => i > 0 && tx.finality === Finality.PENDING && entry.accounts[i] === account);
    return i < 0 ? undefined : i;
  }

  /** Another external message processed on the root's account while the root is still pending. */
  private superseded(entry: PendingEntry, account: string, cell: Cell): boolean {
    if (entry.accounts[0] !== account || entry.trace.transactions[0]!.finality !== Finality.PENDING) return false;
    const inMsg = transactionMessageCells(cell).inMsg;
    return inMsg !== null && inMsg.beginParse().preloadUint(2) === 0b10;
  }

  private confirm(tx: PendingTransaction, cell: Cell, inMsgHash: Buffer | null, block: { workchain: number; shard: string; seqno: number }): void {
    tx.boc = cell.toBoc({ idx: false, crc32: true }).toString("base64");
    if (tx.inMsgHash.length > 0 && inMsgHash) tx.inMsgHash = inMsgHash;
    tx.finality = Finality.CONFIRMED;
    tx.blockWorkchain = block.workchain;
    tx.blockShard = block.shard;
    tx.blockSeqno = block.seqno;
  }

  private async invalidate(entry: PendingEntry, reason: "differs" | "superseded", why: string): Promise<void> {
    await this.store.remove(traceIdOf(entry));
    this.transitions.invalidated(entry.trace, reason);
    this.metrics.transitions.inc({ to: "invalidated", reason });
    this.log.info({ traceId: traceIdOf(entry), externalHash: hex(entry.trace.externalHash), reason }, `pending: trace invalidated: ${why}`);
  }
}

/** The lowest finality among a trace's transactions. */
function lowest(t: PendingTrace): Finality {
  return t.transactions.reduce<Finality>((m, tx) => (tx.finality < m ? tx.finality : m), Finality.FINALIZED);
}
