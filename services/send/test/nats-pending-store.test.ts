// Pending traces in NATS JetStream KV on a real nats-server: what one send replica keeps, another
// finds (by account, external hash, trace id), a removal reaches both, and while NATS is down a
// replica answers from what it kept itself.
import { create } from "@bufbuild/protobuf";
import { Finality, PendingTraceSchema } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { createLogger } from "@tongate/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasNats, startNatsServer, type NatsServer } from "../../../tests/support/nats.js";
import { NatsPendingStore } from "../src/pending/nats-pending-store.js";
import type { PendingEntry } from "../src/pending/pending-store.js";

const log = createLogger({ level: "silent" });
let nats: NatsServer;
let a: NatsPendingStore;
let b: NatsPendingStore;

const entry = (n: number, accounts: string[]): PendingEntry => ({
  trace: create(PendingTraceSchema, { traceId: Buffer.alloc(32, n), externalHash: Buffer.alloc(32, n + 100), externalHashNorm: Buffer.alloc(32, n + 200), finality: Finality.PENDING, acceptedAt: 1_000 + n, actionsJson: [`{"n":${n}}`] }),
  accounts,
  expiresAt: Date.now() + 60_000,
});
const ids = (es: PendingEntry[]) => es.map((e) => e.trace.traceId[0]);
const hexOf = (n: number) => Buffer.alloc(32, n).toString("hex");

beforeAll(async () => {
  if (!hasNats) return;
  nats = await startNatsServer();
  [a, b] = await Promise.all([0, 1].map(() => NatsPendingStore.connect({ url: nats.url, log, ttlMs: 60_000, maxLocal: 100 })));
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await nats?.stop();
});

describe.skipIf(!hasNats)("pending traces in NATS JetStream KV", () => {
  it("what one replica keeps, another finds by account, external hash and trace id", async () => {
    await a.put(entry(1, ["0:AA", "-1:BB"]));
    await a.put(entry(2, ["0:AA"]));
    expect(ids(await b.find({ accounts: ["0:AA"], extHashes: [], traceIds: [] }))).toEqual([2, 1]);
    expect(ids(await b.find({ accounts: ["-1:BB"], extHashes: [], traceIds: [] }))).toEqual([1]);
    expect(ids(await b.find({ accounts: [], extHashes: [hexOf(102)], traceIds: [] }))).toEqual([2]);
    expect(ids(await b.find({ accounts: [], extHashes: [hexOf(201)], traceIds: [hexOf(2)] }))).toEqual([2, 1]);
    const [found] = await b.find({ accounts: [], extHashes: [], traceIds: [hexOf(1)] });
    expect(found!.trace.actionsJson).toEqual(['{"n":1}']);
    expect(found!.accounts).toEqual(["0:AA", "-1:BB"]);
    expect((await b.all()).length).toBe(2);
  });

  it("a removal reaches every replica", async () => {
    await b.remove(hexOf(1));
    expect(ids(await a.find({ accounts: ["0:AA", "-1:BB"], extHashes: [], traceIds: [] }))).toEqual([2]);
  });

  it("while NATS is down, a replica answers from what it kept itself", async () => {
    await nats.stop();
    for (let i = 0; i < 50 && a.health().state === "up"; i++) await new Promise((r) => setTimeout(r, 100));
    expect(a.health().state).not.toBe("up");
    await a.put(entry(3, ["0:CC"]));
    expect(ids(await a.find({ accounts: ["0:CC"], extHashes: [], traceIds: [] }))).toEqual([3]);
    expect(await b.find({ accounts: ["0:CC"], extHashes: [], traceIds: [] })).toEqual([]);
  });
});
