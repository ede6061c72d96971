// The step that gives every API v3 answer its address_book (and metadata): an endpoint returns
// its objects, and this step collects the raw addresses the answer carries — the fields marked
// `(tongate.options.v1.raw_address)` in the proto, found by walking the response's descriptor —
// then looks them up once and fills the answer's book fields. As the gateway does, it reads the
// contract, never an endpoint: a new endpoint whose response has an address_book gets it filled.
import { getOption, type DescField, type DescMessage, type DescService } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { raw_address } from "@tongate/proto/gen/tongate/options/v1/options_pb.js";
import { type AddressBookRow, AddressBookRowSchema, type AddressMetadata, AddressMetadataSchema } from "@tongate/proto/gen/tongate/v3/accounts_pb.js";

/** Where the rows of the book and the metadata come from: one lookup each per answer. */
export interface BookSources {
  addressBook(addresses: readonly string[]): Promise<Record<string, AddressBookRow>>;
  /** Token metadata of the addresses (the decoder's tables: ./metadata.ts); absent: metadata stays empty. */
  metadata?(addresses: readonly string[]): Promise<Record<string, AddressMetadata>>;
}

/** A message as its fields by local name (protobuf-es messages are plain objects). */
type Fields = Record<string, unknown>;
/** Adds the raw addresses one message holds (in its fields and nested messages) to `out`. */
type Collect = (m: Fields, out: Set<string>) => void;

/** The rule for a response type: which of its fields to fill, and how to collect its addresses. */
interface Plan {
  /** map<string, AddressBookRow>: the address_book. */
  book: DescField | undefined;
  /** map<string, AddressMetadata>: the metadata. */
  metadata: DescField | undefined;
  collect: Collect;
}

/** Does `desc` hold a raw address in its fields, or in messages reachable from them? */
function holdsAddress(desc: DescMessage, seen: Set<string>): boolean {
  if (seen.has(desc.typeName)) return false;
  seen.add(desc.typeName);
  return desc.fields.some((f) => isFreeFormWithAddresses(f) || (f.message ? holdsAddress(f.message, seen) : isRawAddress(f)));
}

const isRawAddress = (f: DescField): boolean => getOption(f, raw_address);

/** A google.protobuf.Struct marked raw_address (an action's details): its strings of the raw form are addresses. */
const isFreeFormWithAddresses = (f: DescField): boolean => f.message?.typeName === "google.protobuf.Struct" && isRawAddress(f);

/** tongate's raw form of an address: workchain, colon, 64 upper-case hex digits. */
const RAW_FORM = /^-?\d{1,3}:[0-9A-F]{64}$/;

/** Adds every string of the raw form found in a JSON value (a Struct field holds a plain JSON object). */
const addAddressesWithin = (v: unknown, out: Set<string>): void => {
  if (typeof v === "string") {
    if (RAW_FORM.test(v)) out.add(v);
  } else if (Array.isArray(v)) {
    for (const x of v) addAddressesWithin(x, out);
  } else if (v !== null && typeof v === "object") {
    for (const x of Object.values(v)) addAddressesWithin(x, out);
  }
};

/** Collectors by message type, compiled once; a recursive type finds its own while being compiled. */
const collectors = new Map<string, Collect>();

function collectorOf(desc: DescMessage): Collect | undefined {
  const known = collectors.get(desc.typeName);
  if (known) return known;
  if (!holdsAddress(desc, new Set())) return undefined;
  const steps: Collect[] = [];
  const collect: Collect = (m, out) => {
    for (const step of steps) step(m, out);
  };
  collectors.set(desc.typeName, collect);
  for (const f of desc.fields) {
    if (isFreeFormWithAddresses(f)) {
      steps.push(overValues(f, addAddressesWithin));
      continue;
    }
    const inner = f.message ? collectorOf(f.message) : undefined;
    if (inner) steps.push(overValues(f, (v, out) => inner(v as Fields, out)));
    else if (!f.message && isRawAddress(f)) steps.push(overValues(f, addAddress));
  }
  return collect;
}

const addAddress = (v: unknown, out: Set<string>): void => {
  if (typeof v === "string" && v !== "") out.add(v);
};

/** A step that calls `visit` with the field's value, each item of a list or each value of a map (nothing when unset). */
function overValues(f: DescField, visit: (v: unknown, out: Set<string>) => void): Collect {
  const name = f.localName;
  const oneof = f.oneof?.localName;
  const valueOf = oneof
    ? (m: Fields) => {
        const o = m[oneof] as { case?: string; value?: unknown } | undefined;
        return o?.case === name ? o.value : undefined;
      }
    : (m: Fields) => m[name];
  switch (f.fieldKind) {
    case "list":
      return (m, out) => {
        const list = valueOf(m) as unknown[] | undefined;
        if (list) for (const v of list) visit(v, out);
      };
    case "map":
      return (m, out) => {
        const map = valueOf(m) as Fields | undefined;
        if (map) for (const key in map) visit(map[key], out);
      };
    default:
      return (m, out) => {
        const v = valueOf(m);
        if (v !== undefined && v !== null) visit(v, out);
      };
  }
}

const mapOf = (desc: DescMessage, value: DescMessage): DescField | undefined =>
  desc.fields.find((f) => f.fieldKind === "map" && f.mapKind === "message" && f.message.typeName === value.typeName);

const plans = new Map<string, Plan | null>();

/** The plan of a response type; null when it has no book to fill or no address to fill it with. */
export function planOf(desc: DescMessage): Plan | null {
  let plan = plans.get(desc.typeName);
  if (plan === undefined) {
    const book = mapOf(desc, AddressBookRowSchema);
    const metadata = mapOf(desc, AddressMetadataSchema);
    const collect = book || metadata ? collectorOf(desc) : undefined;
    plan = collect ? { book, metadata, collect } : null;
    plans.set(desc.typeName, plan);
  }
  return plan;
}

/** Fills the book fields of `response` (a message of the plan's type) from the addresses it carries. */
export async function fillBook(plan: Plan, response: Fields, sources: BookSources): Promise<void> {
  const found = new Set<string>();
  plan.collect(response, found);
  if (!found.size) return;
  const addresses = [...found];
  const [book, metadata] = await Promise.all([
    plan.book ? sources.addressBook(addresses) : undefined,
    plan.metadata && sources.metadata ? sources.metadata(addresses) : undefined,
  ]);
  if (plan.book && book) response[plan.book.localName] = book;
  if (plan.metadata && metadata) response[plan.metadata.localName] = metadata;
}

/**
 * The service's methods whose responses have a book, each followed by the step; the others as
 * they are. Handlers return the response message (what every v3 handler here returns).
 */
export function withAddressBook<S extends DescService>(service: S, impl: Partial<ServiceImpl<S>>, sources: BookSources): Partial<ServiceImpl<S>> {
  const methods: Fields = { ...impl };
  for (const method of service.methods) {
    const plan = method.methodKind === "unary" ? planOf(method.output) : null;
    const handler = methods[method.localName];
    if (!plan || typeof handler !== "function") continue;
    methods[method.localName] = async (req: unknown, ctx: unknown) => {
      const response: Fields = await handler.call(impl, req, ctx);
      await fillBook(plan, response, sources);
      return response;
    };
  }
  return methods as Partial<ServiceImpl<S>>;
}
