// DEX liquidity shapes the toncenter suite has no case for, on traces built here with the
// protocols' message layouts: a STON.fi v2 provision and withdrawal, a DeDust v1 LP withdrawal, a
// TONCO pool deployment.
import { beginCell, type Cell } from "@ton/core";
import { describe, expect, it } from "vitest";
import {
  JETTON_OPCODES,
  STONFI_OPCODES,
  STONFI_V2_LIQUIDITY_OPCODES,
  storeDedustPayout,
  storeDedustPayOutFromPool,
  storeJettonBurn,
  storeJettonInternalTransfer,
  storeJettonNotify,
  storeJettonTransfer,
  storeStonfiProvideLpV2,
  storeToncoPoolInit,
  storeToncoRouterCreatePool,
} from "@tongate/contracts";
import { classifyTrace, MapInterfaceLookup, renderAction, type ActionRow, type ContractFacts } from "@tongate/actions";
import { addr, address, TraceBuilder } from "../../../tests/support/trace-builder.js";
import type { TraceTransaction } from "../src/trace.js";

const USER = addr(0x1001);
const ROUTER = addr(0x2001);
const POOL = addr(0x3001);
const LP_ACCOUNT = addr(0x3002);
const JETTON_A = addr(0x4001);
const JETTON_B = addr(0x4002);
const LP_JETTON = POOL;
const USER_A = addr(0x5001);
const USER_B = addr(0x5002);
const USER_LP = addr(0x5003);
const ROUTER_A = addr(0x6001);
const ROUTER_B = addr(0x6002);

const wallet = (owner: string, jetton: string, a: string): [string, ContractFacts] => [a, { jettonWallet: { address: a, owner, jetton, balance: 0n } }];

const facts = new MapInterfaceLookup(
  new Map<string, ContractFacts>([
    wallet(USER, JETTON_A, USER_A),
    wallet(USER, JETTON_B, USER_B),
    wallet(USER, LP_JETTON, USER_LP),
    wallet(ROUTER, JETTON_A, ROUTER_A),
    wallet(ROUTER, JETTON_B, ROUTER_B),
  ]),
);

const body = (write: (b: ReturnType<typeof beginCell>) => void): Cell => {
  const b = beginCell();
  write(b);
  return b.endCell();
};

/** owner → its wallet → the other wallet → (notify) the receiver; returns the receiver's transaction. */
function jettonTransfer(b: TraceBuilder, from: TraceTransaction, fromWallet: string, toWallet: string, to: string, amount: bigint, payload: Cell | null): TraceTransaction {
  const fp = payload === null ? null : { cell: payload, inRef: true };
  const t1 = b.send(from, fromWallet, {
    value: 300_000_000n,
    body: body((x) =>
      x.store(
        storeJettonTransfer({ queryId: 1n, amount, destination: address(to), responseDestination: address(from.account), customPayload: null, forwardTonAmount: 200_000_000n, forwardPayload: fp }),
      ),
    ),
  });
  const t2 = b.send(t1, toWallet, {
    value: 250_000_000n,
    body: body((x) => x.store(storeJettonInternalTransfer({ queryId: 1n, amount, from: address(from.account), responseAddress: address(from.account), forwardTonAmount: 200_000_000n, forwardPayload: fp }))),
  });
  return b.send(t2, to, { value: 200_000_000n, body: body((x) => x.store(storeJettonNotify({ queryId: 1n, amount, sender: address(from.account), forwardPayload: fp }))) });
}

const only = (actions: ActionRow[], type: string): ActionRow => {
  const found = actions.filter((a) => a.type === type);
  expect(found, type).toHaveLength(1);
  return found[0];
};

describe("STON.fi v2 liquidity", () => {
  it("a provision that mints LP jettons", () => {
    const b = new TraceBuilder();
    const ext = b.external(USER);
    const routerNotify = jettonTransfer(b, ext, USER_A, ROUTER_A, ROUTER, 1000n, beginCell().storeUint(STONFI_V2_LIQUIDITY_OPCODES.provide_lp, 32).endCell());
    const provide = b.send(routerNotify, POOL, {
      value: 150_000_000n,
      body: body((x) =>
        x.store(storeStonfiProvideLpV2({ queryId: 1n, fromUser: address(USER), leftAmount: 1000n, rightAmount: 0n, dexPayload: beginCell().storeUint(0, 32).endCell() })),
      ),
    });
    const add = b.send(provide, LP_ACCOUNT, { value: 100_000_000n, body: beginCell().storeUint(STONFI_V2_LIQUIDITY_OPCODES.add_liquidity, 32).storeUint(1, 64).endCell() });
    const cb = b.send(add, POOL, { value: 90_000_000n, body: beginCell().storeUint(STONFI_V2_LIQUIDITY_OPCODES.cb_add_liquidity, 32).storeUint(1, 64).endCell() });
    b.send(cb, USER_LP, {
      value: 50_000_000n,
      body: body((x) => x.store(storeJettonInternalTransfer({ queryId: 1n, amount: 777n, from: address(POOL), responseAddress: address(USER), forwardTonAmount: 0n, forwardPayload: null }))),
    });
    const r = classifyTrace(b.build(), facts);
    const d = only(r.actions, "dex_deposit_liquidity");
    expect(d).toMatchObject({ success: true, source: USER, destination: POOL });
    expect(d.dex_deposit_liquidity_data).toEqual({
      dex: "stonfi_v2",
      amount1: 1000n,
      amount2: null,
      asset1: JETTON_A,
      asset2: null,
      user_jetton_wallet_1: USER_A,
      user_jetton_wallet_2: null,
      lp_tokens_minted: 777n,
    });
    expect(renderAction(d).details).toMatchObject({ dex: "stonfi_v2", pool: POOL, destination_liquidity: POOL, lp_tokens_minted: "777" });
  });

  it("a withdrawal: the LP burn and the pool's two payouts", () => {
    const b = new TraceBuilder();
    const ext = b.external(USER);
    const burn = b.send(ext, USER_LP, { value: 500_000_000n, body: body((x) => x.store(storeJettonBurn({ queryId: 1n, amount: 555n, responseDestination: address(USER), customPayload: null }))) });
    const notify = b.send(burn, POOL, { value: 450_000_000n, body: beginCell().storeUint(STONFI_V2_LIQUIDITY_OPCODES.burn_notification_ext, 32).storeUint(1, 64).endCell() });
    const payTo = () => beginCell().storeUint(STONFI_OPCODES.stonfi_pay_to_v2, 32).storeUint(1, 64).endCell();
    const pay1 = b.send(notify, ROUTER, { value: 200_000_000n, body: payTo() });
    const pay2 = b.send(notify, ROUTER, { value: 200_000_000n, body: payTo() });
    jettonTransfer(b, pay1, ROUTER_A, USER_A, USER, 40n, null);
    jettonTransfer(b, pay2, ROUTER_B, USER_B, USER, 60n, null);
    const r = classifyTrace(b.build(), facts);
    const w = only(r.actions, "dex_withdraw_liquidity");
    expect(w).toMatchObject({ success: true, source: USER, source_secondary: USER_LP, destination: POOL, asset: LP_JETTON });
    expect(w.dex_withdraw_liquidity_data).toMatchObject({
      dex: "stonfi_v2",
      amount1: 40n,
      asset1_out: JETTON_A,
      amount2: 60n,
      asset2_out: JETTON_B,
      user_jetton_wallet_1: USER_A,
      user_jetton_wallet_2: USER_B,
      dex_jetton_wallet_1: ROUTER_A,
      dex_wallet_1: ROUTER,
      lp_tokens_burnt: 555n,
      is_refund: false,
    });
  });
});

describe("DeDust v1 LP withdrawal", () => {
  it("burns LP jettons; the pool has a TON vault and a jetton vault pay out", () => {
    const TON_VAULT = addr(0x7001);
    const A_VAULT = addr(0x7002);
    const VAULT_A = addr(0x7003);
    const f = new MapInterfaceLookup(new Map<string, ContractFacts>([wallet(USER, LP_JETTON, USER_LP), wallet(A_VAULT, JETTON_A, VAULT_A), wallet(USER, JETTON_A, USER_A)]));
    const b = new TraceBuilder();
    const ext = b.external(USER);
    const burn = b.send(ext, USER_LP, { value: 500_000_000n, body: body((x) => x.store(storeJettonBurn({ queryId: 1n, amount: 321n, responseDestination: address(USER), customPayload: null }))) });
    const notify = b.send(burn, POOL, { value: 450_000_000n, body: beginCell().storeUint(JETTON_OPCODES.jetton_burn_notification, 32).storeUint(1, 64).storeCoins(321n).endCell() });
    const payout = (amount: bigint) =>
      body((x) => x.store(storeDedustPayOutFromPool({ queryId: 1n, proof: beginCell().endCell(), amount, recipientAddr: address(USER), payload: null })));
    const toTonVault = b.send(notify, TON_VAULT, { value: 100_000_000n, body: payout(900n) });
    b.send(toTonVault, USER, { value: 900n, body: body((x) => x.store(storeDedustPayout({ queryId: 1n, payload: null }))) });
    const toJettonVault = b.send(notify, A_VAULT, { value: 100_000_000n, body: payout(50n) });
    jettonTransfer(b, toJettonVault, VAULT_A, USER_A, USER, 50n, null);
    const r = classifyTrace(b.build(), f);
    const w = only(r.actions, "dex_withdraw_liquidity");
    expect(w).toMatchObject({ success: true, source: USER, source_secondary: USER_LP, destination: POOL, asset: LP_JETTON });
    expect(w.dex_withdraw_liquidity_data).toMatchObject({
      dex: "dedust",
      amount1: 900n,
      asset1_out: null,
      dex_wallet_1: TON_VAULT,
      amount2: 50n,
      asset2_out: JETTON_A,
      dex_wallet_2: A_VAULT,
      dex_jetton_wallet_2: VAULT_A,
      user_jetton_wallet_2: USER_A,
      lp_tokens_burnt: 321n,
    });
  });
});

describe("TONCO pool deployment", () => {
  it("create_pool to the router, init to the new pool", () => {
    const content = beginCell().storeUint(1, 8).endCell();
    const b = new TraceBuilder();
    const ext = b.external(USER);
    const create = b.send(ext, ROUTER, {
      value: 1_000_000_000n,
      body: body((x) =>
        x.store(
          storeToncoRouterCreatePool({
            queryId: 1n,
            jettonWallet0: address(ROUTER_A),
            jettonWallet1: address(ROUTER_B),
            tickSpacing: 60,
            initialPriceX96: 2n ** 96n,
            protocolFee: 10,
            lpFeeBase: 30,
            lpFeeCurrent: 30,
            nftv3Content: content,
            nftv3itemContent: content,
            jetton0Minter: address(JETTON_A),
            jetton1Minter: address(JETTON_B),
            controllerAddr: null,
          }),
        ),
      ),
    });
    b.send(
      create,
      POOL,
      {
        value: 900_000_000n,
        body: body((x) =>
          x.store(
            storeToncoPoolInit({
              queryId: 1n,
              fromAdmin: false,
              hasAdmin: false,
              adminAddress: null,
              hasController: false,
              controllerAddress: null,
              setSpacing: true,
              tickSpacing: 60,
              setPrice: true,
              initialPriceX96: 2n ** 96n,
              setActive: true,
              poolActive: true,
              protocolFee: 10,
              lpFeeBase: 30,
              lpFeeCurrent: 30,
              nftv3Content: content,
              nftv3itemContent: content,
              minters: { jetton0Minter: address(JETTON_A), jetton1Minter: address(JETTON_B) },
            }),
          ),
        ),
      },
      { origStatus: "uninit", endStatus: "active" },
    );
    const r = classifyTrace(b.build(), facts);
    const d = only(r.actions, "tonco_deploy_pool");
    expect(d).toMatchObject({ success: true, source: USER, destination: ROUTER, destination_secondary: POOL });
    expect(renderAction(d).details).toMatchObject({
      pool: POOL,
      router: ROUTER,
      router_jetton_wallet_1: ROUTER_A,
      jetton_minter_2: JETTON_B,
      tick_spacing: "60",
      pool_active: true,
    });
  });
});
