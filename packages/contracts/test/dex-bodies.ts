// The bodies of toncenter's classifier traces, for every protocol's round-trip tests: every message
// body (logs included), every forward payload a jetton transfer, internal transfer, notification or
// pTON transfer carried (DEX swaps and deposits, JVault stakes ride there), and every other cell
// inside a body (payloads nested deeper, e.g. a DeDust v2 payment's operation), keyed by their
// first 32 bits.
import { beginCell, type Builder, type Cell, type Slice } from "@ton/core";
import { expect, it } from "vitest";
import { JETTON_OPCODES, loadJettonInternalTransfer, loadJettonNotify, loadJettonTransfer, loadPtonTonTransfer, PTON_OPCODES, type EitherCell } from "@tongate/contracts";
import { actionTraceMessages } from "./fixtures.js";

export interface RealBody {
  /** the message hash, with "/payload" for a forward payload, "/nested" for a cell below the root */
  from: string;
  /** a message body, a forward payload carried by one, or any cell below a body's root */
  kind: "message" | "payload" | "nested";
  cell: Cell;
  /** false for a forward payload written inline in its carrier's cell */
  inRef: boolean;
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

function cellsBelow(root: Cell, out: Cell[] = []): Cell[] {
  for (const r of root.refs) {
    out.push(r);
    cellsBelow(r, out);
  }
  return out;
}

let cache: Map<number, RealBody[]> | null = null;

/** Bodies and forward payloads by opcode, distinct cells only (a payload inline and in a ref apart). */
export function realBodies(): Map<number, RealBody[]> {
  if (cache) return cache;
  const out = new Map<number, RealBody[]>();
  const seen = new Set<string>();
  const add = (from: string, kind: RealBody["kind"], cell: Cell, inRef = true) => {
    if (cell.isExotic || cell.bits.length < 32) return;
    const s = cell.beginParse();
    const h = `${kind}:${inRef}:${cell.hash().toString("hex")}`;
    if (seen.has(h)) return;
    seen.add(h);
    const op = s.preloadUint(32);
    const list = out.get(op) ?? [];
    list.push({ from, kind, cell, inRef });
    out.set(op, list);
  };
  for (const m of actionTraceMessages()) {
    add(m.hash, "message", m.body);
    const p = payloadOf(m.body);
    if (p !== null) add(`${m.hash}/payload`, "payload", p.cell, p.inRef);
    for (const c of cellsBelow(m.body)) add(`${m.hash}/nested`, "nested", c);
  }
  cache = out;
  return out;
}

/** The real bodies of `kind` with the opcode. */
export const realBodiesOf = (opcode: number, kind: RealBody["kind"]): RealBody[] => (realBodies().get(opcode) ?? []).filter((b) => b.kind === kind);

/**
 * One test per constructor: at least one real body, and every real body loads and stores back to
 * the same cell. A nested cell that does not load is skipped: its first 32 bits only look like the
 * opcode. `only` narrows the bodies checked.
 */
export function roundTrip<T>(
  name: string,
  kind: RealBody["kind"],
  opcode: number,
  load: (s: Slice) => T,
  store: (v: T) => (b: Builder) => void,
  only: (b: RealBody) => boolean = () => true,
): void {
  it(`${name}: real bodies load and store back to the same cell`, () => {
    let checked = 0;
    for (const b of realBodiesOf(opcode, kind).filter(only)) {
      let v: T;
      try {
        v = load(b.cell.beginParse());
      } catch (e) {
        if (kind === "nested") continue;
        throw e;
      }
      const again = beginCell().store(store(v)).endCell();
      expect(again.hash().toString("hex"), `${name} from ${b.from}`).toBe(b.cell.hash().toString("hex"));
      checked++;
    }
    expect(checked, `real ${name} bodies in the fixtures`).toBeGreaterThan(0);
  });
}
