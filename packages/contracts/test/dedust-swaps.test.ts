// DeDust's swap bodies (the vault/pool protocol and CPMM v2): every real one of the fixture traces
// loads and stores back to itself.
import { describe } from "vitest";
import {
  DEDUST_OPCODES,
  DEDUST_PAYOUT_OPCODES,
  DEDUST_V2_PAYMENT_OPCODES,
  loadDedustPayout,
  loadDedustPayOutFromPool,
  loadDedustSwap,
  loadDedustSwapEvent,
  loadDedustSwapExternal,
  loadDedustSwapForwardPayload,
  loadDedustSwapPeer,
  loadDedustV2PayJetton,
  loadDedustV2PayNative,
  loadDedustV2Payout,
  storeDedustPayout,
  storeDedustPayOutFromPool,
  storeDedustSwap,
  storeDedustSwapEvent,
  storeDedustSwapExternal,
  storeDedustSwapForwardPayload,
  storeDedustSwapPeer,
  storeDedustV2PayJetton,
  storeDedustV2PayNative,
  storeDedustV2Payout,
} from "@tongate/contracts";
import { roundTrip } from "./dex-bodies.js";

const OP = DEDUST_OPCODES;
const PAYOUT = DEDUST_PAYOUT_OPCODES;
const V2 = DEDUST_V2_PAYMENT_OPCODES;

describe("DeDust swap bodies", () => {
  roundTrip("dedust_swap", "message", OP.dedust_swap, loadDedustSwap, storeDedustSwap);
  roundTrip("dedust_swap_forward_payload", "payload", OP.dedust_swap_forward_payload, loadDedustSwapForwardPayload, storeDedustSwapForwardPayload);
  roundTrip("dedust_swap_external", "message", OP.dedust_swap_external, loadDedustSwapExternal, storeDedustSwapExternal);
  roundTrip("dedust_swap_peer", "message", OP.dedust_swap_peer, loadDedustSwapPeer, storeDedustSwapPeer);
  roundTrip("dedust_swap_event", "message", OP.dedust_swap_event, loadDedustSwapEvent, storeDedustSwapEvent);
  roundTrip("dedust_pay_out_from_pool", "message", PAYOUT.dedust_pay_out_from_pool, loadDedustPayOutFromPool, storeDedustPayOutFromPool);
  roundTrip("dedust_payout", "message", PAYOUT.dedust_payout, loadDedustPayout, storeDedustPayout);
});

describe("DeDust v2 swap bodies", () => {
  roundTrip("dedust_v2_pay_native", "message", V2.dedust_v2_pay_native, loadDedustV2PayNative, storeDedustV2PayNative);
  roundTrip("dedust_v2_pay_jetton", "payload", V2.dedust_v2_pay_jetton, loadDedustV2PayJetton, storeDedustV2PayJetton);
  roundTrip("dedust_v2_payout", "message", V2.dedust_v2_payout, loadDedustV2Payout, storeDedustV2Payout);
});
