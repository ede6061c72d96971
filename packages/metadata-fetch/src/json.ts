// JSON.parse of an answer with a bound on nesting: V8 parses deep JSON without trouble, but the
// code that walks the object afterwards (renderers, JSON.stringify, ClickHouse) recurses. TEP-64
// metadata is an object a few levels deep (attributes: [{ trait_type, value }]).

export const DEFAULT_MAX_DEPTH = 32;

export type ParsedJson = { ok: true; json: Record<string, unknown> } | { ok: false; reason: string };

/** The depth of the deepest array or object in a JSON text, or Infinity once it passes max. */
function nestingDepth(text: string, max: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return Infinity;
      if (depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/** The body as a JSON object, or why not (invalid JSON, too deep, not an object). */
export function parseMetadataJson(body: Uint8Array, maxDepth = DEFAULT_MAX_DEPTH): ParsedJson {
  const text = new TextDecoder("utf-8", { ignoreBOM: false }).decode(body);
  if (nestingDepth(text, maxDepth) > maxDepth) return { ok: false, reason: `JSON nested deeper than ${maxDepth} levels` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, reason: `invalid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!isObject(value)) {
    return { ok: false, reason: `JSON is ${value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`}, not an object` };
  }
  return { ok: true, json: value };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
