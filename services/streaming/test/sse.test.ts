// The SSE method on a real in-process bus: toncenter's validation errors, the `connected` event,
// and each notification type projected onto a subscription as toncenter's AdjustForClient does
// (accounts, min_finality, action types and the supported-types visibility rule, the address book
// subset, invalidation only after non-final data, blocks).
import { ConnectError } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { Finality } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { StreamEventSchema } from "@tongate/proto/gen/tongate/streaming/v1/events_pb.js";
import type { Notification, SseRequest } from "@tongate/proto/gen/tongate/streaming/v2/streaming_pb.js";
import { httpStatusOf, InProcessBus } from "@tongate/runtime";
import { Address } from "@ton/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { actionRow, blockEvent, collect, dataOf, NOBODY, NORM, OTHER, publish, recorded, startStreaming, traceEvent, until, WALLET, type Started } from "./support.js";

let bus: InProcessBus;
let s: Started;
const aborts: AbortController[] = [];

beforeEach(async () => {
  bus = new InProcessBus();
  s = await startStreaming(bus);
});
afterEach(async () => {
  for (const a of aborts.splice(0)) a.abort();
  await s.close();
  await bus.close();
});

type Req = Partial<Omit<SseRequest, "$typeName">>;

/** Subscribes over SSE; the notifications arrive in the returned list. */
async function subscribe(req: Req, headers: Record<string, string> = {}): Promise<{ got: Notification[]; done: Promise<unknown>; abort: AbortController }> {
  const abort = new AbortController();
  aborts.push(abort);
  const got: Notification[] = [];
  const done = collect(s.client.sse(req, { signal: abort.signal, headers }), got);
  await until(() => got.length >= 1);
  return { got, done, abort };
}

async function refusal(req: Req, headers: Record<string, string> = {}): Promise<{ status: number; message: string }> {
  const got: Notification[] = [];
  const err = await collect(s.client.sse(req, { headers }), got);
  expect(err).toBeInstanceOf(ConnectError);
  return httpStatusOf(err);
}

describe("SSE validation (toncenter's messages, 400)", () => {
  it.each([
    [{ addresses: [WALLET] }, "types are required for subscription"],
    [{ types: ["transactions"] }, "addresses are required for subscription"],
    [{ types: ["trace"] }, "trace_external_hash_norms are required for trace subscription"],
    [{ types: ["transactions"], addresses: [WALLET], traceExternalHashNorms: [NORM] }, 'trace_external_hash_norms requires type "trace"'],
    [{ types: ["transactions"], addresses: ["EQ-not-an-address"] }, "invalid address: EQ-not-an-address"],
    [{ types: ["transfers"], addresses: [WALLET] }, "invalid event type: transfers"],
    [{ types: ["trace"], traceExternalHashNorms: [" "] }, "trace_external_hash_norms contains empty value"],
    [{ types: ["transactions"], addresses: [WALLET], minFinality: "final" }, "invalid min_finality: final (pending, confirmed or finalized)"],
  ])("%j → %s", async (req, message) => {
    expect(await refusal(req)).toEqual({ status: 400, message });
  });

  it("only trace, or tongate's blocks, needs no address", async () => {
    const a = await subscribe({ types: ["trace"], traceExternalHashNorms: [NORM], id: "r1" });
    expect(a.got[0]).toMatchObject({ event: "connected", id: "" });
    expect(dataOf(a.got[0]!)).toEqual({ id: "r1", status: "subscribed" });
    const b = await subscribe({ types: ["blocks"] });
    expect(dataOf(b.got[0]!)).toEqual({ status: "subscribed" });
  });
});

describe("projections", () => {
  it("transactions and actions of the watched account, at min_finality and above, with the address book of the addresses shown", async () => {
    // a user-friendly address is taken for the raw one the events carry
    const friendly = Address.parseRaw(WALLET).toString();
    const sub = await subscribe({ types: ["transactions", "actions"], addresses: [friendly], minFinality: "confirmed", includeAddressBook: true });
    await publish(bus, traceEvent(Finality.PENDING));
    await publish(bus, traceEvent(Finality.CONFIRMED));
    await publish(bus, traceEvent(Finality.FINALIZED));
    await until(() => sub.got.length === 5);
    const [, txc, acc, txf, acf] = sub.got.map((n) => ({ n, d: dataOf(n) }));
    // one bus event, two notifications: ids <seq>.1 and <seq>.2
    expect([txc!.n.id, acc!.n.id, txf!.n.id, acf!.n.id]).toEqual(["2.1", "2.2", "3.1", "3.2"]);
    expect(sub.got.slice(1).every((n) => n.event === "event")).toBe(true);
    expect(txc!.d).toMatchObject({ type: "transactions", finality: "confirmed", trace_external_hash_norm: NORM });
    const txs = txc!.d.transactions as { account: string; hash: string }[];
    // only the watched account's transaction, as API v3 rendered it
    expect(txs.map((t) => t.account)).toEqual([WALLET]);
    const recordedTx = Object.values(recorded.traces[0]!.transactions).find((t) => t.account === WALLET);
    expect(txs[0]).toEqual(recordedTx);
    // the address book of the account and its peers, not the whole event's
    expect(Object.keys(txc!.d.address_book as object).sort()).toEqual([WALLET, OTHER].filter((a) => a in recorded.address_book).sort());
    expect(txc!.d.metadata).toBeUndefined();
    expect(acc!.d).toMatchObject({ type: "actions", finality: "confirmed" });
    const action = (acc!.d.actions as Record<string, unknown>[])[0]!;
    expect(action).toMatchObject({ type: "jetton_transfer", finality: "confirmed", trace_external_hash_norm: NORM, accounts: [WALLET, OTHER] });
    expect((acf!.d.actions as Record<string, unknown>[])[0]).toMatchObject({ finality: "finalized" });
  });

  it("action_types and supported_action_types: only the asked types, none inside a type the client understands", async () => {
    const swap = actionRow({ action_id: "swap", type: "jetton_swap" });
    const inner = actionRow({ action_id: "inner", type: "jetton_transfer", ancestor_type: ["jetton_swap"] });
    const dns = actionRow({ action_id: "dns", type: "change_dns" });
    const v4only = actionRow({ action_id: "v4", type: "cocoon_worker_payout" });
    const all = await subscribe({ types: ["actions"], addresses: [WALLET], supportedActionTypes: ["v3"] });
    const swaps = await subscribe({ types: ["actions"], addresses: [WALLET], actionTypes: ["jetton_swap", "jetton_transfer"] });
    await publish(bus, traceEvent(Finality.FINALIZED, { actions: [swap, inner, dns, v4only] }));
    await until(() => all.got.length === 2 && swaps.got.length === 2);
    expect((dataOf(all.got[1]!).actions as { action_id: string }[]).map((a) => a.action_id)).toEqual(["swap", "dns"]);
    expect((dataOf(swaps.got[1]!).actions as { action_id: string }[]).map((a) => a.action_id)).toEqual(["swap"]);
  });

  it("nothing for an account nobody watches; the trace by its norm, whole, with the address book", async () => {
    const none = await subscribe({ types: ["transactions", "actions", "account_state_change", "jettons_change"], addresses: [NOBODY], minFinality: "pending" });
    const trace = await subscribe({ types: ["trace"], traceExternalHashNorms: [Buffer.from(NORM, "base64").toString("hex")], minFinality: "pending", includeAddressBook: true, includeMetadata: true });
    await publish(bus, traceEvent(Finality.PENDING));
    await until(() => trace.got.length === 2);
    const d = dataOf(trace.got[1]!);
    expect(trace.got[1]!.id).toBe("1");
    expect(d).toMatchObject({ type: "trace", finality: "pending", trace_external_hash_norm: NORM, trace: recorded.traces[0]!.trace, transactions: recorded.traces[0]!.transactions });
    expect((d.actions as unknown[]).length).toBe(1);
    expect(d.address_book).toEqual(recorded.address_book);
    expect(d.metadata).toEqual(recorded.metadata);
    expect(none.got).toHaveLength(1);
  });

  it("trace_invalidated only to a subscriber sent non-final data of the trace; none after finalized", async () => {
    const invalidated = create(StreamEventSchema, { event: { case: "invalidated", value: { traceExternalHashNorm: NORM } } });
    const pending = await subscribe({ types: ["transactions", "trace_invalidated"], addresses: [WALLET], minFinality: "pending" });
    const finalOnly = await subscribe({ types: ["transactions", "trace_invalidated"], addresses: [WALLET] });
    await publish(bus, traceEvent(Finality.PENDING));
    await publish(bus, invalidated);
    await publish(bus, invalidated);
    await until(() => pending.got.length === 3);
    expect(dataOf(pending.got[2]!)).toEqual({ type: "trace_invalidated", trace_external_hash_norm: NORM });
    await publish(bus, traceEvent(Finality.PENDING));
    await publish(bus, traceEvent(Finality.FINALIZED));
    await publish(bus, invalidated);
    await publish(bus, blockEvent(1));
    await until(() => pending.got.length === 5 && finalOnly.got.length === 2);
    await new Promise((r) => setTimeout(r, 20));
    expect(pending.got.map((n) => dataOf(n).type ?? dataOf(n).status)).toEqual(["subscribed", "transactions", "trace_invalidated", "transactions", "transactions"]);
    expect(finalOnly.got.map((n) => dataOf(n).finality ?? dataOf(n).status)).toEqual(["subscribed", "finalized"]);
  });

  it("a client that resumes gets the invalidation of a trace it was sent pending data of before the cut", async () => {
    const invalidated = create(StreamEventSchema, { event: { case: "invalidated", value: { traceExternalHashNorm: NORM } } });
    const req = { types: ["actions"], addresses: [WALLET], minFinality: "pending" };
    const first = await subscribe(req);
    await publish(bus, traceEvent(Finality.PENDING));
    await until(() => first.got.length === 2);
    first.abort.abort();
    await first.done;
    const again = await subscribe({ ...req, lastEventId: first.got[1]!.id });
    await publish(bus, invalidated);
    await until(() => again.got.length === 2);
    expect(dataOf(again.got[1]!)).toEqual({ type: "trace_invalidated", trace_external_hash_norm: NORM });
  });

  it("account states and jetton wallets from confirmed on, to the account's (and the owner's) subscribers; blocks to blocks'", async () => {
    const sub = await subscribe({ types: ["account_state_change", "jettons_change", "blocks"], addresses: [WALLET], minFinality: "pending", includeAddressBook: true });
    const state = (finality: Finality) => create(StreamEventSchema, { event: { case: "accountState", value: { finality, account: WALLET, stateJson: '{"hash":"h","balance":"1"}' } } });
    const jetton = create(StreamEventSchema, {
      event: { case: "jettons", value: { finality: Finality.CONFIRMED, address: NOBODY, owner: WALLET, jettonJson: `{"address":"${NOBODY}","balance":"5"}`, addressBookJson: { [WALLET]: '{"user_friendly":"x"}' } } },
    });
    await publish(bus, state(Finality.PENDING));
    await publish(bus, state(Finality.FINALIZED));
    await publish(bus, jetton);
    await publish(bus, blockEvent(7));
    await until(() => sub.got.length === 4);
    expect(sub.got.slice(1).map((n) => [n.id, dataOf(n)])).toEqual([
      ["2", { type: "account_state_change", finality: "finalized", account: WALLET, state: { hash: "h", balance: "1" } }],
      ["3", { type: "jettons_change", finality: "confirmed", jetton: { address: NOBODY, balance: "5" }, address_book: { [WALLET]: { user_friendly: "x" } } }],
      ["4", { type: "blocks", finality: "finalized", block: { seqno: 7 }, shards: [{ seqno: 7, shard: "8000000000000000" }], transaction_count: 2 }],
    ]);
  });
});

describe("limits per client", () => {
  it("connections per client: 429 past --stream-max-connections; addresses per connection: 400", async () => {
    await s.close();
    s = await startStreaming(bus, { "stream-max-connections": "2", "stream-max-addresses": "2" });
    const key = { "x-tongate-client": "key:alice" };
    const a = await subscribe({ types: ["blocks"] }, key);
    await subscribe({ types: ["blocks"] }, key);
    expect(await refusal({ types: ["blocks"] }, key)).toEqual({ status: 429, message: "connection limit reached: 2 active connections" });
    // another client is not limited by alice's
    await subscribe({ types: ["blocks"] }, { "x-tongate-client": "ip:10.0.0.1" });
    expect(await refusal({ types: ["transactions"], addresses: [WALLET, OTHER, NOBODY] }, { "x-tongate-client": "ip:10.0.0.2" })).toEqual({ status: 400, message: "too many addresses: 3 > max 2" });
    // a closed connection frees its place
    a.abort.abort();
    await a.done;
    await until(() => (s.running.health?.().detail as { subscribers: number }).subscribers === 2);
    await subscribe({ types: ["blocks"] }, key);
  });
});
