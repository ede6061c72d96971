// JVault's bodies in toncenter's classifier traces (the stake payload inside jetton transfers
// included) load and store back to the same cell; the heads of its contracts' data read the pool
// and lock wallet toncenter's indexer derived from them.
import { Address, beginCell, Cell, Dictionary } from "@ton/core";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  JVAULT_OPCODES,
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
import { realBodiesOf, roundTrip } from "./dex-bodies.js";
import { FIXTURES } from "./fixtures.js";

const OP = JVAULT_OPCODES;

describe("JVault bodies", () => {
  roundTrip("jvault_receive_jettons", "message", OP.jvault_receive_jettons, loadJvaultReceiveJettons, storeJvaultReceiveJettons);
  roundTrip("jvault_unstake_jettons", "message", OP.jvault_unstake_jettons, loadJvaultUnstakeJettons, storeJvaultUnstakeJettons);
  roundTrip("jvault_unstake_request", "message", OP.jvault_unstake_request, loadJvaultUnstakeRequest, storeJvaultUnstakeRequest);
  // the stake call travels as a jetton transfer's forward payload, in a ref or inline
  roundTrip("jvault_stake_jettons", "payload", OP.jvault_stake_jettons, loadJvaultStakeJettons, storeJvaultStakeJettons);
  it("stake payloads are found both in a ref and inline", () => {
    const found = realBodiesOf(OP.jvault_stake_jettons, "payload");
    expect(found.some((b) => b.inRef)).toBe(true);
    expect(found.some((b) => !b.inRef)).toBe(true);
  });

  it("reads a stake payload's lock period", () => {
    const [stake] = realBodiesOf(OP.jvault_stake_jettons, "payload").filter((b) => b.inRef);
    expect(loadJvaultStakeJettons(stake.cell.beginParse()).lockPeriod).toBe(2592000);
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
