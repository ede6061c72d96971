// A client's subscription as toncenter's streaming server keeps it (ton-streaming-go v2's
// Subscription): the event types, the accounts (raw upper-case form) and traces (TEP-467 normalized
// external hashes) it watches, the least finality, the action types it asks for and understands,
// and whether notifications carry the address book and metadata. Built from an SSE request or a
// WebSocket subscribe, validated with toncenter's messages (ValidateSSERequest).
import { expandActionTypeShortcuts } from "@tongate/actions";
import { apiError } from "@tongate/runtime";
import { parseAddress } from "@tongate/ton";

export const EVENT_TYPES = ["transactions", "actions", "trace", "trace_invalidated", "account_state_change", "jettons_change", "blocks"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** tongate.send.v1.Finality's order: a notification is sent when its finality is at least the subscription's. */
export const FINALITIES = ["pending", "confirmed", "finalized"] as const;
export type FinalityName = (typeof FINALITIES)[number];
export const FINALIZED = 3;

export interface SubscriptionSpec {
  types: ReadonlySet<EventType>;
  addresses: readonly string[];
  traces: readonly string[];
  /** 1 pending, 2 confirmed, 3 finalized */
  minFinality: number;
  /** only these action types (empty: all) */
  actionTypes: ReadonlySet<string>;
  /** the types the client understands, expanded (the visibility rule) */
  supported: ReadonlySet<string>;
  includeAddressBook: boolean;
  includeMetadata: boolean;
}

/** The fields an SSE request and a WebSocket subscribe share. */
export interface SubscribeFields {
  types: readonly string[];
  addresses: readonly string[];
  traceExternalHashNorms: readonly string[];
  minFinality?: string;
  includeAddressBook?: boolean;
  includeMetadata?: boolean;
  actionTypes: readonly string[];
  supportedActionTypes: readonly string[];
}

const isEventType = (t: string): t is EventType => EVENT_TYPES.some((e) => e === t);

const bad = (message: string) => apiError(400, message);

/** An account in the raw upper-case form events carry ("0:ABC…"); toncenter's "invalid address: X" otherwise. */
export function rawAddress(s: string): string {
  try {
    const a = parseAddress(s.trim());
    return `${a.workchain}:${a.hash.toString("hex").toUpperCase()}`;
  } catch {
    throw bad(`invalid address: ${s}`);
  }
}

/** A trace's normalized hash as events carry it (standard base64); hex and URL-safe base64 are taken too. */
export function traceNorm(s: string): string {
  const t = s.trim();
  if (t === "") throw bad("trace_external_hash_norms contains empty value");
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, "hex").toString("base64");
  if (/^[A-Za-z0-9_-]{43}=?$/.test(t)) return Buffer.from(t, "base64url").toString("base64");
  return t;
}

const unique = <T>(xs: Iterable<T>): T[] => [...new Set(xs)];

export function finalityOf(name: string | undefined, fallback: number): number {
  if (name === undefined || name === "") return fallback;
  const i = FINALITIES.findIndex((f) => f === name);
  if (i < 0) throw bad(`invalid min_finality: ${name} (pending, confirmed or finalized)`);
  return i + 1;
}

/**
 * toncenter's checks of a subscription, in its order. `sse` picks its wording ("… for
 * subscription"); `previous` is a WebSocket's current subscription, whose min_finality,
 * include_* and action types a subscribe keeps unless it gives them.
 */
export function subscriptionOf(f: SubscribeFields, o: { sse: boolean; previous?: SubscriptionSpec; defaultSupported?: readonly string[] }): SubscriptionSpec {
  if (f.types.length === 0) throw bad(o.sse ? "types are required for subscription" : "types are required");
  for (const t of f.types) if (!isEventType(t)) throw bad(`invalid event type: ${t}`);
  const types = new Set(f.types.filter(isEventType));
  const addresses = unique(f.addresses.map(rawAddress));
  const traces = unique(f.traceExternalHashNorms.map(traceNorm));
  const hasTrace = types.has("trace");
  // tongate's "blocks" is about the chain, not an account: it needs no address
  const hasAddressTypes = [...types].some((t) => t !== "trace" && t !== "blocks");
  if (traces.length > 0 && !hasTrace) throw bad('trace_external_hash_norms requires type "trace"');
  if (hasTrace && traces.length === 0) throw bad("trace_external_hash_norms are required for trace subscription");
  if (hasAddressTypes && addresses.length === 0) throw bad(o.sse ? "addresses are required for subscription" : "addresses are required");
  const p = o.previous;
  const supportedNames = f.supportedActionTypes.length > 0 ? f.supportedActionTypes : o.defaultSupported;
  return {
    types,
    addresses,
    traces,
    minFinality: finalityOf(f.minFinality, p?.minFinality ?? FINALIZED),
    actionTypes: f.actionTypes.length > 0 ? new Set(f.actionTypes) : (p?.actionTypes ?? new Set()),
    supported: supportedNames && supportedNames.length > 0 ? expandActionTypeShortcuts(supportedNames) : (p?.supported ?? expandActionTypeShortcuts([])),
    includeAddressBook: f.includeAddressBook ?? p?.includeAddressBook ?? false,
    includeMetadata: f.includeMetadata ?? p?.includeMetadata ?? false,
  };
}

/** The subscription after a WebSocket unsubscribe (toncenter: at least one of them; an unknown one is no error). */
export function withoutSome(s: SubscriptionSpec, addresses: readonly string[], traces: readonly string[]): SubscriptionSpec {
  if (addresses.length === 0 && traces.length === 0) throw bad("addresses or trace_external_hash_norms are required");
  const a = new Set(addresses.map(rawAddress));
  const t = new Set(traces.map(traceNorm));
  return { ...s, addresses: s.addresses.filter((x) => !a.has(x)), traces: s.traces.filter((x) => !t.has(x)) };
}
