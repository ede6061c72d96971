// Reading a request body within the size limit and a JSON body within the nesting limit.
import type { IncomingMessage } from "node:http";
import type { JsonValue } from "@bufbuild/protobuf";
import { HttpError } from "./errors.js";

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (declared > limit) {
    req.resume();
    throw new HttpError(413, `the request body is larger than ${limit} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        req.resume();
        throw new HttpError(413, `the request body is larger than ${limit} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (e) {
    if (e instanceof HttpError) throw e;
    // the client went away while sending it: its mistake (or its network's), not a failure here
    throw new HttpError(400, `the request body was cut off (${(e as Error).message})`);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/**
 * The deepest nesting of arrays and objects a request body may have. The deepest value any method takes
 * is runGetMethodStd's typed stack: the codec's 32 message levels are 15 nested tuples, 49 levels of JSON.
 * Checked before parsing so that no deeper value reaches code that walks it recursively.
 */
export const MAX_JSON_DEPTH = 64;

/** True when the JSON text nests arrays and objects deeper than `limit`: one pass, strings skipped, no recursion. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const raw = await readBody(req, limit);
  if (raw.length === 0) return {};
  const text = raw.toString("utf8");
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw new HttpError(422, `the request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new HttpError(422, `the request body is not valid JSON: ${(e as Error).message}`);
  }
}

export async function readJsonBody(req: IncomingMessage, limit: number): Promise<Record<string, JsonValue>> {
  const body = await readJson(req, limit);
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new HttpError(422, "the request body must be a JSON object of parameters");
  return body as Record<string, JsonValue>;
}

/** Query or body keys that belong to the edge, not to any method. */
export const EDGE_KEYS = new Set(["api_key", "@extra"]);
