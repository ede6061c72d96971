// An answer already rendered as toncenter's JSON, handed from a service to an in-process caller
// that would render it anyway (the gateway).
//
// Rendering a large answer (a v3 page of transactions is ~33 KB of JSON) costs the thread that does
// it a few hundred microseconds; on the gateway's thread that is time every other request waits
// for. A service that can render an answer on a thread of its own (the indexer's key readers) does
// so when its caller offers a slot: it puts the JSON text there and returns an empty response
// message, which the caller then ignores. Over gRPC there is no slot (context values do not travel),
// so a handler always answers the message too when none is offered.
import { createContextKey, type ContextValues } from "@connectrpc/connect";

/** Where a handler puts its answer's JSON text (toncenter's form: `@tongate/proto/json/render.ts`). */
export interface RenderedAnswer {
  json?: string;
}

/** The context value a caller sets to accept a rendered answer; absent: answer the message. */
export const renderedAnswerKey = createContextKey<RenderedAnswer | undefined>(undefined, { description: "tongate rendered answer" });

/** The slot a caller offered in `values`, if any. */
export const renderedAnswerSlot = (values: ContextValues): RenderedAnswer | undefined => values.get(renderedAnswerKey);
