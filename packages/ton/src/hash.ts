// 256-bit hashes (transaction, block, message hashes; account ids in some
// parameters) as toncenter API v2 reads them, and detectHash.
//
// The accepted forms are exactly those of toncenter's C++ server (TonHash,
// ton-http-api-cpp ton_hash.cpp, which tries td::base64_decode,
// td::base64url_decode and td::hex_decode and wants 32 bytes):
//  * 64 hex digits, either case;
//  * 44 characters of base64 with one '=' pad, in the standard alphabet
//    (+ /) or the url-safe one (- _), not both in one string;
//  * 43 characters of unpadded base64url.
// The 43-character unpadded *standard* form (with + or /) is rejected, as
// CPP's own test (tests/utils/test_002_detect_hash.py) expects. As in tdutils,
// the last base64 character must leave its unused low bits zero (the one
// canonical encoding of the 32 bytes). Nothing is trimmed.
import { B64_ALPHABET, B64_STD_ONLY, B64_URL_ONLY, B64_VALUE, CH_EQUALS, decodeHex32, firstNonB64, firstNonHex } from "./encoding.js";
import { TonFormatError, describeChar, hasOuterSpace } from "./format-error.js";

/** Inputs longer than this are rejected before any scan. No hash form is longer than 64 characters. */
export const MAX_HASH_INPUT_LENGTH = 256;

/** The forms parseHash accepts, in words, for error messages. */
export const HASH_ACCEPTED_FORMS =
  "64 hex digits (either case), 44-character base64 or base64url ending in one '=', or 43-character unpadded base64url";

export class HashFormatError extends TonFormatError {
  override readonly name = "HashFormatError";
  override readonly expected = "a 256-bit hash";
  override readonly acceptedForms = HASH_ACCEPTED_FORMS;
}

function fail(input: string, message: string): HashFormatError {
  if (hasOuterSpace(input)) return new HashFormatError("leading or trailing whitespace is not allowed");
  return new HashFormatError(message);
}

/** Parses a 256-bit hash into a new 32-byte Buffer. Throws HashFormatError, saying what is wrong. */
export function parseHash(input: string): Buffer {
  if (typeof input !== "string") throw new HashFormatError(`expected a string, got ${input === null ? "null" : typeof input}`);
  const n = input.length;
  if (n === 64) {
    const out = decodeHex32(input, 0);
    if (out !== null) return out;
    const i = firstNonHex(input, 0, 64);
    throw fail(input, `character ${describeChar(input, i)} at position ${i + 1} is not a hex digit (a 64-character hash is hex)`);
  }
  if (n === 44 || n === 43) return parseBase64(input, n === 44);
  if (n === 0) throw new HashFormatError("the hash is empty");
  if (n > MAX_HASH_INPUT_LENGTH) throw new HashFormatError(`too long: ${n} characters, while a hash has at most 64`);
  throw fail(input, `expected 64 hex digits or 43/44 base64 characters, got ${n} characters`);
}

/** 43 base64 characters (+ '=' when padded) = 10 groups of 4 and a group of 3 = 30 + 2 bytes. */
function parseBase64(s: string, padded: boolean): Buffer {
  const out = Buffer.allocUnsafe(32);
  const t = B64_VALUE;
  const alpha = B64_ALPHABET;
  let alphabets = 0;
  for (let i = 0, o = 0; i < 40; i += 4, o += 3) {
    const c0 = s.charCodeAt(i);
    const c1 = s.charCodeAt(i + 1);
    const c2 = s.charCodeAt(i + 2);
    const c3 = s.charCodeAt(i + 3);
    if ((c0 | c1 | c2 | c3) >= 128) return base64BadChar(s, padded);
    const a = t[c0];
    const b = t[c1];
    const c = t[c2];
    const d = t[c3];
    if ((a | b | c | d) < 0) return base64BadChar(s, padded);
    alphabets |= alpha[c0] | alpha[c1] | alpha[c2] | alpha[c3];
    const x = (a << 18) | (b << 12) | (c << 6) | d;
    out[o] = x >>> 16;
    out[o + 1] = (x >>> 8) & 0xff;
    out[o + 2] = x & 0xff;
  }
  const c40 = s.charCodeAt(40);
  const c41 = s.charCodeAt(41);
  const c42 = s.charCodeAt(42);
  if ((c40 | c41 | c42) >= 128) return base64BadChar(s, padded);
  const a = t[c40];
  const b = t[c41];
  const c = t[c42];
  if ((a | b | c) < 0) return base64BadChar(s, padded);
  if (padded && s.charCodeAt(43) !== CH_EQUALS) {
    throw fail(s, "a 44-character base64 hash must end with '=' (32 bytes take one padding character)");
  }
  alphabets |= alpha[c40] | alpha[c41] | alpha[c42];
  if (alphabets === (B64_STD_ONLY | B64_URL_ONLY)) {
    throw fail(s, "mixes the standard (+ /) and url-safe (- _) base64 alphabets");
  }
  if (!padded && alphabets === B64_STD_ONLY) {
    throw fail(s, "43-character unpadded base64 must be url-safe (- _); standard base64 (+ /) needs the '=' padding (44 characters)");
  }
  if ((c & 3) !== 0) {
    throw fail(s, `character ${describeChar(s, 42)} at position 43 leaves non-zero padding bits: not the base64 encoding of 32 bytes`);
  }
  const x = (a << 18) | (b << 12) | (c << 6);
  out[30] = x >>> 16;
  out[31] = (x >>> 8) & 0xff;
  return out;
}

/** The error for a 43/44-character input with a non-base64 character among the first 43 (error path only). */
function base64BadChar(s: string, padded: boolean): never {
  const i = firstNonB64(s, 0, 43);
  if (s.charCodeAt(i) === CH_EQUALS) {
    if (padded && i === 42) throw fail(s, "has two '=' padding characters; a 32-byte hash in base64 has exactly one");
    throw fail(s, `'=' at position ${i + 1}: padding may only be the 44th character`);
  }
  throw fail(s, `character ${describeChar(s, i)} at position ${i + 1} is not base64 (A-Z a-z 0-9 + / - _)`);
}

/** detectHash's result without "@type" (ext.utils.detectedHash). */
export interface DetectedHash {
  /** Standard base64 with '=' padding, 44 characters. */
  b64: string;
  /**
   * base64url, 43 characters, *unpadded*. CPP fills this with
   * td::base64url_encode, which never pads (tdutils' encoder appends '=' only
   * for the standard alphabet), so toncenter's server answers 43 characters.
   * v2.json's description says "44 characters", but that text was written
   * beside b64's and is not what the server sends; the schema itself has no
   * length, so both validate. We answer what toncenter answers; the value
   * also round-trips, since 43-character base64url is an accepted input.
   */
  b64url: string;
  /** Lower-case hex, 64 characters. */
  hex: string;
}

/** The three forms of a 32-byte hash, as detectHash answers them. */
export function hashForms(hash: Uint8Array): DetectedHash {
  if (!(hash instanceof Uint8Array) || hash.length !== 32) throw new RangeError("a hash must be 32 bytes");
  const b = Buffer.isBuffer(hash) ? hash : Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength);
  // Node's "base64url" omits padding, exactly like td::base64url_encode.
  return { b64: b.toString("base64"), b64url: b.toString("base64url"), hex: b.toString("hex") };
}

/** toncenter v2 detectHash. */
export function detectHash(input: string): DetectedHash {
  return hashForms(parseHash(input));
}
