// DeDust liquidity bodies of toncenter's classifier traces: each loads with the loader of its
// opcode and stores back to the same cell; every constructor the matchers read has a real body
// (the payouts and payments swaps read too are checked in dedust-swaps.test.ts).
import { describe } from "vitest";
import * as C from "@tongate/contracts";
import { roundTrip } from "./dex-bodies.js";

const OP = C.DEDUST_LIQUIDITY_OPCODES;

describe("DeDust liquidity bodies", () => {
  roundTrip("dedust_deposit_liquidity", "message", OP.deposit_liquidity_native, C.loadDedustDepositLiquidityNative, C.storeDedustDepositLiquidityNative);
  roundTrip("dedust_deposit_liquidity_all", "message", OP.deposit_liquidity_all, C.loadDedustDepositLiquidityAll, C.storeDedustDepositLiquidityAll);
  roundTrip("dedust_v2_withdraw", "message", OP.v2_withdraw, C.loadDedustV2Withdraw, C.storeDedustV2Withdraw);
  roundTrip("dedust_v2_withdrawal", "message", OP.v2_withdrawal_event, C.loadDedustV2WithdrawalEvent, C.storeDedustV2WithdrawalEvent);
  roundTrip("dedust_v2_deposit_event", "message", OP.v2_deposit_event, C.loadDedustV2DepositEvent, C.storeDedustV2DepositEvent);
  roundTrip("dedust_v2_credit_asset", "message", OP.v2_credit_asset, C.loadDedustV2CreditAsset, C.storeDedustV2CreditAsset);
  roundTrip("dedust_v2_join_liquidity", "message", OP.v2_join_liquidity, C.loadDedustV2JoinLiquidity, C.storeDedustV2JoinLiquidity);
  roundTrip("dedust_v2_payout_position_fees", "message", OP.v2_payout_position_fees, C.loadDedustV2PayoutPositionFees, C.storeDedustV2PayoutPositionFees);
  roundTrip("dedust_v2_claim_reward", "message", OP.v2_claim_reward, C.loadDedustV2ClaimReward, C.storeDedustV2ClaimReward);
  roundTrip("dedust_v2_payout_reward", "message", OP.v2_payout_reward, C.loadDedustV2PayoutReward, C.storeDedustV2PayoutReward);
});

/** Payloads nested in other bodies: a jetton deposit's forward payload, a pay_* payment payload. */
describe("DeDust liquidity payloads nested in bodies", () => {
  roundTrip("dedust_deposit_liquidity (forward payload)", "nested", OP.deposit_liquidity_jetton_payload, C.loadDedustDepositLiquidityJettonPayload, C.storeDedustDepositLiquidityJettonPayload);
  roundTrip("dedust_v2_pay_jetton (nested)", "nested", C.DEDUST_V2_PAYMENT_OPCODES.dedust_v2_pay_jetton, C.loadDedustV2PayJetton, C.storeDedustV2PayJetton);
  roundTrip("dedust_v2_deposit", "nested", OP.v2_deposit_payload, C.loadDedustV2DepositPayload, C.storeDedustV2DepositPayload);
});
