// Bounds on what clients send and contracts return, through the gateway on a localnet: stacks too
// long, too deep or with too many cells, BoCs past TON's limits (refused from their header), and
// get-method results that expand without end (shared subtrees, shared tuples, deep cells). Each is
// a 4xx naming the bound, and after each the service answers a get-method as before.
import { beginCell, Cell, toNano } from "@ton/core";
import { libraryFromBoc, type Localnet } from "@tongate/localnet";
import { libraryRefs } from "@tongate/emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractCode } from "../support/contracts/index.js";
import { getJson, postJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { LocalnetSender } from "../support/localnet-deploy.js";
import { startTestLocalnet } from "../support/localnet.js";
import { v2ErrorErrors } from "../support/v2-schema.js";

let net: Localnet;
let t: Embedded;
let wallet: string;
let big: string;

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "v2-bounds" });
  await net.chain.seal();
  wallet = net.genesis.wallets[0]!.address.toString();
  big = (await new LocalnetSender(net, net.genesis.wallets[1]!).deploy({ code: await contractCode("big-results"), data: new Cell() }, toNano(1))).toString();
  // A body limit above the default (1 MiB), so that a million-cell BoC reaches the BoC reader.
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "off" }, { maxBodyBytes: 8 << 20 });
});

afterAll(async () => {
  await t?.close();
  await net?.close();
});

const b64 = (c: Cell) => c.toBoc({ idx: false, crc32: false }).toString("base64");
const num = (n: number) => ({ "@type": "tvm.stackEntryNumber", number: { number: String(n) } });
const cellEntry = (bytes: string) => ({ "@type": "tvm.stackEntryCell", cell: { bytes } });

/** A BoC of `n` cells in a chain (n - 1 deep), written directly: a million cells take 5 MB and no hashing. */
function chainBoc(n: number): string {
  const size = Math.max(1, Math.ceil(Math.log2(n + 1) / 8));
  const total = (n - 1) * (2 + size) + 2;
  const off = Math.max(1, Math.ceil(Math.log2(total + 1) / 8));
  const out = Buffer.alloc(6 + 4 * size + off + total);
  out.writeUInt32BE(0xb5ee9c72, 0);
  out[4] = size;
  out[5] = off;
  let p = out.writeUIntBE(n, 6, size);
  p = out.writeUIntBE(1, p, size);
  p = out.writeUIntBE(0, p, size);
  p = out.writeUIntBE(total, p, off);
  p = out.writeUIntBE(0, p, size);
  for (let i = 0; i < n; i++) {
    out[p++] = i < n - 1 ? 1 : 0;
    out[p++] = 0;
    if (i < n - 1) p = out.writeUIntBE(i + 1, p, size);
  }
  return out.toString("base64");
}

function chain(n: number): Cell {
  let c = beginCell().storeUint(0, 8).endCell();
  for (let i = 1; i < n; i++) c = beginCell().storeUint(i & 0xff, 8).storeRef(c).endCell();
  return c;
}

/** What big-results.fc's chain(n) returns. */
function contractChain(n: number): Cell {
  let c = beginCell().storeUint(0, 8).endCell();
  for (let i = 1; i < n; i++) c = beginCell().storeUint(1, 8).storeRef(c).endCell();
  return c;
}

/** `n` cells, each referring to the next four times: 4^(n-1) paths in 576 bytes for n = 64. */
function sharedSubtrees(n: number): Cell {
  let c = Cell.EMPTY;
  for (let i = 1; i < n; i++) c = beginCell().storeRef(c).storeRef(c).storeRef(c).storeRef(c).endCell();
  return c;
}

/** A tree of distinct cells, four refs each, `levels` deep: (4^levels - 1) / 3 cells of `bytes` bytes. */
function tree(levels: number, bytes = 4, id = { n: 0 }): Cell {
  const b = beginCell().storeUint(id.n++, 32).storeBuffer(Buffer.alloc(bytes - 4, 0xa5));
  if (levels > 1) for (let i = 0; i < 4; i++) b.storeRef(tree(levels - 1, bytes, id));
  return b.endCell();
}

/** The service still runs get-methods. */
async function stillAnswers(): Promise<void> {
  const r = await postJson(`${t.url}/api/v2/runGetMethod`, { address: wallet, method: "seqno", stack: [] });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.result.exit_code).toBe(0);
}

/** POSTs to API v2, expects `status` with an error matching `error`, then a normal get-method. */
async function refused(method: string, body: object, error: RegExp, status = 422): Promise<string> {
  const r = await postJson(`${t.url}/api/v2/${method}`, body);
  expect(r.status, JSON.stringify(r.body).slice(0, 600)).toBe(status);
  expect(v2ErrorErrors(r.body)).toBeNull();
  expect(r.body.error).toMatch(error);
  await stillAnswers();
  return r.body.error;
}

describe("stacks a client sends", () => {
  it("400 entries: 422 naming the bound, and get-methods go on", async () => {
    await refused("runGetMethod", { address: wallet, method: "seqno", stack: Array.from({ length: 400 }, () => ["num", "1"]) }, /^stack: 400 entries; a stack may have at most 256 values, the elements of its tuples and lists counted$/);
    await refused("runGetMethodStd", { address: wallet, method: "seqno", stack: Array.from({ length: 400 }, () => num(1)) }, /^stack: 400 entries; a stack may have at most 256/);
    const r = await postJson(`${t.url}/api/v2/estimateFee`, { address: wallet, body: b64(beginCell().storeUint(0, 32).endCell()), ignore_chksig: true });
    expect(r.status).not.toBeGreaterThanOrEqual(500);
  });

  it("10,000 entries, values counted within tuples and lists, and tuples of 256", async () => {
    const t0 = performance.now();
    await refused("runGetMethod", { address: wallet, method: "seqno", stack: Array.from({ length: 10_000 }, () => ["num", "1"]) }, /^stack: 10,000 entries/);
    expect(performance.now() - t0).toBeLessThan(2000);
    const tuple255 = { elements: Array.from({ length: 255 }, () => num(1)) };
    await refused("runGetMethod", { address: wallet, method: "seqno", stack: [["tuple", tuple255], ["list", { elements: [num(1)] }]] }, /^stack\[1\]: a stack may have at most 256 values/);
    await refused("runGetMethod", { address: wallet, method: "seqno", stack: [["tuple", { elements: Array.from({ length: 256 }, () => num(1)) }]] }, /^stack\[0\]\[1\]\.elements: a TVM tuple has at most 255 elements, this one 256$/);
    await refused("runGetMethod", { address: wallet, method: "seqno", stack: [["num", "1".repeat(500_000)]] }, /^stack\[0\]\[1\]: a number of 500,000 characters does not fit a TVM integer/);
  });

  it("a 100,000-deep chain of cells: 422 from the BoC's header, not a stack overflow", async () => {
    const deep = chainBoc(100_000);
    await refused("runGetMethod", { address: wallet, method: "seqno", stack: [["cell", { bytes: deep }]] }, /^stack\[0\]\[1\]\.bytes: 100,000 cells; at most 8,192 are accepted \(the cell and slice entries of a stack may have 8,192 cells in all/);
    await refused("runGetMethodStd", { address: wallet, method: "seqno", stack: [cellEntry(deep)] }, /^stack\[0\]\.cell\.bytes: 100,000 cells; at most 8,192/);
  });

  it("stacks deeper than the emulator takes are refused before it runs", async () => {
    // TON's emulator traps on a VmStack deeper than ~325 cells; the bound is 256.
    await refused("runGetMethodStd", { address: wallet, method: "seqno", stack: [cellEntry(b64(chain(300)))] }, /^stack\[0\]\.cell\.bytes: 299 cells deep; at most 256 are accepted/);
    const deepUnderMany = [cellEntry(b64(chain(101))), ...Array.from({ length: 200 }, () => num(1))];
    await refused("runGetMethodStd", { address: wallet, method: "seqno", stack: deepUnderMany }, /^stack\[0\]: the stack is 301 cells deep at this entry as the emulator takes it \(a VmStack: one cell for each of the 200 entries above it/);
    // within the bounds: it runs, and seqno leaves the argument under its answer
    const ok = await postJson(`${t.url}/api/v2/runGetMethodStd`, { address: wallet, method: "seqno", stack: [cellEntry(b64(chain(200)))] });
    expect(ok.status, JSON.stringify(ok.body).slice(0, 300)).toBe(200);
    expect(ok.body.result.stack[0].cell.bytes).toBe(b64(chain(200)));
  });

  it("8,192 cells in all the cell and slice entries", async () => {
    const big = b64(tree(7)); // 5,461 cells
    await refused("runGetMethod", { address: wallet, method: "seqno", stack: [["cell", { bytes: big }], ["slice", { bytes: big }]] }, /^stack\[1\]\[1\]\.bytes: 5,461 cells; at most 2,731 are accepted \(the cell and slice entries of a stack may have 8,192 cells in all, as many as a message \(config param 43 max_msg_cells\)\)$/);
  });
});

describe("BoCs a client sends", () => {
  it("sendBoc: ten 150,000-cell messages at once are refused from their header while /healthz answers at once", async () => {
    const boc = chainBoc(150_000);
    let slowest = 0;
    let sending = true;
    const health = (async () => {
      while (sending) {
        const t0 = performance.now();
        expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
        slowest = Math.max(slowest, performance.now() - t0);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const rss = process.memoryUsage().rss;
    const body = JSON.stringify({ boc });
    const answers = await Promise.all(Array.from({ length: 10 }, () => postJson(`${t.url}/api/v2/sendBoc`, body)));
    sending = false;
    await health;
    for (const r of answers) {
      expect(r.status).toBe(422);
      expect(r.body.error).toBe("boc: 150,000 cells; at most 8,192 are accepted (config param 43 max_msg_cells)");
    }
    // the ten cost the gateway a JSON parse each (~20 ms), nothing more; the margin is for a busy machine
    expect(slowest).toBeLessThan(2000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(300 << 20);
    await stillAnswers();
  });

  it("a million-cell BoC, refused from its header", async () => {
    const boc = chainBoc(1_000_000); // 6.7 MB of base64; building its cells would take @ton/core seconds
    const t0 = performance.now();
    const send = await postJson(`${t.url}/api/v2/sendBocReturnHash`, { boc });
    const run = await postJson(`${t.url}/api/v2/runGetMethod`, { address: wallet, method: "seqno", stack: [["cell", { bytes: boc }]] });
    expect(performance.now() - t0).toBeLessThan(5000); // the JSON of two 6.7 MB bodies, on a machine that may be busy
    expect([send.status, run.status]).toEqual([422, 422]);
    expect(send.body.error).toBe("boc: 1,000,000 cells; at most 8,192 are accepted (config param 43 max_msg_cells)");
    expect(run.body.error).toMatch(/^stack\[0\]\[1\]\.bytes: 1,000,000 cells; at most 8,192/);
    await stillAnswers();
  });

  it("sendBoc and estimateFee within config param 43's external message limits", async () => {
    await refused("sendBoc", { boc: b64(tree(6, 100)) }, /^boc: 141,975 bytes; at most 65,535 are accepted \(config param 43 max_ext_msg_size\)$/);
    await refused("sendBoc", { boc: b64(chain(600)) }, /^boc: 599 cells deep; at most 512 are accepted \(config param 43 max_ext_msg_depth\)$/);
    const twoRoots = Buffer.from(chainBoc(2), "base64");
    twoRoots[7] = 2; // roots = 2 (the root list then runs into the cells: refused before)
    await refused("sendBocReturnHash", { boc: twoRoots.toString("base64") }, /^boc: a BoC with one root cell is expected, it has 2$/);
    await refused("estimateFee", { address: wallet, body: chainBoc(100_000) }, /^body: 100,000 cells; at most 8,192 are accepted/);
    await refused("estimateFee", { address: wallet, body: b64(Cell.EMPTY), init_code: b64(chain(600)) }, /^init_code: 599 cells deep; at most 512 are accepted/);
    await refused("estimateFee", { address: wallet, body: b64(Cell.EMPTY), init_data: "AAAA" }, /^init_data: not a valid bag of cells: its 3 bytes end inside the header$/);
  });

  it("API v3: runGetMethod, estimateFee and message", async () => {
    const v3 = async (path: string, body: object, error: RegExp) => {
      const r = await postJson(`${t.url}/api/v3/${path}`, body);
      expect(r.status, JSON.stringify(r.body).slice(0, 600)).toBe(422);
      expect(Object.keys(r.body)).toEqual(["error"]);
      expect(r.body.error).toMatch(error);
      await stillAnswers();
    };
    await v3("runGetMethod", { address: wallet, method: "seqno", stack: [{ type: "num", value: "1" }, { type: "cell", value: chainBoc(100_000) }] }, /^stack\[1\]\.value: 100,000 cells; at most 8,192 are accepted/);
    await v3("runGetMethod", { address: wallet, method: "seqno", stack: [{ type: "slice", value: b64(chain(300)) }] }, /^stack\[0\]\.value: 299 cells deep; at most 256 are accepted/);
    await v3("runGetMethod", { address: wallet, method: "seqno", stack: Array.from({ length: 400 }, () => ({ type: "num", value: "1" })) }, /^stack: at most 256/);
    await v3("estimateFee", { address: wallet, body: chainBoc(150_000) }, /^body: 150,000 cells; at most 8,192 are accepted \(config param 43 max_msg_cells\)$/);
    await v3("message", { boc: chainBoc(150_000) }, /^boc: 150,000 cells; at most 8,192 are accepted \(config param 43 max_msg_cells\)$/);
  });

  it("localnet libraries (POST /localnet/libraries, --library): within max_library_cells and as deep as the emulator stores", () => {
    expect(() => libraryFromBoc(tree(6).toBoc())).toThrow(/^1,365 cells; at most 1,000 are accepted \(config param 43 max_library_cells\)$/);
    expect(() => libraryFromBoc(chain(600).toBoc())).toThrow(/^599 cells deep; at most 256 are accepted \(the depth TON's emulator, which runs the localnet, can store; config param 43 max_vm_data_depth allows 512\)$/);
    expect(() => libraryFromBoc(Buffer.from(chainBoc(1_000_000), "base64"))).toThrow(/^1,000,000 cells; at most 1,000/);
    expect(libraryFromBoc(tree(5).toBoc()).hash()).toEqual(tree(5).hash());
  });
});

describe("results a contract returns", () => {
  it("a shared-subtree cell in legacy runGetMethod's stack: 422 pointing at runGetMethodStd, memory flat", async () => {
    const shared = b64(sharedSubtrees(64)); // 576 bytes, 4^63 paths
    const rss = process.memoryUsage().rss;
    // the wallet's seqno leaves its argument on the stack, under its answer
    const error = await refused("runGetMethod", { address: wallet, method: "seqno", stack: [["cell", { bytes: shared }]] }, /^stack\[0\]: the legacy form of the result is too large: it expands to more than 16,384 cells as a tree/);
    expect(error).toMatch(/runGetMethodStd returns the same result with cells as BoCs$/);
    expect(process.memoryUsage().rss - rss).toBeLessThan(200 << 20);
    const std = await postJson(`${t.url}/api/v2/runGetMethodStd`, { address: wallet, method: "seqno", stack: [cellEntry(shared)] });
    expect(std.status).toBe(200);
    expect(std.body.result.stack[0]).toEqual({ "@type": "tvm.stackEntryCell", cell: { "@type": "tvm.cell", bytes: shared } });
  });

  it("a get-method returning a cell of 4^64 paths, or one 199 deep: legacy 422, runGetMethodStd and API v3 the BoC", async () => {
    await refused("runGetMethod", { address: big, method: "shared_cell", stack: [["num", "64"]] }, /^stack\[0\]: the legacy form of the result is too large: it expands to more than 16,384 cells/);
    await refused("runGetMethod", { address: big, method: "chain", stack: [["num", "200"]] }, /^stack\[0\]: the legacy form of the result is too large: its cells are more than 128 deep/);
    const legacy = await postJson(`${t.url}/api/v2/runGetMethod`, { address: big, method: "chain", stack: [["num", "100"]] });
    expect(legacy.status).toBe(200);
    expect(legacy.body.result.stack[0][1].bytes).toBe(b64(contractChain(100)));
    for (const [method, n] of [["shared_cell", 64], ["chain", 200]] as const) {
      const std = await postJson(`${t.url}/api/v2/runGetMethodStd`, { address: big, method, stack: [num(n)] });
      expect(std.status).toBe(200);
      const v3 = await postJson(`${t.url}/api/v3/runGetMethod`, { address: big, method, stack: [{ type: "num", value: String(n) }] });
      expect(v3.status).toBe(200);
      expect(v3.body.stack[0]).toEqual({ type: "cell", value: std.body.result.stack[0].cell.bytes });
    }
  });

  it("tuples nested past 16: 422 naming the bound", async () => {
    const ok = await postJson(`${t.url}/api/v2/runGetMethod`, { address: big, method: "nested", stack: [["num", "16"]] });
    expect(ok.status).toBe(200);
    await refused("runGetMethod", { address: big, method: "nested", stack: [["num", "17"]] }, /^the get-method's result is past a bound: its tuples and lists are nested more than 16 deep$/);
    await refused("runGetMethodStd", { address: big, method: "nested", stack: [num(17)] }, /^the get-method's result is past a bound: its tuples and lists are nested more than 16 deep$/);
    const v3 = await postJson(`${t.url}/api/v3/runGetMethod`, { address: big, method: "nested", stack: [{ type: "num", value: "17" }] });
    expect(v3.status).toBe(422);
    expect(v3.body.error).toMatch(/nested more than 16 deep/);
  });

  it("getTokenData of jetton content whose dictionary has 2^64 keys answers at once", async () => {
    const t0 = performance.now();
    const r = await getJson(`${t.url}/api/v2/getTokenData?address=${big}`);
    expect(r.body.error).toMatch(/^Failed to unpack token data: jetton_content: more than 65,536 cells as a tree/);
    expect(performance.now() - t0).toBeLessThan(5000);
    await stillAnswers();
  });

  it("libraryRefs walks deep and shared cells once each, without recursion", () => {
    const lib = beginCell().storeUint(2, 8).storeBuffer(Buffer.alloc(32, 7)).endCell({ exotic: true });
    let deep = beginCell().storeRef(lib).endCell();
    for (let i = 0; i < 20_000; i++) deep = beginCell().storeUint(i, 32).storeRef(deep).endCell();
    expect(libraryRefs([deep, sharedSubtrees(64)])).toEqual([Buffer.alloc(32, 7)]);
  });
});
