// API v2's estimateFee: the fees of an external message, from its emulation on the latest state
// (fee-estimate.ts). Sending is the send service's.
import { create } from "@bufbuild/protobuf";
import type { StateInit } from "@ton/core";
import { EXTERNAL_MESSAGE_LIMITS } from "@tongate/ton";
import { EstimateFeeResponseSchema, FeesSchema, type EstimateFeeRequest } from "@tongate/proto/gen/tongate/v2/send_pb.js";
import type { ChainReader } from "./chain.js";
import { estimateFees, type Fees } from "./fee-estimate.js";
import { addressParam, bocParam } from "./values.js";

const feesMessage = (f: Fees) => create(FeesSchema, { inFwdFee: Number(f.inFwdFee), storageFee: Number(f.storageFee), gasFee: Number(f.gasFee), fwdFee: Number(f.fwdFee) });

export function estimateFeeMethods(chain: ChainReader) {
  return {
    async estimateFee(req: EstimateFeeRequest) {
      const address = addressParam("address", req.address);
      const body = bocParam("body", req.body, EXTERNAL_MESSAGE_LIMITS);
      const code = bocParam("init_code", req.initCode, EXTERNAL_MESSAGE_LIMITS, true);
      const data = bocParam("init_data", req.initData, EXTERNAL_MESSAGE_LIMITS, true);
      const init: StateInit | undefined = code || data ? { code, data } : undefined;
      const r = await estimateFees(chain, "estimateFee", { address, body, init, ignoreChksig: req.ignoreChksig ?? true });
      return create(EstimateFeeResponseSchema, { sourceFees: feesMessage(r.source), destinationFees: r.destinations.map(feesMessage) });
    },
  };
}
