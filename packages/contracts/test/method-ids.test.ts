// The method ids read from a contract's code: on every contract fixture (FunC and Fift builds,
// library cells resolved), on Tact's and Tolk's layouts (test/compiled/), and on malformed or
// hostile code cells, which give an empty answer quickly and never a throw.
import { readFileSync } from "node:fs";
import { beginCell, Cell, Dictionary, getMethodId, type DictionaryValue, type Slice } from "@ton/core";
import { describe, expect, it } from "vitest";
import { getMethodIds, MAX_METHOD_IDS } from "@tongate/contracts";

const DIR = new URL("../../../../shared/fixtures/contracts/", import.meta.url);
interface Entry {
  name: string;
  file: string;
  code_hash_hex: string;
  library_cell?: { file: string };
  indexer_recognition: { get_methods: string[] };
}
const { contracts } = JSON.parse(readFileSync(new URL("manifest.json", DIR), "utf8")) as { contracts: Entry[] };
const load = (file: string, dir = DIR) => Cell.fromBoc(readFileSync(new URL(file, dir)))[0]!;
const codes = new Map(contracts.map((c) => [c.code_hash_hex, load(c.file)]));
const resolve = (hash: Buffer) => codes.get(hash.toString("hex"));

/** A method dictionary's values as they are (the method bodies), so that one can be written back. */
const rawValue: DictionaryValue<Slice> = { serialize: (src, b) => void b.storeSlice(src), parse: (s) => s };
const methodDictionary = (code: Cell) => Dictionary.loadDirect(Dictionary.Keys.Uint(19), rawValue, code.refs[0]!);
/** FunC's prologue: SETCP0; DICTPUSHCONST 19; DICTIGETJMPZ; 11 THROWARG, the dictionary in reference 0. */
const FUNC_PROLOGUE = "FF00F4A413F4BCF2C80B";

describe("getMethodIds on the contract fixtures", () => {
  it.each(contracts.map((c) => [c.name, c] as const))("%s: every get-method it is known to have", (_, c) => {
    const ids = getMethodIds(load(c.file));
    expect(ids).toEqual(expect.arrayContaining(c.indexer_recognition.get_methods.map((m) => getMethodId(m))));
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
  });

  it("reads exactly the keys of the method dictionary where the code is FunC's layout (@ton/core reads them too)", () => {
    const func = contracts.map((c) => load(c.file)).filter((code) => code.bits.toString() === FUNC_PROLOGUE);
    expect(func.length).toBeGreaterThan(45);
    for (const code of func) expect(getMethodIds(code)).toEqual(methodDictionary(code).keys().sort((a, b) => a - b));
  });

  it("reads hand-written Fift wallets, which compare the selector: v3r2 has seqno and get_public_key, v1r1 nothing", () => {
    expect(getMethodIds(load("wallet_v3r2.code.boc"))).toEqual([getMethodId("get_public_key"), getMethodId("seqno")].sort());
    expect(getMethodIds(load("wallet_v1r1.code.boc"))).toEqual([]);
  });

  it.each(contracts.filter((c) => c.library_cell).map((c) => [c.name, c] as const))("%s as a library cell: read through the resolver, empty without it", (_, c) => {
    const library = load(c.library_cell!.file);
    expect(getMethodIds(library, resolve)).toEqual(getMethodIds(load(c.file)));
    expect(getMethodIds(library)).toEqual([]);
    expect(getMethodIds(library, () => undefined)).toEqual([]);
    // A resolver that answers another cell than the one the library names is not believed.
    expect(getMethodIds(library, () => load("wallet_v4r2.code.boc"))).toEqual([]);
  });
});

describe("getMethodIds on Tact and Tolk code", () => {
  const COMPILED = new URL("./compiled/", import.meta.url);
  const ids = (...names: string[]) => names.map((n) => getMethodId(n));
  it.each([
    ["tolk_counter.code.boc", ["currentCounter", "get_wallet_data", "seqno"]],
    ["tact_counter_dictionary.code.boc", ["counter", "get_wallet_data", "seqno"]],
    ["tact_counter_receivers_outside.code.boc", ["counter", "get_wallet_data", "seqno"]],
    ["tact_big_receivers_outside.code.boc", ["counter", "get_wallet_data", "get_jetton_data", "owner", "total"]],
  ])("%s: %j", (file, names) => {
    const got = getMethodIds(load(file, COMPILED));
    expect(got).toEqual(expect.arrayContaining(ids(...names)));
    // Nothing but get-methods and the receivers' 0 and -1 (as 2^19 - 1): Tact's receivers compare opcodes, which are not read.
    expect(got.filter((id) => id !== 0 && id !== 2 ** 19 - 1).sort()).toEqual(ids(...names).sort());
  });
});

describe("getMethodIds on malformed and hostile code", () => {
  const prologue = (dict: Cell | null, n = 19) => {
    const b = beginCell().storeUint(0xff00, 16).storeUint(0b11110100101001, 14).storeUint(n, 10).storeUint(0xf4bc, 16);
    return (dict ? b.storeRef(dict) : b).endCell();
  };
  /** A HashmapE node with an empty label (hml_short, length 0) forking into `child` twice: each level doubles the keys. */
  const fork = (child: Cell) => beginCell().storeUint(0, 2).storeRef(child).storeRef(child).endCell();
  const leaf = beginCell().storeUint(0, 2).storeUint(0xdead, 16).endCell();

  it("an empty cell, random bits, a prologue without its dictionary: empty", () => {
    expect(getMethodIds(Cell.EMPTY)).toEqual([]);
    expect(getMethodIds(beginCell().storeBuffer(Buffer.from("a1b2c3d4e5f60718293a4b5c6d7e8f90", "hex")).endCell())).toEqual([]);
    expect(getMethodIds(prologue(null))).toEqual([]);
    expect(getMethodIds(beginCell().storeUint(0xff00, 16).storeUint(0xf4a4, 16).endCell())).toEqual([]);
  });

  it("a dictionary whose label is longer than its key, or whose fork lacks a reference: empty", () => {
    const longLabel = beginCell().storeUint(0b10, 2).storeUint(20, 5).storeUint(0, 20).endCell(); // hml_long, n = 20 > 19
    expect(getMethodIds(prologue(longLabel))).toEqual([]);
    const oneRef = beginCell().storeUint(0, 2).storeRef(leaf).endCell();
    expect(getMethodIds(prologue(oneRef))).toEqual([]);
    const truncated = beginCell().storeUint(0b10, 2).storeUint(19, 5).storeUint(0, 3).endCell(); // 19 bits of key announced, 3 there
    expect(getMethodIds(prologue(truncated))).toEqual([]);
  });

  it("a dictionary of 2^19 keys made of 20 shared cells: empty, after at most MAX_METHOD_IDS keys", () => {
    let node = leaf;
    for (let i = 0; i < 19; i++) node = fork(node);
    const t = performance.now();
    expect(getMethodIds(prologue(node))).toEqual([]);
    expect(performance.now() - t).toBeLessThan(500);
    // One level less than the bound's doubling is still read: 2^12 = 4096 keys.
    let small = leaf;
    for (let i = 0; i < 12; i++) small = fork(small);
    const smallCode = beginCell().storeUint(0xff00, 16).storeUint(0b11110100101001, 14).storeUint(12, 10).storeUint(0xf4bc, 16).storeRef(small).endCell();
    expect(getMethodIds(smallCode)).toHaveLength(MAX_METHOD_IDS);
  });

  it("1,000 cells of implicit jumps, continuations pushing continuations: bounded, empty", () => {
    let chain = Cell.EMPTY;
    for (let i = 0; i < 1000; i++) chain = beginCell().storeRef(chain).endCell();
    expect(getMethodIds(chain)).toEqual([]);
    // PUSHREFCONT of PUSHREFCONT … 500 deep
    let nested = Cell.EMPTY;
    for (let i = 0; i < 500; i++) nested = beginCell().storeUint(0x8a, 8).storeRef(nested).endCell();
    expect(getMethodIds(nested)).toEqual([]);
  });

  it("a pruned branch or a library cell where code is expected: empty", () => {
    const pruned = new Cell({ exotic: true, bits: beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(Buffer.alloc(32)).storeUint(0, 16).endCell().bits, refs: [] });
    expect(getMethodIds(pruned, resolve)).toEqual([]);
    const libraryAsDictionary = prologue(load("jetton2_wallet.library.boc"));
    // A dictionary that is a library cell is resolved, and what it resolves to (here a code cell) must read as a dictionary.
    expect(getMethodIds(libraryAsDictionary, resolve)).toEqual([]);
  });

  it("a resolver that throws: empty", () => {
    expect(
      getMethodIds(load("jetton2_wallet.library.boc"), () => {
        throw new Error("down");
      }),
    ).toEqual([]);
  });
});
