// Round-trips of DEX liquidity bodies over the classifier fixtures' real messages: by the message's
// opcode, and for payloads nested in other bodies (forward and payment payloads) by any cell of a
// body's tree whose first 32 bits are the opcode.
import { beginCell, type Builder, type Cell, type Slice } from "@ton/core";
import type { TraceMessage } from "./fixtures.js";

export interface Codec {
  name: string;
  opcode: number;
  roundTrip: (s: Slice) => Cell;
}

export function codec<T>(name: string, opcode: number, load: (s: Slice) => T, store: (v: T) => (b: Builder) => void): Codec {
  return { name, opcode, roundTrip: (s) => beginCell().store(store(load(s))).endCell() };
}

export interface Checked {
  name: string;
  message: string;
  want: string;
  got: string;
}

/** Every message body with one of the codecs' opcodes, loaded and stored again. */
export function roundTripMessages(messages: readonly TraceMessage[], codecs: readonly Codec[]): Checked[] {
  const byOpcode = new Map(codecs.map((c) => [c.opcode, c]));
  const out: Checked[] = [];
  for (const m of messages) {
    const c = m.opcode === null ? undefined : byOpcode.get(m.opcode);
    if (!c) continue;
    out.push({ name: c.name, message: m.hash, want: m.body.hash().toString("hex"), got: c.roundTrip(m.body.beginParse()).hash().toString("hex") });
  }
  return out;
}

function cellsOf(c: Cell, out: Cell[] = []): Cell[] {
  out.push(c);
  for (const r of c.refs) cellsOf(r, out);
  return out;
}

/** Cells inside bodies (not the bodies themselves) that load with a codec, stored again. */
export function roundTripNested(messages: readonly TraceMessage[], codecs: readonly Codec[]): Checked[] {
  const byOpcode = new Map(codecs.map((c) => [c.opcode, c]));
  const done = new Set<string>();
  const out: Checked[] = [];
  for (const m of messages) {
    for (const cell of cellsOf(m.body).slice(1)) {
      const hash = cell.hash().toString("hex");
      if (cell.isExotic || cell.bits.length < 32 || done.has(hash)) continue;
      const c = byOpcode.get(cell.beginParse().preloadUint(32));
      if (!c) continue;
      done.add(hash);
      let got: string;
      try {
        got = c.roundTrip(cell.beginParse()).hash().toString("hex");
      } catch {
        continue; // 32 bits that only look like the opcode
      }
      out.push({ name: c.name, message: m.hash, want: hash, got });
    }
  }
  return out;
}
