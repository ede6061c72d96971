// Validates responses against toncenter's v3.yaml, strictly: every object is closed (no property
// v3.yaml does not name), so a renamed or extra field fails. Where v3.yaml disagrees with what
// toncenter's API really sends (v3-api.md, the recorded fixtures), the schema is corrected here, and
// the README's API notes say so:
//  - Message.opcode is "0x%08x" text, not an integer;
//  - Transaction.finality is the state's name ("finalized"), not its number;
//  - masterchainBlockShards and masterchainBlockShardState answer BlocksResponse, not TransactionsResponse;
//  - runGetMethod answers {gas_used, exit_code, stack}, not its request's schema;
//  - tongate adds `next_cursor` (opaque paging) to the list responses;
//  - Action.finality is the state's name, as Transaction.finality;
//  - /events (toncenter's deprecated name of /traces: the list under "events") and /balanceChanges
//    are not in v3.yaml: their schemas are toncenter's models (DeprecatedEventsResponse,
//    BalanceChangesResult), with int64 nanotons as strings.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { parse } from "yaml";

export const v3Spec = parse(readFileSync(fileURLToPath(new URL("../../../shared/reference/toncenter-docs/v3.yaml", import.meta.url)), "utf8"));

type Schema = Record<string, any>;
const schemas: Record<string, Schema> = structuredClone(v3Spec.components.schemas);
schemas.Message!.properties.opcode = { type: "string", pattern: "^0x[0-9a-f]{8}$" };
schemas.Transaction!.properties.finality = { type: "string", enum: ["pending", "confirmed", "finalized"] };
// v3.yaml answers runGetMethod with its request schema; toncenter sends the result
schemas.V2RunGetMethodResult = {
  type: "object",
  properties: { gas_used: { type: "integer" }, exit_code: { type: "integer" }, stack: { type: "array", items: { $ref: "#/components/schemas/V2StackEntity" } } },
};
for (const r of ["BlocksResponse", "TransactionsResponse", "MessagesResponse", "TracesResponse", "ActionsResponse"]) schemas[r]!.properties.next_cursor = { type: "string" };
schemas.Action!.properties.finality = { type: "string", enum: ["pending", "confirmed", "finalized"] };
schemas.DeprecatedEventsResponse = {
  type: "object",
  properties: {
    events: { type: "array", items: { $ref: "#/components/schemas/Trace" } },
    address_book: { $ref: "#/components/schemas/AddressBook" },
    metadata: { $ref: "#/components/schemas/Metadata" },
    next_cursor: { type: "string" },
  },
};
const nanotons = { type: "object", additionalProperties: { type: "string", pattern: "^-?[0-9]+$" } };
schemas.BalanceChangesResult = {
  type: "object",
  required: ["changes", "fees", "jettons"],
  properties: { changes: nanotons, fees: nanotons, jettons: { type: "object", additionalProperties: nanotons } },
};
for (const r of ["JettonMastersResponse", "JettonWalletsResponse", "JettonTransfersResponse", "JettonBurnsResponse", "NFTCollectionsResponse", "NFTItemsResponse", "NFTTransfersResponse"]) {
  schemas[r]!.properties.next_cursor = { type: "string" };
}

/** Closes every object schema that lists properties (additionalProperties false), recursively. */
function closed(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(closed);
  if (!s || typeof s !== "object") return s;
  const o: Schema = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, closed(v)]));
  if (o.type === "object" && o.properties && o.additionalProperties === undefined) o.additionalProperties = false;
  return o;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
for (const f of ["int32", "int64", "uint32", "uint64", "double", "float", "byte"]) ajv.addFormat(f, true);
ajv.addSchema({ $id: "v3.yaml", components: { schemas: closed(schemas) } });

const RESPONSE_FIXES: Record<string, string> = {
  "/api/v3/events": "DeprecatedEventsResponse",
  "/api/v3/balanceChanges": "BalanceChangesResult",
  "/api/v3/masterchainBlockShards": "BlocksResponse",
  "/api/v3/masterchainBlockShardState": "BlocksResponse",
  "/api/v3/runGetMethod": "V2RunGetMethodResult",
};

/** The errors of `body` against the 200 response schema of `path`, or null when valid. */
export function v3ResponseErrors(path: string, body: unknown): string | null {
  const item = v3Spec.paths[path];
  if (!item && !RESPONSE_FIXES[path]) throw new Error(`v3.yaml has no path ${path}`);
  const schema = item && (item.get ?? item.post).responses["200"].content["application/json"].schema;
  const name = RESPONSE_FIXES[path] ?? (schema.$ref as string | undefined)?.split("/").pop();
  const validate = name
    ? ajv.getSchema(`v3.yaml#/components/schemas/${name}`)
    : ajv.compile(JSON.parse(JSON.stringify(closed(schema)).replaceAll('"#/components/', '"v3.yaml#/components/')) as Schema);
  if (!validate) throw new Error(`no schema for ${path}`);
  return validate(body) ? null : ajv.errorsText(validate.errors);
}

/** The parameters v3.yaml declares for a path (name → schema), for strictness and default tests. */
export function v3Parameters(path: string): Map<string, Schema> {
  const op = v3Spec.paths[path].get ?? v3Spec.paths[path].post;
  return new Map((op.parameters ?? []).map((p: Schema) => [p.name as string, p.schema as Schema]));
}
