// Hand-written hex and base64 decoding for fixed 32/36-byte values. Node's
// Buffer.from(s, "hex" | "base64") silently skips or truncates at bad
// characters, so the parsers validate and decode in one pass with these
// tables instead (no regular expressions, no intermediate strings).

/** Hex digit value by char code (< 128), or -1. Both cases. */
export const HEX_VALUE: Int8Array = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < 10; i++) t[0x30 + i] = i;
  for (let i = 0; i < 6; i++) {
    t[0x41 + i] = 10 + i;
    t[0x61 + i] = 10 + i;
  }
  return t;
})();

/**
 * Base64 digit value by char code (< 128), or -1. Both alphabets: '+' and '-'
 * are 62, '/' and '_' are 63.
 */
export const B64_VALUE: Int8Array = (() => {
  const t = new Int8Array(128).fill(-1);
  const std = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < 64; i++) t[std.charCodeAt(i)] = i;
  t[0x2d] = 62; // '-'
  t[0x5f] = 63; // '_'
  return t;
})();

/** Which base64 alphabet a character belongs to only: 1 = standard (+ /), 2 = url-safe (- _), 0 = both or neither. */
export const B64_STD_ONLY = 1;
export const B64_URL_ONLY = 2;
export const B64_ALPHABET: Uint8Array = (() => {
  const t = new Uint8Array(128);
  t[0x2b] = B64_STD_ONLY; // '+'
  t[0x2f] = B64_STD_ONLY; // '/'
  t[0x2d] = B64_URL_ONLY; // '-'
  t[0x5f] = B64_URL_ONLY; // '_'
  return t;
})();

export const CH_EQUALS = 0x3d;
export const CH_COLON = 0x3a;

/** Value of the hex digit at s[i], or -1. */
export function hexAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c < 128 ? HEX_VALUE[c] : -1;
}

/** Value of the base64 digit (either alphabet) at s[i], or -1. */
export function b64At(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c < 128 ? B64_VALUE[c] : -1;
}

/** Decodes the 64 hex digits at s[start..start+64) into a new 32-byte Buffer, or returns null on a non-hex digit. */
export function decodeHex32(s: string, start: number): Buffer | null {
  const out = Buffer.allocUnsafe(32);
  for (let k = 0, p = start; k < 32; k++, p += 2) {
    const hi = hexAt(s, p);
    const lo = hexAt(s, p + 1);
    if ((hi | lo) < 0) return null;
    out[k] = (hi << 4) | lo;
  }
  return out;
}

/** Index of the first character of s[start..end) that is not a hex digit, or -1. */
export function firstNonHex(s: string, start: number, end: number): number {
  for (let i = start; i < end; i++) if (hexAt(s, i) < 0) return i;
  return -1;
}

/** Index of the first character of s[start..end) that is in neither base64 alphabet, or -1. */
export function firstNonB64(s: string, start: number, end: number): number {
  for (let i = start; i < end; i++) if (b64At(s, i) < 0) return i;
  return -1;
}
