import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AddressFormatError, HASH_ACCEPTED_FORMS, HashFormatError, TonFormatError, detectHash, hashForms, parseHash } from "../src/index.js";

// toncenter's own vectors (ton-http-api-cpp tests/utils/test_002_detect_hash.py).
const HEX = "08f504e165de1094fe0f0cf57d8feb92b796bd89ec3addc8e388b51b9a2324f3";
const B64 = "CPUE4WXeEJT+Dwz1fY/rkreWvYnsOt3I44i1G5ojJPM=";
const B64URL_PADDED = "CPUE4WXeEJT-Dwz1fY_rkreWvYnsOt3I44i1G5ojJPM=";
const B64URL = "CPUE4WXeEJT-Dwz1fY_rkreWvYnsOt3I44i1G5ojJPM";
const B64_UNPADDED = "CPUE4WXeEJT+Dwz1fY/rkreWvYnsOt3I44i1G5ojJPM"; // 422 in CPP

const EXPECTED = { b64: B64, b64url: B64URL, hex: HEX };

function forms(h: Buffer): string[] {
  const b64 = h.toString("base64");
  const b64url = h.toString("base64url");
  const hex = h.toString("hex");
  return [hex, hex.toUpperCase(), hex.slice(0, 32) + hex.slice(32).toUpperCase(), b64, b64url, b64url + "="];
}

describe("detectHash", () => {
  it("gives the same result for every accepted form of toncenter's vector", () => {
    for (const f of [HEX, HEX.toUpperCase(), B64, B64URL_PADDED, B64URL]) {
      expect(detectHash(f), f).toEqual(EXPECTED);
      expect(parseHash(f).toString("hex")).toBe(HEX);
    }
  });

  it("answers b64url unpadded (43 characters), like td::base64url_encode", () => {
    const d = detectHash(HEX);
    expect(d.b64).toHaveLength(44);
    expect(d.b64url).toHaveLength(43);
    expect(d.hex).toHaveLength(64);
    // …and every output is itself an accepted input.
    for (const out of [d.b64, d.b64url, d.hex]) expect(detectHash(out)).toEqual(d);
  });

  it("rejects the 43-character unpadded standard form, as CPP's test expects", () => {
    expect(() => parseHash(B64_UNPADDED)).toThrow(HashFormatError);
    expect(() => parseHash(B64_UNPADDED)).toThrow(/url-safe/);
  });

  it("agrees with Buffer's encoders on 300 random hashes, in every form", () => {
    for (let i = 0; i < 300; i++) {
      const h = createHash("sha256").update(`hash${i}`).digest();
      const expected = { b64: h.toString("base64"), b64url: h.toString("base64url"), hex: h.toString("hex") };
      expect(hashForms(h)).toEqual(expected);
      for (const f of forms(h)) expect(detectHash(f), f).toEqual(expected);
      // The standard alphabet unpadded is accepted only when it has no + or / (then it is also base64url).
      const stdUnpadded = expected.b64.slice(0, 43);
      if (/[+/]/.test(stdUnpadded)) expect(() => parseHash(stdUnpadded)).toThrow(HashFormatError);
      else expect(detectHash(stdUnpadded)).toEqual(expected);
    }
  });

  it("hashForms takes a plain Uint8Array and refuses other lengths", () => {
    expect(hashForms(new Uint8Array(Buffer.from(HEX, "hex")))).toEqual(EXPECTED);
    expect(() => hashForms(new Uint8Array(31))).toThrow(RangeError);
  });

  it("returns a fresh buffer each time", () => {
    const a = parseHash(HEX);
    const b = parseHash(HEX);
    a[0] = 0xff;
    expect(b[0]).toBe(0x08);
  });
});

describe("parseHash rejects with HashFormatError", () => {
  const mixed = "CPUE4WXeEJT+Dwz1fY_rkreWvYnsOt3I44i1G5ojJPM=";
  const cases: [string, string, RegExp][] = [
    ["empty", "", /empty/],
    ["too long", "a".repeat(257), /too long/],
    ["far too long", "a".repeat(1_000_000), /too long/],
    ["words", "not a hash", /got 10 characters/],
    ["63 hex", HEX.slice(1), /got 63 characters/],
    ["65 hex", HEX + "0", /got 65 characters/],
    ["hex with g", "g" + HEX.slice(1), /'g' at position 1 is not a hex digit/],
    ["hex with 0x", "0x" + HEX.slice(2), /'x' at position 2/],
    ["standard unpadded 43", B64_UNPADDED, /url-safe/],
    ["44 without '='", B64URL + "A", /must end with '='/],
    ["'==' padding", B64URL.slice(0, 42) + "==", /two '='/],
    ["'=' too early", B64URL.slice(0, 20) + "=" + B64URL.slice(21) + "=", /'=' at position 21/],
    ["43 ending in '='", B64URL.slice(0, 42) + "=", /'=' at position 43/],
    ["mixed alphabets", mixed, /mixes/],
    ["non-canonical last char (padded)", B64.slice(0, 42) + "N=", /non-zero padding bits/],
    ["non-canonical last char (unpadded)", B64URL.slice(0, 42) + "N", /non-zero padding bits/],
    ["42 base64", B64URL.slice(0, 42), /got 42 characters/],
    ["45 base64", B64 + "=", /got 45 characters/],
    ["base64 with '.'", "." + B64URL.slice(1), /'\.' at position 1 is not base64/],
    ["leading space (44 total)", " " + B64URL, /whitespace/],
    ["trailing space on hex", HEX.slice(1) + " ", /whitespace/],
    ["trailing newline", B64 + "\n", /whitespace/],
    ["inner space in hex", HEX.slice(0, 10) + " " + HEX.slice(11), /U\+0020 at position 11/],
    ["unicode in hex", "\u00e9" + HEX.slice(1), /U\+00E9/],
    ["unicode in base64", "\u0410" + B64URL.slice(1), /U\+0410/],
    ["an address", "EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N", /got 48 characters/],
  ];
  for (const [name, input, msg] of cases) {
    it(name, () => {
      let err: unknown;
      try {
        parseHash(input);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(HashFormatError);
      expect(err).toBeInstanceOf(TonFormatError);
      expect(err).not.toBeInstanceOf(AddressFormatError);
      const e = err as HashFormatError;
      expect(e.name).toBe("HashFormatError");
      expect(e.message).toMatch(msg);
      expect(e.message).not.toMatch(/\.$/);
      expect(e.acceptedForms).toBe(HASH_ACCEPTED_FORMS);
      expect(() => detectHash(input)).toThrow(HashFormatError);
    });
  }

  it("rejects a bad character at every position of every form", () => {
    const h = createHash("sha256").update("positions").digest();
    for (const f of forms(h)) {
      for (let i = 0; i < f.length; i++) {
        for (const c of ["!", " ", "\u00ff", "\u4e00"]) {
          const s = f.slice(0, i) + c + f.slice(i + 1);
          expect(() => parseHash(s), s).toThrow(HashFormatError);
        }
      }
    }
  });
});
