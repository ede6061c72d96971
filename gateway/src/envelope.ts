// toncenter's response envelopes. API v2: {"ok":true,"result":…,"@extra":…} and
// {"ok":false,"error":…,"code":N,"@extra":…} with HTTP status N; JSON-RPC adds
// "jsonrpc" and "id". API v3: the result itself, errors as {"error":…}.
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

export function errorBody(flavour: ApiFlavour, status: number, message: string, extra: string, rpc?: RpcEcho): JsonValue {
  if (flavour === "v3") return { error: message };
  const out: Record<string, JsonValue> = { ok: false, error: message, code: status, "@extra": extra };
  if (rpc) echo(out, rpc);
  return out;
}

function echo(out: Record<string, JsonValue>, rpc: RpcEcho) {
  out.jsonrpc = rpc.jsonrpc ?? "2.0";
  if (rpc.id !== undefined) out.id = rpc.id;
}
