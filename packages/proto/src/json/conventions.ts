// toncenter's JSON conventions, read once per descriptor from the options in
// proto/tongate/options/v1/options.proto and cached.
import { getOption, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { json, message_rules, rules, tl_type, union, type FieldRules, type MessageRules } from "../gen/tongate/options/v1/options_pb.js";

export interface FieldConvention {
  field: DescField;
  /** The JSON key in toncenter's output and input. */
  key: string;
  /** Other accepted input keys. */
  aliases: string[];
  rules: FieldRules | undefined;
  /** Declared with explicit presence (`optional`, or a message). */
  explicit: boolean;
  /** A list or map left out of the JSON when empty. */
  omitEmpty: boolean;
  /** The HTTP header whose value replaces the parameter's ("" for none), as declared (header names are case-insensitive). */
  header: string;
}

export interface MessageConvention {
  desc: DescMessage;
  tlType: string;
  union: boolean;
  /** The single field a bare result is unwrapped from. */
  unwrap: FieldConvention | undefined;
  fields: FieldConvention[];
  /** Input key (name or alias) → field. */
  byKey: Map<string, FieldConvention>;
  rules: MessageRules | undefined;
}

const cache = new WeakMap<DescMessage, MessageConvention>();

export function conventionOf(desc: DescMessage): MessageConvention {
  let c = cache.get(desc);
  if (c) return c;
  const fields = desc.fields.map((field): FieldConvention => {
    const j = getOption(field, json);
    const r = getOption(field, rules);
    return {
      field,
      key: j.key || field.name,
      aliases: j.aliases,
      rules: isEmptyRules(r) ? undefined : r,
      explicit: field.fieldKind === "message" || field.presence === 1 /* EXPLICIT */ || field.oneof !== undefined,
      omitEmpty: j.omitEmpty,
      header: j.header,
    };
  });
  const byKey = new Map<string, FieldConvention>();
  for (const f of fields) {
    byKey.set(f.key, f);
    if (f.key !== f.field.name) byKey.set(f.field.name, f);
    for (const a of f.aliases) byKey.set(a, f);
  }
  const unwrapField = fields.find((f) => getOption(f.field, json).unwrap);
  const mr = getOption(desc, message_rules);
  c = {
    desc,
    tlType: getOption(desc, tl_type),
    union: getOption(desc, union),
    unwrap: unwrapField,
    fields,
    byKey,
    rules: mr.exactlyOne.length || mr.atMostOne.length || mr.allOrNone.length ? mr : undefined,
  };
  cache.set(desc, c);
  return c;
}

function isEmptyRules(r: FieldRules): boolean {
  return !r.required && r.gte === undefined && r.lte === undefined && r.minLen === undefined && r.maxLen === undefined && r.maxItems === undefined && r.format === 0 && r.oneOf.length === 0 && r.pattern === undefined;
}
