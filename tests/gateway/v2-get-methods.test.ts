// API v2 runGetMethod and runGetMethodStd: gateway → lite-proxy → liteserver pool → a localnet,
// the method run in TON's emulator on the proven account state. Genesis wallets and a FunC test
// contract with get-methods over every kind of stack value (tests/support/contracts/stack-echo.fc);
// results compared with what the localnet's own emulator answers and validated against v2.json.
import { readFileSync } from "node:fs";
import { compileFunc } from "@ton-community/func-js";
import { Address, beginCell, Cell, loadShardAccount, toNano } from "@ton/core";
import { getMethodId, type Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, postJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { LocalnetSender, runGetMethod } from "../support/localnet-deploy.js";
import { v2ErrorErrors, v2ResponseErrors } from "../support/v2-schema.js";
import { libraryRefs } from "@tongate/emulator";
import { startTestLocalnet } from "../support/localnet.js";

let net: Localnet;
let t: Embedded;
let echo: Address;
/** A masterchain block before the v5r1 wallet deployed the contract, and its seqno then. */
let before: { block: number; seqno: number };

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "v2-get-methods" });
  await net.chain.seal();
  const compiled = await compileFunc({ targets: ["stack-echo.fc"], sources: (path) => readFileSync(new URL(`../support/contracts/${path}`, import.meta.url), "utf8") });
  if (compiled.status === "error") throw new Error(compiled.message);
  const v5 = net.genesis.wallets[1]!.address;
  before = { block: net.chain.lastMasterchain!.id.seqno, seqno: (await runGetMethod(net, v5, "seqno")).readNumber() };
  echo = await new LocalnetSender(net, net.genesis.wallets[1]!).deploy({ code: Cell.fromBase64(compiled.codeBoc), data: new Cell() }, toNano(1));
  t = await startEmbedded({ globalConfig: net.globalConfig() });
});

afterAll(async () => {
  await t?.close();
  await net?.close();
});

async function run(body: object, path = "runGetMethod") {
  const r = await postJson(`${t.url}/api/v2/${path}`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(v2ResponseErrors(`/api/v2/${path}`, r.body)).toBeNull();
  return r.body.result;
}

const cell = beginCell().storeUint(0xabcd, 16).storeRef(beginCell().storeUint(1, 1).endCell()).endCell();
const b64 = (c: Cell) => c.toBoc({ idx: false, crc32: false }).toString("base64");
const num = (n: bigint | number) => ({ "@type": "tvm.stackEntryNumber", number: { "@type": "tvm.numberDecimal", number: String(n) } });

describe("runGetMethod", () => {
  it("runs seqno and get_public_key of a v4r2 wallet by name and by id", async () => {
    const w = net.genesis.wallets[0]!;
    const r = await run({ address: w.address.toString(), method: "get_public_key", stack: [] });
    expect(r["@type"]).toBe("smc.runResult");
    expect(r.exit_code).toBe(0);
    expect(r.stack).toEqual([["num", "0x" + BigInt("0x" + w.keyPair.publicKey.toString("hex")).toString(16)]]);
    const expected = (await runGetMethod(net, w.address, "seqno")).readBigNumber();
    for (const method of [getMethodId("seqno"), String(getMethodId("seqno"))]) {
      const byId = await run({ address: w.address.toRawString(), method, stack: [] });
      expect(byId.stack).toEqual([["num", "0x" + expected.toString(16)]]);
      expect(byId.gas_used).toBeGreaterThan(0);
    }
    expect(r.block_id.seqno).toBe(net.chain.lastMasterchain!.id.seqno);
    const info = (await getJson(`${t.url}/api/v2/getAddressInformation?address=${w.address.toRawString()}`)).body.result;
    expect(r.last_transaction_id).toEqual(info.last_transaction_id);
  });

  it("takes each kind of legacy stack entry and renders each result kind as toncenter does", async () => {
    const tuple = { "@type": "tvm.tuple", elements: [num(-5), { "@type": "tvm.stackEntryCell", cell: { "@type": "tvm.cell", bytes: b64(cell) } }, { "@type": "tvm.stackEntryTuple", tuple: { "@type": "tvm.tuple", elements: [] } }] };
    const r = await run({ address: echo.toString(), method: "echo", stack: [["num", "-0x2a"], ["cell", { bytes: b64(cell) }], ["tvm.Slice", b64(cell)], ["tuple", tuple]] });
    expect(r.exit_code).toBe(0);
    const cellJson = ["cell", { bytes: b64(cell), object: { data: { b64: "q80=", len: 16 }, refs: [{ data: { b64: "gA==", len: 1 }, refs: [], special: false }], special: false } }];
    // slices come back as "cell"; typed entries inside tuples.
    expect(r.stack).toEqual([["num", "-0x2a"], cellJson, cellJson, ["tuple", tuple]]);

    const big = (1n << 255n) + 7n;
    const r2 = await run({ address: echo.toString(), method: "echo", stack: [["int", big.toString()], ["tvm.Cell", b64(cell)], ["slice", { bytes: b64(cell) }], ["list", { elements: [num(1)] }]] });
    expect(r2.stack[0]).toEqual(["num", "0x" + big.toString(16)]);
    expect(r2.stack[3]).toEqual(["list", { "@type": "tvm.list", elements: [num(1)] }]);
  });

  it("takes lists and renders lists, empty ones included", async () => {
    const sum = await run({ address: echo.toString(), method: "list_sum", stack: [["list", { "@type": "tvm.list", elements: [num(3), num(4), num(5)] }]] });
    expect(sum.stack).toEqual([["num", "0xc"]]);
    const made = await run({ address: echo.toString(), method: "make_list", stack: [["num", 3]] });
    expect(made.stack).toEqual([["list", { "@type": "tvm.list", elements: [num(1), num(2), num(3)] }]]);
    const empty = await run({ address: echo.toString(), method: "make_list", stack: [["num", "0"]] });
    expect(empty.stack).toEqual([["list", { "@type": "tvm.list", elements: [] }]]);
    // A v4 wallet without plugins answers get_plugin_list with an empty list.
    const plugins = await run({ address: net.genesis.wallets[0]!.address.toString(), method: "get_plugin_list", stack: [] });
    expect(plugins.stack).toEqual([["list", { "@type": "tvm.list", elements: [] }]]);
  });

  it("reports builders and continuations as unsupported, and a throw or a missing method as the exit code", async () => {
    const opaque = await run({ address: echo.toString(), method: "opaque", stack: [] });
    expect(opaque.stack).toEqual([["unsupported", ""], ["unsupported", ""], ["num", "0x7"]]);
    const thrown = await run({ address: echo.toString(), method: "fail", stack: [["num", 77]] });
    expect(thrown.exit_code).toBe(77);
    const missing = await run({ address: echo.toString(), method: "no_such_method", stack: [] });
    expect(missing.exit_code).toBe(11);
    const nobody = await run({ address: new Address(0, Buffer.alloc(32, 9)).toRawString(), method: "seqno", stack: [] });
    expect(nobody).toMatchObject({ exit_code: -13, gas_used: 0, stack: [] });
  });

  it("runs at a past block with seqno", async () => {
    const v5 = net.genesis.wallets[1]!.address.toString();
    const now = await run({ address: v5, method: "seqno", stack: [] });
    expect(now.stack).toEqual([["num", "0x" + (before.seqno + 1).toString(16)]]);
    const past = await run({ address: v5, method: "seqno", stack: [], seqno: before.block });
    expect(past.stack).toEqual([["num", "0x" + before.seqno.toString(16)]]);
    expect(past.block_id.seqno).toBe(before.block);
    // The contract did not exist yet.
    expect((await run({ address: echo.toString(), method: "list_sum", stack: [], seqno: before.block })).exit_code).toBe(-13);
  });

  it("answers JSON-RPC with the same result", async () => {
    const r = await postJson(`${t.url}/api/v2/jsonRPC`, { jsonrpc: "2.0", id: 1, method: "runGetMethod", params: { address: echo.toString(), method: "make_list", stack: [["num", 1]] } });
    expect(r.body.result.stack).toEqual([["list", { "@type": "tvm.list", elements: [num(1)] }]]);
  });

  it("rejects a malformed stack entry with a 422 naming it", async () => {
    const cases: [unknown[], RegExp][] = [
      [[["num", "zz"]], /^stack\[0\]\[1\]: "zz" is not an integer/],
      [[["num", "1"], ["cell", { bytes: "AAAA" }]], /^stack\[1\]\[1\]\.bytes: .*not a BoC/],
      [[["bogus", 1]], /^stack\[0\]: unsupported stack entry type "bogus"/],
      [[["tuple", {}]], /^stack\[0\]\[1\]: must be an object with an "elements" array/],
      [[["tuple", { elements: [{ "@type": "tvm.stackEntryNumber", number: { number: "x" } }] }]], /^stack\[0\]\[1\]\.elements\[0\]\.number\.number:/],
      [[["num"]], /^stack\[0\]: must be a \[type, value\] pair/],
      [[["num", "0x" + "f".repeat(70)]], /does not fit a TVM integer/],
    ];
    for (const [stack, error] of cases) {
      const r = await postJson(`${t.url}/api/v2/runGetMethod`, { address: echo.toString(), method: "echo", stack });
      expect(r.status, JSON.stringify(stack)).toBe(422);
      expect(v2ErrorErrors(r.body)).toBeNull();
      expect(r.body.error).toMatch(error);
    }
    const badId = await postJson(`${t.url}/api/v2/runGetMethod`, { address: echo.toString(), method: "99999999999", stack: [] });
    expect(badId.status).toBe(422);
    expect(badId.body.error).toMatch(/^method:/);
  });
});

describe("runGetMethodStd", () => {
  it("takes and returns tonlib's typed stack entries", async () => {
    // (A pair whose second item is a list would itself be a list, as tonlib reads tuples.)
    const tuple = { "@type": "tvm.stackEntryTuple", tuple: { "@type": "tvm.tuple", elements: [num(1), { "@type": "tvm.stackEntryList", list: { "@type": "tvm.list", elements: [num(2)] } }, num(3)] } };
    const stack = [num(-42), { "@type": "tvm.stackEntryCell", cell: { "@type": "tvm.cell", bytes: b64(cell) } }, { "@type": "tvm.stackEntrySlice", slice: { "@type": "tvm.slice", bytes: b64(cell) } }, tuple];
    const r = await run({ address: echo.toString(), method: "echo", stack }, "runGetMethodStd");
    expect(r).toEqual({ "@type": "smc.runResult", gas_used: expect.any(Number), exit_code: 0, stack });
    const made = await run({ address: echo.toString(), method: "make_list", stack: [num(2)] }, "runGetMethodStd");
    expect(made.stack).toEqual([{ "@type": "tvm.stackEntryList", list: { "@type": "tvm.list", elements: [num(1), num(2)] } }]);
    const opaque = await run({ address: echo.toString(), method: "opaque", stack: [] }, "runGetMethodStd");
    expect(opaque.stack.slice(0, 2)).toEqual([{ "@type": "tvm.stackEntryUnsupported" }, { "@type": "tvm.stackEntryUnsupported" }]);
    const past = await run({ address: net.genesis.wallets[1]!.address.toString(), method: "seqno", stack: [], seqno: before.block }, "runGetMethodStd");
    expect(past.stack).toEqual([num(before.seqno)]);
  });

  it("rejects a malformed typed entry with a 422 naming it", async () => {
    const r = await postJson(`${t.url}/api/v2/runGetMethodStd`, { address: echo.toString(), method: "echo", stack: [num(1), { "@type": "tvm.stackEntryCell", cell: { "@type": "tvm.cell", bytes: "AAAA" } }] });
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(v2ErrorErrors(r.body)).toBeNull();
    expect(r.body.error).toMatch(/^stack\[1\]\.cell\.bytes:/);
  });
});

describe("libraries", () => {
  it("finds the public library a mainnet jetton wallet's code is (fixture)", () => {
    const boc = readFileSync(new URL("../../../shared/fixtures/accounts/jetton_wallet_library_code_0_2a5871238e9d.shardaccount.boc", import.meta.url));
    const state = loadShardAccount(Cell.fromBoc(boc)[0]!.beginParse()).account!.storage.state;
    if (state.type !== "active") throw new Error("not active");
    expect(libraryRefs([state.state.code, state.state.data]).map((h) => h.toString("hex"))).toEqual(["8f452d7a4dfd74066b682365177259ed05734435be76b5fd4bd5d8af2b7c3d68"]);
  });
});
