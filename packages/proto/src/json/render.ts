// Proto message → toncenter JSON. proto3 JSON rules for values (int64 as
// strings, bytes as standard base64), with toncenter's keys: proto field names
// (or a declared key), "@type" first from the tl_type option, unions rendered as
// their set variant, bare results unwrapped. Implicit-presence fields are always
// emitted, as toncenter emits them; optional ones only when set.
import { create, ScalarType, toJson, type DescField, type DescMessage, type JsonValue } from "@bufbuild/protobuf";
import { base64Encode } from "@bufbuild/protobuf/wire";
import { conventionOf } from "./conventions.js";

type AnyMessage = Record<string, unknown>;

export function renderResult(desc: DescMessage, msg: unknown): JsonValue {
  const c = conventionOf(desc);
  if (c.unwrap) {
    const field = c.unwrap.field;
    const value = (msg as AnyMessage)[field.localName];
    // An unset message result renders as that message with its defaults, like any result object.
    if (value === undefined) return field.fieldKind === "message" ? renderMessageValue(field.message, create(field.message)) : null;
    return renderField(field, value);
  }
  return renderMessage(desc, msg as AnyMessage);
}

export function renderMessage(desc: DescMessage, msg: AnyMessage): JsonValue {
  switch (desc.typeName) {
    case "google.protobuf.Value":
    case "google.protobuf.ListValue":
    case "google.protobuf.Struct":
    case "google.protobuf.Timestamp":
    case "google.protobuf.Duration":
      return toJson(desc, msg as never);
  }
  const c = conventionOf(desc);
  if (c.union) {
    const oneof = desc.oneofs[0];
    const sel = oneof ? (msg[oneof.localName] as { case?: string; value?: unknown }) : undefined;
    if (!sel?.case) return null;
    const member = oneof!.fields.find((f) => f.localName === sel.case)!;
    return renderField(member, sel.value);
  }
  const out: Record<string, JsonValue> = {};
  if (c.tlType) out["@type"] = c.tlType;
  for (const f of c.fields) {
    const field = f.field;
    let value: unknown;
    if (field.oneof) {
      const sel = msg[field.oneof.localName] as { case?: string; value?: unknown };
      if (sel.case !== field.localName) continue;
      value = sel.value;
    } else {
      value = msg[field.localName];
      if (f.explicit && value === undefined) continue;
      if (f.omitEmpty && isEmpty(value)) continue;
    }
    out[f.key] = renderField(field, value);
  }
  return out;
}

/** An empty list or map (an omit_empty field's value that is left out). */
const isEmpty = (value: unknown): boolean => (Array.isArray(value) ? value.length === 0 : value !== null && typeof value === "object" && Object.keys(value).length === 0);

function renderField(field: DescField, value: unknown): JsonValue {
  switch (field.fieldKind) {
    case "scalar":
      return renderScalar(field.scalar, value);
    case "enum":
      return field.enum.values.find((v) => v.number === value)?.name ?? (value as number);
    case "message":
      return renderMessageValue(field.message, value);
    case "list": {
      const list = value as unknown[];
      switch (field.listKind) {
        case "scalar":
          return list.map((v) => renderScalar(field.scalar, v));
        case "enum":
          return list.map((v) => field.enum.values.find((e) => e.number === v)?.name ?? (v as number));
        case "message":
          return list.map((v) => renderMessageValue(field.message, v));
      }
      break;
    }
    case "map": {
      const out: Record<string, JsonValue> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        out[k] =
          field.mapKind === "message"
            ? renderMessageValue(field.message, v)
            : field.mapKind === "scalar"
              ? renderScalar(field.scalar, v)
              : (v as number);
      }
      return out;
    }
  }
  return null;
}

function renderMessageValue(desc: DescMessage, value: unknown): JsonValue {
  // A Struct field holds a plain JSON object in protobuf-es.
  if (desc.typeName === "google.protobuf.Struct" && value !== null && typeof value === "object" && !("$typeName" in value)) {
    return value as JsonValue;
  }
  return renderMessage(desc, value as AnyMessage);
}

function renderScalar(type: ScalarType, value: unknown): JsonValue {
  switch (type) {
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return String(value);
    case ScalarType.BYTES:
      return base64Encode(value as Uint8Array, "std");
    case ScalarType.FLOAT:
    case ScalarType.DOUBLE: {
      const n = value as number;
      return Number.isFinite(n) ? n : String(n);
    }
    default:
      return value as JsonValue;
  }
}
