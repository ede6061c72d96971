// The last call stage: the service's RPC over its transport (in-process or gRPC; both run the runtime's
// interceptors), within the call deadline, its answer rendered by toncenter's conventions. A v3 call
// (a bare answer) offers the service a slot for its answer already rendered (@tongate/runtime's
// rendered-answer.ts): an in-process service may fill it from a thread of its own. The call tells the
// service who is asking (the x-tongate-client header).
import type { DescMethodUnary, DescService } from "@bufbuild/protobuf";
import { createContextValues, type Transport } from "@connectrpc/connect";
import { type RenderedAnswer, renderedAnswerKey } from "@tongate/runtime";
import { renderResult } from "@tongate/proto/json/render.js";
import type { Answer, Call, Handler } from "./stage.js";
import { callHeaders } from "./target.js";

export function callService(transports: Map<DescService, Transport>, timeoutMs: number): Handler<Call, Answer> {
  return async ({ route, input, client }) => {
    const method = route.method as DescMethodUnary;
    const slot: RenderedAnswer | undefined = route.flavour === "v3" ? {} : undefined;
    const values = slot ? createContextValues().set(renderedAnswerKey, slot) : undefined;
    const res = await transports.get(route.service)!.unary(method, undefined, timeoutMs, callHeaders(client), input as never, values);
    if (slot?.json) return { result: null, cached: false, rendered: slot.json };
    return { result: renderResult(method.output, res.message), cached: false };
  };
}
