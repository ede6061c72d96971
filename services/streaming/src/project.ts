// A bus event projected onto one subscription, as toncenter's AdjustForClient does for each of its
// notification types (ton-streaming-go v2 server.go): a trace event gives a `transactions`
// notification (the subscriber's accounts' transactions), an `actions` one (the actions touching
// them, of the asked and understood types) and a `trace` one (the watched trace, whole); account
// states and jetton wallets go to their account's (and the wallet owner's) subscribers from
// `confirmed` on; an invalidated trace to those (and only those) that were sent non-final data of it; blocks
// (tongate's) to every subscriber of "blocks". Each notification is its JSON text, built from the
// event's rendered parts without parsing them again.
import { isActionVisible } from "@tongate/actions";
import type { TraceEvent } from "@tongate/proto/gen/tongate/streaming/v1/events_pb.js";
import { type BusEvent, finalityName, type RenderedAction } from "./event.js";
import { FINALIZED, type EventType, type SubscriptionSpec } from "./subscription.js";

/** The traces a subscriber was sent non-final data of: an invalidation of one of them is its business. */
export interface NonFinalTraces {
  has(norm: string): boolean;
  add(norm: string): void;
  delete(norm: string): void;
}

export interface Watcher {
  readonly spec: SubscriptionSpec;
  readonly nonFinal: NonFinalTraces;
}

const str = JSON.stringify;

const watches = (s: SubscriptionSpec, type: EventType, accounts: readonly string[], has: (a: string) => boolean): boolean => s.types.has(type) && accounts.some(has);

/** `{"addr":<json>,…}` of the entries of `map` for `addresses` (all of them without). */
function subset(map: Readonly<Record<string, string>>, addresses?: Iterable<string>): string {
  const parts: string[] = [];
  const keys = addresses ?? Object.keys(map);
  for (const a of keys) {
    const v = map[a];
    if (v !== undefined) parts.push(`${str(a)}:${v}`);
  }
  return `{${parts.join(",")}}`;
}

/** The address book and metadata of a notification, as the subscription asks ("" when it asks neither). */
function books(s: SubscriptionSpec, book: Readonly<Record<string, string>>, metadata: Readonly<Record<string, string>>, addresses?: Iterable<string>): string {
  let out = "";
  if (s.includeAddressBook) out += `,"address_book":${subset(book, addresses)}`;
  if (s.includeMetadata) out += `,"metadata":${subset(metadata, addresses)}`;
  return out;
}

function actionShown(s: SubscriptionSpec, a: RenderedAction): boolean {
  if (s.actionTypes.size > 0 && !s.actionTypes.has(a.type)) return false;
  return isActionVisible({ type: a.type, ancestor_type: a.ancestorTypes }, s.supported);
}

function projectTrace(ev: BusEvent, t: TraceEvent, w: Watcher, watched: (a: string) => boolean): string[] {
  const s = w.spec;
  const finality = finalityName(t.finality);
  if (finality === undefined || t.finality < s.minFinality) return [];
  const head = `"finality":${str(finality)},"trace_external_hash_norm":${str(t.traceExternalHashNorm)}`;
  const out: string[] = [];
  if (s.types.has("transactions")) {
    const txs = t.transactions.filter((x) => watched(x.account));
    if (txs.length > 0) {
      const shown = new Set<string>();
      for (const x of txs) {
        shown.add(x.account);
        for (const p of x.peers) shown.add(p);
      }
      out.push(`{"type":"transactions",${head},"transactions":[${txs.map((x) => x.json).join(",")}]${books(s, t.addressBookJson, t.metadataJson, shown)}}`);
    }
  }
  if (s.types.has("actions") && t.actions.length > 0) {
    const actions = ev.actions(t).filter((a) => a.accounts.some(watched) && actionShown(s, a));
    if (actions.length > 0) {
      const shown = new Set(actions.flatMap((a) => a.accounts));
      out.push(`{"type":"actions",${head},"actions":[${actions.map((a) => a.json).join(",")}]${books(s, t.addressBookJson, t.metadataJson, shown)}}`);
    }
  }
  if (s.types.has("trace") && s.traces.includes(t.traceExternalHashNorm)) {
    const hashes = ev.transactionHashes(t);
    const txs = t.transactions.map((x, i) => `${str(hashes[i])}:${x.json}`).join(",");
    const actions = t.actions.length > 0 ? ev.actions(t).filter((a) => actionShown(s, a)) : [];
    const actionsJson = actions.length > 0 ? `,"actions":[${actions.map((a) => a.json).join(",")}]` : "";
    out.push(`{"type":"trace",${head},"trace":${t.traceJson || "{}"},"transactions":{${txs}}${actionsJson}${books(s, t.addressBookJson, t.metadataJson)}}`);
  }
  if (out.length > 0) {
    if (t.finality >= FINALIZED) w.nonFinal.delete(t.traceExternalHashNorm);
    else w.nonFinal.add(t.traceExternalHashNorm);
  }
  return out;
}

/** The notifications (JSON texts) `ev` gives the subscriber `w`, in toncenter's order; `watched` says whether it watches an account. */
export function project(ev: BusEvent, w: Watcher, watched: (account: string) => boolean): string[] {
  const s = w.spec;
  const e = ev.event.event;
  switch (e.case) {
    case "trace":
      return projectTrace(ev, e.value, w, watched);
    case "accountState": {
      const f = finalityName(e.value.finality);
      // toncenter sends account states from "confirmed" on
      if (f === undefined || f === "pending" || e.value.finality < s.minFinality) return [];
      if (!watches(s, "account_state_change", [e.value.account], watched)) return [];
      return [`{"type":"account_state_change","finality":${str(f)},"account":${str(e.value.account)},"state":${e.value.stateJson || "{}"}}`];
    }
    case "jettons": {
      const j = e.value;
      const f = finalityName(j.finality);
      if (f === undefined || f === "pending" || j.finality < s.minFinality) return [];
      if (!watches(s, "jettons_change", [j.address, j.owner], watched)) return [];
      return [`{"type":"jettons_change","finality":${str(f)},"jetton":${j.jettonJson || "{}"}${books(s, j.addressBookJson, j.metadataJson)}}`];
    }
    case "invalidated": {
      const norm = e.value.traceExternalHashNorm;
      // toncenter sends it whatever the types: a client shown a speculative state must learn it is void
      if (!w.nonFinal.has(norm)) return [];
      w.nonFinal.delete(norm);
      return [`{"type":"trace_invalidated","trace_external_hash_norm":${str(norm)}}`];
    }
    case "block": {
      if (!s.types.has("blocks")) return [];
      const b = e.value;
      return [`{"type":"blocks","finality":"finalized","block":${b.blockJson || "{}"},"shards":[${b.shardBlocksJson.join(",")}],"transaction_count":${b.transactionCount}}`];
    }
    default:
      return [];
  }
}
