// A token's metadata as toncenter's token_info shows it, from its TEP-64 content (as the decoder
// keeps it: the on-chain attributes, or {"uri"} of off-chain content) and, when the content names a
// URI, what fetching it gave. toncenter's metadata fetcher makes the same record: string
// attributes `name`, `description`, `image`, `symbol` are fields, everything else (`uri`,
// `decimals`, `image_data`, …) goes to `extra`; with a URI the off-chain JSON is read and the
// on-chain attributes are laid over it (on-chain wins: semi-chain content); a URI that fails leaves
// the on-chain attributes when they say enough, else the token is not valid.

export type TokenType = "jetton_masters" | "nft_collections" | "nft_items";

export const TOKEN_TYPES: readonly TokenType[] = ["jetton_masters", "nft_collections", "nft_items"];

export interface TokenFields {
  name?: string;
  symbol?: string;
  description?: string;
  image?: string;
  extra?: Record<string, unknown>;
}

/** What fetching a content URI gave: the JSON object, or why not. */
export type FetchOutcome = { ok: true; json: Record<string, unknown> } | { ok: false; reason: string };

export interface TokenMetadata extends TokenFields {
  /** false while the content's URI has not been fetched yet */
  indexed: boolean;
  /** set once indexed: whether the token has metadata to show */
  valid?: boolean;
  /** why it is not valid */
  reason?: string;
}

const FIELDS = new Set(["name", "description", "image", "symbol"]);

/** The fields of a content object: the four string attributes, the rest as extra. */
export function fieldsOf(content: Record<string, unknown>): TokenFields {
  const out: TokenFields = {};
  for (const [key, value] of Object.entries(content)) {
    if (key === "_type") continue;
    if (typeof value === "string" && FIELDS.has(key)) out[key as "name" | "description" | "image" | "symbol"] = value;
    else (out.extra ??= {})[key] = value;
  }
  return out;
}

/** The content's off-chain URI (`url`, else `uri`), if any. */
export function contentUri(content: Record<string, unknown>): string | undefined {
  const u = typeof content.url === "string" ? content.url : typeof content.uri === "string" ? content.uri : undefined;
  return u === "" ? undefined : u;
}

/** Whether on-chain attributes alone say enough: a jetton its symbol, an item its name, others a name, description or image. */
export function saysEnough(type: TokenType, f: TokenFields): boolean {
  if (type === "jetton_masters") return f.symbol !== undefined;
  if (type === "nft_items") return f.name !== undefined || (f.extra !== undefined && "domain" in f.extra);
  return f.name !== undefined || f.description !== undefined || f.image !== undefined;
}

/** `over` laid on `base`: its fields replace, its extra keys replace. */
function merged(base: TokenFields, over: TokenFields): TokenFields {
  const out: TokenFields = { ...base };
  for (const k of ["name", "description", "image", "symbol"] as const) if (over[k] !== undefined) out[k] = over[k];
  if (over.extra) out.extra = { ...base.extra, ...over.extra };
  return out;
}

/** The metadata of a token of `type` with `content`; `fetched`: the outcome of its URI, undefined while not fetched. */
export function tokenMetadata(type: TokenType, content: Record<string, unknown>, fetched: FetchOutcome | undefined): TokenMetadata {
  const onchain = fieldsOf(content);
  const uri = contentUri(content);
  if (uri === undefined) {
    return saysEnough(type, onchain) ? { indexed: true, valid: true, ...onchain } : { indexed: true, valid: false, reason: "no content URI and too few on-chain attributes" };
  }
  if (!fetched) return { indexed: false };
  if (!fetched.ok) return saysEnough(type, onchain) ? { indexed: true, valid: true, ...onchain } : { indexed: true, valid: false, reason: fetched.reason };
  return { indexed: true, valid: true, ...merged(fieldsOf(fetched.json), onchain) };
}

/** Content JSON text as the decoder's tables keep it, as an object ({} when it is not one). */
export function contentObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
