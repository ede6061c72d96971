// DeDust liquidity bodies of toncenter's classifier traces: each loads with the loader of its
// opcode and stores back to the same cell; every constructor the matchers read has a real body.
import { beginCell, type Builder, type Cell, type Slice } from "@ton/core";
import { describe, expect, it } from "vitest";
import * as C from "@tongate/contracts";
import { actionTraceMessages } from "./fixtures.js";

const OP = C.DEDUST_LIQUIDITY_OPCODES;

interface Codec {
  name: string;
  opcode: number;
  roundTrip: (s: Slice) => Cell;
}

function codec<T>(name: string, opcode: number, load: (s: Slice) => T, store: (v: T) => (b: Builder) => void): Codec {
  return { name, opcode, roundTrip: (s) => beginCell().store(store(load(s))).endCell() };
}

const CODECS: Codec[] = [
  codec("dedust_deposit_liquidity", OP.deposit_liquidity_native, C.loadDedustDepositLiquidityNative, C.storeDedustDepositLiquidityNative),
  codec("dedust_deposit_liquidity_all", OP.deposit_liquidity_all, C.loadDedustDepositLiquidityAll, C.storeDedustDepositLiquidityAll),
  codec("dedust_pay_out_from_pool", OP.pay_out_from_pool, C.loadDedustPayOutFromPool, C.storeDedustPayOutFromPool),
  codec("dedust_v2_pay_native", OP.v2_pay_native, C.loadDedustV2PayNative, C.storeDedustV2PayNative),
  codec("dedust_v2_payout", OP.v2_payout, C.loadDedustV2Payout, C.storeDedustV2Payout),
  codec("dedust_v2_withdraw", OP.v2_withdraw, C.loadDedustV2Withdraw, C.storeDedustV2Withdraw),
  codec("dedust_v2_withdrawal", OP.v2_withdrawal_event, C.loadDedustV2WithdrawalEvent, C.storeDedustV2WithdrawalEvent),
  codec("dedust_v2_deposit_event", OP.v2_deposit_event, C.loadDedustV2DepositEvent, C.storeDedustV2DepositEvent),
  codec("dedust_v2_credit_asset", OP.v2_credit_asset, C.loadDedustV2CreditAsset, C.storeDedustV2CreditAsset),
  codec("dedust_v2_join_liquidity", OP.v2_join_liquidity, C.loadDedustV2JoinLiquidity, C.storeDedustV2JoinLiquidity),
  codec("dedust_v2_payout_position_fees", OP.v2_payout_position_fees, C.loadDedustV2PayoutPositionFees, C.storeDedustV2PayoutPositionFees),
  codec("dedust_v2_claim_reward", OP.v2_claim_reward, C.loadDedustV2ClaimReward, C.storeDedustV2ClaimReward),
  codec("dedust_v2_payout_reward", OP.v2_payout_reward, C.loadDedustV2PayoutReward, C.storeDedustV2PayoutReward),
];

/** Payloads nested in other bodies: a jetton transfer's forward payload, a pay_* payment payload. */
const NESTED: Codec[] = [
  codec("dedust_deposit_liquidity (forward payload)", OP.deposit_liquidity_jetton_payload, C.loadDedustDepositLiquidityJettonPayload, C.storeDedustDepositLiquidityJettonPayload),
  codec("dedust_v2_pay_jetton", OP.v2_pay_jetton, C.loadDedustV2PayJetton, C.storeDedustV2PayJetton),
  codec("dedust_v2_deposit", OP.v2_deposit_payload, C.loadDedustV2DepositPayload, C.storeDedustV2DepositPayload),
];

/** Every cell of a body's tree (nested payloads sit in refs). */
function cellsOf(c: Cell, out: Cell[] = []): Cell[] {
  out.push(c);
  for (const r of c.refs) cellsOf(r, out);
  return out;
}

describe("DeDust liquidity bodies round-trip (real fixture bodies)", () => {
  const messages = actionTraceMessages();
  const seen = new Map<string, number>();
  const byOpcode = new Map(CODECS.map((c) => [c.opcode, c]));

  it("every body with a DeDust liquidity opcode loads and stores to the same cell", () => {
    for (const m of messages) {
      const c = m.opcode === null ? undefined : byOpcode.get(m.opcode);
      if (!c) continue;
      expect(c.roundTrip(m.body.beginParse()).hash().toString("hex"), `${c.name} ${m.hash}`).toBe(m.body.hash().toString("hex"));
      seen.set(c.name, (seen.get(c.name) ?? 0) + 1);
    }
    expect(CODECS.filter((c) => !seen.has(c.name)).map((c) => c.name)).toEqual([]);
  });

  it("nested payloads (forward and payment payloads) round-trip too", () => {
    const found = new Map<string, number>();
    const byOp = new Map(NESTED.map((c) => [c.opcode, c]));
    const done = new Set<string>();
    for (const m of messages) {
      for (const cell of cellsOf(m.body)) {
        if (cell.isExotic || cell.bits.length < 32 || done.has(cell.hash().toString("hex"))) continue;
        const s = cell.beginParse();
        // a forward payload may also be the rest of a body: look at every cell's first 32 bits
        const c = byOp.get(s.preloadUint(32));
        if (!c) continue;
        done.add(cell.hash().toString("hex"));
        let rebuilt: Cell;
        try {
          rebuilt = c.roundTrip(s);
        } catch {
          continue; // 32 bits that only look like the opcode
        }
        expect(rebuilt.hash().toString("hex"), `${c.name} in ${m.hash}`).toBe(cell.hash().toString("hex"));
        found.set(c.name, (found.get(c.name) ?? 0) + 1);
      }
    }
    expect(NESTED.filter((c) => !found.has(c.name)).map((c) => c.name)).toEqual([]);
  });
});
