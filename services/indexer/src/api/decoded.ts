// What API v3 reads of the decoder's tables (services/decoder/src/store/migrations), and how: never
// past the last masterchain block the decoder reports decoded (its checkpoint), the latest state per
// address at or before it, events once per transaction, and cursors whose keys are checked before
// they reach a query. The Jettons and NFTs tags (./jettons, ./nfts) build on these.
import type { JsonObject } from "@bufbuild/protobuf";
import { apiError } from "@tongate/runtime";
import { DECODER_CHECKPOINT, getCheckpoint } from "@tongate/store";
import type { Page } from "./params.js";
import { type Store, Where } from "./sql.js";

/**
 * How long a read of the decoder's checkpoint is reused. It only moves forward, so an answer bounded
 * by a value this old shows nothing undecoded; requests at the same moment share one read. That the
 * decoder has not decoded anything yet (no checkpoint: a store without the decoder) is reused
 * longer, as every answer's address book asks.
 */
const CHECKPOINT_TTL_MS = 100;
const NO_CHECKPOINT_TTL_MS = 1000;
const checkpoints = new WeakMap<Store, { at: number; value: Promise<number | null>; ttl: number }>();

/** The last masterchain seqno the decoder decoded (null: it has not decoded anything, its tables may not exist). */
export function decodedUpTo(store: Store): Promise<number | null> {
  const now = Date.now();
  const hit = checkpoints.get(store);
  if (hit && now - hit.at < hit.ttl) return hit.value;
  const value = getCheckpoint(store, DECODER_CHECKPOINT);
  const entry = { at: now, value, ttl: CHECKPOINT_TTL_MS };
  checkpoints.set(store, entry);
  value.then(
    (v) => {
      if (v === null) entry.ttl = NO_CHECKPOINT_TTL_MS;
    },
    () => checkpoints.delete(store),
  );
  return value;
}

/**
 * The latest row of each address of a state table (ReplacingMergeTree by last_transaction_lt) at or
 * before `upTo`, as a subquery: `keys` filters the columns a contract is deployed with (address,
 * a wallet's owner and jetton, an item's collection and index) before the latest row is chosen;
 * filters on what changes (balance, an item's owner, a verdict) go on the outer query, after it.
 * Not FINAL: that would keep a row of a block still being decoded and hide the account.
 */
export function latestOf(table: string, columns: string, keys: Where, upTo: number): string {
  const bound = keys.param("UInt32", upTo);
  const where = [`mc_seqno <= ${bound}`, ...keys.conds].join(" AND ");
  return `(SELECT ${columns} FROM ${table} WHERE ${where} ORDER BY last_transaction_lt DESC, mc_seqno DESC LIMIT 1 BY address)`;
}

/** Event rows that are listed: decoded by `upTo`, of a confirmed wallet or item, of a transaction that was not aborted. */
export function listedEvents(w: Where, upTo: number): void {
  w.add("mc_seqno <= {}", ["UInt32", upTo]);
  w.add("confirmed = 1");
  w.add("NOT transaction_aborted");
}

/** What each value of a cursor's key is, checked before it is bound to a query. */
export type KeyKind = "uint64" | "uint128" | "uint256" | "address" | "hash" | "text";

const MAX: Record<"uint64" | "uint128" | "uint256", bigint> = { uint64: (1n << 64n) - 1n, uint128: (1n << 128n) - 1n, uint256: (1n << 256n) - 1n };
const CLICKHOUSE_TYPE: Record<KeyKind, string> = { uint64: "UInt64", uint128: "UInt128", uint256: "UInt256", address: "String", hash: "String", text: "String" };

function validKey(kind: KeyKind, v: string | number): boolean {
  if (typeof v !== "string") return false;
  switch (kind) {
    case "uint64":
    case "uint128":
    case "uint256":
      return /^\d{1,78}$/.test(v) && BigInt(v) <= MAX[kind];
    case "address":
      return /^-?\d{1,3}:[0-9A-F]{64}$/.test(v);
    case "hash":
      return /^[A-Za-z0-9+/]{43}=$/.test(v);
    case "text":
      return v.length <= 256;
  }
}

/** A cursor's key whose values are of `kinds` (what afterCursor binds; anything else is its 422). */
export const validCursor = (after: readonly (string | number)[], kinds: readonly KeyKind[]): boolean => after.length === kinds.length && after.every((v, i) => validKey(kinds[i]!, v));

/**
 * The condition that continues an order after the cursor's row: `(c1, c2, …) > (k1, k2, …)`
 * (`<` when descending), its values checked against `kinds` (422 on a cursor that was not given out).
 */
export function afterCursor(w: Where, endpoint: string, page: Page, columns: readonly string[], kinds: readonly KeyKind[], asc: boolean): void {
  const after = page.after;
  if (!after) return;
  if (!validCursor(after, kinds)) {
    throw apiError(422, `cursor: not a cursor of /api/v3/${endpoint}; pass the next_cursor of a previous page as it was given`);
  }
  const values = after.map((v, i) => w.param(CLICKHOUSE_TYPE[kinds[i]!], v));
  w.conds.push(`(${columns.join(", ")}) ${asc ? ">" : "<"} (${values.join(", ")})`);
}

/** `ORDER BY` of the columns, all one way. */
export const orderBy = (columns: readonly string[], asc: boolean): string => `ORDER BY ${columns.map((c) => `${c} ${asc ? "ASC" : "DESC"}`).join(", ")}`;

/** `LIMIT … OFFSET …` of a page, bound as parameters. */
export const limitOf = (w: Where, page: Page): string => `LIMIT ${w.param("UInt32", page.limit)} OFFSET ${w.param("UInt32", page.offset)}`;

/** A JSON object stored as text ('{}' until the decoder reads token content); anything else is empty. */
export function jsonObject(text: string | null | undefined): JsonObject {
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as JsonObject) : {};
  } catch {
    return {};
  }
}

/** The filters every event endpoint has: owners with a direction, and time and lt ranges. */
export interface EventFilters {
  direction?: string;
  startUtime?: number;
  endUtime?: number;
  startLt?: bigint;
  endLt?: bigint;
}

/**
 * A direction (in, out, both) is of the owners given: without them it is refused, where toncenter
 * ignores it and answers every owner's events.
 */
export function checkDirection(owners: readonly string[], ownersName: string, direction: string | undefined): void {
  if (!owners.length && direction !== undefined && direction !== "both") {
    throw apiError(422, `direction: applies only with ${ownersName}; give ${ownersName} or leave direction out`);
  }
}

/**
 * Events of `owners` (raw forms): sent by them (`from`: the in-message's sender), received by them
 * (`to`: the body's destination or new owner), or either.
 */
export function byOwners(w: Where, owners: readonly string[], direction: string | undefined, from: string, to: string): void {
  if (!owners.length) return;
  const list = [...owners];
  if (direction === "in") w.add(`${to} IN {}`, ["Array(String)", list]);
  else if (direction === "out") w.add(`${from} IN {}`, ["Array(String)", list]);
  else w.add(`(${from} IN {} OR ${to} IN {})`, ["Array(String)", list], ["Array(String)", list]);
}

/** Time and lt ranges on an event's transaction, inclusive. */
export function inRanges(w: Where, f: EventFilters): void {
  if (f.startUtime !== undefined) w.add("transaction_now >= {}", ["UInt32", f.startUtime]);
  if (f.endUtime !== undefined) w.add("transaction_now <= {}", ["UInt32", f.endUtime]);
  if (f.startLt !== undefined) w.add("transaction_lt >= {}", ["UInt64", String(f.startLt)]);
  if (f.endLt !== undefined) w.add("transaction_lt <= {}", ["UInt64", String(f.endLt)]);
}

/**
 * The order of an event page: by transaction lt, or by time when a time range is given (as
 * toncenter), each ending with the transaction's hash, which is unique (an event per transaction).
 */
export function eventOrder(f: EventFilters): { columns: string[]; kinds: KeyKind[] } {
  return f.startUtime !== undefined || f.endUtime !== undefined
    ? { columns: ["transaction_now", "transaction_lt", "transaction_hash"], kinds: ["uint64", "uint64", "hash"] }
    : { columns: ["transaction_lt", "transaction_hash"], kinds: ["uint64", "hash"] };
}

/** A row's values of `columns`, as a cursor's key. */
export const keyOf = (row: Record<string, unknown>, columns: readonly string[]): string[] => columns.map((c) => String(row[c]));
