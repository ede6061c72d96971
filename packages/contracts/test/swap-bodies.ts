// The DEX bodies of toncenter's classifier traces, for round-trip tests: every message body, and
// every forward payload a jetton transfer, internal transfer, notification or pTON transfer
// carried (the DEXes' swap requests ride there), keyed by their first 32 bits.
import { beginCell, type Builder, type Cell, type Slice } from "@ton/core";
import { expect, it } from "vitest";
import { JETTON_OPCODES, loadJettonInternalTransfer, loadJettonNotify, loadJettonTransfer, loadPtonTonTransfer, PTON_OPCODES, type EitherCell } from "@tongate/contracts";
import { actionTraceMessages } from "./fixtures.js";

export interface RealBody {
  /** the message hash, with "/payload" for a forward payload */
  from: string;
  /** a message body, or a forward payload carried by one */
  kind: "message" | "payload";
  cell: Cell;
}

function payloadOf(body: Cell): EitherCell | null {
  const s = body.beginParse();
  if (s.remainingBits < 32) return null;
  try {
    switch (s.preloadUint(32)) {
      case JETTON_OPCODES.jetton_transfer:
        return loadJettonTransfer(s).forwardPayload;
      case JETTON_OPCODES.jetton_internal_transfer:
        return loadJettonInternalTransfer(s).forwardPayload;
      case JETTON_OPCODES.jetton_notify:
        return loadJettonNotify(s).forwardPayload;
      case PTON_OPCODES.pton_ton_transfer:
        return loadPtonTonTransfer(s).forwardPayload;
      default:
        return null;
    }
  } catch {
    return null;
  }
}

let cache: Map<number, RealBody[]> | null = null;

/** Bodies and forward payloads by opcode, distinct cells only. */
export function realBodies(): Map<number, RealBody[]> {
  if (cache) return cache;
  const out = new Map<number, RealBody[]>();
  const seen = new Set<string>();
  const add = (from: string, kind: RealBody["kind"], cell: Cell) => {
    const s = cell.beginParse();
    if (s.remainingBits < 32) return;
    const h = `${kind}:${cell.hash().toString("hex")}`;
    if (seen.has(h)) return;
    seen.add(h);
    const op = s.preloadUint(32);
    const list = out.get(op) ?? [];
    list.push({ from, kind, cell });
    out.set(op, list);
  };
  for (const m of actionTraceMessages()) {
    add(m.hash, "message", m.body);
    const p = payloadOf(m.body);
    if (p !== null) add(`${m.hash}/payload`, "payload", p.cell);
  }
  cache = out;
  return out;
}

/** One test per constructor: at least one real body, and every real body loads and stores back to the same cell. */
export function roundTrip<T>(name: string, kind: RealBody["kind"], opcode: number, load: (s: Slice) => T, store: (v: T) => (b: Builder) => void): void {
  it(`${name}: real bodies load and store back to the same cell`, () => {
    const bodies = (realBodies().get(opcode) ?? []).filter((b) => b.kind === kind);
    expect(bodies.length, `real ${name} bodies in the fixtures`).toBeGreaterThan(0);
    for (const b of bodies) {
      const v = load(b.cell.beginParse());
      const again = beginCell().store(store(v)).endCell();
      expect(again.hash().toString("hex"), `${name} from ${b.from}`).toBe(b.cell.hash().toString("hex"));
    }
  });
}
