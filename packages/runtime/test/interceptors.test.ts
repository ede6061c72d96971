// The in-process transport runs interceptors as connect's clients do: in order, around the call, with
// the deadline in the request's header; the deadline interceptor bounds a call that has none.
import { describe, expect, it } from "vitest";
import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { Ticks } from "@tongate/proto/gen/tongate/test/v1/ticks_pb.js";
import { create } from "@bufbuild/protobuf";
import { CountRequestSchema } from "@tongate/proto/gen/tongate/test/v1/ticks_pb.js";
import { deadlineInterceptor, implement, inProcessTransport, type RunningService } from "../src/index.js";

const method = Ticks.method.count;
const running = (produce: (signal: AbortSignal) => AsyncIterable<{ n: bigint }>): RunningService => ({
  impls: [implement(Ticks, { count: (_req, ctx) => produce(ctx.signal) })],
});

async function* counting(signal: AbortSignal) {
  for (let n = 0n; n < 3n; n++) {
    if (signal.aborted) return;
    yield { n };
  }
}

describe("in-process transport interceptors", () => {
  it("run in order around the call and see its deadline as grpc-timeout", async () => {
    const seen: string[] = [];
    const tag =
      (name: string): Interceptor =>
      (next) =>
      async (req) => {
        seen.push(`${name}:${req.method.name}:${req.header.get("grpc-timeout") ?? "-"}`);
        const res = await next(req);
        seen.push(`${name}:done`);
        return res;
      };
    const t = inProcessTransport(Ticks, running(counting), [tag("a"), tag("b")]);
    const res = await t.stream(method, undefined, 5000, undefined, (async function* () {
      yield create(CountRequestSchema, {});
    })());
    const got: bigint[] = [];
    for await (const m of res.message) got.push(m.n);
    expect(got).toEqual([0n, 1n, 2n]);
    expect(seen).toEqual(["a:Count:5000m", "b:Count:5000m", "b:done", "a:done"]);
  });

  it("the deadline interceptor fails a unary call without a deadline after its time", async () => {
    const never: Interceptor = (next) => (req) => (req.stream ? next(req) : new Promise(() => {}));
    const chained = deadlineInterceptor(50)(never((() => {}) as never));
    const started = Date.now();
    const err = await chained({ stream: false, service: Ticks, method, requestMethod: "POST", url: "/", signal: new AbortController().signal, header: new Headers(), contextValues: undefined as never, message: create(CountRequestSchema, {}) } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.DeadlineExceeded);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });
});
