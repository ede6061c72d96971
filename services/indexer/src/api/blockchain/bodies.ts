// Message bodies as toncenter decodes them on every v3 message: `decoded_opcode` (the name of the
// opcode's TL-B constructor in message-schemes.tlb) and `message_content.decoded` (the body read by
// those constructors, @tongate/tlb). toncenter leaves `init_state.decoded` null (its marker only
// reads bodies), and so does tongate. The same functions render the messages of both stores: the
// parse workers for the key index, the ClickHouse reads at read time.
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { Cell } from "@ton/core";
import { LruMap } from "@tongate/runtime";
import { type Json, messageDecoded, messageDecoder } from "@tongate/tlb";
import { cellsFromBoc } from "../../rows/boc.js";

/**
 * Whether bodies are decoded in this thread: on unless TONGATE_DECODE_BODIES=off, which the ingest
 * benchmark uses to measure what decoding costs (a worker thread reads its own copy of the
 * environment when it starts).
 */
let decoding = process.env.TONGATE_DECODE_BODIES !== "off";

/** Turns body decoding on or off in this thread (the benchmark's A/B; workers follow the environment). */
export function setBodyDecoding(on: boolean): void {
  decoding = on;
}

/** The name toncenter gives a message's opcode (a signed or unsigned 32-bit value), or undefined. */
export function decodedOpcode(opcode: number | null): string | undefined {
  if (opcode === null || !decoding) return undefined;
  return messageDecoder().opcodeName(opcode) ?? undefined;
}

/**
 * Decoded bodies by body hash (a body is addressed by its own hash: an entry never goes stale; the
 * common ones, comments, excesses and notifications, repeat). A body that does not decode is kept as
 * null. Large results are not kept, nor, where blocks are parsed, a body with references: those are
 * mostly signed wallet requests, each seen once.
 */
const cache = new LruMap<string, JsonObject | null>(10_000);
const CACHE_MAX_BOC_CHARS = 4 * 1024;

/** `message_content.decoded` of a body (base64 BoC, or its cell when the caller has it), or undefined when it does not decode. */
export function decodedBody(hash: string, body: string | Cell): JsonObject | undefined {
  if (!decoding) return undefined;
  const hit = cache.get(hash);
  if (hit !== undefined) return hit ?? undefined;
  const value = decodeBody(body);
  if (typeof body === "string" ? body.length <= CACHE_MAX_BOC_CHARS : body.refs.length === 0) cache.set(hash, value);
  return value ?? undefined;
}

function decodeBody(body: string | Cell): JsonObject | null {
  let cell: Cell | undefined;
  try {
    // a stored body is a BoC this indexer wrote: the block reader's (a fraction of Cell.fromBoc's cost)
    cell = typeof body === "string" ? cellsFromBoc(Buffer.from(body, "base64"))[0] : body;
  } catch {
    return null;
  }
  if (!cell) return null;
  const r = messageDecoder().decode(cell);
  return r.ok ? jsonObject(messageDecoded(r.value)) : null;
}

/** A decoded body is an object (a constructor's fields, or `{"@type":"empty_cell"}`); anything else is not shown. */
export function jsonObject(v: Json): JsonObject | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v satisfies Record<string, JsonValue>) : null;
}
