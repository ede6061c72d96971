// toncenter's response envelopes. API v2: {"ok":true,"result":…,"@extra":…} and
// {"ok":false,"error":…,"code":N,"@extra":…} with HTTP status N; JSON-RPC adds
// "jsonrpc" and "id". API v3: the result itself, errors as {"error":…}.
// An error message is bounded here, for both envelopes: messages quote the client's
// values, and a service's message may quote a whole parameter.
import type { JsonValue } from "@bufbuild/protobuf";
import type { ApiFlavour } from "./routes.js";

export interface RpcEcho {
  jsonrpc?: JsonValue;
  id?: JsonValue;
}

let counter = 0;
/** An @extra for a request that brought none: "<unix time>:<sequence>", unique per process. */
export function newExtra(): string {
  counter = (counter + 1) % 1e9;
  return `${(Date.now() / 1000).toFixed(3)}:${counter}`;
}

export function successBody(flavour: ApiFlavour, result: JsonValue, extra: string, rpc?: RpcEcho): JsonValue {
  if (flavour === "v3") return result;
  const out: Record<string, JsonValue> = { ok: true, result, "@extra": extra };
  if (rpc) echo(out, rpc);
  return out;
}

/** The longest error message answered, characters; a longer one is cut there (see boundedMessage). */
export const MAX_ERROR_MESSAGE = 512;

/** `message` cut at MAX_ERROR_MESSAGE characters, ending in "…" and its original length. */
export function boundedMessage(message: string): string {
  if (message.length <= MAX_ERROR_MESSAGE) return message;
  return `${message.slice(0, MAX_ERROR_MESSAGE)}… (${message.length} characters)`;
}

export function errorBody(flavour: ApiFlavour, status: number, message: string, extra: string, rpc?: RpcEcho): JsonValue {
  const error = boundedMessage(message);
  if (flavour === "v3") return { error };
  const out: Record<string, JsonValue> = { ok: false, error, code: status, "@extra": extra };
  if (rpc) echo(out, rpc);
  return out;
}

function echo(out: Record<string, JsonValue>, rpc: RpcEcho) {
  out.jsonrpc = rpc.jsonrpc ?? "2.0";
  if (rpc.id !== undefined) out.id = rpc.id;
}
