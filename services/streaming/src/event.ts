// One bus event of `stream.events` (tongate.streaming.v1.StreamEvent), decoded once for every
// subscriber it is projected onto, with what the projections read of it computed once on first
// need: the accounts it concerns (the fan-out index's keys), the trace's actions rendered as API
// v3's JSON at the trace's finality, the transactions' hashes.
import { fromBinary } from "@bufbuild/protobuf";
import { actionFromJson, type ActionJson, type ActionRow, v3Action } from "@tongate/actions";
import { Finality } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { type StreamEvent, StreamEventSchema, type TraceEvent } from "@tongate/proto/gen/tongate/streaming/v1/events_pb.js";
import { ActionSchema } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import { renderResult } from "@tongate/proto/json/render.js";
import { FINALITIES, type FinalityName } from "./subscription.js";

export interface RenderedAction {
  /** the classifier's type and the types it is inside of (the visibility rule) */
  type: string;
  ancestorTypes: readonly string[];
  accounts: readonly string[];
  /** API v3's JSON of the action */
  json: string;
}

/** "pending", "confirmed", "finalized"; undefined for an unspecified finality (an event to skip). */
export const finalityName = (f: Finality): FinalityName | undefined => (f >= Finality.PENDING && f <= Finality.FINALIZED ? FINALITIES[f - 1] : undefined);

export class BusEvent {
  private rendered: RenderedAction[] | undefined;
  private hashes: string[] | undefined;

  constructor(
    /** the bus's sequence number: the event's id */
    readonly seq: number,
    readonly event: StreamEvent,
  ) {}

  static decode(seq: number, data: Uint8Array): BusEvent {
    return new BusEvent(seq, fromBinary(StreamEventSchema, data));
  }

  /** The raw addresses a subscriber to which may get this event (the fan-out's lookups). */
  accounts(): string[] {
    const e = this.event.event;
    switch (e.case) {
      case "trace": {
        const out = new Set<string>();
        for (const t of e.value.transactions) out.add(t.account);
        for (const a of e.value.actions) for (const x of a.accounts) out.add(x);
        return [...out];
      }
      case "accountState":
        return [e.value.account];
      case "jettons":
        return e.value.owner ? [e.value.address, e.value.owner] : [e.value.address];
      default:
        return [];
    }
  }

  /** The trace's actions as API v3 renders them at the trace's finality (once per event, whoever asks). */
  actions(trace: TraceEvent): RenderedAction[] {
    if (this.rendered) return this.rendered;
    const finality = finalityName(trace.finality) ?? "finalized";
    this.rendered = trace.actions.map((a) => {
      const row: ActionRow = actionFromJson(parseObject(a.rowJson));
      const json = JSON.stringify(renderResult(ActionSchema, v3Action(row, { accounts: true }, finality)));
      return { type: row.type, ancestorTypes: row.ancestor_type, accounts: a.accounts, json };
    });
    return this.rendered;
  }

  /** The hash of each of the trace's transactions, in their order (the keys of a trace notification's map). */
  transactionHashes(trace: TraceEvent): string[] {
    this.hashes ??= trace.transactions.map((t) => {
      const h = parseObject(t.json).hash;
      return typeof h === "string" ? h : "";
    });
    return this.hashes;
  }
}

function parseObject(json: string): ActionJson {
  const v: unknown = JSON.parse(json);
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new Error("a stream event's JSON is not an object");
  return { ...v };
}
