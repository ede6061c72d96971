// The fan-out indexed by account: 1,000 SSE subscribers watching 10,000 addresses in all; an event
// reaches exactly the subscribers of its accounts, in time that does not grow with the others.
import type { Notification } from "@tongate/proto/gen/tongate/streaming/v2/streaming_pb.js";
import { Finality } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { InProcessBus } from "@tongate/runtime";
import { expect, it } from "vitest";
import { collect, publish, startStreaming, traceEvent, until, WALLET } from "./support.js";

const address = (i: number) => `0:${i.toString(16).toUpperCase().padStart(64, "0")}`;

it("1,000 subscribers of 10,000 addresses: an event goes to its accounts' subscribers only", async () => {
  const bus = new InProcessBus();
  const s = await startStreaming(bus, { "stream-max-connections": "2000" });
  const abort = new AbortController();
  const lists: Notification[][] = [];
  const done: Promise<unknown>[] = [];
  for (let i = 0; i < 1000; i++) {
    // ten addresses each; every 100th also watches the trace's wallet
    const addresses = Array.from({ length: 10 }, (_, k) => address(i * 10 + k + 1));
    if (i % 100 === 0) addresses.push(WALLET);
    const got: Notification[] = [];
    lists.push(got);
    done.push(collect(s.client.sse({ types: ["transactions"], addresses, minFinality: "pending" }, { signal: abort.signal }), got));
  }
  await until(() => lists.every((l) => l.length === 1), 20_000);
  const t0 = performance.now();
  const events = 200;
  for (let i = 0; i < events; i++) await publish(bus, traceEvent(Finality.PENDING));
  await until(() => lists.every((l, i) => l.length === (i % 100 === 0 ? 1 + events : 1)), 20_000);
  const ms = performance.now() - t0;
  // each event is offered to the 10 subscribers of its accounts, not the 1,000
  expect(ms).toBeLessThan(3000);
  expect((s.running.health?.().detail as { subscribers: number; notifications: number })).toMatchObject({ subscribers: 1000, notifications: events * 10 });
  abort.abort();
  await Promise.all(done);
  await s.close();
  await bus.close();
}, 60_000);
