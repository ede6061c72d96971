// A trace emulated as the chain would run it: the external message on its destination, then every
// internal message it causes, across accounts, each account's state carried from its previous
// emulated transaction. What a wallet shows the moment a transfer is signed (the send service's
// pending traces) and what the Emulate API answers.
//
// Messages are delivered in created-lt order, as a collator takes a shard's queue: the oldest
// first. A transaction runs at max(the trace's start, the account's end lt, created_lt + 1) — the
// collator's rule — so an account's transactions get unique, increasing lts whose out messages'
// lts never collide with the next transaction's. Every run is bounded (depth, count, time): a
// contract that pings itself forever must cost a bounded amount of emulator time.
import { Cell, Dictionary, loadMessage, loadShardAccount, type Address, type Message, type Transaction } from "@ton/core";
import type { PrevBlocksInfo } from "@ton/sandbox";
import { randomBytes } from "node:crypto";
import { withBoc } from "./boc-cache.js";
import { EmulatorFailure, type EmulatorPool } from "./emulator-pool.js";
import { emptyLibraries, librariesCell, libraryRefs } from "./libraries.js";
import { runTransaction } from "./shared.js";

export interface TraceAccount {
  /** The ShardAccount cell (an empty one for a nonexistent account). */
  shardAccount: Cell;
  /** The ShardAccount's last_trans_lt (the lt of the account's last transaction). */
  lastTransLt: bigint;
}

export interface TraceBounds {
  /** Internal messages between the root and a transaction (the root's depth is 0); default 20. */
  maxDepth?: number;
  /** Transactions in the trace; default 4,000 (toncenter's max-trace-txs). */
  maxTransactions?: number;
  /** The whole trace's time, account reads included; default 10,000 ms. */
  timeoutMs?: number;
}

export interface TraceEmulationInput {
  /** The external-in message. */
  message: Cell;
  /** ConfigParams as a base64 BoC (the block's config). */
  config: string;
  /** The account's state at the block the trace starts on; called once per account. */
  account(address: Address): Promise<TraceAccount>;
  /** The libraries dictionary (HashmapE 256 ^Cell) the codes refer to; null: none. */
  libraries(codes: (Cell | null | undefined)[]): Promise<Cell | null>;
  /** Unix time of every transaction. */
  now: number;
  /** The logical time the trace starts after (the block's start lt). */
  lt: bigint;
  /** The block's random seed (32 bytes); default: random. */
  randomSeed?: Buffer;
  /** Treat signature checks as passing (an unsigned message emulated without sending). */
  ignoreChksig?: boolean;
  prevBlocksInfo?: PrevBlocksInfo;
  bounds?: TraceBounds;
  signal?: AbortSignal;
}

export interface EmulatedTransaction {
  address: Address;
  transaction: Transaction;
  /** The Transaction cell; its hash is the transaction hash. */
  cell: Cell;
  shardAccountBefore: Cell;
  shardAccountAfter: Cell;
  /** Internal messages between the root and this transaction (the root: 0). */
  depth: number;
  /** The hash of the message cell it processed. */
  inMsgHash: Buffer;
}

export interface EmulatedTrace {
  /** In lt order, the root first. */
  transactions: EmulatedTransaction[];
  randomSeed: Buffer;
  /** Whether messages were left undelivered (only in a TraceEmulationError's partial trace). */
  isIncomplete: boolean;
}

export type TraceEmulationFailure = "rejected" | "depth" | "count" | "timeout";

export class TraceEmulationError extends Error {
  constructor(
    readonly reason: TraceEmulationFailure,
    message: string,
    /** The exit code of a rejected external message's compute phase, when it ran. */
    readonly exitCode?: number,
    /** What was emulated before the bound was reached (absent for a rejected message). */
    readonly partial?: EmulatedTrace,
  ) {
    super(message);
    this.name = "TraceEmulationError";
  }
}

export const TRACE_DEFAULTS = { maxDepth: 20, maxTransactions: 4_000, timeoutMs: 10_000 } as const;

/** A message waiting for delivery. */
interface Queued {
  cell: Cell;
  message: Message;
  depth: number;
  createdLt: bigint;
  /** Tie-break among equal created lts: the order they were sent in. */
  seq: number;
}

/** The account as the trace has left it. */
interface AccountState {
  shardAccount: Cell;
  /** The lt the account's next transaction may start at (the end lt of its last one). */
  nextLt: bigint;
}

/**
 * Emulates the trace `input.message` starts. A rejected external message, or a bound reached, is a
 * TraceEmulationError saying why (with the partial trace past a bound); an emulator run that could
 * not finish is the pool's EmulatorFailure.
 */
export async function emulateTrace(pool: EmulatorPool, input: TraceEmulationInput): Promise<EmulatedTrace> {
  const bounds = { ...TRACE_DEFAULTS, ...input.bounds };
  const randomSeed = input.randomSeed ?? randomBytes(32);
  const started = Date.now();
  const timeout = AbortSignal.timeout(bounds.timeoutMs);
  const signal = input.signal ? AbortSignal.any([input.signal, timeout]) : timeout;
  const transactions: EmulatedTransaction[] = [];
  const partial = (): EmulatedTrace => ({ transactions: inLtOrder(transactions), randomSeed, isIncomplete: true });
  const timedOut = () => new TraceEmulationError("timeout", `the trace took longer than ${bounds.timeoutMs} ms to emulate (${transactions.length} transactions emulated)`, undefined, partial());
  const checkTime = () => {
    input.signal?.throwIfAborted();
    if (timeout.aborted || Date.now() - started > bounds.timeoutMs) throw timedOut();
  };

  const root = loadMessage(input.message.beginParse());
  if (root.info.type !== "external-in") {
    throw new TraceEmulationError("rejected", `the message is ${root.info.type === "internal" ? "an internal" : "an external-out"} message: only an external-in message starts a trace`);
  }

  const accounts = new Map<string, AccountState>();
  const libs = emptyLibraries();
  let libsCell: Cell | null = null;
  const codesSeen = new Set<string>();
  /** Adds the libraries of codes not seen before to the trace's dictionary. */
  const withLibraries = async (codes: (Cell | null | undefined)[]) => {
    const fresh = codes.filter((c): c is Cell => !!c && !codesSeen.has(c.hash().toString("hex")));
    for (const c of fresh) codesSeen.add(c.hash().toString("hex"));
    if (libraryRefs(fresh).length === 0) return;
    const got = await input.libraries(fresh);
    if (!got) return;
    for (const [k, v] of Dictionary.loadDirect(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell(), got)) libs.set(k, v);
    libsCell = librariesCell(libs) ?? null;
  };
  const accountOf = async (address: Address): Promise<AccountState> => {
    const key = address.toRawString();
    let a = accounts.get(key);
    if (!a) {
      const read = await input.account(address);
      const sa = loadShardAccount(read.shardAccount.beginParse());
      const st = sa.account?.storage.state;
      await withLibraries([st?.type === "active" ? st.state.code : undefined]);
      // AccountStorage's last_trans_lt is the end lt of the last transaction (after its out messages).
      const end = sa.account?.storage.lastTransLt ?? 0n;
      a = { shardAccount: read.shardAccount, nextLt: max(end, read.lastTransLt + 1n) };
      accounts.set(key, a);
    }
    return a;
  };

  /** Runs `m` on its destination; undefined: the emulator rejected it. */
  const run = async (address: Address, m: Queued) => {
    checkTime();
    const a = await accountOf(address);
    await withLibraries([m.message.init?.code]);
    checkTime();
    const lt = max(input.lt + 1n, a.nextLt, m.createdLt + 1n);
    const r = await runTransaction(
      pool,
      { config: input.config, libs: libsCell, shardAccount: a.shardAccount, message: m.cell, now: input.now, lt, randomSeed, ignoreChksig: input.ignoreChksig === true, prevBlocksInfo: input.prevBlocksInfo },
      signal,
    ).catch((e: unknown) => {
      // The pool gives up a queued run when the signal fires: the trace's time is what ran out.
      if (e instanceof EmulatorFailure && e.reason === "closed" && timeout.aborted && !input.signal?.aborted) throw timedOut();
      throw e;
    });
    if ("rejected" in r) return r.rejected;
    const after = withBoc(Cell.fromBase64(r.shardAccount), r.shardAccount);
    const outs = outMessageCells(r.cell);
    transactions.push({ address, transaction: r.transaction, cell: r.cell, shardAccountBefore: a.shardAccount, shardAccountAfter: after, depth: m.depth, inMsgHash: m.cell.hash() });
    a.shardAccount = after;
    a.nextLt = r.transaction.lt + BigInt(outs.length) + 1n;
    return outs;
  };

  const queue = new MessageQueue();
  let seq = 0;
  const rootOut = await run(root.info.dest, { cell: input.message, message: root, depth: 0, createdLt: 0n, seq: seq++ });
  if (!Array.isArray(rootOut)) {
    const code = rootOut.exitCode;
    throw new TraceEmulationError("rejected", `the contract at ${root.info.dest.toString()} did not accept the external message${code !== undefined ? ` (exit code ${code})` : ""}: ${rootOut.error}`, code);
  }
  const enqueue = (cells: Cell[], depth: number) => {
    for (const cell of cells) {
      const message = loadMessage(cell.beginParse());
      // external-out messages are logs: nobody receives them
      if (message.info.type !== "internal") continue;
      queue.push({ cell, message, depth, createdLt: message.info.createdLt, seq: seq++ });
    }
  };
  enqueue(rootOut, 1);
  for (let next = queue.pop(); next; next = queue.pop()) {
    if (next.message.info.type !== "internal") continue;
    const dest = next.message.info.dest;
    if (next.depth > bounds.maxDepth) {
      throw new TraceEmulationError("depth", `the trace is deeper than ${bounds.maxDepth} messages: the message to ${dest.toString()} would be delivered at depth ${next.depth}`, undefined, partial());
    }
    if (transactions.length >= bounds.maxTransactions) {
      throw new TraceEmulationError("count", `the trace has more than ${bounds.maxTransactions} transactions`, undefined, partial());
    }
    const out = await run(dest, next);
    // An internal message is never refused: the emulator failing on one is a fault of its own.
    if (!Array.isArray(out)) throw new Error(`the emulator did not execute the internal message to ${dest.toString()}: ${out.error}`);
    enqueue(out, next.depth + 1);
  }
  return { transactions: inLtOrder(transactions), randomSeed, isIncomplete: false };
}

const max = (...xs: bigint[]): bigint => xs.reduce((a, b) => (b > a ? b : a));

/** Stable: transactions at one lt (on different accounts) keep the order they ran in. */
function inLtOrder(txs: EmulatedTransaction[]): EmulatedTransaction[] {
  return [...txs].sort((a, b) => (a.transaction.lt < b.transaction.lt ? -1 : a.transaction.lt > b.transaction.lt ? 1 : 0));
}

/**
 * The out message cells of a Transaction cell, as the transaction holds them (re-serializing a
 * parsed Message may lay its body out differently and change its hash):
 * transaction$0111 … ^[ in_msg:(Maybe ^Message) out_msgs:(HashmapE 15 ^Message) ] …
 */
function outMessageCells(tx: Cell): Cell[] {
  const s = tx.refs[0]!.beginParse();
  s.loadMaybeRef();
  const out = s.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
  return [...out.keys()].sort((a, b) => a - b).map((k) => out.get(k)!);
}

/** A binary heap of messages by (created_lt, seq). */
class MessageQueue {
  private heap: Queued[] = [];
  private static before(a: Queued, b: Queued): boolean {
    return a.createdLt < b.createdLt || (a.createdLt === b.createdLt && a.seq < b.seq);
  }
  push(q: Queued): void {
    const h = this.heap;
    h.push(q);
    for (let i = h.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (!MessageQueue.before(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }
  pop(): Queued | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && MessageQueue.before(h[l]!, h[m]!)) m = l;
        if (r < h.length && MessageQueue.before(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
}
