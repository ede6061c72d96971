// TEP-467's normalized hash: the direct representation hash equals the hash of the normalized
// message built by @ton/core, and the fields a sender may vary do not change it.
import { Address, beginCell, Cell, external, internal, loadMessage, storeMessage } from "@ton/core";
import { describe, expect, it } from "vitest";
import { normalizedHash } from "../src/index.js";

const dest = (wc: number, fill: number) => new Address(wc, Buffer.alloc(32, fill));
const built = (m: Parameters<typeof storeMessage>[0], forceRef = false) => loadMessage(beginCell().store(storeMessage(m, { forceRef })).endCell().beginParse());

/** The normalized message built with @ton/core, hashed as a cell. */
const reference = (to: Address, body: Cell) =>
  beginCell()
    .store(storeMessage({ info: { type: "external-in", dest: to, importFee: 0n }, body }, { forceRef: true }))
    .endCell()
    .hash();

describe("normalizedHash", () => {
  it("is the hash of the normalized message, on the masterchain, the basechain and with bodies of every size", () => {
    for (const [wc, fill] of [[0, 0x11], [-1, 0x33], [0, 0xff]] as const) {
      for (const bits of [0, 1, 32, 700]) {
        const body = beginCell().storeBits(beginCell().storeUint(0x5a, 8).endCell().bits.substring(0, Math.min(bits, 8))).storeBuffer(Buffer.alloc(Math.max(0, Math.floor((bits - 8) / 8)), 7)).storeRef(beginCell().storeUint(bits, 32)).endCell();
        const to = dest(wc, fill);
        expect(normalizedHash(built(external({ to, body })))).toEqual(reference(to, body));
      }
    }
  });

  it("ignores the body's placement, the StateInit and the import fee", () => {
    const to = dest(0, 0x42);
    const body = beginCell().storeUint(7, 64).endCell();
    const init = { code: beginCell().storeUint(1, 8).endCell(), data: beginCell().endCell() };
    const plain = normalizedHash(built(external({ to, body })));
    expect(normalizedHash(built(external({ to, body }), true))).toEqual(plain);
    expect(normalizedHash(built(external({ to, body, init })))).toEqual(plain);
    expect(normalizedHash(built({ info: { type: "external-in", dest: to, importFee: 5n }, body }))).toEqual(plain);
    expect(normalizedHash(built(external({ to: dest(0, 0x43), body })))).not.toEqual(plain);
  });

  it("refuses a message that is not an inbound external", () => {
    expect(() => normalizedHash({ ...internal({ to: dest(0, 1), value: 1n }), info: { type: "external-out", src: dest(0, 2), dest: null, createdLt: 0n, createdAt: 0 } })).toThrow(/inbound external/);
  });
});
