// API v2: runGetMethod (toncenter's legacy [type, value] stack) and runGetMethodStd (tonlib's typed
// stack entries), both through runSmcMethod.
import { create, fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";
import { ListValueSchema } from "@bufbuild/protobuf/wkt";
import {
  RunGetMethodResponseSchema,
  RunGetMethodStdResponseSchema,
  type RunGetMethodRequest,
  type RunGetMethodStdRequest,
} from "@tongate/proto/gen/tongate/v2/run_get_method_pb.js";
import type { ChainReader } from "./chain.js";
import { addressParam, tonBlockId, transactionId } from "./values.js";
import { runSmcMethod } from "./smc.js";
import { legacyEntry, legacyJson, typedEntry, typedEntryJson, typedProto, type Json } from "./tvm-stack.js";

export function getMethodsMethods(chain: ChainReader) {
  return {
    async runGetMethod(req: RunGetMethodRequest) {
      const address = addressParam("address", req.address);
      const stack = req.stack.map((e, i) => legacyEntry(toJson(ListValueSchema, e) as Json, `stack[${i}]`));
      const r = await runSmcMethod(chain, "runGetMethod", address, req.method, stack, req.seqno);
      return create(RunGetMethodResponseSchema, {
        gasUsed: Number(r.gasUsed),
        stack: r.stack.map((item) => fromJson(ListValueSchema, legacyJson(item) as JsonValue)),
        exitCode: r.exitCode,
        blockId: tonBlockId(r.block),
        lastTransactionId: transactionId(r.lastTransactionId.lt, r.lastTransactionId.hash),
      });
    },
    async runGetMethodStd(req: RunGetMethodStdRequest) {
      const address = addressParam("address", req.address);
      const stack = req.stack.map((e, i) => typedEntry(typedEntryJson(e), `stack[${i}]`));
      const r = await runSmcMethod(chain, "runGetMethodStd", address, req.method, stack, req.seqno);
      return create(RunGetMethodStdResponseSchema, { gasUsed: Number(r.gasUsed), stack: r.stack.map(typedProto), exitCode: r.exitCode });
    },
  };
}
