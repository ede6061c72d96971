// swap.coffee bodies from toncenter's classifier traces: each constructor loads at least one real
// body (a message, or a jetton transfer's forward payload), and every body it loads whole stores
// back to the same cell.
import { beginCell, type Builder, type Cell, type Slice } from "@ton/core";
import { describe, expect, it } from "vitest";
import * as C from "@tongate/contracts";
import { actionTraceMessages } from "./fixtures.js";

interface Ctor {
  name: string;
  opcode: number;
  /** a jetton forward payload rather than a message body */
  payload: boolean;
  load: (s: Slice) => unknown;
  /** the body stored back from what was loaded, or null when the loader does not read it whole */
  storeBack: (body: Cell) => Cell | null;
}

function ctor<T>(name: string, opcode: number, load: (s: Slice) => T, store: (v: T) => (b: Builder) => void, payload = false): Ctor {
  const storeBack = (body: Cell): Cell | null => {
    const s = body.beginParse();
    let value: T;
    try {
      value = load(s);
    } catch {
      return null;
    }
    return s.remainingBits === 0 && s.remainingRefs === 0 ? beginCell().store(store(value)).endCell() : null;
  };
  return { name, opcode, payload, load, storeBack };
}

const OP = C.COFFEE_OPCODES;
const CTORS: Ctor[] = [
  ctor("coffee_swap", OP.coffee_swap, C.loadCoffeeSwap, C.storeCoffeeSwap),
  ctor("coffee_swap_succeeded", OP.coffee_swap_succeeded, C.loadCoffeeSwapSucceeded, C.storeCoffeeSwapSucceeded),
  ctor("coffee_payout_internal", OP.coffee_payout_internal, C.loadCoffeePayoutInternal, C.storeCoffeePayoutInternal),
  ctor("coffee_payout", OP.coffee_payout, C.loadCoffeePayout, C.storeCoffeePayout),
  ctor("coffee_create_pool", OP.coffee_create_pool, C.loadCoffeeCreatePool, C.storeCoffeeCreatePool),
  ctor("coffee_create_pool_jetton", OP.coffee_create_pool_jetton, C.loadCoffeeCreatePoolJetton, C.storeCoffeeCreatePoolJetton, true),
  ctor("coffee_create_pool_request", OP.coffee_create_pool_request, C.loadCoffeeCreatePoolRequest, C.storeCoffeeCreatePoolRequest),
  ctor("coffee_create_liquidity_depository_request", OP.coffee_create_liquidity_depository_request, C.loadCoffeeCreateLiquidityDepositoryRequest, C.storeCoffeeCreateLiquidityDepositoryRequest),
  ctor("coffee_deposit_liquidity_succeeded", OP.coffee_deposit_liquidity_succeeded, C.loadCoffeeDepositLiquiditySucceeded, C.storeCoffeeDepositLiquiditySucceeded),
  ctor("coffee_create_vault", OP.coffee_create_vault, C.loadCoffeeCreateVault, C.storeCoffeeCreateVault),
  ctor("coffee_mev_protect_hold_funds", OP.coffee_mev_protect_hold_funds, C.loadCoffeeMevProtectHoldFunds, C.storeCoffeeMevProtectHoldFunds),
  ctor("coffee_staking_deposit", OP.coffee_staking_deposit, C.loadCoffeeStakingDeposit, C.storeCoffeeStakingDeposit),
  ctor("staking_position_withdraw_2", OP.coffee_staking_position_withdraw, C.loadCoffeeStakingPositionWithdraw2, C.storeCoffeeStakingPositionWithdraw2),
  ctor("staking_position_withdraw_3", OP.coffee_staking_position_withdraw, C.loadCoffeeStakingPositionWithdraw3, C.storeCoffeeStakingPositionWithdraw3),
  ctor("coffee_staking_claim_rewards", OP.coffee_staking_claim_rewards, C.loadCoffeeStakingClaimRewards, C.storeCoffeeStakingClaimRewards),
];

const messages = actionTraceMessages();

/** Forward payloads of the traces' jetton transfers. */
const payloads: Cell[] = messages.flatMap((m) => {
  if (m.opcode !== C.JETTON_OPCODES.jetton_transfer) return [];
  try {
    const p = C.loadJettonTransfer(m.body.beginParse()).forwardPayload;
    return p === null ? [] : [p.cell];
  } catch {
    return [];
  }
});

const opcodeOf = (c: Cell) => (c.bits.length >= 32 ? c.beginParse().preloadUint(32) : null);

/** The bodies a constructor reads whole (some opcodes have several layouts), with what it stores back. */
function loadedWhole(c: Ctor): { body: Cell; stored: Cell }[] {
  const candidates = c.payload ? payloads.filter((p) => opcodeOf(p) === c.opcode) : messages.filter((m) => m.opcode === c.opcode).map((m) => m.body);
  return candidates.flatMap((body) => {
    const stored = c.storeBack(body);
    return stored === null ? [] : [{ body, stored }];
  });
}

describe("swap.coffee bodies", () => {
  it.each(CTORS.map((c) => [c.name, c] as const))("%s: real bodies store back to themselves", (_, c) => {
    const loaded = loadedWhole(c);
    expect(loaded.length, `${c.name}: no real body in the traces`).toBeGreaterThan(0);
    for (const { body, stored } of loaded) expect(stored.hash().toString("hex")).toBe(body.hash().toString("hex"));
  });

  it("reads a jetton asset as its master", () => {
    const master = C.loadCoffeeCreateVault(beginCell().store(C.storeCoffeeCreateVault({ queryId: 1n, asset: { kind: "native" } })).endCell().beginParse());
    expect(master.asset).toEqual({ kind: "native" });
    const vaults = messages.filter((m) => m.opcode === OP.coffee_create_vault);
    expect(vaults.length).toBeGreaterThan(0);
    const vault = C.loadCoffeeCreateVault(vaults[0].body.beginParse());
    expect(vault.asset.kind === "jetton" && vault.asset.master.toRawString().toUpperCase()).toBe("0:A93DF3EB3194EABA7997892CB81C6A95BC872078C6B275354FFB55CB674C9600");
  });

  it("refuses another opcode", () => {
    const other = beginCell().storeUint(0x12345678, 32).storeUint(0, 64).endCell();
    for (const c of CTORS) expect(() => c.load(other.beginParse()), c.name).toThrow(C.ContractDataError);
  });
});
