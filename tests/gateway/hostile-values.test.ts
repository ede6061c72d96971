// Values that used to stop tongate, through the gateway with the indexer in its process (chDB
// loaded: its signal handlers are what turned the emulator's trap into a hang of the process):
// a 500-deep cell in a get-method's stack, a fee estimate, a sendBoc and a public library; and
// contracts deployed here whose get-methods return a 1,000-deep cell, a cell of 4^64 paths and a
// loop that never ends, one of which makes its own data 301 deep. Each answers within its bounds,
// and after each v2, v3 and the localnet go on; the indexer indexes the contracts.
import { Address, beginCell, Cell, external, storeMessage, toNano } from "@ton/core";
import { startControlApi, type ControlServer, type Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractCode } from "../support/contracts/index.js";
import { getJson, postJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { LocalnetSender } from "../support/localnet-deploy.js";
import { startTestLocalnet } from "../support/localnet.js";

let net: Localnet;
let control: ControlServer;
let t: Embedded;
let wallet: Address;
const hostile: Address[] = []; // by mode: deep content, shared content, runaway get_jetton_data

/** A chain of `n` cells, each referencing the next. */
function deepCell(n: number): Cell {
  let c = Cell.EMPTY;
  for (let i = 0; i < n; i++) c = beginCell().storeRef(c).endCell();
  return c;
}

/** The depth of a cell tree, without recursion. */
function depthOf(root: Cell): number {
  const depth = new Map<Cell, number>();
  const stack: [Cell, boolean][] = [[root, false]];
  while (stack.length) {
    const [c, done] = stack.pop()!;
    if (done) depth.set(c, c.refs.length ? 1 + Math.max(...c.refs.map((r) => depth.get(r)!)) : 0);
    else if (!depth.has(c)) stack.push([c, true], ...c.refs.map((r): [Cell, boolean] => [r, false]));
  }
  return depth.get(root)!;
}

const DEEP = deepCell(500).toBoc().toString("base64");
const post = (path: string, body: unknown) => postJson(`${t.url}${path}`, body);

/** A v2 and a v3 call answer normally, each within a second; a get-method runs; the localnet seals. */
async function stillServing(): Promise<void> {
  for (const path of ["/api/v2/getMasterchainInfo", "/api/v3/masterchainInfo"]) {
    const started = performance.now();
    const r = await getJson(`${t.url}${path}`);
    expect(r.status, path).toBe(200);
    expect(performance.now() - started, path).toBeLessThan(1000);
  }
  const seqno = await post("/api/v2/runGetMethod", { address: wallet.toString(), method: "seqno", stack: [] });
  expect(seqno.status, JSON.stringify(seqno.body)).toBe(200);
  expect(seqno.body.result.exit_code).toBe(0);
  const head = net.chain.lastMasterchain!.id.seqno;
  await net.chain.seal();
  expect(net.chain.lastMasterchain!.id.seqno).toBe(head + 1);
}

/** Waits until the indexer has the localnet's newest masterchain block. */
async function indexed(): Promise<void> {
  const head = net.chain.lastMasterchain!.id.seqno;
  for (let i = 0; i < 300; i++) {
    const r = await getJson(`${t.url}/api/v3/masterchainInfo`);
    if (r.status === 200 && r.body.last.seqno >= head) return;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`not indexed up to ${head}`);
}

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "hostile", wallets: 2 });
  control = await startControlApi(net, { host: "127.0.0.1", port: 0 });
  wallet = net.genesis.wallets[2]!.address;
  const sender = new LocalnetSender(net, net.genesis.wallets[1]!);
  const code = await contractCode("hostile");
  for (const mode of [0, 1, 2]) hostile.push(await sender.deploy({ code, data: beginCell().storeUint(mode, 8).endCell() }, toNano("1")));
  // its data becomes 301 deep (deeper than that, the emulator's WebAssembly stack cannot write the state)
  await sender.send({ to: hostile[0]!, value: toNano("1"), body: beginCell().storeUint(300, 16).endCell() });
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on" });
  await indexed();
}, 120_000);

afterAll(async () => {
  await t?.close();
  await control?.close();
  await net?.close();
});

describe("a 500-deep cell, where it used to stop the process", () => {
  it("in runGetMethodStd's stack: refused before the emulator, naming the bound; the process goes on", async () => {
    const r = await post("/api/v2/runGetMethodStd", { address: wallet.toString(), method: "seqno", stack: [{ "@type": "tvm.stackEntryCell", cell: { bytes: DEEP } }] });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatch(/^stack\[0\]\.cell\.bytes: 500 cells deep; at most 256 are accepted/);
    await stillServing();
  });

  // 500 deep is within config param 43's external message depth (512): the message reaches the
  // emulator, which traps on it; only that run fails.
  it("in an external message to estimateFee and to sendBoc (twice): answered, the chain goes on", async () => {
    const fee = await post("/api/v2/estimateFee", { address: wallet.toString(), body: DEEP, ignore_chksig: true });
    expect(fee.body.ok).toBe(false);
    expect(fee.body.error).toMatch(/emulator trapped|would not accept/);
    for (let i = 0; i < 2; i++) {
      const boc = beginCell().store(storeMessage(external({ to: wallet, body: deepCell(500) }))).endCell().toBoc().toString("base64");
      const sent = await post("/api/v2/sendBoc", { boc });
      expect(sent.body.ok).toBe(false);
      expect(sent.status).toBeGreaterThanOrEqual(400);
      expect(sent.status).toBeLessThan(500);
    }
    await stillServing();
  });

  // TON's emulator throws a C++ exception (nothing catches it) on a library cell where a message's
  // body is: a 422 for that input, the emulator process replaced.
  it("an exotic cell as an external message's body (estimateFee, v2 and v3): 422, the process goes on", async () => {
    const library = "te6ccgEBAQEAIwAIQgIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIg==";
    const v2 = await post("/api/v2/estimateFee", { address: wallet.toString(), body: library, ignore_chksig: true });
    expect(v2.status).toBe(422);
    expect(v2.body.error).toMatch(/could not process this input/);
    const v3 = await post("/api/v3/estimateFee", { address: wallet.toString(), body: library, ignore_chksig: true });
    expect(v3.status).toBe(422);
    expect(v3.body.error).toMatch(/could not process this input/);
    await stillServing();
  });

  it("as a public library (the control API): refused naming the bound, ClickHouse and the chain go on", async () => {
    const r = await fetch(`http://127.0.0.1:${control.port}/localnet/libraries`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ boc: DEEP }) });
    expect(r.status).toBe(422);
    expect(((await r.json()) as { error: string }).error).toMatch(/500 cells deep; at most 256/);
    await stillServing();
    await indexed();
  });
});

describe("contracts whose get-methods return hostile values", () => {
  const run = (path: "/api/v2/runGetMethod" | "/api/v2/runGetMethodStd" | "/api/v3/runGetMethod", method: string, stack: unknown[] = []) => post(path, { address: hostile[0]!.toString(), method, stack });
  const paths = ["/api/v2/runGetMethod", "/api/v2/runGetMethodStd", "/api/v3/runGetMethod"] as const;
  const num = (path: string, n: number) => (path === "/api/v2/runGetMethodStd" ? { "@type": "tvm.stackEntryNumber", number: { number: String(n) } } : path === "/api/v3/runGetMethod" ? { type: "num", value: String(n) } : ["num", String(n)]);

  it("a 1,000-deep cell: a bounded failure of that run, within the time bound", async () => {
    for (const path of paths) {
      const started = performance.now();
      const r = await run(path, "deep", [num(path, 1000)]);
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBeGreaterThanOrEqual(400);
      expect(JSON.stringify(r.body)).toMatch(/emulator|bound|deep/);
      expect(performance.now() - started).toBeLessThan(15_000);
    }
    await stillServing();
  });

  it("a cell of 4^64 paths through 65 cells: the typed stack has its BoC; no path is walked", async () => {
    for (const path of paths) {
      const before = process.memoryUsage().rss;
      const r = await run(path, "shared", [num(path, 64)]);
      expect(r.status, `${path}: ${JSON.stringify(r.body).slice(0, 300)}`).toBeLessThan(500);
      expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
      if (path === "/api/v2/runGetMethodStd") {
        const cell = Cell.fromBase64(r.body.result.stack[0].cell.bytes);
        expect(depthOf(cell)).toBe(64);
      }
    }
    await stillServing();
  });

  it("a loop that never ends: out of gas (exit code -14), as a liteserver answers", async () => {
    for (const path of paths) {
      const r = await run(path, "runaway");
      expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(path === "/api/v3/runGetMethod" ? r.body.exit_code : r.body.result.exit_code).toBe(-14);
    }
  });

  it("getTokenData on each: answered within its bounds", async () => {
    for (const a of hostile) {
      const started = performance.now();
      const r = await getJson(`${t.url}/api/v2/getTokenData?address=${a.toString()}`);
      expect(r.body.ok !== undefined, JSON.stringify(r.body)).toBe(true);
      // toncenter answers content it cannot read with 500 "Failed to unpack token data"
      expect(r.status === 200 || r.status === 409 || r.status === 422 || /emulator|Failed to unpack token data/.test(r.body.error), `${a.toString()}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`).toBe(true);
      expect(performance.now() - started).toBeLessThan(15_000);
    }
    await stillServing();
  });

  it("the indexer has their transactions and states, the 301-deep data included", async () => {
    await indexed();
    const txs = await getJson(`${t.url}/api/v3/transactions?account=${hostile[0]!.toRawString()}&limit=10`);
    expect(txs.status).toBe(200);
    expect(txs.body.transactions.length).toBe(2); // the deploy and the deepening
    const states = await getJson(`${t.url}/api/v3/accountStates?address=${hostile[0]!.toRawString()}&include_boc=true`);
    expect(states.status, JSON.stringify(states.body)).toBe(200);
    const data = Cell.fromBase64(states.body.accounts[0].data_boc);
    expect(depthOf(data)).toBe(301);
    const v2state = await getJson(`${t.url}/api/v2/getAddressInformation?address=${hostile[0]!.toString()}`);
    expect(v2state.status).toBe(200);
    expect(Cell.fromBase64(v2state.body.result.data).hash().equals(data.hash())).toBe(true);
  });
});
