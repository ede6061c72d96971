// DEX swaps the toncenter fixtures do not show, on traces built from cells: DeDust CPMM v2 swaps
// that went through (the fixtures have only refused ones), over one pool and over a route of two.
import { Address, beginCell, type Cell } from "@ton/core";
import {
  storeDedustV2PayJetton,
  storeDedustV2PayNative,
  storeDedustV2SwapEvent,
  storeDedustV2SwapPayload,
  storeDedustV2SwapStep,
  storeJettonInternalTransfer,
  storeJettonNotify,
  storeJettonTransfer,
} from "@tongate/contracts";
import { describe, expect, it } from "vitest";
import { classifyTrace, MapInterfaceLookup, type ActionRow, type ContractFacts } from "../src/index.js";
import { buildTrace, type TxSpec } from "./support/build-trace.js";

const addr = (byte: number) => `0:${byte.toString(16).toUpperCase().padStart(2, "0").repeat(32)}`;
const parse = (raw: string) => Address.parseRaw(raw);

const USER = addr(0x11);
const USER_J1 = addr(0x12);
const USER_J2 = addr(0x13);
const POOL_1 = addr(0x21);
const POOL_1_J1 = addr(0x22);
const POOL_2 = addr(0x31);
const POOL_2_J1 = addr(0x32);
const POOL_2_J2 = addr(0x33);
const J1 = addr(0x41);
const J2 = addr(0x42);

const wallet = (address: string, owner: string, jetton: string): [string, ContractFacts] => [address, { jettonWallet: { address, owner, jetton, balance: 0n } }];
const FACTS = new Map<string, ContractFacts>([
  wallet(USER_J1, USER, J1),
  wallet(USER_J2, USER, J2),
  wallet(POOL_1_J1, POOL_1, J1),
  wallet(POOL_2_J1, POOL_2, J1),
  wallet(POOL_2_J2, POOL_2, J2),
  [POOL_1, { dedustPool: { assets: [{ isTon: true, address: null }, { isTon: false, address: J1 }] } }],
  [POOL_2, { dedustPool: { assets: [{ isTon: false, address: J1 }, { isTon: false, address: J2 }] } }],
]);

const cell = (store: (b: import("@ton/core").Builder) => void): Cell => beginCell().store(store).endCell();

function swapPayload(minOut: bigint, next: Cell | null): Cell {
  return cell(storeDedustV2SwapPayload({ minimalAmountOut: minOut, deadline: 0n, next, partner: null, referrer: null }));
}

function swapEvent(amountIn: bigint, amountOut: bigint): Cell {
  return cell(storeDedustV2SwapEvent({ xToY: true, amountIn, amountOut, initiator: parse(USER), recipient: parse(USER), nextState: beginCell().endCell(), fees: beginCell().endCell() }));
}

/** owner → its wallet (transfer) → the receiver's wallet (internal_transfer) → the receiver (notification). */
function jettonTransfer(owner: string, from: string, to: string, receiver: string, amount: bigint, payload: Cell | null, receiverTx: Omit<TxSpec, "account" | "source" | "body">): TxSpec {
  const forwardPayload = payload === null ? null : { cell: payload, inRef: true };
  return {
    account: from,
    source: owner,
    value: 300_000_000n,
    body: cell(storeJettonTransfer({ queryId: 1n, amount, destination: parse(receiver), responseDestination: parse(USER), customPayload: null, forwardTonAmount: 1n, forwardPayload })),
    children: [
      {
        account: to,
        source: from,
        value: 200_000_000n,
        body: cell(storeJettonInternalTransfer({ queryId: 1n, amount, from: parse(owner), responseAddress: parse(USER), forwardTonAmount: 1n, forwardPayload })),
        children: [{ account: receiver, source: to, value: 1n, body: cell(storeJettonNotify({ queryId: 1n, amount, sender: parse(owner), forwardPayload })), ...receiverTx }],
      },
    ],
  };
}

function swaps(root: TxSpec): ActionRow[] {
  const c = classifyTrace(buildTrace(root), new MapInterfaceLookup(FACTS));
  expect(c.state, c.error).toBe("ok");
  return c.actions.filter((a) => a.type === "jetton_swap");
}

describe("DeDust v2 swaps", () => {
  it("TON → jetton over one pool: pay_native, the swap event, the jetton payout", () => {
    const payNative = cell(
      storeDedustV2PayNative({ queryId: 7n, amount: 5_000_000_000n, paymentPayload: swapPayload(900n, null), payoutConfig: beginCell().endCell() }),
    );
    const [swap, ...rest] = swaps({
      account: POOL_1,
      source: USER,
      value: 5_200_000_000n,
      body: payNative,
      logs: [swapEvent(5_000_000_000n, 1_000n)],
      children: [jettonTransfer(POOL_1, POOL_1_J1, USER_J1, USER, 1_000n, null, {})],
    });
    expect(rest).toEqual([]);
    expect(swap.success).toBe(true);
    expect(swap.asset).toBeNull();
    expect(swap.asset2).toBe(J1);
    expect(swap.source).toBe(USER);
    expect(swap.destination).toBe(USER);
    expect(swap.destination_secondary).toBe(USER_J1);
    expect(swap.jetton_swap_data).toMatchObject({
      dex: "dedust_v2",
      sender: USER,
      min_out_amount: 900n,
      dex_incoming_transfer: { asset: null, amount: 5_000_000_000n, source: USER, destination: POOL_1, source_jetton_wallet: null },
      dex_outgoing_transfer: { asset: J1, amount: 1_000n, source: POOL_1, source_jetton_wallet: POOL_1_J1, destination: USER, destination_jetton_wallet: USER_J1 },
      peer_swaps: [],
    });
  });

  it("TON → J1 → J2 over a route of two pools: the hops are peer_swaps, the floor is the last step's", () => {
    const step = cell(storeDedustV2SwapStep({ pool: parse(POOL_2), minimalAmountOut: 40n, deadline: 0n, next: null }));
    const payNative = cell(storeDedustV2PayNative({ queryId: 7n, amount: 5_000_000_000n, paymentPayload: swapPayload(1n, step), payoutConfig: beginCell().endCell() }));
    // pool 1 passes J1 on to pool 2 (a jetton carrier), pool 2 swaps it and pays J2 out
    const payJetton = cell(storeDedustV2PayJetton({ paymentPayload: swapPayload(40n, null), payoutConfig: beginCell().endCell() }));
    const secondPool = { logs: [swapEvent(1_000n, 50n)], children: [jettonTransfer(POOL_2, POOL_2_J2, USER_J2, USER, 50n, null, {})] };
    const [swap, ...rest] = swaps({
      account: POOL_1,
      source: USER,
      value: 5_300_000_000n,
      body: payNative,
      logs: [swapEvent(5_000_000_000n, 1_000n)],
      children: [jettonTransfer(POOL_1, POOL_1_J1, POOL_2_J1, POOL_2, 1_000n, payJetton, secondPool)],
    });
    expect(rest).toEqual([]);
    expect(swap.success).toBe(true);
    expect(swap.asset).toBeNull();
    expect(swap.asset2).toBe(J2);
    expect(swap.jetton_swap_data).toMatchObject({
      dex: "dedust_v2",
      min_out_amount: 40n,
      dex_incoming_transfer: { asset: null, amount: 5_000_000_000n, source: USER, destination: POOL_1 },
      dex_outgoing_transfer: { asset: J2, amount: 50n, source: POOL_2, source_jetton_wallet: POOL_2_J2, destination: USER, destination_jetton_wallet: USER_J2 },
      peer_swaps: [
        { asset_in: null, amount_in: 5_000_000_000n, asset_out: J1, amount_out: 1_000n },
        { asset_in: J1, amount_in: 1_000n, asset_out: J2, amount_out: 50n },
      ],
    });
  });
});
