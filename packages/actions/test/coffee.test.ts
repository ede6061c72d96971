// swap.coffee flows the toncenter suite has no case of, built by hand: a swap through two pools
// (peer_swaps), a liquidity withdrawal paid in TON and a jetton, MEV protection holding a jetton
// and returning TON.
import { createHash } from "node:crypto";
import { Address, beginCell, type Cell } from "@ton/core";
import { describe, expect, it } from "vitest";
import {
  COFFEE_OPCODES,
  storeCoffeeMevProtectFailedSwap,
  storeCoffeeMevProtectHoldFunds,
  storeCoffeePayout,
  storeCoffeePayoutInternal,
  storeCoffeeSwapSucceeded,
  storeCoffeeWithdrawLiquiditySucceeded,
  storeJettonBurn,
  storeJettonBurnNotification,
  storeJettonInternalTransfer,
  storeJettonNotify,
  storeJettonTransfer,
  type CoffeeAsset,
} from "@tongate/contracts";
import type { ActionRow, TraceTransaction } from "@tongate/actions";
import { addr, classifyBuilt, TraceBuilder } from "./nft/trace-builder.js";

const cell = (store: (b: ReturnType<typeof beginCell>) => void): Cell => beginCell().store(store).endCell();
const address = (raw: string) => Address.parse(raw);
const jetton = (master: string): CoffeeAsset => ({ kind: "jetton", master: address(master) });

const USER = addr(1);
const USER_WALLET_A = addr(2);
const USER_WALLET_B = addr(3);
const MASTER_A = addr(10);
const MASTER_B = addr(11);
const MASTER_LP = addr(12);
const VAULT_A = addr(20);
const VAULT_A_WALLET = addr(21);
const VAULT_B = addr(22);
const VAULT_B_WALLET = addr(23);
const NATIVE_VAULT = addr(24);
const POOL_1 = addr(30);
const POOL_2 = addr(31);
const MEV = addr(40);
const MEV_WALLET = addr(41);

/** A pool's event log (an external-out message). */
function log(from: TraceTransaction, body: Cell): void {
  from.outMsgs.push({
    hash: createHash("sha256").update(`log-${from.hash}-${from.outMsgs.length}`).digest("base64"),
    source: from.account,
    destination: null,
    value: null,
    valueExtraCurrencies: {},
    fwdFee: null,
    ihrFee: null,
    importFee: null,
    createdLt: from.lt + 1n + BigInt(from.outMsgs.length),
    createdAt: 1_700_000_000,
    opcode: body.beginParse().preloadInt(32),
    bounce: null,
    bounced: null,
    body: body.toBoc().toString("base64"),
    bodyHash: body.hash().toString("base64"),
    initState: null,
    initStateHash: null,
  });
}

/** owner → its wallet → the receiver's wallet → notify the receiver (TEP-74), with `payload`. */
function jettonTransfer(t: TraceBuilder, from: TraceTransaction, ownerWallet: string, receiver: string, receiverWallet: string, amount: bigint, payload: Cell | null = null): TraceTransaction {
  const forwardPayload = payload === null ? null : { cell: payload, inRef: true };
  const w1 = t.send(from, ownerWallet, {
    body: cell(storeJettonTransfer({ queryId: 7n, amount, destination: address(receiver), responseDestination: address(from.account), customPayload: null, forwardTonAmount: 1n, forwardPayload })),
  });
  const w2 = t.send(w1, receiverWallet, {
    body: cell(storeJettonInternalTransfer({ queryId: 7n, amount, from: address(from.account), responseAddress: address(from.account), forwardTonAmount: 1n, forwardPayload })),
  });
  return t.send(w2, receiver, { body: cell(storeJettonNotify({ queryId: 7n, amount, sender: address(from.account), forwardPayload })) });
}

const swapInternal = () => cell((b) => b.storeUint(COFFEE_OPCODES.coffee_swap_internal, 32).storeUint(7, 64));
const reserves = { inputReserve: 1000n, outputReserve: 2000n };

function wallets(t: TraceBuilder): TraceBuilder {
  return t
    .know(USER_WALLET_A, { jettonWallet: { address: USER_WALLET_A, owner: USER, jetton: MASTER_A, balance: 0n } })
    .know(USER_WALLET_B, { jettonWallet: { address: USER_WALLET_B, owner: USER, jetton: MASTER_B, balance: 0n } })
    .know(VAULT_A_WALLET, { jettonWallet: { address: VAULT_A_WALLET, owner: VAULT_A, jetton: MASTER_A, balance: 0n } })
    .know(VAULT_B_WALLET, { jettonWallet: { address: VAULT_B_WALLET, owner: VAULT_B, jetton: MASTER_B, balance: 0n } })
    .know(MEV_WALLET, { jettonWallet: { address: MEV_WALLET, owner: MEV, jetton: MASTER_A, balance: 0n } });
}

const only = (actions: ActionRow[], type: string): ActionRow => {
  const picked = actions.filter((a) => a.type === type && a.ancestor_type.length === 0);
  expect(picked.map((a) => a.type)).toEqual([type]);
  return picked[0];
};

describe("swap.coffee", () => {
  it("a swap through two pools lists both hops as peer_swaps and pays TON out", () => {
    const t = wallets(new TraceBuilder());
    const ext = t.external(USER);
    const atVault = jettonTransfer(t, ext, USER_WALLET_A, VAULT_A, VAULT_A_WALLET, 500n);
    const hop1 = t.send(atVault, POOL_1, { body: swapInternal() });
    log(hop1, cell(storeCoffeeSwapSucceeded({ queryId: 7n, input: jetton(MASTER_A), inputAmount: 500n, outputAmount: 40n, reserves, protocolFee: 0n })));
    const hop2 = t.send(hop1, POOL_2, { body: swapInternal() });
    log(hop2, cell(storeCoffeeSwapSucceeded({ queryId: 7n, input: jetton(MASTER_B), inputAmount: 40n, outputAmount: 900n, reserves, protocolFee: null })));
    const payout = t.send(hop2, NATIVE_VAULT, {
      body: cell(storeCoffeePayoutInternal({ queryId: 7n, recipient: address(USER), amount: 900n, notificationData: null, proof: null })),
    });
    t.send(payout, USER, { value: 950n, body: cell(storeCoffeePayout({ queryId: 7n })) });

    const swap = only(classifyBuilt(t), "jetton_swap");
    expect(swap.success).toBe(true);
    expect(swap.source).toBe(USER);
    expect(swap.asset).toBe(MASTER_A);
    expect(swap.asset2).toBeNull();
    expect(swap.jetton_swap_data).toMatchObject({
      dex: "coffee",
      sender: USER,
      dex_incoming_transfer: { asset: MASTER_A, amount: 500n, source: USER, source_jetton_wallet: USER_WALLET_A, destination: VAULT_A, destination_jetton_wallet: VAULT_A_WALLET },
      // the amount the pool ordered, not the payout's value
      dex_outgoing_transfer: { asset: null, amount: 900n, source: POOL_2, destination: USER },
      peer_swaps: [
        { asset_in: MASTER_A, amount_in: 500n, asset_out: MASTER_B, amount_out: 40n },
        { asset_in: MASTER_B, amount_in: 40n, asset_out: null, amount_out: 900n },
      ],
    });
  });

  it("a withdrawal burns LP tokens and pays TON and a jetton through their vaults", () => {
    const lpWallet = addr(50);
    const t = wallets(new TraceBuilder()).know(lpWallet, { jettonWallet: { address: lpWallet, owner: USER, jetton: MASTER_LP, balance: 0n } });
    const ext = t.external(USER);
    const burn = t.send(ext, lpWallet, { body: cell(storeJettonBurn({ queryId: 7n, amount: 77n, responseDestination: address(USER), customPayload: null })) });
    const pool = t.send(burn, POOL_1, { body: cell(storeJettonBurnNotification({ queryId: 7n, amount: 77n, sender: address(USER), responseDestination: address(USER) })) });
    const payoutTon = t.send(pool, NATIVE_VAULT, {
      body: cell(storeCoffeePayoutInternal({ queryId: 7n, recipient: address(USER), amount: 300n, notificationData: null, proof: null })),
    });
    t.send(payoutTon, USER, { body: cell(storeCoffeePayout({ queryId: 7n })) });
    const payoutJetton = t.send(pool, VAULT_A, {
      body: cell(storeCoffeePayoutInternal({ queryId: 7n, recipient: address(USER), amount: 400n, notificationData: null, proof: null })),
    });
    jettonTransfer(t, payoutJetton, VAULT_A_WALLET, USER, USER_WALLET_A, 400n);
    log(pool, cell(storeCoffeeWithdrawLiquiditySucceeded({ queryId: 7n, amount1: 300n, amount2: 400n, lpAmount: 77n, totalSupply: reserves, reserves })));

    const w = only(classifyBuilt(t), "dex_withdraw_liquidity");
    expect(w.source).toBe(USER);
    expect(w.source_secondary).toBe(lpWallet);
    expect(w.destination).toBe(POOL_1);
    expect(w.asset).toBe(MASTER_LP);
    expect(w.dex_withdraw_liquidity_data).toMatchObject({
      dex: "coffee",
      amount1: 300n,
      amount2: 400n,
      asset1_out: null,
      asset2_out: MASTER_A,
      // toncenter names the sender of each payout_internal: the pool
      dex_wallet_1: POOL_1,
      dex_wallet_2: POOL_1,
      dex_jetton_wallet_2: VAULT_A_WALLET,
      user_jetton_wallet_1: USER,
      user_jetton_wallet_2: USER_WALLET_A,
      lp_tokens_burnt: 77n,
      is_refund: false,
    });
  });

  it("MEV protection holds a jetton", () => {
    const t = wallets(new TraceBuilder());
    const ext = t.external(USER);
    jettonTransfer(t, ext, USER_WALLET_A, MEV, MEV_WALLET, 123n, cell(storeCoffeeMevProtectHoldFunds({ queryId: 7n })));
    const hold = only(classifyBuilt(t), "coffee_mev_protect_hold_funds");
    expect(hold).toMatchObject({ source: USER, source_secondary: USER_WALLET_A, destination: MEV, destination_secondary: null, asset: MASTER_A, amount: 123n });
  });

  it("MEV protection returns TON of a swap that failed", () => {
    const t = new TraceBuilder();
    const ext = t.external(MEV);
    t.send(ext, NATIVE_VAULT, { value: 5_000_000_000n, body: cell(storeCoffeeMevProtectFailedSwap({ queryId: 7n, recipient: address(USER) })) });
    const failed = only(classifyBuilt(t), "coffee_mev_protect_failed_swap");
    expect(failed).toMatchObject({ destination: USER, asset: null });
  });
});
