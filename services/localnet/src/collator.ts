// Collation of one shard block's transactions: messages are taken in
// logical-time order and executed one by one; internal messages addressed to
// this shard are delivered within the same block, others are handed back for
// the next block or another shard. lt and random seeds are assigned as a real
// collator would: every transaction starts after the block's start lt, its
// account's previous transaction and its inbound message's created_lt.
import { createHash } from "node:crypto";
import { Address, beginCell, Cell, Dictionary, loadMessage, storeMessage, type Message } from "@ton/core";
import type { PrevBlocksInfo } from "@ton/sandbox";
import type { ExecutedTransaction, TransactionExecutor } from "./executor.js";

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
}

export interface CollatedTransaction extends ExecutedTransaction {
  account: Address;
  inMsg: QueuedMessage;
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
  /** Stop after this many transactions; the remaining messages stay queued. */
  maxTransactions?: number;
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

export async function collate(executor: TransactionExecutor, accounts: AccountStore, queue: QueuedMessage[], o: CollateOptions): Promise<Collation> {
  const pending = [...queue].sort((a, b) => (a.createdLt < b.createdLt ? -1 : a.createdLt > b.createdLt ? 1 : 0));
  const out: Collation = { transactions: [], outbound: [], rejected: [], externalOut: [], endLt: o.startLt };
  const lastEnd = new Map<string, bigint>();
  let cursor = o.startLt;
  const max = o.maxTransactions ?? Infinity;
  while (pending.length > 0) {
    const msg = pending.shift()!;
    const info = msg.message.info;
    if (info.type === "external-out") continue;
    const dest = info.dest;
    if (!o.inShard(dest) || out.transactions.length >= max) {
      out.outbound.push(msg);
      continue;
    }
    const id = dest.hash.toString("hex");
    const before = accounts.get(dest.workChain, id);
    let lt = cursor;
    const prevEnd = lastEnd.get(id);
    if (prevEnd !== undefined && prevEnd > lt) lt = prevEnd;
    if (msg.createdLt + 1n > lt) lt = msg.createdLt + 1n;
    const seed = createHash("sha256").update(o.blockRandSeed).update(dest.hash).digest();
    const r = await executor.run(dest, before, msg.cell, { now: o.now, lt, randomSeed: seed, skipSignatureCheck: msg.checkedOnState !== undefined && msg.checkedOnState === stateKey(before), prevBlocksInfo: o.prevBlocksInfo });
    if ("rejected" in r) {
      out.rejected.push({ msg, reason: r.rejected, exitCode: r.exitCode });
      continue;
    }
    const tx = r.transaction;
    const endLt = tx.lt + BigInt(tx.outMessagesCount) + 1n;
    accounts.set(dest.workChain, id, r.shardAccountCell);
    lastEnd.set(id, endLt);
    cursor = endLt;
    out.transactions.push({ ...r, account: dest, inMsg: msg, endLt });
    for (const q of outMessageCells(r.cell).map(queued)) {
      if (q.message.info.type === "external-out") {
        out.externalOut.push(q.message);
        continue;
      }
      // Delivered in this block when the destination is in this shard (kept in lt order).
      const at = pending.findIndex((p) => p.createdLt > q.createdLt);
      if (at < 0) pending.push(q);
      else pending.splice(at, 0, q);
    }
  }
  out.endLt = cursor;
  return out;
}
