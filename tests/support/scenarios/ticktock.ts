// Tick and tock transactions: localnet's collator runs them in every masterchain block, on the
// special accounts whose StateInit asks for them (its elector stand-in ticks, its config stand-in
// tocks, as mainnet's do). Each is a trace of its own, without an inbound message. Localnet's
// stand-ins send no message on tick or tock, so each such trace is that one transaction: toncenter's
// classifier gives a lone tick-tock no action (trace_processor.py), and a tick_tock action (a
// tick-tock that starts a chain of messages, as mainnet's elector does when it returns stakes)
// cannot be made on localnet without a special account that sends.
import { loadTransaction, type Address, Address as TonAddress } from "@ton/core";
import type { Localnet } from "@tongate/localnet";

export interface TickTockTx {
  account: Address;
  kind: "tick" | "tock";
  lt: bigint;
  hash: Buffer;
  utime: number;
  /** A tick-tock transaction starts its own trace: its hash. */
  traceId: Buffer;
  mcSeqno: number;
}

export interface TickTockScenario {
  /** The tick and tock transactions of one masterchain block, in block order. */
  transactions: TickTockTx[];
}

/** Seals a block (nothing else in it) and returns its tick and tock transactions. */
export async function tickTockScenario(net: Localnet): Promise<TickTockScenario> {
  await net.chain.seal();
  const mc = net.chain.lastMasterchain!;
  const transactions: TickTockTx[] = [];
  for (const r of mc.transactions) {
    const tx = loadTransaction(r.cell.beginParse());
    const d = tx.description;
    if (d.type !== "tick-tock") continue;
    const hash = r.cell.hash();
    transactions.push({
      account: new TonAddress(-1, Buffer.from(tx.address.toString(16).padStart(64, "0"), "hex")),
      kind: d.isTock ? "tock" : "tick",
      lt: tx.lt,
      hash,
      utime: tx.now,
      traceId: hash,
      mcSeqno: mc.id.seqno,
    });
  }
  if (!transactions.some((t) => t.kind === "tick") || !transactions.some((t) => t.kind === "tock")) throw new Error(`masterchain block ${mc.id.seqno} has no tick or no tock transaction`);
  return { transactions };
}
