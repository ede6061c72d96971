// The last call stage: the service's RPC over its transport (in-process or gRPC; both run the runtime's
// interceptors), within the call deadline, its answer rendered by toncenter's conventions.
import type { DescMethodUnary, DescService } from "@bufbuild/protobuf";
import type { Transport } from "@connectrpc/connect";
import { renderResult } from "@tongate/proto/json/render.js";
import type { Answer, Call, Handler } from "./stage.js";

export function callService(transports: Map<DescService, Transport>, timeoutMs: number): Handler<Call, Answer> {
  return async ({ route, input }) => {
    const method = route.method as DescMethodUnary;
    const res = await transports.get(route.service)!.unary(method, undefined, timeoutMs, undefined, input as never);
    return { result: renderResult(method.output, res.message), cached: false };
  };
}
