// Tick and tock transactions: a masterchain block as TON's collator makes it
// (collator.cpp do_collate): first the tick transactions of the special accounts
// whose StateInit asks for them, then the ordinary messages, then the tock
// transactions. As on mainnet (e.g. block -1:24374597), every tick runs at the
// block's start lt + 1 and every tock at the lt the block reached after the
// ordinary messages (req_start_lt = max(max_lt, start_lt + 1)); each account's
// transaction starts after its previous one.
import { Address, loadShardAccount, type Cell, type Message } from "@ton/core";
import type { TickOrTock } from "@ton/sandbox";
import { accountRandSeed, collate, collated, outMessageCells, queued, type AccountStore, type CollateOptions, type CollatedTransaction, type Collation, type QueuedMessage } from "./collator.js";
import type { TransactionExecutor } from "@tongate/emulator";

/**
 * Collates a masterchain block: ticks, the queue (collate), tocks. `special`: the special
 * accounts' ids (hex) in the collator's order (special-accounts.ts specialAccountIds).
 */
export async function collateMasterchain(executor: TransactionExecutor, accounts: AccountStore, queue: QueuedMessage[], o: CollateOptions, special: string[]): Promise<Collation> {
  const ticks = await runTickTock(executor, accounts, special, "tick", o.startLt + 1n, o);
  // The tick transactions' messages are processed with the block's own (collator.cpp: they enter
  // the same queue of new messages).
  const ordinary = await collate(executor, accounts, [...queue, ...ticks.messages], { ...o, startLt: ticks.endLt ?? o.startLt });
  const tocks = await runTickTock(executor, accounts, special, "tock", ordinary.endLt > o.startLt ? ordinary.endLt : o.startLt + 1n, o);
  return {
    transactions: [...ticks.transactions, ...ordinary.transactions, ...tocks.transactions],
    // What a tock sends leaves with the block's other outbound messages (messages to workchain 0
    // reach the next shard block; localnet's special contracts send none).
    outbound: [...ordinary.outbound, ...tocks.messages],
    rejected: ordinary.rejected,
    externalOut: [...ticks.externalOut, ...ordinary.externalOut, ...tocks.externalOut],
    endLt: tocks.endLt !== undefined && tocks.endLt > ordinary.endLt ? tocks.endLt : ordinary.endLt,
  };
}

interface TickTockRun {
  transactions: CollatedTransaction[];
  /** The internal messages the transactions sent, in order. */
  messages: QueuedMessage[];
  externalOut: Message[];
  /** The highest end lt of the transactions (undefined: none ran). */
  endLt: bigint | undefined;
}

/**
 * The tick (or tock) transactions of the special accounts that ask for them, each at `lt` or
 * after the account's previous transaction. Different accounts run at once (on worker emulators
 * when there are some); their states are written to `accounts`.
 */
export async function runTickTock(executor: TransactionExecutor, accounts: AccountStore, special: string[], which: TickOrTock, lt: bigint, o: CollateOptions): Promise<TickTockRun> {
  const runs = special.flatMap((id) => {
    const state = accounts.get(-1, id);
    const after = state ? ticktockAfter(state, which) : undefined;
    if (!state || after === undefined) return [];
    const address = new Address(-1, Buffer.from(id, "hex"));
    const params = { now: o.now, lt: lt > after ? lt : after, randomSeed: accountRandSeed(o.blockRandSeed, address), prevBlocksInfo: o.prevBlocksInfo };
    return [{ id, address, emulation: executor.tickTock(address, state, which, params) }];
  });
  const out: TickTockRun = { transactions: [], messages: [], externalOut: [], endLt: undefined };
  for (const run of runs) {
    const r = await run.emulation;
    // A special account's tick-tock transaction runs with the special gas limit and is never
    // refused; collator.cpp stops collating when one cannot be made, and so does localnet.
    if (!r.success) throw new Error(`${which} transaction of -1:${run.id} failed: ${r.error}${r.exitCode !== undefined ? ` (exit code ${r.exitCode})` : ""}`);
    const executed = executor.materialize(r);
    const tx = executed.transaction;
    const endLt = tx.lt + BigInt(tx.outMessagesCount) + 1n;
    accounts.set(-1, run.id, executed.shardAccountCell);
    out.transactions.push(collated(executed, run.address, null, endLt));
    for (const q of outMessageCells(executed.cell).map(queued)) {
      if (q.message.info.type === "external-out") out.externalOut.push(q.message);
      else out.messages.push(q);
    }
    if (out.endLt === undefined || endLt > out.endLt) out.endLt = endLt;
  }
  return out;
}

/**
 * When the account is active and its StateInit.special asks for this kind of transaction: the
 * earliest lt it can start at, the end lt of the account's last transaction (AccountStorage's
 * last_trans_lt). Else undefined.
 */
function ticktockAfter(shardAccount: Cell, which: TickOrTock): bigint | undefined {
  const storage = loadShardAccount(shardAccount.beginParse()).account?.storage;
  return storage?.state.type === "active" && storage.state.state.special?.[which] === true ? storage.lastTransLt : undefined;
}
