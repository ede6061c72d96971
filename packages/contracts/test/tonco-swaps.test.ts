// TONCO's swap bodies: every real one of the fixture traces loads and stores back to itself.
import { describe } from "vitest";
import { loadToncoPoolSwap, loadToncoRouterPayTo, loadToncoSwapRequest, storeToncoPoolSwap, storeToncoRouterPayTo, storeToncoSwapRequest, TONCO_OPCODES, TONCO_PAY_TO_OPCODES } from "@tongate/contracts";
import { roundTrip } from "./dex-bodies.js";

const OP = TONCO_OPCODES;

describe("TONCO swap bodies", () => {
  roundTrip("tonco_pool_swap", "message", OP.tonco_pool_swap, loadToncoPoolSwap, storeToncoPoolSwap);
  roundTrip("tonco_swap_request", "payload", OP.tonco_pool_swap, loadToncoSwapRequest, storeToncoSwapRequest);
  roundTrip("tonco_router_pay_to", "message", TONCO_PAY_TO_OPCODES.tonco_router_pay_to, loadToncoRouterPayTo, storeToncoRouterPayTo);
});
