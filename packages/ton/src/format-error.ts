// The base class of the errors thrown for malformed client input (addresses,
// hashes). A service turns them into HTTP 422.

//
// `message` says what is wrong with the given value, as a lower-case sentence
// fragment without a final period (e.g. "checksum mismatch"), so that callers
// can embed it: `${param}: "…" is not a TON address: ${e.message}. Accepted:
// ${e.acceptedForms}`. It never echoes the whole input (callers show it).
export abstract class TonFormatError extends Error {
  /** The forms the parser accepts, for the same sentence. */
  abstract readonly acceptedForms: string;
  /** What the value should have been, e.g. "a TON address". */
  abstract readonly expected: string;
}

/**
 * The message a service answers (422) for malformed input in `param`: the parameter, the
 * value (shortened), what is wrong and what is accepted. One wording for gateway and services.
 */
export function describeInputError(param: string, value: string, err: TonFormatError): string {
  return `${param}: ${quoteValue(value)} is not ${err.expected}: ${err.message}. Accepted: ${err.acceptedForms}`;
}

/** How much of a client's value an error message quotes. */
const QUOTED_CHARS = 80;

/** A client's value as an error message quotes it: its JSON, cut at 80 characters with its length. */
export function quoteValue(value: unknown): string {
  const quoted = (typeof value === "string" || typeof value === "object" ? JSON.stringify(value) : undefined) ?? String(value);
  return quoted.length > QUOTED_CHARS ? `${quoted.slice(0, QUOTED_CHARS - 3)}… (${formatCount(quoted.length)} characters)` : quoted;
}

/** 150000 → "150,000", for messages about sizes (toLocaleString's first call costs ~20 ms of ICU set-up). */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ",");
}

const PRINTABLE_MIN = 0x21;
const PRINTABLE_MAX = 0x7e;

/** A character for an error message: 'x' when printable ASCII, else U+XXXX. */
export function describeChar(s: string, i: number): string {
  const c = s.codePointAt(i) ?? 0;
  if (c >= PRINTABLE_MIN && c <= PRINTABLE_MAX) return c === 0x27 ? `"'"` : `'${String.fromCharCode(c)}'`;
  return `U+${c.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Whitespace as String.prototype.trim sees it, plus the C0 controls. */
export function isSpaceLike(c: number): boolean {
  return (
    c <= 0x20 ||
    c === 0x7f ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** True when the first or the last character is whitespace (or a control). */
export function hasOuterSpace(s: string): boolean {
  return s.length > 0 && (isSpaceLike(s.charCodeAt(0)) || isSpaceLike(s.charCodeAt(s.length - 1)));
}
