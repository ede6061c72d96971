// The step that sends a v3 key lookup to the key readers: when the caller offered a slot for a
// rendered answer (the gateway, in this process: @tongate/runtime's rendered-answer.ts) and a
// reader answers, the JSON goes in the slot and the handler returns an empty message; otherwise the
// service's handler answers as always (over gRPC there is no slot).
import { create, type DescService, type Message } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { renderedAnswerSlot } from "@tongate/runtime";
import type { KeyReaders } from "./pool.js";

export function withKeyReaders<S extends DescService>(service: S, impl: Partial<ServiceImpl<S>>, readers: KeyReaders | undefined): Partial<ServiceImpl<S>> {
  if (!readers) return impl;
  const methods: Record<string, unknown> = { ...impl };
  for (const method of service.methods) {
    const handler = methods[method.localName];
    if (method.methodKind !== "unary" || !readers.serves(method) || typeof handler !== "function") continue;
    methods[method.localName] = async (req: Message, ctx: HandlerContext) => {
      const slot = renderedAnswerSlot(ctx.values);
      const json = slot ? await readers.answer(method, req) : undefined;
      if (slot && json) {
        slot.json = json;
        return create(method.output);
      }
      return handler.call(impl, req, ctx);
    };
  }
  return methods as Partial<ServiceImpl<S>>;
}
