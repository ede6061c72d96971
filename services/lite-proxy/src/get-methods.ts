// API v2: runGetMethod (toncenter's legacy [type, value] stack) and runGetMethodStd (tonlib's typed
// stack entries), both through runSmcMethod.
import { create, fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";
import { ListValueSchema } from "@bufbuild/protobuf/wkt";
import { MAX_TUPLE_NESTING } from "@tongate/ton";
import {
  RunGetMethodResponseSchema,
  RunGetMethodStdResponseSchema,
  type RunGetMethodRequest,
  type RunGetMethodStdRequest,
} from "@tongate/proto/gen/tongate/v2/run_get_method_pb.js";
import type { ChainReader } from "./chain.js";
import { addressParam, tonBlockId, transactionId } from "./values.js";
import { runSmcMethod } from "./smc.js";
import { legacyStack, typedStack, type Json } from "./stack-input.js";
import { legacyStackJson, MAX_LEGACY_CELL_DEPTH, typedProto } from "./tvm-stack.js";

/** The JSON levels of a legacy entry: its cell objects (two levels per cell) or nested tuples (three per tuple), with room. */
const LEGACY_JSON_LEVELS = 2 * MAX_LEGACY_CELL_DEPTH + 3 * MAX_TUPLE_NESTING + 16;

export function getMethodsMethods(chain: ChainReader) {
  return {
    async runGetMethod(req: RunGetMethodRequest) {
      const address = addressParam("address", req.address);
      const stack = legacyStack(req.stack, (e) => toJson(ListValueSchema, e) as Json);
      const r = await runSmcMethod(chain, "runGetMethod", address, req.method, stack, req.seqno);
      return create(RunGetMethodResponseSchema, {
        gasUsed: Number(r.gasUsed),
        stack: legacyStackJson(r.stack).map((item) => fromJson(ListValueSchema, item as JsonValue, { recursionLimit: LEGACY_JSON_LEVELS })),
        exitCode: r.exitCode,
        blockId: tonBlockId(r.block),
        lastTransactionId: transactionId(r.lastTransactionId.lt, r.lastTransactionId.hash),
      });
    },
    async runGetMethodStd(req: RunGetMethodStdRequest) {
      const address = addressParam("address", req.address);
      const stack = typedStack(req.stack);
      const r = await runSmcMethod(chain, "runGetMethodStd", address, req.method, stack, req.seqno);
      return create(RunGetMethodStdResponseSchema, { gasUsed: Number(r.gasUsed), stack: r.stack.map(typedProto), exitCode: r.exitCode });
    },
  };
}
