// Event nodes for the messages a failed wallet external intended to send (see externals.ts).
import { cellToBoc } from "./cells.js";
import { walletPayloads } from "./externals.js";
import { EventNode } from "./node.js";
import type { TraceMessage } from "../trace.js";

export function ghostNodesOf(external: EventNode): EventNode[] {
  const tx = external.tx;
  const out: EventNode[] = [];
  walletPayloads(external.message?.body ?? "").forEach((p, idx) => {
    if (p === null) return;
    const bodyHash = p.body.hash().toString("base64");
    const msg: TraceMessage = {
      // toncenter's id for a message that was never sent: base64 of "<payload hash><index>"
      hash: Buffer.from(p.hash + String(idx), "utf8").toString("base64"),
      source: tx.account,
      destination: p.destination,
      value: p.value,
      valueExtraCurrencies: null,
      fwdFee: p.fwdFee,
      ihrFee: p.ihrFee,
      importFee: 0n,
      createdLt: tx.lt,
      createdAt: tx.now,
      opcode: p.opcode === null ? null : p.opcode | 0,
      bounce: p.bounce,
      bounced: p.bounced,
      body: cellToBoc(p.body),
      bodyHash,
      initState: null,
      initStateHash: null,
    };
    const node = new EventNode(msg, tx, "in", true);
    node.failed = true;
    out.push(node);
  });
  return out;
}
