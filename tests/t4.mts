import { readFileSync } from "node:fs";
import { Address, beginCell, Cell } from "@ton/core";
import { Executor } from "@ton/sandbox";
import { EmulatorPool, runGetMethod } from "@tongate/emulator";
const code = Cell.fromBoc(readFileSync("/work/shared/fixtures/contracts/wallet_v4r2.code.boc"))[0]!;
const config = readFileSync("/work/main/services/localnet/assets/mainnet_config_2026-04_gv13.boc").toString("base64");
const data = beginCell().storeUint(0, 32).storeUint(698983191, 32).storeBuffer(Buffer.alloc(32)).storeBit(0).endCell();
const address = Address.parse("0:" + "11".repeat(32));
const pool = new EmulatorPool({ size: 1 });
await pool.warm();
const ex = await Executor.create();
const a = () => runGetMethod(pool, { code, data, methodId: 85143, stack: [], config, address, now: 1, balance: 1n, randomSeed: Buffer.alloc(32), gasLimit: 1000000n });
const b = () => ex.runGetMethod({ code, data, methodId: 85143, stack: [], config, verbosity: "short", address, unixTime: 1, balance: 1n, randomSeed: Buffer.alloc(32), gasLimit: 1000000n, debugEnabled: false });
const ta: number[] = [], tb: number[] = [];
for (let r = 0; r < 10; r++) {
  let t = performance.now(); for (let i = 0; i < 20; i++) await a(); ta.push((performance.now() - t) / 20);
  t = performance.now(); for (let i = 0; i < 20; i++) await b(); tb.push((performance.now() - t) / 20);
}
const med = (x: number[]) => [...x].sort((p, q) => p - q)[5]!.toFixed(2);
console.log("pool", med(ta), "in-process", med(tb));
await pool.close();
