// OpenAPI 3.1 document of the HTTP API, generated from the same descriptors and
// options the gateway routes and renders with, so the document cannot drift
// from the behaviour. Descriptions come from the proto comments (the descriptor
// set buf writes with source info next to the generated code).
import { readFileSync } from "node:fs";
import { fromBinary, getOption, hasOption, ScalarType, type DescField, type DescMessage, type DescMethod, type DescService } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { Format, openapi_tag } from "@tongate/proto/gen/tongate/options/v1/options_pb.js";
import { descriptorSetPath } from "@tongate/proto";
import { conventionOf, type FieldConvention } from "@tongate/proto/json/conventions.js";
import type { ApiFlavour, RouteTable } from "./routes.js";

type Schema = Record<string, unknown>;

/** "file.proto:4.0.2.1" → leading comment, from the descriptor set's source info. */
function loadComments(): Map<string, string> {
  const out = new Map<string, string>();
  let set;
  try {
    set = fromBinary(FileDescriptorSetSchema, readFileSync(descriptorSetPath));
  } catch {
    return out;
  }
  for (const file of set.file) {
    for (const loc of file.sourceCodeInfo?.location ?? []) {
      const text = (loc.leadingComments || loc.trailingComments).trim();
      // Proto comments are wrapped at a fixed width: join wrapped lines, keep paragraphs.
      if (text) out.set(`${file.name}:${loc.path.join(".")}`, text.replace(/\n /g, "\n").replace(/([^\n])\n(?!\n)/g, "$1 "));
    }
  }
  return out;
}

function pathOf(desc: DescMessage | DescField | DescService | DescMethod): string {
  switch (desc.kind) {
    case "message":
      return desc.parent ? `${pathOf(desc.parent)}.3.${desc.parent.nestedMessages.indexOf(desc)}` : `4.${desc.file.messages.indexOf(desc)}`;
    case "field":
      return `${pathOf(desc.parent)}.2.${desc.parent.fields.indexOf(desc)}`;
    case "service":
      return `6.${desc.file.services.indexOf(desc)}`;
    case "rpc":
      return `${pathOf(desc.parent)}.2.${desc.parent.methods.indexOf(desc)}`;
  }
}

const fileOf = (desc: DescMessage | DescField | DescService | DescMethod) =>
  desc.kind === "field" ? desc.parent.file : desc.kind === "rpc" ? desc.parent.file : desc.file;

export function buildOpenApi(routes: RouteTable, flavour: ApiFlavour): Schema {
  const comments = loadComments();
  const comment = (d: DescMessage | DescField | DescService | DescMethod) => comments.get(`${fileOf(d).name}.proto:${pathOf(d)}`);
  const schemas: Record<string, Schema> = {};
  const refOf = (m: DescMessage): Schema => {
    const name = m.typeName.replace(/^tongate\./, "").replace(/\./g, "_");
    if (!schemas[name]) {
      schemas[name] = {}; // placeholder against recursion
      schemas[name] = messageSchema(m);
    }
    return { $ref: `#/components/schemas/${name}` };
  };
  const scalarSchema = (t: ScalarType, f?: FieldConvention): Schema => {
    switch (t) {
      case ScalarType.BOOL:
        return { type: "boolean" };
      case ScalarType.STRING: {
        const s: Schema = { type: "string" };
        if (f?.rules?.format === Format.TON_ADDRESS) s.format = "ton-address";
        if (f?.rules?.format === Format.TON_HASH) s.format = "ton-hash";
        if (f?.rules?.format === Format.BOC_BASE64) s.format = "byte";
        if (f?.rules?.format === Format.TON_ADDRESS_OR_NULL) s.format = "ton-address-or-null";
        if (f?.rules?.oneOf.length) s.enum = [...f.rules.oneOf];
        if (f?.rules?.pattern !== undefined) s.pattern = f.rules.pattern;
        return s;
      }
      case ScalarType.BYTES:
        return { type: "string", format: "byte" };
      case ScalarType.DOUBLE:
      case ScalarType.FLOAT:
        return { type: "number" };
      case ScalarType.INT64:
      case ScalarType.SINT64:
      case ScalarType.SFIXED64:
        return { type: "string", format: "int64", pattern: "^-?[0-9]+$" };
      case ScalarType.UINT64:
      case ScalarType.FIXED64:
        return { type: "string", format: "uint64", pattern: "^[0-9]+$" };
      case ScalarType.UINT32:
      case ScalarType.FIXED32:
        return { type: "integer", format: "int64", minimum: 0 };
      default:
        return { type: "integer", format: "int32" };
    }
  };
  const fieldSchema = (f: FieldConvention): Schema => {
    const field = f.field;
    let s: Schema;
    switch (field.fieldKind) {
      case "scalar":
        s = scalarSchema(field.scalar, f);
        break;
      case "enum":
        s = { type: "string", enum: field.enum.values.map((v) => v.name) };
        break;
      case "message":
        s = messageValueSchema(field.message);
        break;
      case "list":
        s = {
          type: "array",
          items: field.listKind === "message" ? messageValueSchema(field.message) : field.listKind === "scalar" ? scalarSchema(field.scalar, f) : { type: "string" },
        };
        break;
      case "map":
        s = { type: "object" };
        break;
    }
    const r = f.rules;
    if (r) {
      if (r.gte !== undefined) s.minimum = Number(r.gte);
      if (r.lte !== undefined) s.maximum = Number(r.lte);
      if (r.maxLen !== undefined) s.maxLength = r.maxLen;
      if (r.minLen !== undefined) s.minLength = r.minLen;
      if (r.maxItems !== undefined) s.maxItems = r.maxItems;
    }
    const d = comment(field);
    if (d) s.description = d;
    return s;
  };
  const messageValueSchema = (m: DescMessage): Schema => {
    switch (m.typeName) {
      case "google.protobuf.Value":
        return {};
      case "google.protobuf.ListValue":
        return { type: "array", items: {} };
      case "google.protobuf.Struct":
        return { type: "object", additionalProperties: true };
    }
    return refOf(m);
  };
  const messageSchema = (m: DescMessage): Schema => {
    const c = conventionOf(m);
    const description = comment(m);
    if (c.union) {
      const members = m.oneofs[0]?.fields ?? [];
      return { oneOf: members.map((f) => (f.fieldKind === "message" ? messageValueSchema(f.message) : {})), ...(description ? { description } : {}) };
    }
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    if (c.tlType) {
      properties["@type"] = { type: "string", const: c.tlType };
      required.push("@type");
    }
    for (const f of c.fields) {
      properties[f.key] = fieldSchema(f);
      if (!f.explicit) required.push(f.key);
    }
    return { type: "object", properties, required, additionalProperties: false, ...(description ? { description } : {}) };
  };
  const resultSchema = (m: DescMessage): Schema => {
    const c = conventionOf(m);
    return c.unwrap ? fieldSchema(c.unwrap) : refOf(m);
  };
  const envelope = (result: Schema): Schema =>
    flavour === "v2"
      ? { type: "object", required: ["ok", "result", "@extra"], properties: { ok: { type: "boolean", const: true }, result, "@extra": { type: "string" } } }
      : result;
  const errorSchema: Schema =
    flavour === "v2"
      ? { type: "object", required: ["ok", "error", "code"], properties: { ok: { type: "boolean", const: false }, error: { type: "string" }, code: { type: "integer" }, "@extra": { type: "string" } } }
      : { type: "object", required: ["error"], properties: { error: { type: "string" } } };

  const paths: Record<string, Record<string, Schema>> = {};
  // the operations' groups: one per service, named as the service declares (toncenter's tags), described by its comment
  const tags = new Map<string, Schema>();
  const tagOf = (service: DescService): string => {
    const name = hasOption(service, openapi_tag) ? getOption(service, openapi_tag) : service.name;
    if (!tags.has(name)) {
      const description = comment(service);
      tags.set(name, { name, ...(description ? { description } : {}) });
    }
    return name;
  };
  // the Emulate and Streaming APIs answer as API v3 does and render its objects: their document is v3's
  const prefixes = flavour === "v3" ? ["/api/v3/", "/api/emulate/", "/api/streaming/"] : [`/api/${flavour}/`];
  for (const [path, methods] of routes.byPath) {
    const prefix = prefixes.find((p) => path.startsWith(p));
    if (prefix === undefined) continue;
    for (const [httpMethod, route] of methods) {
      const input = conventionOf(route.method.input);
      const doc = comment(route.method) ?? "";
      const apiName = prefix === "/api/emulate/" ? "emulate_" : prefix === "/api/streaming/" ? "streaming_" : "";
      const op: Schema = {
        // the path under the API, so that /jetton/transfers and /nft/transfers stay apart
        operationId: `${apiName + path.slice(prefix.length).replace(/\//g, "_")}_${httpMethod.toLowerCase()}`,
        summary: firstSentence(doc) || route.name,
        ...(doc && doc !== firstSentence(doc) ? { description: doc } : {}),
        tags: [tagOf(route.service)],
        responses: {
          "200": { description: "OK", content: { "application/json": { schema: envelope(resultSchema(route.method.output)) } } },
          default: { description: "Error", content: { "application/json": { schema: errorSchema } } },
        },
      };
      if (route.stream) {
        // Server-Sent Events: each message one event (its id:, event: and data: lines), errors before the stream as JSON
        op.responses = {
          "200": { description: "Server-Sent Events: each message is an event; a failure after the start is `event: error`.", content: { "text/event-stream": { schema: { type: "string" } } } },
          default: { description: "Error (before the stream starts)", content: { "application/json": { schema: errorSchema } } },
        };
      }
      if (route.websocket) {
        // A WebSocket: no query, the requests are the client's frames (their schema), the answers the server's
        op.description = `${doc ? `${doc}\n\n` : ""}A WebSocket (GET with Upgrade: websocket). Each text frame the client sends is one JSON request (the schema ${route.method.input.name}); each message the server sends is one text frame of JSON.`;
        // OpenAPI has no words for a WebSocket's messages: an extension names the client frames' schema
        op["x-websocket-client-frame"] = refOf(route.method.input);
        op.responses = {
          "101": { description: "Switching Protocols: the WebSocket" },
          "426": { description: "Upgrade Required: the request was not a WebSocket upgrade", content: { "application/json": { schema: errorSchema } } },
          default: { description: "Error (the upgrade was refused)", content: { "application/json": { schema: errorSchema } } },
        };
        (paths[path] ??= {})[httpMethod.toLowerCase()] = op;
        continue;
      }
      if (httpMethod === "GET") {
        op.parameters = [
          ...input.fields.map((f) => ({
            name: f.key,
            in: "query",
            required: !!f.rules?.required,
            schema: f.field.fieldKind === "list" ? fieldSchema(f) : fieldSchema(f),
            ...(comment(f.field) ? { description: comment(f.field) } : {}),
          })),
          // a header that gives a parameter's value (json.header) is a parameter of its own
          ...input.fields
            .filter((f) => f.header)
            .map((f) => ({ name: f.header, in: "header", required: false, schema: { type: "string" }, description: `Replaces ${f.key} when sent.` })),
        ];
      } else {
        op.requestBody = { required: true, content: { "application/json": { schema: refOf(route.method.input) } } };
      }
      (paths[path] ??= {})[httpMethod.toLowerCase()] = op;
    }
  }
  if (flavour === "v2") {
    tags.set("JSON-RPC", { name: "JSON-RPC", description: "Every method above, called through one JSON-RPC 2.0 entry point." });
    paths["/api/v2/jsonRPC"] = {
      post: {
        operationId: "jsonRPC_post",
        summary: "JSON-RPC 2.0 entry point: {jsonrpc, id, method, params} dispatched to the method of that name, a batch as an array",
        tags: ["JSON-RPC"],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["method"],
                properties: { jsonrpc: { type: "string" }, id: {}, method: { type: "string", enum: [...routes.byRpcName.keys()] }, params: { type: "object" } },
              },
            },
          },
        },
        responses: { "200": { description: "The method's envelope with jsonrpc and id echoed" }, default: { description: "Error", content: { "application/json": { schema: errorSchema } } } },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: `tongate API ${flavour}`,
      version: "0.1.0",
      description:
        flavour === "v2"
          ? "toncenter-compatible API v2. Read methods answer GET with query parameters and POST with a JSON body; results are wrapped as {ok, result, @extra}."
          : "toncenter-compatible API v3 (indexed).",
    },
    servers: [{ url: "/" }],
    tags: [...tags.values()],
    paths,
    components: { schemas },
  };
}

function firstSentence(text: string): string {
  const m = /^(.*?[.!?])(\s|$)/s.exec(text);
  return (m ? m[1]! : text).trim();
}
