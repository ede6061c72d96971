// STON.fi's swap bodies: every real one of the fixture traces loads and stores back to itself.
import { describe } from "vitest";
import {
  loadPtonTonTransfer,
  loadStonfiPaymentRequest,
  loadStonfiPayToV2,
  loadStonfiSwap,
  loadStonfiSwapForwardPayload,
  loadStonfiSwapV2,
  loadStonfiSwapV2ForwardPayload,
  PTON_OPCODES,
  STONFI_OPCODES,
  storePtonTonTransfer,
  storeStonfiPaymentRequest,
  storeStonfiPayToV2,
  storeStonfiSwap,
  storeStonfiSwapForwardPayload,
  storeStonfiSwapV2,
  storeStonfiSwapV2ForwardPayload,
} from "@tongate/contracts";
import { roundTrip } from "./dex-bodies.js";

const OP = STONFI_OPCODES;

describe("STON.fi swap bodies", () => {
  roundTrip("stonfi_swap", "message", OP.stonfi_swap, loadStonfiSwap, storeStonfiSwap);
  roundTrip("stonfi_swap_forward_payload", "payload", OP.stonfi_swap, loadStonfiSwapForwardPayload, storeStonfiSwapForwardPayload);
  roundTrip("stonfi_payment_request", "message", OP.stonfi_payment_request, loadStonfiPaymentRequest, storeStonfiPaymentRequest);
  roundTrip("stonfi_swap_v2", "message", OP.stonfi_swap_v2, loadStonfiSwapV2, storeStonfiSwapV2);
  roundTrip("stonfi_swap_v2_forward_payload", "payload", OP.stonfi_swap_v2, loadStonfiSwapV2ForwardPayload, storeStonfiSwapV2ForwardPayload);
  roundTrip("stonfi_pay_to_v2", "message", OP.stonfi_pay_to_v2, loadStonfiPayToV2, storeStonfiPayToV2);
  roundTrip("pton_ton_transfer", "message", PTON_OPCODES.pton_ton_transfer, loadPtonTonTransfer, storePtonTonTransfer);
});
