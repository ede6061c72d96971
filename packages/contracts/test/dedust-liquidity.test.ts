// DeDust liquidity bodies of toncenter's classifier traces: each loads with the loader of its
// opcode and stores back to the same cell; every constructor the matchers read has a real body
// (the payouts and payments swaps read too are checked in dedust-swaps.test.ts).
import { describe, expect, it } from "vitest";
import * as C from "@tongate/contracts";
import { actionTraceMessages } from "./fixtures.js";
import { codec, roundTripMessages, roundTripNested, type Codec } from "./liquidity-bodies.js";

const OP = C.DEDUST_LIQUIDITY_OPCODES;

const CODECS: Codec[] = [
  codec("dedust_deposit_liquidity", OP.deposit_liquidity_native, C.loadDedustDepositLiquidityNative, C.storeDedustDepositLiquidityNative),
  codec("dedust_deposit_liquidity_all", OP.deposit_liquidity_all, C.loadDedustDepositLiquidityAll, C.storeDedustDepositLiquidityAll),
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
  codec("dedust_v2_pay_jetton", C.DEDUST_V2_PAYMENT_OPCODES.dedust_v2_pay_jetton, C.loadDedustV2PayJetton, C.storeDedustV2PayJetton),
  codec("dedust_v2_deposit", OP.v2_deposit_payload, C.loadDedustV2DepositPayload, C.storeDedustV2DepositPayload),
];

describe("DeDust liquidity bodies round-trip (real fixture bodies)", () => {
  const messages = actionTraceMessages();

  it("every body with a DeDust liquidity opcode loads and stores to the same cell", () => {
    const checked = roundTripMessages(messages, CODECS);
    for (const c of checked) expect(c.got, `${c.name} ${c.message}`).toBe(c.want);
    expect(CODECS.filter((c) => !checked.some((x) => x.name === c.name)).map((c) => c.name)).toEqual([]);
  });

  it("nested payloads (forward and payment payloads) round-trip too", () => {
    const checked = roundTripNested(messages, NESTED);
    for (const c of checked) expect(c.got, `${c.name} in ${c.message}`).toBe(c.want);
    expect(NESTED.filter((c) => !checked.some((x) => x.name === c.name)).map((c) => c.name)).toEqual([]);
  });
});
