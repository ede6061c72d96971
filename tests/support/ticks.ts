// The test-only streaming service (proto tongate.test.v1.Ticks): counts, one message per tick, and
// records what a test needs to see — messages produced, calls open, calls that ended.
import { setTimeout as sleep } from "node:timers/promises";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { Ticks, type CountRequest } from "@tongate/proto/gen/tongate/test/v1/ticks_pb.js";
import { defineService } from "@tongate/runtime";

export interface TickState {
  produced: number;
  open: number;
  ended: number;
}

export function ticksModule(state: TickState) {
  return defineService({
    name: "ticks",
    service: Ticks,
    options: () => ({}),
    needs: {},
    start: () => ({
      impl: {
        async *count(req: CountRequest, ctx: HandlerContext) {
          if (req.from < 0n) throw new ConnectError("from must not be negative", Code.InvalidArgument);
          state.open++;
          try {
            const pad = "x".repeat(req.pad);
            for (let i = 0; req.count === 0 || i < req.count; i++) {
              if (i > 0 || req.intervalMs > 0) await sleep(req.intervalMs, undefined, { signal: ctx.signal });
              state.produced++;
              yield { n: req.from + BigInt(i), pad };
            }
          } finally {
            state.open--;
            state.ended++;
          }
        },
      },
    }),
  });
}
