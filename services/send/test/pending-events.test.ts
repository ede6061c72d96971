// The send service's pending.traces outbox: each transition once, in order, with its message id;
// while the bus refuses, events wait in memory (bounded: past it the oldest are dropped and counted)
// and the send path is never held (enqueueing returns at once); once the bus takes events again
// they go out in order.
import { create, fromBinary } from "@bufbuild/protobuf";
import { Finality, PendingTraceChangedSchema, PendingTraceSchema } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { pendingTracesSubject } from "@tongate/proto/subjects.js";
import { createLogger, type EventBus, InProcessBus } from "@tongate/runtime";
import { expect, it } from "vitest";
import { PendingEvents } from "../src/pending/events.js";

const norm = (n: number) => new Uint8Array(32).fill(n);
const trace = (n: number, finality: Finality) => create(PendingTraceSchema, { traceId: norm(100 + n), externalHash: norm(200 + n), externalHashNorm: norm(n), finality, actionsJson: ["{}"] });

it("publishes each transition once, in order, with its id; waits (bounded) while the bus refuses", async () => {
  const inner = new InProcessBus();
  const got: { id: string; invalidated: boolean; finality?: Finality; norm: string }[] = [];
  let refusing = true;
  const ids: string[] = [];
  const bus: EventBus = {
    publish: async (subject, data, o) => {
      if (refusing) throw new Error("NATS is down");
      ids.push(o?.id ?? "");
      await inner.publish(subject, data);
    },
    subscribe: (s, fn, o) => inner.subscribe(s, fn, o),
    kept: (s, q) => inner.kept(s, q),
    close: () => inner.close(),
  };
  await inner.subscribe(pendingTracesSubject("localnet"), (m) => {
    const e = fromBinary(PendingTraceChangedSchema, m.data);
    got.push({ id: ids[got.length]!, invalidated: e.invalidated, finality: e.trace?.finality, norm: Buffer.from(e.externalHashNorm).toString("hex") });
  });
  let dropped = 0;
  const events = new PendingEvents(bus, "localnet", createLogger({ level: "silent" }), { published: () => {}, dropped: () => dropped++ });

  const started = performance.now();
  for (let i = 0; i < 10_010; i++) events.changed(trace(1, Finality.PENDING));
  expect(performance.now() - started).toBeLessThan(2_000);
  expect(events.depth).toBe(10_000);
  expect(dropped).toBe(10);

  // a fresh outbox for the order: a trace pending, confirmed, and another invalidated
  const fresh = new PendingEvents(bus, "localnet", createLogger({ level: "silent" }));
  const t = trace(2, Finality.PENDING);
  fresh.changed(t);
  // the engine goes on changing the trace in place: the event is what it was when told
  t.finality = Finality.CONFIRMED;
  fresh.changed(t);
  fresh.invalidated(trace(3, Finality.PENDING), "superseded");
  await events.stop();
  refusing = false;
  await fresh.flush(AbortSignal.timeout(10_000));
  await fresh.stop();
  const hex = (n: number) => Buffer.from(norm(n)).toString("hex");
  expect(got).toEqual([
    { id: `${hex(2)}:pending`, invalidated: false, finality: Finality.PENDING, norm: hex(2) },
    { id: `${hex(2)}:confirmed`, invalidated: false, finality: Finality.CONFIRMED, norm: hex(2) },
    { id: `${hex(3)}:invalidated`, invalidated: true, finality: undefined, norm: hex(3) },
  ]);
});
