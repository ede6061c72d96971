// The emulator in child processes: a trap, a runaway run, a run past its memory bound or a process
// that dies costs that run only (an EmulatorFailure saying why), its process is replaced, and the
// next run answers — also with libchdb loaded in this process, whose SIGSEGV handler used to turn
// the emulator's trap into a hang of the whole process.
import { createRequire } from "node:module";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileFunc } from "@ton-community/func-js";
import { Address, beginCell, Cell, parseTuple, type TupleItem } from "@ton/core";
import { defaultConfig } from "@ton/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmulatorFailure, EmulatorPool, runGetMethod, type GetMethodRun, type PrevBlocksInfo } from "@tongate/emulator";

// DROP (the method id), PREVKEYBLOCK: the get-method answers c7's previous key block.
const prevKeyBlockCode = beginCell().storeBuffer(Buffer.from("30f83401", "hex")).endCell();
const block = (seqno: number) => ({ workchain: -1, shard: -(2n ** 63n), seqno, rootHash: Buffer.alloc(32, seqno), fileHash: Buffer.alloc(32, seqno + 1) });

const HOSTILE = `
forall X -> tuple cons(X head, tuple tail) asm "CONS";
forall X -> X null() asm "PUSHNULL";
() recv_internal() impure { }
int runaway() method_id { int i = 0; while (true) { i += 1; } return i; }
tuple empty_tuple() asm "NIL";
forall X -> (tuple, ()) ~tpush(tuple t, X value) asm "TPUSH";
;; Each turn copies a 254-entry tuple (about 4 KB) and keeps it: memory grows about 4 KB per 300 gas.
tuple grow() method_id {
  tuple base = empty_tuple();
  repeat (254) { base~tpush(0); }
  tuple chain = null();
  while (true) { tuple t = base; t~tpush(chain); chain = t; }
  return chain;
}
int seqno() method_id { return 7; }
`;

const run = (code: Cell, methodId: number, stack: TupleItem[] = [], gasLimit = 1_000_000n, data = Cell.EMPTY): GetMethodRun => ({
  code,
  data,
  methodId,
  stack,
  config: defaultConfig,
  address: new Address(0, Buffer.alloc(32)),
  now: 1_700_000_000,
  balance: 10n ** 9n,
  randomSeed: Buffer.alloc(32),
  gasLimit,
});

/** wallet v4r2's data: seqno 7, subwallet, a key, no plugins. */
const walletData = beginCell().storeUint(7, 32).storeUint(698983191, 32).storeBuffer(Buffer.alloc(32)).storeBit(0).endCell();

/** A chain of `n` cells, each referencing the next. */
function deepCell(n: number): Cell {
  let c = Cell.EMPTY;
  for (let i = 0; i < n; i++) c = beginCell().storeRef(c).endCell();
  return c;
}

const methodId = (name: string) => (crc16(name) & 0xffff) | 0x10000;
function crc16(s: string): number {
  let crc = 0;
  for (const byte of Buffer.from(s)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

let hostile: Cell;
let wallet: Cell;
beforeAll(async () => {
  const r = await compileFunc({ targets: ["hostile.fc"], sources: { "hostile.fc": HOSTILE } });
  if (r.status === "error") throw new Error(r.message);
  hostile = Cell.fromBase64(r.codeBoc);
  wallet = Cell.fromBoc(readFileSync(new URL("../../../../shared/fixtures/contracts/wallet_v4r2.code.boc", import.meta.url)))[0]!;
});

async function failure(p: Promise<unknown>): Promise<EmulatorFailure> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(EmulatorFailure);
  return e as EmulatorFailure;
}

describe("EmulatorPool", () => {
  const pool = new EmulatorPool({ size: 2, timeoutMs: 5000 });
  afterAll(() => pool.close());

  it("gives the code c7's previous-blocks info", async () => {
    const info: PrevBlocksInfo = { lastMcBlocks: [block(9), block(8)], prevKeyBlock: block(5) };
    const r = await runGetMethod(pool, { ...run(prevKeyBlockCode, 0), prevBlocksInfo: info });
    expect(r.success && r.exitCode).toBe(0);
    const [key] = parseTuple(r.success ? r.stack! : Cell.EMPTY);
    expect(key?.type === "tuple" && key.items.map((i) => (i.type === "int" ? i.value : null))).toEqual([-1n, -(2n ** 63n), 5n, BigInt("0x" + "05".repeat(32)), BigInt("0x" + "06".repeat(32))]);
    // Without it, c7 has no such entry: the code fails.
    const none = await runGetMethod(pool, run(prevKeyBlockCode, 0));
    expect(none.success && none.exitCode).not.toBe(0);
  });

  // The emulator traps writing its result stack: the 500-deep cell under the seqno is deeper than
  // the WebAssembly's own stack allows.
  it("a trap (a 500-deep stack cell) fails that run only; the process is replaced", async () => {
    const before = pool.status().replaced;
    const e = await failure(runGetMethod(pool, run(wallet, methodId("seqno"), [{ type: "cell", cell: deepCell(500) }], 1_000_000n, walletData)));
    expect(e.reason).toBe("trap");
    expect(e.message).toMatch(/memory access out of bounds/);
    const ok = await runGetMethod(pool, run(hostile, methodId("seqno")));
    expect(ok.success && ok.exitCode).toBe(0);
    await expect.poll(() => pool.status().replaced, { timeout: 20_000 }).toBe(before + 1);
    await expect.poll(() => pool.status(), { timeout: 20_000 }).toMatchObject({ state: "up", ready: 2, failures: { trap: 1 } });
  });

  it("a runaway loop is stopped at the time bound", async () => {
    const t = performance.now();
    const e = await failure(runGetMethod(pool, run(hostile, methodId("runaway"), [], 10n ** 15n)));
    expect(e.reason).toBe("timeout");
    expect(e.message).toMatch(/time bound \(5000 ms\)/);
    expect(performance.now() - t).toBeLessThan(10_000);
    const ok = await runGetMethod(pool, run(hostile, methodId("seqno")));
    expect(ok.success && ok.exitCode).toBe(0);
  });

  it("a run that grows the emulator's memory stops at the memory bound", async () => {
    const small = new EmulatorPool({ size: 1, memoryMb: 64, timeoutMs: 30_000 });
    try {
      const e = await failure(runGetMethod(small, run(hostile, methodId("grow"), [], 10n ** 15n)));
      expect(e.reason).toBe("memory");
      expect(e.message).toMatch(/memory bound \(64 MiB\)/);
      const ok = await runGetMethod(small, run(hostile, methodId("seqno")));
      expect(ok.success && ok.exitCode).toBe(0);
    } finally {
      await small.close();
    }
  });

  it("the same gas-bounded runaway run answers its exit code (out of gas), not a failure", async () => {
    // 100,000 gas: out of gas in a fraction of the 5 s bound even on a loaded machine
    const r = await runGetMethod(pool, run(hostile, methodId("runaway"), [], 100_000n));
    expect(r.success && r.exitCode).toBe(-14);
  });

  it("runs that wait past the queue bound are refused as busy", async () => {
    const small = new EmulatorPool({ size: 1, maxQueued: 2, timeoutMs: 5000 });
    try {
      const runs = Array.from({ length: 5 }, () => runGetMethod(small, run(hostile, methodId("seqno"))).then(() => "ok", (e: EmulatorFailure) => e.reason));
      const outcomes = await Promise.all(runs);
      expect(outcomes.filter((o) => o === "busy").length).toBeGreaterThanOrEqual(2);
      expect(outcomes.filter((o) => o === "ok").length).toBeGreaterThanOrEqual(1);
    } finally {
      await small.close();
    }
  });
});

describe("an EmulatorPool whose processes cannot start", () => {
  it("is down on /healthz with the reason, and fails runs at once instead of holding them", async () => {
    // A JavaScript heap of 1 MiB cannot hold Node itself: every process ends before it is ready.
    const broken = new EmulatorPool({ size: 1, heapMb: 1 });
    try {
      expect(broken.health()).toMatchObject({ name: "emulator", ok: true, detail: { state: "idle" } });
      await expect(broken.warm()).rejects.toThrow(/no emulator process can start/);
      const h = broken.health();
      expect(h).toMatchObject({ name: "emulator", ok: false, detail: { state: "down" } });
      expect(h.reason).toMatch(/^emulator: no process can start/);
      const e = await failure(runGetMethod(broken, run(prevKeyBlockCode, 0)));
      expect(e.reason).toBe("crash");
    } finally {
      await broken.close();
    }
  });
});

describe("EmulatorPool in a process that has loaded libchdb", () => {
  const dir = mkdtempSync(join(tmpdir(), "tongate-emulator-chdb-"));
  const pool = new EmulatorPool({ size: 1, timeoutMs: 5000 });
  afterAll(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a trap fails the run, and ClickHouse and this process go on", async () => {
    // chdb's Session loads libchdb, which installs ClickHouse's signal handlers in this process.
    const chdb = createRequire(import.meta.url)("chdb") as { Session: new (path: string) => { query(q: string, format: string): string; cleanup(): void } };
    const session = new chdb.Session(dir);
    try {
      expect(session.query("SELECT 1", "CSV").trim()).toBe("1");
      const e = await failure(runGetMethod(pool, run(wallet, methodId("seqno"), [{ type: "cell", cell: deepCell(500) }], 1_000_000n, walletData)));
      expect(e.reason).toBe("trap");
      expect(session.query("SELECT 2", "CSV").trim()).toBe("2");
      const ok = await runGetMethod(pool, run(hostile, methodId("seqno")));
      expect(ok.success && ok.exitCode).toBe(0);
    } finally {
      session.cleanup();
    }
  });
});
