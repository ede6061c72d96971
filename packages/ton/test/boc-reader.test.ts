import { readFileSync, readdirSync } from "node:fs";
import { beginCell, Cell, Dictionary, generateMerkleProof } from "@ton/core";
import { describe, expect, it } from "vitest";
import { BocError, crc32c, EXTERNAL_MESSAGE_LIMITS, readBoc, readBocBase64, serializeBoc, type BocLimits } from "../src/index.js";

// /work/shared/fixtures (see its README.md)
const FIXTURES = new URL("../../../../shared/fixtures/", import.meta.url);
const fixtures = (dir: string): string[] =>
  readdirSync(new URL(dir, FIXTURES))
    .filter((f) => f.endsWith(".boc"))
    .sort()
    .map((f) => `${dir}${f}`);

const EXTERNAL = EXTERNAL_MESSAGE_LIMITS;
const ANY: BocLimits = { roots: { max: 1 << 20 }, cells: { max: 1 << 24 } };

const hashes = (cells: Cell[]) => cells.map((c) => c.hash().toString("hex"));

/** A chain of `n` cells, each referring to the next: n - 1 deep. */
function chain(n: number): Cell {
  let c = beginCell().storeUint(0, 8).endCell();
  for (let i = 1; i < n; i++) c = beginCell().storeUint(i & 0xff, 8).storeRef(c).endCell();
  return c;
}

/** `n` cells, each referring to the next one four times: 4^(n-1) paths from the root. */
function sharedSubtrees(n: number): Cell {
  let c = Cell.EMPTY;
  for (let i = 1; i < n; i++) c = beginCell().storeRef(c).storeRef(c).storeRef(c).storeRef(c).endCell();
  return c;
}

/** A BoC of `n` empty cells in a chain, written directly (a million cells take 3 MB and no hashing). */
function chainBoc(n: number): Buffer {
  const size = Math.max(1, Math.ceil(Math.log2(n + 1) / 8));
  const total = (n - 1) * (2 + size) + 2;
  const off = Math.max(1, Math.ceil(Math.log2(total + 1) / 8));
  const out = Buffer.alloc(6 + 4 * size + off + total);
  out.writeUInt32BE(0xb5ee9c72, 0);
  out[4] = size;
  out[5] = off;
  let p = 6;
  p = out.writeUIntBE(n, p, size);
  p = out.writeUIntBE(1, p, size);
  p = out.writeUIntBE(0, p, size);
  p = out.writeUIntBE(total, p, off);
  p = out.writeUIntBE(0, p, size);
  for (let i = 0; i < n; i++) {
    out[p++] = i < n - 1 ? 1 : 0;
    out[p++] = 0;
    if (i < n - 1) p = out.writeUIntBE(i + 1, p, size);
  }
  return out;
}

function refused(f: () => unknown): BocError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(BocError);
    return e as BocError;
  }
  throw new Error("accepted");
}

describe("readBoc reads what @ton/core reads", () => {
  it.each([...fixtures("blocks/"), ...fixtures("proofs/"), ...fixtures("accounts/"), ...fixtures("contracts/")])("%s", (rel) => {
    const bytes = readFileSync(new URL(rel, FIXTURES));
    expect(hashes(readBoc(bytes, ANY))).toEqual(hashes(Cell.fromBoc(bytes)));
  });

  it("every header flag, several roots, exotic cells and the older magics", () => {
    const d = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Uint(8));
    for (let i = 0; i < 50; i++) d.set(i * 3, i);
    const proof = generateMerkleProof(d, [3, 9], Dictionary.Keys.Uint(32));
    const roots = [proof, beginCell().storeUint(0x55, 7).storeRef(chain(3)).endCell(), chain(40)];
    for (const idx of [false, true]) {
      for (const crc32 of [false, true]) {
        expect(hashes(readBoc(serializeBoc(roots, { idx, crc32 }), ANY))).toEqual(hashes(roots));
        expect(hashes(readBoc(roots[1]!.toBoc({ idx, crc32 }), {}))).toEqual(hashes([roots[1]!]));
      }
    }
    // serialized_boc_idx#68ff65f3 and serialized_boc_idx_crc32c#acc3a728: size, off_bytes, no root list
    const generic = roots[1]!.toBoc({ idx: true, crc32: false });
    const size = generic[4]! & 7;
    const body = Buffer.concat([generic.subarray(5, 6 + 4 * size + generic[5]!), generic.subarray(6 + 5 * size + generic[5]!)]);
    const old = Buffer.concat([Buffer.from("68ff65f3", "hex"), Buffer.from([size]), body]);
    expect(hashes(readBoc(old, {}))).toEqual(hashes(Cell.fromBoc(old)));
    const withCrc = Buffer.concat([Buffer.from("acc3a728", "hex"), Buffer.from([size]), body]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32LE(crc32c(withCrc));
    expect(hashes(readBoc(Buffer.concat([withCrc, crc]), {}))).toEqual(hashes(Cell.fromBoc(Buffer.concat([withCrc, crc]))));
  });

  it("base64 and base64url", () => {
    const c = chain(5);
    expect(hashes(readBocBase64(c.toBoc().toString("base64"), EXTERNAL))).toEqual(hashes([c]));
    expect(hashes(readBocBase64(c.toBoc().toString("base64url"), EXTERNAL))).toEqual(hashes([c]));
  });
});

describe("readBoc refuses past its bounds, saying which", () => {
  it("a million-cell BoC from its header, in microseconds", () => {
    const bytes = chainBoc(1_000_000);
    const text = bytes.toString("base64");
    const e1 = refused(() => readBoc(bytes, EXTERNAL));
    const e2 = refused(() => readBocBase64(text, EXTERNAL));
    const e3 = refused(() => readBocBase64(text, { bytes: EXTERNAL.bytes }));
    // the best of a few runs, so that a busy machine's pauses do not count
    let ms = Infinity;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      refused(() => readBoc(bytes, EXTERNAL));
      refused(() => readBocBase64(text, EXTERNAL));
      refused(() => readBocBase64(text, { bytes: EXTERNAL.bytes }));
      ms = Math.min(ms, performance.now() - t0);
    }
    expect(e1.message).toBe("1,000,000 cells; at most 8,192 are accepted (config param 43 max_msg_cells)");
    expect(e2.message).toBe(e1.message);
    expect(e3.message).toBe("5,000,018 bytes; at most 65,535 are accepted (config param 43 max_ext_msg_size)");
    expect([e1.bound, e2.bound, e3.bound]).toEqual(["cells", "cells", "bytes"]);
    expect(ms).toBeLessThan(1);
  });

  it("150,000 cells", () => {
    const e = refused(() => readBoc(chainBoc(150_000), { cells: EXTERNAL.cells }));
    expect(e.message).toBe("150,000 cells; at most 8,192 are accepted (config param 43 max_msg_cells)");
  });

  it("the depth, without recursion, before building a cell", () => {
    const deep = chainBoc(100_000);
    const e = refused(() => readBoc(deep, { cells: { max: 200_000 } }));
    expect(e.message).toBe("99,999 cells deep; at most 1,024 are accepted (the depth of a TON cell)");
    expect(e.bound).toBe("depth");
    expect(refused(() => readBoc(chain(600).toBoc(), EXTERNAL)).message).toBe("599 cells deep; at most 512 are accepted (config param 43 max_ext_msg_depth)");
    expect(readBoc(chain(513).toBoc(), EXTERNAL)[0]!.depth()).toBe(512);
  });

  it("shared subtrees are read once each: 64 cells, 4^63 paths", () => {
    const c = sharedSubtrees(64);
    const [back] = readBoc(c.toBoc(), EXTERNAL);
    expect(back!.hash().equals(c.hash())).toBe(true);
  });

  it("roots", () => {
    const two = serializeBoc([chain(2), chain(3)]);
    expect(refused(() => readBoc(two, {})).message).toBe("a BoC with one root cell is expected, it has 2");
    expect(refused(() => readBocBase64(two.toString("base64"), { roots: { max: 1 } })).bound).toBe("roots");
    expect(readBoc(two, { roots: { max: 2 } })).toHaveLength(2);
  });

  it("bytes, from the length of the base64 text before decoding it", () => {
    const e = refused(() => readBocBase64("A".repeat(100_000), EXTERNAL));
    expect(e.message).toBe("75,000 bytes; at most 65,535 are accepted (config param 43 max_ext_msg_size)");
  });
});

describe("readBoc refuses malformed BoCs", () => {
  const good = beginCell().storeUint(1, 8).storeRef(beginCell().storeUint(2, 8).endCell()).endCell().toBoc({ idx: false, crc32: false });
  // header: magic(4) flags(1)=size 1 off(1) cells roots absent tot(1) root(1) | cell 0: d1 d2 data ref | cell 1: d1 d2 data
  const patched = (at: number, v: number) => {
    const b = Buffer.from(good);
    b[at] = v;
    return b;
  };
  const cases: Array<[string, Buffer, RegExp]> = [
    ["a wrong magic", patched(0, 0), /does not start with a BoC magic/],
    ["nothing", Buffer.alloc(0), /end inside the header/],
    ["a truncated body", good.subarray(0, good.length - 1), /announces 18 bytes, it has 17/],
    ["a cell referring to itself", patched(14, 0), /cell 0 refers to cell 0/],
    ["a reference past the last cell", patched(14, 7), /cell 0 refers to cell 7/],
    ["a root past the last cell", patched(10, 5), /root 0 is cell 5/],
    ["absent cells", patched(8, 1), /absent/],
    ["5 references", patched(11, 5), /5 references/],
    ["a padded byte without its completion bit", (() => { const b = patched(12, 1); b[13] = 0; return b; })(), /completion bit/],
    ["an exotic cell that is none", patched(11, 9), /cell 0: /],
    ["flags", patched(4, 0x19), /flags/],
  ];
  it.each(cases)("%s", (_name, bytes, message) => {
    const e = refused(() => readBoc(bytes, {}));
    expect(e.message).toMatch(/^not a valid bag of cells: /);
    expect(e.message).toMatch(message);
    expect(e.bound).toBeUndefined();
  });

  it("a wrong CRC32-C", () => {
    const b = Buffer.from(chain(3).toBoc({ idx: false, crc32: true }));
    b[b.length - 1]! ^= 1;
    expect(refused(() => readBoc(b, {})).message).toMatch(/CRC32-C/);
  });
});
