// The trace as a tree of event nodes (toncenter's EventNode/to_tree): one node per incoming message
// of a transaction (the message that started it), one per external-out message (a log), one per
// tick-tock transaction. A node's children are the nodes its transaction's out-messages started.
import type { TraceMessage, TraceTransaction } from "../trace.js";

export class EventNode {
  parent: EventNode | null = null;
  readonly children: EventNode[] = [];
  failed: boolean;

  constructor(
    /** null only for a tick-tock transaction (it has no in-message) */
    readonly message: TraceMessage | null,
    /** the transaction this copy of the message belongs to: the receiver's for "in", the sender's for a log */
    readonly tx: TraceTransaction,
    readonly direction: "in" | "out",
    /** a message a failed external asked its wallet to send, rebuilt from the external's body */
    readonly ghost = false,
  ) {
    this.failed = tx.aborted;
  }

  get isTickTock(): boolean {
    return this.message === null;
  }

  /** The message hash (the transaction's hash for a tick-tock): what action ids are derived from. */
  get msgHash(): string {
    return this.message ? this.message.hash : this.tx.hash;
  }

  /** The opcode as an unsigned 32-bit number, null when the body has fewer than 32 bits. */
  get opcode(): number | null {
    const op = this.message?.opcode;
    return op === null || op === undefined ? null : op >>> 0;
  }

  get source(): string | null {
    return this.message?.source ?? null;
  }

  get destination(): string | null {
    return this.message?.destination ?? null;
  }

  /** When the message was created (the transaction's lt for an external-in or a tick-tock). */
  get lt(): bigint {
    const m = this.message;
    return m && m.createdLt !== null ? m.createdLt : this.tx.lt;
  }

  get utime(): number {
    const m = this.message;
    return m && m.createdLt !== null ? (m.createdAt ?? this.tx.now) : this.tx.now;
  }

  addChild(child: EventNode): void {
    this.children.push(child);
    child.parent = this;
  }
}

/**
 * The trace's tree, rooted at the first transaction's node. Out-messages whose receiver is not in
 * the trace (a pending trace) are left out.
 */
export function toTree(transactions: readonly TraceTransaction[]): EventNode {
  if (transactions.length === 0) throw new Error("trace has no transactions");
  const byLtDesc = [...transactions].sort((a, b) => (a.lt < b.lt ? 1 : a.lt > b.lt ? -1 : 0));
  const txOfMsg = new Map<string, string>();
  const nodes = new Map<string, EventNode>();
  for (const tx of byLtDesc) {
    if (nodes.has(tx.hash)) continue;
    const node = tx.inMsg && tx.descr !== "tick_tock" ? new EventNode(tx.inMsg, tx, "in") : new EventNode(null, tx, "in");
    if (tx.inMsg) txOfMsg.set(tx.inMsg.hash, tx.hash);
    nodes.set(tx.hash, node);
    for (const m of tx.outMsgs) {
      if (m.destination === null) {
        node.addChild(new EventNode(m, tx, "out"));
        continue;
      }
      const receiverTx = txOfMsg.get(m.hash);
      const receiver = receiverTx === undefined ? undefined : nodes.get(receiverTx);
      if (receiver) node.addChild(receiver);
    }
  }
  let root = nodes.get(byLtDesc[byLtDesc.length - 1].hash)!;
  while (root.parent) root = root.parent;
  return root;
}
