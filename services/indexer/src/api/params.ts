// API v3 request values → the store's forms (toncenter ton-index-go models/convert.go): addresses
// raw `WC:HEX` upper-case, hashes standard base64, shards signed int64, opcodes signed int32.
// The gateway has already checked formats declared in the proto; what is left here are the values
// only the service can judge, answered with 422 naming the parameter.
import { apiError } from "@tongate/runtime";
import { parseAddress, parseHash } from "@tongate/ton";

export const DEFAULT_LIMIT = 10;

export const rawAddress = (input: string): string => {
  const a = parseAddress(input);
  return `${a.workchain}:${a.hash.toString("hex").toUpperCase()}`;
};

export const b64Hash = (input: string): string => parseHash(input).toString("base64");

const U64 = 1n << 64n;

/** A shard prefix given as hex (0x optional, up to 16 digits) or signed decimal → signed int64 decimal. */
export function signedShardOf(name: string, input: string): string {
  let v: bigint;
  if (/^-\d{1,19}$/.test(input)) v = BigInt(input);
  else if (/^(0x)?[0-9a-fA-F]{1,16}$/.test(input)) v = BigInt(input.startsWith("0x") ? input : "0x" + input);
  else if (/^\d{1,20}$/.test(input)) v = BigInt(input);
  else throw apiError(422, `${name}: expected a shard as hex (e.g. 8000000000000000) or a signed decimal, got ${JSON.stringify(input)}`);
  if (v >= U64 || v < -(U64 >> 1n)) throw apiError(422, `${name}: ${input} is out of the 64-bit range`);
  return String(v >= U64 >> 1n ? v - U64 : v);
}

/** Signed int64 decimal → toncenter's shard: 16 upper-case hex digits. */
export const shardHex = (signed: string | bigint): string => BigInt.asUintN(64, BigInt(signed)).toString(16).toUpperCase().padStart(16, "0");

/** An opcode as toncenter reads it: 0x-hex, else hex first, else signed decimal → signed int32. */
export function opcodeOf(name: string, input: string): number {
  const hex = input.startsWith("0x") || input.startsWith("0X") ? input.slice(2) : input;
  if (/^[0-9a-fA-F]{1,8}$/.test(hex)) return Number(BigInt.asIntN(32, BigInt("0x" + hex)));
  if (/^-\d{1,10}$/.test(input)) {
    const n = Number(input);
    if (n >= -0x80000000) return n;
  }
  throw apiError(422, `${name}: expected a 32-bit opcode as hex (e.g. 0x0f8a7ea5) or signed decimal, got ${JSON.stringify(input)}`);
}

/** toncenter's opcode rendering: "0x%08x" of the unsigned value. */
export const opcodeHex = (opcode: number): string => "0x" + (opcode >>> 0).toString(16).padStart(8, "0");

export const isAsc = (sort: string | undefined): boolean => sort === "asc";

/** The rows of one page and whether a next page may exist (a page that came back full). */
export interface Page {
  limit: number;
  offset: number;
  /** the position after which the page starts (from a cursor), in the order's key columns */
  after: readonly (string | number)[] | undefined;
}

/**
 * An opaque cursor: the sort key of a page's last row, tied to the endpoint and the order. Offsets
 * shift when rows arrive; a cursor continues exactly after the row it names.
 */
export function encodeCursor(endpoint: string, asc: boolean, key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify({ e: endpoint, s: asc ? "asc" : "desc", k: key })).toString("base64url");
}

export function pageOf(endpoint: string, asc: boolean, req: { limit?: number; offset?: number; cursor?: string }, keyTypes: readonly ("string" | "number")[]): Page {
  const limit = req.limit ?? DEFAULT_LIMIT;
  if (req.cursor === undefined) return { limit, offset: req.offset ?? 0, after: undefined };
  let c: unknown;
  try {
    c = JSON.parse(Buffer.from(req.cursor, "base64url").toString("utf8"));
  } catch {
    c = undefined;
  }
  const o = c as { e?: unknown; s?: unknown; k?: unknown } | undefined;
  if (!o || o.e !== endpoint || !Array.isArray(o.k) || o.k.length !== keyTypes.length || o.k.some((v, i) => typeof v !== keyTypes[i])) {
    throw apiError(422, `cursor: not a cursor of /api/v3/${endpoint}; pass the next_cursor of a previous page as it was given`);
  }
  if (o.s !== (asc ? "asc" : "desc")) throw apiError(422, `cursor: it continues a ${String(o.s)} order; give sort=${String(o.s)} with it`);
  return { limit, offset: 0, after: o.k as (string | number)[] };
}

/** The next cursor when the page is full, from its last row's key. */
export function nextCursor<T>(endpoint: string, asc: boolean, page: Page, rows: readonly T[], key: (row: T) => (string | number)[]): string | undefined {
  if (rows.length < page.limit || rows.length === 0) return undefined;
  return encodeCursor(endpoint, asc, key(rows[rows.length - 1]!));
}
