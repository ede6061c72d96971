// Collation of one shard block's transactions: messages are taken in
// logical-time order and executed one by one; internal messages addressed to
// this shard are delivered within the same block, others are handed back for
// the next block or another shard. lt and random seeds are assigned as a real
// collator would: every transaction starts after the block's start lt, its
// account's previous transaction and its inbound message's created_lt.
import { createHash } from "node:crypto";
import { Address, beginCell, Cell, Dictionary, loadMessage, storeMessage, type Message } from "@ton/core";
import type { PrevBlocksInfo } from "@ton/sandbox";
import { bocBase64, type Emulation, type ExecutedTransaction, type TransactionExecutor } from "@tongate/emulator";

export interface QueuedMessage {
  cell: Cell;
  message: Message;
  /** created_lt of an internal message; 0 for an external one. */
  createdLt: bigint;
  /**
   * An external message already executed successfully (signature checks included) on the
   * account state with this hash: when the account is still in that state, execution may skip
   * signature checks with the same outcome.
   */
  checkedOnState?: string;
  /** How many messages the transaction sent in that check (plans lts ahead, see collate). */
  expectedOutMessages?: number;
}

export interface CollatedTransaction extends ExecutedTransaction {
  account: Address;
  /** The inbound message; null for a tick or tock transaction (trans_tick_tock has none). */
  inMsg: QueuedMessage | null;
  /** lt after the transaction and its outbound messages. */
  endLt: bigint;
}

export interface Collation {
  transactions: CollatedTransaction[];
  /** Internal messages left for another shard or the next block. */
  outbound: QueuedMessage[];
  /** External messages the contracts did not accept. */
  rejected: { msg: QueuedMessage; reason: string; exitCode?: number }[];
  /** External outbound messages (logs), in creation order. */
  externalOut: Message[];
  endLt: bigint;
}

/** The account states a collation reads and writes (ShardAccount cells by account id hex). */
export interface AccountStore {
  get(workchain: number, id: string): Cell | undefined;
  set(workchain: number, id: string, shardAccount: Cell): void;
}

export interface CollateOptions {
  workchain: number;
  /** Whether an address belongs to the shard being collated. */
  inShard(address: Address): boolean;
  now: number;
  startLt: bigint;
  blockRandSeed: Buffer;
  /** Previous-blocks info for the transactions' c7. */
  prevBlocksInfo?: PrevBlocksInfo;
}

/** Identifies an account state for `checkedOnState` (a nonexistent account is "none"). */
export const stateKey = (shardAccount: Cell | undefined): string => (shardAccount ? shardAccount.hash().toString("hex") : "none");

export function queued(cell: Cell): QueuedMessage {
  const message = loadMessage(cell.beginParse());
  return { cell, message, createdLt: message.info.type === "internal" ? message.info.createdLt : 0n };
}

/**
 * The outbound message cells of a transaction exactly as it stores them (re-serializing the
 * parsed messages could change their hashes), in creation order.
 */
export function outMessageCells(tx: Cell): Cell[] {
  const io = tx.refs[0]!.beginParse();
  io.loadMaybeRef(); // in_msg
  const out = Dictionary.loadDirect(Dictionary.Keys.Uint(15), Dictionary.Values.Cell(), io.loadMaybeRef());
  return [...out.keys()].sort((a, b) => a - b).map((k) => out.get(k)!);
}

/** The inbound message cell of a transaction as it stores it, if any. */
export function inMessageCell(tx: Cell): Cell | null {
  return tx.refs[0]!.beginParse().loadMaybeRef();
}

export function queuedFromMessage(message: Message): QueuedMessage {
  return queued(beginCell().store(storeMessage(message)).endCell());
}

/**
 * Collates the queue. Messages run in waves: first the queue in created_lt order (external
 * messages first), then the internal messages those transactions sent, and so on — the order
 * in which one-at-a-time lt-ordered processing takes them, since a new message's created_lt
 * exceeds every queued one's. Each transaction's lt is max(cursor, created_lt + 1, the
 * account's last end lt), and the cursor moves past each transaction and its outbound messages.
 *
 * Within a wave, the lts are planned from predicted outbound message counts (an external
 * message's check counted them; an internal message is predicted to send what the last one of its
 * opcode sent, none at first), WAVE_LOOKAHEAD messages at a time, so that the
 * transactions of different accounts can run at once on worker emulators; an account's own
 * messages run one after the other on its latest state. The results are then taken in order,
 * and at the first misprediction the rest of the wave is planned again from the actual lts:
 * the block is the same as a one-at-a-time collation's.
 */
export async function collate(executor: TransactionExecutor, accounts: AccountStore, queue: QueuedMessage[], o: CollateOptions): Promise<Collation> {
  const out: Collation = { transactions: [], outbound: [], rejected: [], externalOut: [], endLt: o.startLt };
  const lastEnd = new Map<string, bigint>();
  const outByOpcode = new Map<number, number>();
  // Each account's latest state in this collation, written to `accounts` once at the end.
  const touched = new Map<string, { workchain: number; state: string; last: ExecutedTransaction }>();
  const latestState = (workchain: number, id: string): Cell | string | undefined => touched.get(id)?.state ?? accounts.get(workchain, id);
  let cursor = o.startLt;
  let wave = [...queue].sort((a, b) => (a.createdLt < b.createdLt ? -1 : a.createdLt > b.createdLt ? 1 : 0));
  while (wave.length > 0) {
    const todo: QueuedMessage[] = [];
    for (const msg of wave) {
      if (msg.message.info.type === "external-out") continue;
      if (o.inShard(msg.message.info.dest)) todo.push(msg);
      else out.outbound.push(msg);
    }
    const next: QueuedMessage[] = [];
    for (let done = 0; done < todo.length; ) {
      const runs = runWave(executor, latestState, todo.slice(done, done + WAVE_LOOKAHEAD), { ...o, cursor, lastEnd, outByOpcode });
      for (const run of runs) {
        done++;
        const { msg, dest, id } = run;
        const r = await run.emulation;
        if (!r.success) {
          out.rejected.push({ msg, reason: r.error, exitCode: r.exitCode });
          if (run.predictedOut === undefined) continue;
          break; // planned as a transaction: the lts after it are off
        }
        const executed = executor.materialize(r);
        const tx = executed.transaction;
        const endLt = tx.lt + BigInt(tx.outMessagesCount) + 1n;
        touched.set(id, { workchain: dest.workChain, state: r.shardAccount, last: executed });
        lastEnd.set(id, endLt);
        cursor = endLt;
        out.transactions.push(collated(executed, dest, msg, endLt));
        if (msg.message.info.type === "internal") outByOpcode.set(opcodeOf(msg), tx.outMessagesCount);
        for (const q of outMessageCells(executed.cell).map(queued)) {
          if (q.message.info.type === "external-out") out.externalOut.push(q.message);
          else next.push(q);
        }
        if (tx.lt !== run.lt || tx.outMessagesCount !== run.predictedOut) break;
      }
    }
    wave = next;
  }
  for (const [id, t] of touched) accounts.set(t.workchain, id, t.last.shardAccountCell);
  out.endLt = cursor;
  return out;
}

/**
 * Messages of a wave whose emulations run ahead of the one taken. A misprediction re-plans and
 * runs again the ones after it: without a bound, a wave of n mispredicted messages (a hundred
 * jetton wallets each sending one) took n²/2 emulations.
 */
const WAVE_LOOKAHEAD = 32;

/** The opcode of an internal message's body (-1 without one): what its transaction's outbound count is predicted by. */
function opcodeOf(msg: QueuedMessage): number {
  const s = msg.message.body.beginParse();
  return s.remainingBits >= 32 ? s.preloadUint(32) : -1;
}

interface PlannedRun {
  msg: QueuedMessage;
  dest: Address;
  id: string;
  lt: bigint;
  /** Outbound messages the plan assumed (undefined: assumed rejected). */
  predictedOut: number | undefined;
  emulation: Promise<Emulation>;
}

/**
 * Plans the lts of `msgs` (all for this shard) from predicted outbound counts and starts their
 * emulations: different accounts at once, one account's messages in order on its latest state.
 */
function runWave(
  executor: TransactionExecutor,
  latestState: (workchain: number, id: string) => Cell | string | undefined,
  msgs: QueuedMessage[],
  o: CollateOptions & { cursor: bigint; lastEnd: Map<string, bigint>; outByOpcode: Map<number, number> },
): PlannedRun[] {
  let cursor = o.cursor;
  const lastEnd = new Map(o.lastEnd);
  const latest = new Map<string, Promise<string | undefined>>(); // the account's state BoC after its last planned run
  return msgs.map((msg) => {
    const dest = (msg.message.info as { dest: Address }).dest;
    const id = dest.hash.toString("hex");
    let lt = cursor;
    const prevEnd = lastEnd.get(id);
    if (prevEnd !== undefined && prevEnd > lt) lt = prevEnd;
    if (msg.createdLt + 1n > lt) lt = msg.createdLt + 1n;
    // an external message: what its check sent; an internal one: what the last message of its opcode in this collation sent, else none
    const predictedOut = msg.message.info.type === "external-in" ? msg.expectedOutMessages : (o.outByOpcode.get(opcodeOf(msg)) ?? 0);
    if (predictedOut !== undefined) {
      cursor = lt + BigInt(predictedOut) + 1n;
      lastEnd.set(id, cursor);
    }
    const seed = accountRandSeed(o.blockRandSeed, dest);
    const params = { now: o.now, lt, randomSeed: seed, prevBlocksInfo: o.prevBlocksInfo };
    const prior = latest.get(id);
    const emulation = prior
      ? prior.then((state) => executor.emulate(dest, state, msg.cell, params))
      : (() => {
          const before = latestState(dest.workChain, id);
          // The check already ran with signature checks on this very state (a committed one, a
          // cell): the outcome is the same without.
          const checked = typeof before !== "string" && msg.checkedOnState !== undefined && msg.checkedOnState === stateKey(before);
          return executor.emulate(dest, before, msg.cell, { ...params, skipSignatureCheck: checked });
        })();
    const stateBefore = prior ?? Promise.resolve(latestState(dest.workChain, id)).then((c) => (c === undefined || typeof c === "string" ? c : bocBase64(c)));
    latest.set(
      id,
      Promise.all([emulation, stateBefore]).then(([e, before]) => (e.success ? e.shardAccount : before)),
    );
    return { msg, dest, id, lt, predictedOut, emulation };
  });
}

/** The random seed of an account's transactions in a block: sha256(block rand_seed, account id), as TON's collator. */
export function accountRandSeed(blockRandSeed: Buffer, account: Address): Buffer {
  return createHash("sha256").update(blockRandSeed).update(account.hash).digest();
}

/** A collated transaction; the parsed account state stays lazy (most callers need only the cell). */
export function collated(e: ExecutedTransaction, account: Address, inMsg: QueuedMessage | null, endLt: bigint): CollatedTransaction {
  return {
    transaction: e.transaction,
    cell: e.cell,
    get shardAccount() {
      return e.shardAccount;
    },
    get shardAccountCell() {
      return e.shardAccountCell;
    },
    account,
    inMsg,
    endLt,
  };
}
