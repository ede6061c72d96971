// /api/v3/decode: opcodes to their constructor names and message bodies to toncenter's `decoded`
// JSON, by @tongate/tlb over message-schemes.tlb. Opcodes are read as toncenter reads them (hex
// first, then decimal); a malformed opcode refuses the request (422, as toncenter), while a body
// that cannot be read gets an error object in its place, so one bad body never loses the others.
import type { JsonObject } from "@bufbuild/protobuf";
import { Cell } from "@ton/core";
import type { DecodeRequest } from "@tongate/proto/gen/tongate/v3/utils_pb.js";
import { apiError } from "@tongate/runtime";
import { messageDecoder } from "@tongate/tlb";
import { jsonObject } from "../blockchain/bodies.js";

/** What toncenter answers for an opcode it has no name for. */
export const UNKNOWN_OPCODE = "unknown";

/**
 * Decoding runs on the thread that answers requests: a long batch gives the event loop back this
 * often, so 1,000 large bodies never hold other requests for their whole duration.
 */
const SLICE_MS = 10;

const HEX32 = /^[0-9a-fA-F]{1,8}$/;
const DECIMAL = /^[+-]?\d{1,10}$/;

/**
 * An opcode as toncenter's strconv chain reads it: without a leading "0x", hexadecimal if it is
 * 32-bit hex, else unsigned decimal, else signed 32-bit decimal; undefined when none fits.
 */
export function parseOpcode(text: string): number | undefined {
  const s = text.startsWith("0x") ? text.slice(2) : text;
  if (HEX32.test(s)) return parseInt(s, 16);
  if (!DECIMAL.test(s)) return undefined;
  const n = Number(s);
  if (!s.startsWith("-") && !s.startsWith("+") && n <= 0xffffffff) return n;
  if (n >= -0x80000000 && n <= 0x7fffffff) return n >>> 0;
  return undefined;
}

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;

/** A body's one root cell from its BoC in hexadecimal or base64 (standard or url-safe), or why not. */
export function bodyCell(text: string): Cell | string {
  const t = text.trim();
  if (!t) return "empty: give a bag of cells in base64 or hexadecimal";
  // a base64 BoC starts with "te6" (b5ee9c72), so a string of hex digits is hexadecimal
  const bytes = HEX.test(t) ? Buffer.from(t, "hex") : BASE64.test(t) ? Buffer.from(t, "base64") : null;
  if (!bytes) return "not a bag of cells in base64 or hexadecimal";
  let roots: Cell[];
  try {
    roots = Cell.fromBoc(bytes);
  } catch (e) {
    return `not a valid bag of cells: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (roots.length !== 1) return `the bag of cells has ${roots.length} roots; a message body is one cell`;
  return roots[0]!;
}

/** One body decoded, or the error object that takes its place. */
export function decodeBody(text: string): JsonObject {
  const cell = bodyCell(text);
  if (typeof cell === "string") return { error: cell };
  let r;
  try {
    r = messageDecoder().decode(cell);
  } catch (e) {
    // the decoder reports what it cannot read; anything else is still this body's answer, not a 5xx
    return { error: `cannot decode: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!r.ok) return { error: `cannot decode: ${r.error.message}` };
  return jsonObject(r.value) ?? { error: "cannot decode: the body is not an object" };
}

export async function decode(req: DecodeRequest): Promise<{ opcodes: string[]; bodies: JsonObject[] }> {
  const opcodes = req.opcodes.map((text, i) => {
    const op = parseOpcode(text);
    if (op === undefined) {
      throw apiError(422, `opcodes[${i}]: ${JSON.stringify(text.slice(0, 80))} is not an opcode; give hexadecimal (with or without 0x) or decimal`);
    }
    return messageDecoder().opcodeName(op) ?? UNKNOWN_OPCODE;
  });
  const bodies: JsonObject[] = [];
  let slice = performance.now();
  for (const text of req.bodies) {
    bodies.push(decodeBody(text));
    if (performance.now() - slice > SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
  return { opcodes, bodies };
}
