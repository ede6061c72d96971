// How the decoder reads a contract's state when its loader refuses the data, and when a run cannot
// be trusted to say anything about the contract: a real localnet's liteserver for the config, TON's emulator in child processes. A known
// contract whose data its loader refuses goes to its get-methods; a failure of the emulator's pool
// (closed, busy, past its time) is thrown as transient under the "retry" policy — the block is
// decoded again — and recorded as the contract's under "record".
import { readFileSync } from "node:fs";
import { Address, Cell, toNano } from "@ton/core";
import { EmulatorPool } from "@tongate/emulator";
import type { Localnet } from "@tongate/localnet";
import { LiteserverPool } from "@tongate/liteclient";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestLocalnet } from "../../../tests/support/localnet.js";
import { ChainContext } from "../src/chain-context.js";
import type { AccountStateAfter } from "../src/inputs.js";
import { StateReader } from "../src/read-state.js";
import { TransientFailure } from "../src/transient.js";

const fixture = (file: string) => Cell.fromBoc(readFileSync(new URL(`../../../../shared/fixtures/contracts/${file}`, import.meta.url)))[0]!;
const walletCode = fixture("jetton_wallet_legacy.code.boc");
const addr = (n: number) => new Address(0, Buffer.alloc(32, n));

let net: Localnet;
let lite: LiteserverPool;
const live = new EmulatorPool({ size: 1 });
const closed = new EmulatorPool({ size: 1 });
beforeAll(async () => {
  net = await startTestLocalnet({ seed: "decoder-read-state" });
  lite = LiteserverPool.fromGlobalConfig(net.globalConfig(), { probeIntervalMs: 200 });
  await closed.close();
}, 60_000);
afterAll(async () => {
  await lite?.close();
  await live.close();
  await net?.close();
});

const account = (data: Cell): AccountStateAfter => ({
  account: addr(9).toRawString(),
  hash: "",
  status: "active",
  balance: toNano("1"),
  codeHash: walletCode.hash().toString("base64"),
  dataHash: data.hash().toString("base64"),
  code: walletCode,
  data,
  lastLt: 10n,
  lastNow: 1_700_000_000,
});
it("data its loader refuses goes to its get-methods; what they refuse too is recorded, not retried", async () => {
  const reader = new StateReader(new ChainContext(lite, live));
  const d = await reader.read(account(Cell.EMPTY), "retry");
  expect(d.state).toBeUndefined();
  expect(d.failure).toMatch(/jetton_wallet_legacy: the data does not load.*; get_wallet_data failed/);
}, 60_000);

it("the emulator's pool unavailable: transient under 'retry', recorded under 'record'", async () => {
  const reader = new StateReader(new ChainContext(lite, closed));
  await expect(reader.read(account(Cell.EMPTY), "retry")).rejects.toBeInstanceOf(TransientFailure);
  const recorded = await reader.read(account(Cell.EMPTY), "record");
  expect(recorded.failure).toMatch(/closed/);
}, 60_000);
