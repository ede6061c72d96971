// TON account addresses: the raw form "<workchain>:<64 hex digits>" and the
// 48-character user-friendly form, as toncenter API v2 reads and writes them
// (detectAddress, packAddress, unpackAddress, and every `address` parameter).
//
// Parsing follows toncenter's C++ server (ton-http-api-cpp, which calls
// block::StdAddress::parse), with these deliberate differences, each of which
// only rejects inputs CPP would turn into nonsense:
//  * Raw workchain range. CPP takes any int32 but INT32_MIN in raw form, yet
//    the user-friendly form stores the workchain in one signed byte, so CPP
//    answers detectAddress for "1000:…" with empty friendly strings. Here a
//    raw workchain must be from -128 to 127: exactly the set that has a
//    friendly form, so every accepted address has all its forms. (TON uses 0
//    and -1 today; other int8 ids stay valid, as the friendly format allows.)
//    It must be plain decimal, as CPP's td::to_integer_safe demands: no '+',
//    no leading zeros, no "-0".
//  * Hex digits. CPP's parse_hex_digit also takes 'g'..'z' (value 16..35,
//    corrupting the id); only 0-9, a-f, A-F are taken here.
//  * A bare 64-digit hex id without "<workchain>:" is rejected. (CPP takes it
//    with its invalid-workchain marker, INT32_MIN, and again prints empty friendly forms; PY reads
//    it as "-1:<hex>".)
//  * '=' in a 48-character user-friendly address is rejected (for a trailing
//    '=' CPP's decoder leaves the checksum's last byte uninitialised).
// As in CPP: both base64 alphabets are accepted, even mixed in one string;
// the checksum is checked before the tag; nothing is trimmed.
import { crc16 } from "./crc16.js";
import { B64_VALUE, CH_COLON, CH_EQUALS, decodeHex32, firstNonB64, firstNonHex } from "./encoding.js";
import { TonFormatError, describeChar, hasOuterSpace } from "./format-error.js";

/** Inputs longer than this are rejected before any scan. No address form is longer than 69 characters. */
export const MAX_ADDRESS_INPUT_LENGTH = 256;

/** The forms parseAddress accepts, in words, for error messages. */
export const ADDRESS_ACCEPTED_FORMS =
  'raw form "<workchain>:<64 hex digits>" with a decimal workchain from -128 to 127 (e.g. "0:83df…31a8"), ' +
  "or the 48-character user-friendly form in base64 or base64url " +
  "(EQ…/UQ… basechain, Ef…/Uf… masterchain, kQ…/0Q… test-only)";

export class AddressFormatError extends TonFormatError {
  override readonly name = "AddressFormatError";
  override readonly expected = "a TON address";
  override readonly acceptedForms = ADDRESS_ACCEPTED_FORMS;
}

export type AddressGivenType = "raw_form" | "friendly_bounceable" | "friendly_non_bounceable";

export interface ParsedAddress {
  /** Signed, -128..127. */
  workchain: number;
  /** The 256-bit account id, 32 bytes. */
  hash: Buffer;
  givenType: AddressGivenType;
  /** From the friendly tag; true for raw input. */
  bounceable: boolean;
  /** From the friendly tag; false for raw input. */
  testOnly: boolean;
}

/** Friendly-form tag bytes. */
export const TAG_BOUNCEABLE = 0x11;
export const TAG_NON_BOUNCEABLE = 0x51;
export const TAG_TEST_ONLY = 0x80;

const FRIENDLY_LENGTH = 48;
const FRIENDLY_BYTES = 36;
const WORKCHAIN_MIN = -128;
const WORKCHAIN_MAX = 127;

function fail(input: string, message: string): AddressFormatError {
  if (hasOuterSpace(input)) return new AddressFormatError("leading or trailing whitespace is not allowed");
  return new AddressFormatError(message);
}

/**
 * Addresses parsed lately, by input. One request meets an address more than once: the gateway checks
 * the parameter's format, then the service reads the same string (in the same process, or in the
 * gateway's and the service's when they are two). Each is parsed once; the repeats are a lookup.
 * First in, first out: an input is asked for again within microseconds, or much later.
 */
const recent = new Map<string, ParsedAddress>();
const RECENT_MAX = 1024;
const counts = { decoded: 0, remembered: 0 };

/** How many inputs parseAddress decoded, and how many it answered from the ones parsed lately (since the process started). */
export function addressParseCounts(): { decoded: number; remembered: number } {
  return { ...counts };
}

/**
 * Parses an address in raw or user-friendly form. Throws AddressFormatError
 * for anything else, saying what is wrong. The result is shared with other
 * callers that parse the same input: read it, do not change it.
 */
export function parseAddress(input: string): ParsedAddress {
  const known = recent.get(input);
  if (known) {
    counts.remembered++;
    return known;
  }
  const a = Object.freeze(decodeAddress(input));
  counts.decoded++;
  if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value!);
  recent.set(input, a);
  return a;
}

function decodeAddress(input: string): ParsedAddress {
  if (typeof input !== "string") throw new AddressFormatError(`expected a string, got ${input === null ? "null" : typeof input}`);
  const n = input.length;
  if (n === FRIENDLY_LENGTH) return parseFriendly(input);
  if (n === 0) throw new AddressFormatError("the address is empty");
  if (n > MAX_ADDRESS_INPUT_LENGTH) throw new AddressFormatError(`too long: ${n} characters, while an address has at most 69`);
  const colon = input.indexOf(":");
  if (colon >= 0) return parseRaw(input, colon);
  if (n === 64 && firstNonHex(input, 0, 64) < 0) {
    throw new AddressFormatError('the workchain is missing: write a raw address as "<workchain>:<64 hex digits>", e.g. "0:…" or "-1:…"');
  }
  throw fail(input, `expected a raw address "<workchain>:<64 hex digits>" or a 48-character user-friendly address, got ${n} characters and no ':'`);
}

function parseFriendly(s: string): ParsedAddress {
  // 48 base64 characters = 12 groups of 4 = 36 bytes, no padding.
  const buf = Buffer.allocUnsafe(FRIENDLY_BYTES);
  const t = B64_VALUE;
  for (let i = 0, o = 0; i < FRIENDLY_LENGTH; i += 4, o += 3) {
    const c0 = s.charCodeAt(i);
    const c1 = s.charCodeAt(i + 1);
    const c2 = s.charCodeAt(i + 2);
    const c3 = s.charCodeAt(i + 3);
    // Non-ASCII char codes index past the table and read undefined; `| 0` makes that 0, so check the range too.
    if ((c0 | c1 | c2 | c3) >= 128) return friendlyBadChar(s);
    const a = t[c0];
    const b = t[c1];
    const c = t[c2];
    const d = t[c3];
    if ((a | b | c | d) < 0) return friendlyBadChar(s);
    const x = (a << 18) | (b << 12) | (c << 6) | d;
    buf[o] = x >>> 16;
    buf[o + 1] = (x >>> 8) & 0xff;
    buf[o + 2] = x & 0xff;
  }
  const crc = crc16(buf, 0, 34);
  if (buf[34] !== crc >>> 8 || buf[35] !== (crc & 0xff)) {
    throw fail(s, "checksum mismatch: the CRC16 in the last 2 bytes does not match the address (a mistyped character?)");
  }
  const tag = buf[0];
  if ((tag & 0x3f) !== TAG_BOUNCEABLE) {
    throw new AddressFormatError(
      `unknown tag byte 0x${tag.toString(16).padStart(2, "0")}: expected 0x11 (bounceable) or 0x51 (non-bounceable), optionally with the test-only bit 0x80`,
    );
  }
  const bounceable = (tag & 0x40) === 0;
  return {
    workchain: (buf[1] << 24) >> 24,
    hash: buf.subarray(2, 34),
    givenType: bounceable ? "friendly_bounceable" : "friendly_non_bounceable",
    bounceable,
    testOnly: (tag & TAG_TEST_ONLY) !== 0,
  };
}

/** The error for a 48-character input with a non-base64 character (error path only). */
function friendlyBadChar(s: string): never {
  const colon = s.indexOf(":");
  if (colon >= 0) {
    parseRaw(s, colon); // a raw address of the wrong length: throws, saying what is wrong with it
    throw fail(s, "not an address");
  }
  const i = firstNonB64(s, 0, FRIENDLY_LENGTH);
  if (s.charCodeAt(i) === CH_EQUALS) {
    throw fail(s, `'=' at position ${i + 1}: a user-friendly address is 48 base64 characters without '=' padding`);
  }
  throw fail(s, `character ${describeChar(s, i)} at position ${i + 1} is not base64 (A-Z a-z 0-9 + / - _)`);
}

function parseRaw(s: string, colon: number): ParsedAddress {
  const workchain = parseWorkchain(s, colon);
  const len = s.length - colon - 1;
  if (len !== 64) {
    throw fail(s, `expected 64 hex digits after the workchain, got ${len} character${len === 1 ? "" : "s"}`);
  }
  const hash = decodeHex32(s, colon + 1);
  if (hash === null) {
    const i = firstNonHex(s, colon + 1, s.length);
    const what = s.charCodeAt(i) === CH_COLON ? "a second ':'" : `character ${describeChar(s, i)}`;
    throw fail(s, `${what} at position ${i + 1} is not a hex digit; expected 64 hex digits after the workchain`);
  }
  return { workchain, hash, givenType: "raw_form", bounceable: true, testOnly: false };
}

/** The workchain before the colon: plain decimal (td::to_integer_safe's canonical form), -128..127. */
function parseWorkchain(s: string, colon: number): number {
  if (colon === 0) throw fail(s, `the workchain before ':' is missing, e.g. "0:…" or "-1:…"`);
  const negative = s.charCodeAt(0) === 0x2d;
  const first = negative ? 1 : 0;
  if (first === colon) throw fail(s, "the workchain before ':' has no digits");
  let value = 0;
  for (let i = first; i < colon; i++) {
    const d = s.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) {
      throw fail(s, `the workchain before ':' must be a decimal integer such as 0 or -1; found ${describeChar(s, i)} at position ${i + 1}`);
    }
    if (value <= WORKCHAIN_MAX + 1) value = value * 10 + d;
  }
  const digits = colon - first;
  if (digits > 1 && s.charCodeAt(first) === 0x30) throw fail(s, "the workchain must be written without leading zeros");
  if (negative && value === 0) throw fail(s, 'the workchain must be written as "0", not "-0"');
  const workchain = negative ? -value : value;
  if (workchain < WORKCHAIN_MIN || workchain > WORKCHAIN_MAX) {
    const shown = digits <= 12 ? s.slice(0, colon) : `with ${digits} digits`;
    throw fail(
      s,
      `workchain ${shown} is out of range: it must be from -128 to 127 (0 is the basechain, -1 the masterchain), as a user-friendly address stores it in one byte`,
    );
  }
  return workchain;
}

// ---- Formatting -----------------------------------------------------------

export interface FriendlyOptions {
  /** Default true (tag 0x11; false gives 0x51). */
  bounceable?: boolean;
  /** Default false (sets bit 0x80 when true). */
  testOnly?: boolean;
  /** Default true: base64url (- _); false gives standard base64 (+ /). */
  urlSafe?: boolean;
}

// One reusable 36-byte buffer: formatting is synchronous, and Buffer's
// base64 encoders copy out, so nothing keeps a reference to it.
const scratch = Buffer.allocUnsafeSlow(FRIENDLY_BYTES);

function checkHash(hash: Uint8Array): void {
  if (!(hash instanceof Uint8Array) || hash.length !== 32) throw new RangeError("an account id must be 32 bytes");
}

function loadScratch(workchain: number, hash: Uint8Array): void {
  if (!Number.isInteger(workchain) || workchain < WORKCHAIN_MIN || workchain > WORKCHAIN_MAX) {
    throw new RangeError(`workchain ${workchain} has no user-friendly form (it must be from -128 to 127)`);
  }
  checkHash(hash);
  scratch[1] = workchain & 0xff;
  scratch.set(hash, 2);
}

function setTag(tag: number): void {
  scratch[0] = tag;
  const crc = crc16(scratch, 0, 34);
  scratch[34] = crc >>> 8;
  scratch[35] = crc & 0xff;
}

function tagOf(bounceable: boolean, testOnly: boolean): number {
  return (bounceable ? TAG_BOUNCEABLE : TAG_NON_BOUNCEABLE) | (testOnly ? TAG_TEST_ONLY : 0);
}

/** The 48-character user-friendly form. Throws RangeError for a workchain outside -128..127 or an id that is not 32 bytes. */
export function formatFriendly(workchain: number, hash: Uint8Array, options: FriendlyOptions = {}): string {
  loadScratch(workchain, hash);
  setTag(tagOf(options.bounceable ?? true, options.testOnly ?? false));
  return scratch.toString(options.urlSafe ?? true ? "base64url" : "base64");
}

/** "<workchain>:<64 lower-case hex digits>". Throws RangeError for a non-int32 workchain or an id that is not 32 bytes. */
export function formatRaw(workchain: number, hash: Uint8Array): string {
  if (!Number.isInteger(workchain) || workchain < -0x80000000 || workchain > 0x7fffffff) {
    throw new RangeError(`workchain ${workchain} is not a 32-bit integer`);
  }
  checkHash(hash);
  return `${workchain}:${toHex(hash)}`;
}

function toHex(bytes: Uint8Array): string {
  return (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString("hex");
}

// ---- toncenter API v2 results ---------------------------------------------

export interface DetectedAddressVariant {
  /** Standard base64 (+ /), 48 characters. */
  b64: string;
  /** base64url (- _), 48 characters. */
  b64url: string;
}

/** detectAddress's result without the "@type" fields (ext.utils.detectedAddress / ext.utils.detectedAddressVariant). */
export interface DetectedAddress {
  /** "<workchain>:<64 lower-case hex digits>", whatever the input's case. */
  raw_form: string;
  bounceable: DetectedAddressVariant;
  non_bounceable: DetectedAddressVariant;
  /** "friendly_*" for a user-friendly input (by its tag), else "raw_form". */
  given_type: AddressGivenType;
  /** The input's test-only flag; false for raw input. */
  test_only: boolean;
}

/**
 * toncenter v2 detectAddress. As in CPP, both variants carry the input's
 * test-only flag (a "kQ…" input gives kQ…/0Q… variants), and raw_form is
 * lower case.
 */
export function detectAddress(input: string): DetectedAddress {
  const a = parseAddress(input);
  loadScratch(a.workchain, a.hash);
  const test = a.testOnly ? TAG_TEST_ONLY : 0;
  setTag(TAG_BOUNCEABLE | test);
  const bounceable = { b64: scratch.toString("base64"), b64url: scratch.toString("base64url") };
  setTag(TAG_NON_BOUNCEABLE | test);
  const non_bounceable = { b64: scratch.toString("base64"), b64url: scratch.toString("base64url") };
  return {
    raw_form: `${a.workchain}:${a.hash.toString("hex")}`,
    bounceable,
    non_bounceable,
    given_type: a.givenType,
    test_only: a.testOnly,
  };
}

/**
 * toncenter v2 packAddress, as CPP answers it (StdAddress::rserialize(true)):
 * the url-safe user-friendly form with the input's flags; a raw input packs as
 * bounceable and not test-only. (PY answered standard base64.)
 */
export function packAddress(input: string): string {
  const a = parseAddress(input);
  return formatFriendly(a.workchain, a.hash, { bounceable: a.bounceable, testOnly: a.testOnly, urlSafe: true });
}

/** unpackAddress's result as toncenter's v2 OpenAPI documents it. */
export interface UnpackedAddress {
  workchain: number;
  bounceable: boolean;
  testnet: boolean;
  /** 64 lower-case hex digits. */
  addr_hex: string;
}

/**
 * toncenter v2 unpackAddress, in the documented object shape (CPP answers a
 * bare "wc:HEX" string instead). A raw input is bounceable and not testnet.
 */
export function unpackAddress(input: string): UnpackedAddress {
  const a = parseAddress(input);
  return { workchain: a.workchain, bounceable: a.bounceable, testnet: a.testOnly, addr_hex: a.hash.toString("hex") };
}
