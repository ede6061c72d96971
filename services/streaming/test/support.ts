// What the streaming tests share: stream events built from a recorded mainnet trace (toncenter's
// GET /api/v3/traces answer, ../shared/fixtures/toncenter_v3) and classifier rows, the service
// started on a real bus, and a client over the in-process transport (the gateway's way in).
import { readFileSync } from "node:fs";
import { create, toBinary } from "@bufbuild/protobuf";
import { createClient, type Client } from "@connectrpc/connect";
import { actionToJson, type ActionRow } from "@tongate/actions";
import { Finality } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { StreamEventSchema, type StreamEvent } from "@tongate/proto/gen/tongate/streaming/v1/events_pb.js";
import { type Notification, Streaming } from "@tongate/proto/gen/tongate/streaming/v2/streaming_pb.js";
import { createLogger, type EventBus, inProcessTransport, type RunningService } from "@tongate/runtime";
import { streamingService } from "../src/index.js";

const FIXTURE = new URL("../../../../shared/fixtures/toncenter_v3/v3_trace_fixture.json", import.meta.url);

interface V3Tx {
  account: string;
  hash: string;
  in_msg: { source: string | null } | null;
  out_msgs: { destination: string | null }[];
}
interface V3TraceAnswer {
  traces: { trace_id: string; external_hash: string; trace: unknown; transactions_order: string[]; transactions: Record<string, V3Tx> }[];
  address_book: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

export const recorded: V3TraceAnswer = JSON.parse(readFileSync(FIXTURE, "utf8")) as V3TraceAnswer;
const t0 = recorded.traces[0]!;
/** the trace's first transaction's account (a wallet v4r2) and the other one */
export const WALLET = t0.transactions[t0.transactions_order[0]!]!.account;
export const OTHER = t0.transactions[t0.transactions_order[1]!]!.account;
export const NORM = t0.external_hash;
export const NOBODY = "0:" + "AB".repeat(32);

/** A classifier row with the fields every type has (a jetton transfer from WALLET by default). */
export function actionRow(o: Partial<ActionRow> = {}): ActionRow {
  return {
    trace_id: t0.trace_id,
    action_id: "act1",
    type: "jetton_transfer",
    tx_hashes: [...t0.transactions_order],
    accounts: [WALLET, OTHER],
    success: true,
    start_lt: 100n,
    end_lt: 200n,
    start_utime: 1_700_000_000,
    end_utime: 1_700_000_001,
    mc_seqno_end: null,
    trace_end_lt: 200n,
    trace_end_utime: 1_700_000_001,
    trace_external_hash: NORM,
    trace_external_hash_norm: NORM,
    trace_mc_seqno_end: 1,
    source: WALLET,
    source_secondary: null,
    destination: OTHER,
    destination_secondary: null,
    asset: NOBODY,
    asset_secondary: null,
    asset2: null,
    asset2_secondary: null,
    amount: 1000n,
    value: null,
    opcode: null,
    value_extra_currencies: null,
    parent_action_id: null,
    ancestor_type: [],
    extra: null,
    jetton_transfer_data: { response_destination: WALLET, forward_amount: 1n, query_id: 0n, custom_payload: null, forward_payload: null, comment: null, is_encrypted_comment: null },
    ...o,
  };
}

const json = (v: unknown) => JSON.stringify(v);

/** The recorded trace as the indexer publishes it at `finality`. */
export function traceEvent(finality: Finality, o: { norm?: string; actions?: ActionRow[] } = {}): StreamEvent {
  const txs = t0.transactions_order.map((h) => t0.transactions[h]!);
  return create(StreamEventSchema, {
    event: {
      case: "trace",
      value: {
        traceExternalHashNorm: o.norm ?? NORM,
        finality,
        traceId: t0.trace_id,
        transactions: txs.map((t) => ({ account: t.account, json: json(t), peers: [t.in_msg?.source, ...t.out_msgs.map((m) => m.destination)].filter((a): a is string => !!a) })),
        traceJson: json(t0.trace),
        actions: (o.actions ?? [actionRow()]).map((r) => ({ rowJson: json(actionToJson(r)), accounts: r.accounts })),
        addressBookJson: Object.fromEntries(Object.entries(recorded.address_book).map(([k, v]) => [k, json(v)])),
        metadataJson: Object.fromEntries(Object.entries(recorded.metadata).map(([k, v]) => [k, json(v)])),
        mcSeqno: 1,
      },
    },
    renderedAtMs: BigInt(Date.now()),
  });
}

export const blockEvent = (seqno: number): StreamEvent =>
  create(StreamEventSchema, { event: { case: "block", value: { mcSeqno: seqno, blockJson: json({ seqno }), shardBlocksJson: [json({ seqno, shard: "8000000000000000" })], transactionCount: 2 } } });

export const SUBJECT = "tongate.t.stream.events";

export const publish = (bus: EventBus, e: StreamEvent): Promise<void> => bus.publish(SUBJECT, toBinary(StreamEventSchema, e));

export interface Started {
  client: Client<typeof Streaming>;
  running: RunningService;
  close(): Promise<void>;
}

/** The streaming service on `bus` (network "t"), with `flags` as a command would give them. */
export async function startStreaming(bus: EventBus, flags: Record<string, string> = {}): Promise<Started> {
  const running = await streamingService.start({ log: createLogger({ level: "silent" }), options: streamingService.options({ "network-name": "t", ...flags }), needs: { bus } });
  const client = createClient(Streaming, inProcessTransport(Streaming, running));
  return { client, running, close: async () => running.close?.() };
}

/** Reads a stream's notifications into `into` in the background until it ends or fails (the error is kept). */
export function collect(stream: AsyncIterable<Notification>, into: Notification[]): Promise<unknown> {
  return (async () => {
    for await (const n of stream) into.push(n);
  })().then(
    () => undefined,
    (e: unknown) => e,
  );
}

export async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 5));
  }
}

export const dataOf = (n: Notification): Record<string, unknown> => JSON.parse(n.data) as Record<string, unknown>;
