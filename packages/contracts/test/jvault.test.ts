// JVault's bodies in toncenter's classifier traces (the stake payload inside jetton transfers
// included) load and store back to the same cell; the heads of its contracts' data read the pool
// and lock wallet toncenter's indexer derived from them.
import { Address, beginCell, Cell, Dictionary, type Builder, type Slice } from "@ton/core";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  JETTON_OPCODES,
  JVAULT_OPCODES,
  loadJettonTransfer,
  loadJvaultClaimRewardsMsg,
  loadJvaultReceiveJettons,
  loadJvaultStakeJettons,
  loadJvaultStakeWalletHead,
  loadJvaultStakingPoolHead,
  loadJvaultUnstakeJettons,
  loadJvaultUnstakeRequest,
  storeJvaultClaimRewardsMsg,
  storeJvaultReceiveJettons,
  storeJvaultStakeJettons,
  storeJvaultUnstakeJettons,
  storeJvaultUnstakeRequest,
} from "@tongate/contracts";
import { actionTraceMessages, FIXTURES } from "./fixtures.js";

interface Codec {
  name: string;
  roundTrip: (c: Cell) => Cell;
}

function codec<T>(name: string, load: (s: Slice) => T, store: (v: T) => (b: Builder) => void): Codec {
  return { name, roundTrip: (c) => beginCell().store(store(load(c.beginParse()))).endCell() };
}

const BY_OPCODE = new Map<number, Codec>([
  [JVAULT_OPCODES.jvault_receive_jettons, codec("jvault_receive_jettons", loadJvaultReceiveJettons, storeJvaultReceiveJettons)],
  [JVAULT_OPCODES.jvault_unstake_jettons, codec("jvault_unstake_jettons", loadJvaultUnstakeJettons, storeJvaultUnstakeJettons)],
  [JVAULT_OPCODES.jvault_unstake_request, codec("jvault_unstake_request", loadJvaultUnstakeRequest, storeJvaultUnstakeRequest)],
  [JVAULT_OPCODES.jvault_stake_jettons, codec("jvault_stake_jettons", loadJvaultStakeJettons, storeJvaultStakeJettons)],
]);

const messages = actionTraceMessages();
/** the bodies, and the forward payloads of jetton transfers (where the stake call travels) */
const bodies: { hash: string; opcode: number; body: Cell }[] = [];
for (const m of messages) {
  if (m.opcode !== null && BY_OPCODE.has(m.opcode)) bodies.push({ hash: m.hash, opcode: m.opcode, body: m.body });
  if (m.opcode === JETTON_OPCODES.jetton_transfer) {
    const payload = loadJettonTransfer(m.body.beginParse()).forwardPayload;
    const cell = payload?.inRef ? payload.cell : null;
    if (cell && cell.bits.length >= 32 && cell.beginParse().preloadUint(32) === JVAULT_OPCODES.jvault_stake_jettons) bodies.push({ hash: m.hash, opcode: JVAULT_OPCODES.jvault_stake_jettons, body: cell });
  }
}

describe("JVault bodies", () => {
  it("every constructor but claim_rewards_msg has real bodies in the fixtures", () => {
    const seen = new Set(bodies.map((b) => b.opcode));
    expect([...BY_OPCODE.keys()].filter((op) => !seen.has(op))).toEqual([]);
  });

  it.each(bodies.map((b) => [BY_OPCODE.get(b.opcode)!.name, b.hash, b] as const))("%s %s loads and stores back to itself", (_name, _hash, b) => {
    expect(BY_OPCODE.get(b.opcode)!.roundTrip(b.body).hash().toString("hex")).toBe(b.body.hash().toString("hex"));
  });

  it("reads a stake payload's lock period", () => {
    const stake = bodies.find((b) => b.opcode === JVAULT_OPCODES.jvault_stake_jettons)!;
    expect(loadJvaultStakeJettons(stake.body.beginParse()).lockPeriod).toBe(2592000);
  });

  it("claim_rewards_msg (no real body in the fixtures) stores what it loads", () => {
    const jettons = Dictionary.empty(Dictionary.Keys.Address(), Dictionary.Values.Bool());
    jettons.set(Address.parse("0:" + "11".repeat(32)), true);
    const body = beginCell().store(storeJvaultClaimRewardsMsg({ queryId: 7n, jettonsToClaim: jettons })).endCell();
    const claim = loadJvaultClaimRewardsMsg(body.beginParse());
    expect(claim.jettonsToClaim.keys().map((a) => a.toRawString())).toEqual(["0:" + "11".repeat(32)]);
    expect(beginCell().store(storeJvaultClaimRewardsMsg(claim)).endCell().hash()).toEqual(body.hash());
  });
});

describe("JVault contract data", () => {
  const dir = new URL("toncenter_actions/traces/", FIXTURES);
  const facts: { account: string; data_boc: string; pool?: string; lock_wallet_address?: string }[] = [];
  for (const f of readdirSync(dir)) {
    const t = JSON.parse(readFileSync(new URL(f, dir), "utf8"));
    for (const v of Object.values<any>(t.interfaces ?? {})) if (v.data_boc) facts.push(v.data_boc);
  }

  it("a stake wallet's data names the pool toncenter derived from it", () => {
    const wallets = facts.filter((f) => f.pool);
    expect(wallets.length).toBeGreaterThan(0);
    for (const w of wallets) expect(loadJvaultStakeWalletHead(Cell.fromBase64(w.data_boc).beginParse()).stakingPool.toRawString().toUpperCase()).toBe(w.pool);
  });

  it("a pool's data names the lock wallet toncenter derived from it", () => {
    const pools = facts.filter((f) => f.lock_wallet_address);
    expect(pools.length).toBeGreaterThan(0);
    for (const p of pools) expect(loadJvaultStakingPoolHead(Cell.fromBase64(p.data_boc).beginParse()).lockWallet.toRawString().toUpperCase()).toBe(p.lock_wallet_address);
  });
});
