// LayerZero bodies of toncenter's classifier traces: every message of a LayerZero opcode loads as
// the envelope and stores back to the same cell, and every class object found inside them (at any
// depth) loads with its class's loader and stores back to the same cell.
import { beginCell, type Builder, type Cell, type Slice } from "@ton/core";
import { describe, expect, it } from "vitest";
import * as C from "@tongate/contracts";
import { actionTraceMessages } from "./fixtures.js";

interface Codec {
  name: string;
  roundTrip: (c: Cell) => string;
}

function codec<T>(name: string, load: (s: Slice) => T, store: (v: T) => (b: Builder) => void): Codec {
  return { name, roundTrip: (c) => beginCell().store(store(load(c.beginParse()))).endCell().hash().toString("hex") };
}

const CLASSES: Codec[] = [
  codec("MdObj", C.loadLzMdObj, C.storeLzMdObj),
  codec("ExtendedMd", C.loadLzExtendedMd, C.storeLzExtendedMd),
  codec("LzSend", C.loadLzSend, C.storeLzSend),
  codec("Packet", C.loadLzPacket, C.storeLzPacket),
  codec("Path", C.loadLzPath, C.storeLzPath),
  codec("VerificationStatus", C.loadLzVerificationStatus, C.storeLzVerificationStatus),
];
const ENVELOPE = codec("LayerZeroMessage", C.loadLayerZeroMessage, C.storeLayerZeroMessage);
const OPCODES = new Set<number>(Object.values(C.LAYERZERO_OPCODES));

function cellsBelow(root: Cell): Cell[] {
  const out: Cell[] = [];
  const seen = new Set<string>();
  const queue = [...root.refs];
  for (let i = 0; i < queue.length; i++) {
    const c = queue[i];
    const h = c.hash().toString("hex");
    if (seen.has(h)) continue;
    seen.add(h);
    out.push(c);
    queue.push(...c.refs);
  }
  return out;
}

/** The class whose header the cell starts with, if it is one of ours. */
function classOf(c: Cell): Codec | undefined {
  return CLASSES.find((k) => {
    try {
      k.roundTrip(c);
      return true;
    } catch {
      return false;
    }
  });
}

describe("LayerZero bodies", () => {
  const bodies = actionTraceMessages().filter((m) => m.opcode !== null && OPCODES.has(m.opcode));

  it("the fixtures carry a body of every LayerZero opcode the classifier reads", () => {
    const seen = new Set(bodies.map((b) => b.opcode));
    for (const [name, op] of Object.entries(C.LAYERZERO_OPCODES)) expect(seen.has(op), name).toBe(true);
  });

  it("every envelope stores back to the same cell", () => {
    for (const m of bodies) expect(ENVELOPE.roundTrip(m.body), `0x${m.opcode!.toString(16)} ${m.hash}`).toBe(m.body.hash().toString("hex"));
  });

  it("every class object inside them stores back to the same cell, and each class occurs", () => {
    const found = new Map<string, number>();
    for (const m of bodies)
      for (const c of cellsBelow(m.body)) {
        const k = classOf(c);
        if (k === undefined) continue;
        found.set(k.name, (found.get(k.name) ?? 0) + 1);
        expect(k.roundTrip(c), k.name).toBe(c.hash().toString("hex"));
      }
    for (const k of CLASSES) expect(found.get(k.name) ?? 0, k.name).toBeGreaterThan(0);
  });

  it("reads the packet of a channel send callback as toncenter does", () => {
    const m = bodies.find((b) => b.opcode === C.LAYERZERO_OPCODES.channel_send_callback)!;
    const receipt = C.loadLzMdObj(C.loadLayerZeroMessage(m.body.beginParse()).md.beginParse()).md;
    const send = C.loadLzSend(receipt.refs[0].beginParse());
    const packet = C.loadLzPacket(send.packet.beginParse());
    const path = C.loadLzPath(packet.path.beginParse());
    expect(path.srcEid).toBe(30343);
    expect(packet.nonce).toBeGreaterThan(0n);
  });

  it("refuses an object of another class", () => {
    const path = beginCell().store(C.storeLzPath({ srcEid: 1, srcOApp: 2n, dstEid: 3, dstOApp: 4n })).endCell();
    expect(() => C.loadLzPacket(path.beginParse())).toThrow();
    expect(C.loadLzPath(path.beginParse()).dstOApp).toBe(4n);
  });
});
