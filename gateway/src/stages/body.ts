// Reading a request body within the size limit.
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
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      req.resume();
      throw new HttpError(413, `the request body is larger than ${limit} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

export async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const raw = await readBody(req, limit);
  if (raw.length === 0) return {};
  try {
    return JSON.parse(raw.toString("utf8"));
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
