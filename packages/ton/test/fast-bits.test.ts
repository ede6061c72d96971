// The byte-wise BitReader reads (src/fast-bits.ts) against @ton/core's bit-by-bit originals.
import { randomBytes } from "node:crypto";
import { BitReader, BitString } from "@ton/core";
import { describe, expect, it } from "vitest";
import { installFastBitReader, originalBitReads } from "../src/fast-bits.js";

type Reads = { _preloadUint(b: number, o: number): bigint; _preloadInt(b: number, o: number): bigint; _preloadBuffer(n: number, o: number): Buffer };
const proto = BitReader.prototype as unknown as Reads;
// tests/support/setup.ts may have installed the shims already: the originals are the ones saved at load
const original = originalBitReads;
installFastBitReader();

function outcome(f: () => unknown): unknown {
  try {
    const v = f();
    return Buffer.isBuffer(v) ? v.toString("hex") : v;
  } catch (e) {
    return (e as Error).message;
  }
}

describe("installFastBitReader", () => {
  it("same values and errors as @ton/core on every length and offset", () => {
    const data = randomBytes(48);
    let checked = 0;
    for (const start of [0, 3, 8, 13]) {
      const bits = new BitString(data, start, 48 * 8 - start - 5);
      const r = new BitReader(bits) as unknown as Reads;
      for (let offset = -1; offset <= bits.length + 1; offset += 7) {
        for (let n = 0; n <= 260; n += n < 70 ? 1 : 13) {
          expect(outcome(() => proto._preloadUint.call(r, n, offset))).toEqual(outcome(() => original.uint.call(r, n, offset)));
          expect(outcome(() => proto._preloadInt.call(r, n, offset))).toEqual(outcome(() => original.int.call(r, n, offset)));
          if (n <= 40) expect(outcome(() => proto._preloadBuffer.call(r, n, offset))).toEqual(outcome(() => original.buffer.call(r, n, offset)));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
