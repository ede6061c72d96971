// The test-only streaming service (proto tongate.test.v1.Ticks): counts, one message per tick; events
// with stream parts; a WebSocket echo. It records what a test needs to see — messages produced, calls
// open, calls that ended, calls whose signal was aborted, and what reached the requests (the
// Last-Event-ID, the client's identity the gateway forwards).
import { setTimeout as sleep } from "node:timers/promises";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { Ticks, type CountRequest, type EchoRequest, type EventsRequest } from "@tongate/proto/gen/tongate/test/v1/ticks_pb.js";
import { defineService } from "@tongate/runtime";

export interface TickState {
  produced: number;
  open: number;
  ended: number;
  /** Calls whose signal was aborted (the client went away). */
  aborted?: number;
  /** The last_event_id of each Events call, in order. */
  lastEventIds?: (string | undefined)[];
  /** The x-tongate-client header of each call, in order. */
  clients?: (string | null)[];
}

export function ticksModule(state: TickState) {
  const begin = (ctx: HandlerContext) => {
    state.open++;
    ctx.signal.addEventListener("abort", () => (state.aborted = (state.aborted ?? 0) + 1), { once: true });
    (state.clients ??= []).push(ctx.requestHeader.get("x-tongate-client"));
  };
  const finish = () => {
    state.open--;
    state.ended++;
  };
  return defineService({
    name: "ticks",
    service: Ticks,
    options: () => ({}),
    needs: {},
    start: () => ({
      impl: {
        async *count(req: CountRequest, ctx: HandlerContext) {
          if (req.from < 0n) throw new ConnectError("from must not be negative", Code.InvalidArgument);
          begin(ctx);
          try {
            const pad = "x".repeat(req.pad);
            for (let i = 0; req.count === 0 || i < req.count; i++) {
              if (i > 0 || req.intervalMs > 0) await sleep(req.intervalMs, undefined, { signal: ctx.signal });
              state.produced++;
              yield { n: req.from + BigInt(i), pad };
            }
          } finally {
            finish();
          }
        },
        async *events(req: EventsRequest, ctx: HandlerContext) {
          (state.lastEventIds ??= []).push(req.lastEventId);
          begin(ctx);
          try {
            const first = req.lastEventId === undefined ? 1n : BigInt(req.lastEventId) + 1n;
            for (let i = 0; req.count === 0 || i < req.count; i++) {
              if (i > 0 || req.intervalMs > 0) await sleep(req.intervalMs, undefined, { signal: ctx.signal });
              state.produced++;
              const n = first + BigInt(i);
              if (req.asMessage) yield { id: String(n), event: "tick", tick: { n } };
              else yield { id: String(n), event: "tick", data: i === 0 && req.text !== undefined ? req.text : JSON.stringify({ n: Number(n) }) };
            }
          } finally {
            finish();
          }
        },
        async *echo(requests: AsyncIterable<EchoRequest>, ctx: HandlerContext) {
          begin(ctx);
          try {
            for await (const r of requests) {
              switch (r.op) {
                case "echo":
                  yield { data: JSON.stringify({ id: r.id ?? null, text: r.text || (ctx.requestHeader.get("x-echo-text") ?? "") }) };
                  break;
                case "flood": {
                  const pad = "x".repeat(r.pad);
                  for (let i = 0; i < r.count; i++) {
                    state.produced++;
                    yield { data: JSON.stringify({ i, pad }) };
                  }
                  break;
                }
                case "fail":
                  throw new ConnectError(r.text || "failed as asked", r.code as Code);
                case "end":
                  return;
              }
            }
          } finally {
            finish();
          }
        },
      },
    }),
  });
}
