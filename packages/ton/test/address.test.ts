import { createHash } from "node:crypto";
import { Address } from "@ton/core";
import { describe, expect, it } from "vitest";
import {
  ADDRESS_ACCEPTED_FORMS,
  AddressFormatError,
  HashFormatError,
  TonFormatError,
  crc16,
  detectAddress,
  formatFriendly,
  formatRaw,
  packAddress,
  parseAddress,
  unpackAddress,
  type DetectedAddress,
} from "../src/index.js";

// toncenter's own test vector (ton-http-api-cpp tests/utils/test_001_detect_address.py).
const RAW = "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8";
const HEX = RAW.slice(2);
const BOUNCEABLE = "EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N";
const NON_BOUNCEABLE = "UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI";
const TEST_BOUNCEABLE = "kQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqKYH";
const TEST_NON_BOUNCEABLE = "0QCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqPvC";

// The elector contract, -1:3333…
const MC_RAW = `-1:${"33".repeat(32)}`;
const MC_BOUNCEABLE = "Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF";
const MC_NON_BOUNCEABLE = "Uf8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMxYA";
const MC_TEST_BOUNCEABLE_URL = "kf8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM_BP";

// An address whose friendly forms all contain '/' (so the two alphabets differ).
const SLASHY_RAW = "0:8c27d3fd01ad5fefb4822a768fd57d70335437397ba03e514e01dff9bf5d6dea";
const SLASHY = {
  b: "EQCMJ9P9Aa1f77SCKnaP1X1wM1Q3OXugPlFOAd/5v11t6pgb",
  nb: "UQCMJ9P9Aa1f77SCKnaP1X1wM1Q3OXugPlFOAd/5v11t6sXe",
  tb: "kQCMJ9P9Aa1f77SCKnaP1X1wM1Q3OXugPlFOAd/5v11t6iOR",
  tnb: "0QCMJ9P9Aa1f77SCKnaP1X1wM1Q3OXugPlFOAd/5v11t6n5U",
};
const url = (s: string) => s.replace(/\+/g, "-").replace(/\//g, "_");

/** Deterministic pseudo-random bytes. */
function bytes(seed: string, n = 32): Buffer {
  return createHash("sha256").update(seed).digest().subarray(0, n);
}

function withoutGiven(d: DetectedAddress) {
  return { raw_form: d.raw_form, bounceable: d.bounceable, non_bounceable: d.non_bounceable };
}

describe("crc16", () => {
  it("is CRC16-XMODEM", () => {
    expect(crc16(Buffer.from("123456789"))).toBe(0x31c3);
    expect(crc16(Buffer.alloc(0))).toBe(0);
  });
});

describe("parseAddress: known vectors", () => {
  it("reads the toncenter vector in raw and both friendly forms", () => {
    const raw = parseAddress(RAW);
    expect(raw.workchain).toBe(0);
    expect(raw.hash.toString("hex")).toBe(HEX);
    expect(raw.hash.length).toBe(32);
    expect(raw).toMatchObject({ givenType: "raw_form", bounceable: true, testOnly: false });

    const b = parseAddress(BOUNCEABLE);
    expect(b).toMatchObject({ workchain: 0, givenType: "friendly_bounceable", bounceable: true, testOnly: false });
    expect(b.hash.toString("hex")).toBe(HEX);

    const nb = parseAddress(NON_BOUNCEABLE);
    expect(nb).toMatchObject({ workchain: 0, givenType: "friendly_non_bounceable", bounceable: false, testOnly: false });
    expect(nb.hash.toString("hex")).toBe(HEX);
  });

  it("reads test-only forms (kQ / 0Q)", () => {
    expect(parseAddress(TEST_BOUNCEABLE)).toMatchObject({ workchain: 0, givenType: "friendly_bounceable", bounceable: true, testOnly: true });
    expect(parseAddress(TEST_NON_BOUNCEABLE)).toMatchObject({ workchain: 0, givenType: "friendly_non_bounceable", bounceable: false, testOnly: true });
    expect(parseAddress(TEST_BOUNCEABLE).hash.toString("hex")).toBe(HEX);
  });

  it("reads the masterchain (Ef / Uf / kf)", () => {
    for (const s of [MC_RAW, MC_BOUNCEABLE, MC_NON_BOUNCEABLE, MC_TEST_BOUNCEABLE_URL]) {
      const a = parseAddress(s);
      expect(a.workchain, s).toBe(-1);
      expect(a.hash.equals(Buffer.alloc(32, 0x33)), s).toBe(true);
    }
    expect(parseAddress(MC_TEST_BOUNCEABLE_URL)).toMatchObject({ bounceable: true, testOnly: true });
    expect(parseAddress(MC_NON_BOUNCEABLE)).toMatchObject({ bounceable: false, testOnly: false });
  });

  it("takes raw hex in any case and other int8 workchains", () => {
    expect(parseAddress(RAW.toUpperCase()).hash.toString("hex")).toBe(HEX);
    expect(parseAddress(`0:${HEX.slice(0, 32)}${HEX.slice(32).toUpperCase()}`).hash.toString("hex")).toBe(HEX);
    for (const wc of [-128, -127, -2, -1, 0, 1, 9, 10, 99, 100, 127]) {
      const a = parseAddress(`${wc}:${HEX}`);
      expect(a.workchain).toBe(wc);
      expect(parseAddress(formatFriendly(wc, a.hash)).workchain).toBe(wc);
    }
  });
});

describe("formatFriendly / formatRaw", () => {
  it("produces the known vectors", () => {
    const h = Buffer.from(HEX, "hex");
    expect(formatFriendly(0, h)).toBe(BOUNCEABLE);
    expect(formatFriendly(0, h, { bounceable: true, testOnly: false, urlSafe: false })).toBe(BOUNCEABLE);
    expect(formatFriendly(0, h, { bounceable: false })).toBe(NON_BOUNCEABLE);
    expect(formatFriendly(0, h, { testOnly: true })).toBe(TEST_BOUNCEABLE);
    expect(formatFriendly(0, h, { bounceable: false, testOnly: true })).toBe(TEST_NON_BOUNCEABLE);
    const mc = Buffer.alloc(32, 0x33);
    expect(formatFriendly(-1, mc)).toBe(MC_BOUNCEABLE);
    expect(formatFriendly(-1, mc, { bounceable: false })).toBe(MC_NON_BOUNCEABLE);
    expect(formatFriendly(-1, mc, { testOnly: true })).toBe(MC_TEST_BOUNCEABLE_URL);
    expect(formatFriendly(-1, mc, { testOnly: true, urlSafe: false })).toBe(MC_TEST_BOUNCEABLE_URL.replace("_", "/"));
    expect(formatRaw(0, h)).toBe(RAW);
    expect(formatRaw(-1, mc)).toBe(MC_RAW);
    expect(formatRaw(0, new Uint8Array(h))).toBe(RAW);
  });

  it("uses the chosen alphabet", () => {
    const h = parseAddress(SLASHY_RAW).hash;
    expect(formatFriendly(0, h, { urlSafe: false })).toBe(SLASHY.b);
    expect(formatFriendly(0, h, { urlSafe: true })).toBe(url(SLASHY.b));
    expect(formatFriendly(0, h, { bounceable: false, testOnly: true, urlSafe: false })).toBe(SLASHY.tnb);
  });

  it("rejects what has no such form with RangeError", () => {
    const h = Buffer.alloc(32);
    expect(() => formatFriendly(128, h)).toThrow(RangeError);
    expect(() => formatFriendly(-129, h)).toThrow(RangeError);
    expect(() => formatFriendly(0.5, h)).toThrow(RangeError);
    expect(() => formatFriendly(0, Buffer.alloc(31))).toThrow(RangeError);
    expect(() => formatRaw(0, Buffer.alloc(33))).toThrow(RangeError);
    expect(() => formatRaw(2 ** 31, h)).toThrow(RangeError);
    expect(formatRaw(1000, h)).toBe(`1000:${"00".repeat(32)}`);
  });
});

describe("detectAddress", () => {
  it("answers the toncenter vector", () => {
    expect(detectAddress(RAW)).toEqual({
      raw_form: RAW,
      bounceable: { b64: BOUNCEABLE, b64url: BOUNCEABLE },
      non_bounceable: { b64: NON_BOUNCEABLE, b64url: NON_BOUNCEABLE },
      given_type: "raw_form",
      test_only: false,
    });
  });

  it("answers the masterchain", () => {
    expect(detectAddress(MC_BOUNCEABLE)).toEqual({
      raw_form: MC_RAW,
      bounceable: { b64: MC_BOUNCEABLE, b64url: MC_BOUNCEABLE },
      non_bounceable: { b64: MC_NON_BOUNCEABLE, b64url: MC_NON_BOUNCEABLE },
      given_type: "friendly_bounceable",
      test_only: false,
    });
  });

  it("gives identical results for every input form of one address, but given_type and test_only", () => {
    const mainnet = [SLASHY_RAW, SLASHY_RAW.toUpperCase(), SLASHY.b, url(SLASHY.b), SLASHY.nb, url(SLASHY.nb)];
    const testOnly = [SLASHY.tb, url(SLASHY.tb), SLASHY.tnb, url(SLASHY.tnb)];
    const expected = {
      raw_form: SLASHY_RAW,
      bounceable: { b64: SLASHY.b, b64url: url(SLASHY.b) },
      non_bounceable: { b64: SLASHY.nb, b64url: url(SLASHY.nb) },
    };
    const expectedTest = {
      raw_form: SLASHY_RAW,
      bounceable: { b64: SLASHY.tb, b64url: url(SLASHY.tb) },
      non_bounceable: { b64: SLASHY.tnb, b64url: url(SLASHY.tnb) },
    };
    for (const f of mainnet) {
      const d = detectAddress(f);
      expect(withoutGiven(d), f).toEqual(expected);
      expect(d.test_only, f).toBe(false);
    }
    for (const f of testOnly) {
      const d = detectAddress(f);
      expect(withoutGiven(d), f).toEqual(expectedTest);
      expect(d.test_only, f).toBe(true);
    }
    const given = (f: string) => detectAddress(f).given_type;
    expect([SLASHY_RAW, SLASHY_RAW.toUpperCase()].map(given)).toEqual(["raw_form", "raw_form"]);
    expect([SLASHY.b, url(SLASHY.b), SLASHY.tb, url(SLASHY.tb)].map(given)).toEqual(Array(4).fill("friendly_bounceable"));
    expect([SLASHY.nb, url(SLASHY.nb), SLASHY.tnb, url(SLASHY.tnb)].map(given)).toEqual(Array(4).fill("friendly_non_bounceable"));
  });

  it("accepts base64 that mixes the two alphabets, as CPP does", () => {
    // Find an address with at least two of '+' '/' and make the first url-safe.
    let s = "";
    for (let i = 0; i < 500 && !s; i++) {
      const f = formatFriendly(0, bytes(`mix${i}`), { urlSafe: false });
      const std = [...f].filter((c) => c === "+" || c === "/").length;
      if (std >= 2) s = f.replace(/[+/]/, (c) => (c === "+" ? "-" : "_"));
    }
    expect(s).toMatch(/[+/]/);
    expect(s).toMatch(/[-_]/);
    expect(detectAddress(s).bounceable.b64url).toBe(url(s));
  });
});

describe("packAddress / unpackAddress", () => {
  it("packs as CPP: url-safe, flags as given, raw → bounceable mainnet", () => {
    expect(packAddress(RAW)).toBe(BOUNCEABLE);
    expect(packAddress(RAW.toUpperCase())).toBe(BOUNCEABLE);
    expect(packAddress(NON_BOUNCEABLE)).toBe(NON_BOUNCEABLE);
    expect(packAddress(TEST_NON_BOUNCEABLE)).toBe(TEST_NON_BOUNCEABLE);
    expect(packAddress(SLASHY_RAW)).toBe(url(SLASHY.b));
    expect(packAddress(SLASHY.tnb)).toBe(url(SLASHY.tnb));
    expect(packAddress(MC_RAW)).toBe(MC_BOUNCEABLE);
  });

  it("unpacks into the documented object", () => {
    expect(unpackAddress(RAW)).toEqual({ workchain: 0, bounceable: true, testnet: false, addr_hex: HEX });
    expect(unpackAddress(RAW.toUpperCase())).toEqual({ workchain: 0, bounceable: true, testnet: false, addr_hex: HEX });
    expect(unpackAddress(BOUNCEABLE)).toEqual({ workchain: 0, bounceable: true, testnet: false, addr_hex: HEX });
    expect(unpackAddress(NON_BOUNCEABLE)).toEqual({ workchain: 0, bounceable: false, testnet: false, addr_hex: HEX });
    expect(unpackAddress(TEST_BOUNCEABLE)).toEqual({ workchain: 0, bounceable: true, testnet: true, addr_hex: HEX });
    expect(unpackAddress(TEST_NON_BOUNCEABLE)).toEqual({ workchain: 0, bounceable: false, testnet: true, addr_hex: HEX });
    expect(unpackAddress(MC_NON_BOUNCEABLE)).toEqual({ workchain: -1, bounceable: false, testnet: false, addr_hex: "33".repeat(32) });
  });
});

describe("round trips", () => {
  it("format → parse keeps every field, for every flag, alphabet and int8 workchain", () => {
    for (let wc = -128; wc <= 127; wc++) {
      const h = bytes(`rt${wc}`);
      expect(parseAddress(formatRaw(wc, h))).toEqual({ workchain: wc, hash: h, givenType: "raw_form", bounceable: true, testOnly: false });
      for (const bounceable of [true, false])
        for (const testOnly of [true, false])
          for (const urlSafe of [true, false]) {
            const s = formatFriendly(wc, h, { bounceable, testOnly, urlSafe });
            expect(s.length).toBe(48);
            const a = parseAddress(s);
            expect(a.workchain).toBe(wc);
            expect(a.hash.equals(h)).toBe(true);
            expect(a.bounceable).toBe(bounceable);
            expect(a.testOnly).toBe(testOnly);
            expect(packAddress(s)).toBe(formatFriendly(wc, h, { bounceable, testOnly, urlSafe: true }));
            expect(detectAddress(s).raw_form).toBe(formatRaw(wc, h));
          }
    }
  });

  it("detectAddress outputs parse back to the same address", () => {
    for (let i = 0; i < 50; i++) {
      const d = detectAddress(formatRaw(i % 2 ? -1 : 0, bytes(`d${i}`)));
      for (const s of [d.raw_form, d.bounceable.b64, d.bounceable.b64url, d.non_bounceable.b64, d.non_bounceable.b64url]) {
        expect(withoutGiven(detectAddress(s))).toEqual(withoutGiven(d));
      }
    }
  });
});

describe("cross-check with @ton/core", () => {
  // @ton/core reads the workchain byte as unsigned except 0xff (= -1), so compare on -1 and 0..127.
  const N = 400;
  const cases = Array.from({ length: N }, (_, i) => {
    const seed = bytes(`x${i}`, 32);
    const wc = i % 4 === 0 ? -1 : i % 4 === 1 ? 0 : seed[0] & 0x7f;
    return { wc, hash: bytes(`h${i}`) };
  });

  it(`formats ${N} random addresses exactly as Address.toString / toRawString`, () => {
    for (const { wc, hash } of cases) {
      const ref = new Address(wc, hash);
      expect(formatRaw(wc, hash)).toBe(ref.toRawString());
      for (const bounceable of [true, false])
        for (const testOnly of [true, false])
          for (const urlSafe of [true, false]) {
            expect(formatFriendly(wc, hash, { bounceable, testOnly, urlSafe })).toBe(ref.toString({ bounceable, testOnly, urlSafe }));
          }
      const d = detectAddress(ref.toString({ urlSafe: false }));
      expect(d.bounceable.b64).toBe(ref.toString({ urlSafe: false }));
      expect(d.bounceable.b64url).toBe(ref.toString({ urlSafe: true }));
      expect(d.non_bounceable.b64).toBe(ref.toString({ urlSafe: false, bounceable: false }));
      expect(d.non_bounceable.b64url).toBe(ref.toString({ urlSafe: true, bounceable: false }));
      expect(d.raw_form).toBe(ref.toRawString());
    }
  });

  it(`parses ${N} random addresses exactly as Address.parse / parseFriendly`, () => {
    for (const { wc, hash } of cases) {
      for (const bounceable of [true, false])
        for (const testOnly of [true, false]) {
          const s = new Address(wc, hash).toString({ bounceable, testOnly, urlSafe: (hash[1] & 1) === 0 });
          const ref = Address.parseFriendly(s);
          const mine = parseAddress(s);
          expect(mine.workchain).toBe(ref.address.workChain);
          expect(mine.hash.equals(ref.address.hash)).toBe(true);
          expect(mine.bounceable).toBe(ref.isBounceable);
          expect(mine.testOnly).toBe(ref.isTestOnly);
        }
      const raw = new Address(wc, hash).toRawString();
      const ref = Address.parse(raw);
      const mine = parseAddress(raw);
      expect(mine.workchain).toBe(ref.workChain);
      expect(mine.hash.equals(ref.hash)).toBe(true);
    }
  });
});

describe("rejects garbage with AddressFormatError", () => {
  /** Builds a friendly string from arbitrary 36 bytes with a correct CRC (for tag tests). */
  function friendlyWithTag(tag: number): string {
    const b = Buffer.alloc(36);
    b[0] = tag;
    Buffer.from(HEX, "hex").copy(b, 2);
    const crc = crc16(b, 0, 34);
    b[34] = crc >> 8;
    b[35] = crc & 0xff;
    return b.toString("base64url");
  }
  const badChecksum = BOUNCEABLE.slice(0, -1) + "M";
  const flipped = "EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N".replace("39VS", "39VT");

  const cases: [string, string, RegExp][] = [
    ["empty", "", /empty/],
    ["too long", "0:" + "a".repeat(300), /too long/],
    ["far too long", "x".repeat(100_000), /too long/],
    ["bad checksum (last char)", badChecksum, /^checksum mismatch/],
    ["bad checksum (inner char)", flipped, /^checksum mismatch/],
    ["bad tag 0x12", friendlyWithTag(0x12), /tag byte 0x12/],
    ["bad tag 0x00", friendlyWithTag(0x00), /tag byte 0x00/],
    ["bad tag 0x31", friendlyWithTag(0x31), /tag byte 0x31/],
    ["friendly 47 chars", BOUNCEABLE.slice(0, 47), /got 47 characters/],
    ["friendly 49 chars", BOUNCEABLE + "A", /got 49 characters/],
    ["friendly with '='", BOUNCEABLE.slice(0, 47) + "=", /'='/],
    ["friendly with '.'", BOUNCEABLE.slice(0, 10) + "." + BOUNCEABLE.slice(11), /'\.' at position 11 is not base64/],
    ["raw 63 hex", RAW.slice(0, -1), /expected 64 hex digits after the workchain, got 63/],
    ["raw 65 hex", RAW + "0", /expected 64 hex digits after the workchain, got 65/],
    ["raw bad hex g", "0:g" + HEX.slice(1), /'g' at position 3 is not a hex digit/],
    ["raw bad hex z (CPP would take it)", "0:" + HEX.slice(0, 63) + "z", /'z' at position 66 is not a hex digit/],
    ["raw with 0x", "0:0x" + HEX.slice(2), /'x'.*not a hex digit/],
    ["two colons", "0:" + HEX.slice(0, 10) + ":" + HEX.slice(11), /second ':'/],
    ["wc 128", `128:${HEX}`, /workchain 128 is out of range/],
    ["wc -129", `-129:${HEX}`, /workchain -129 is out of range/],
    ["wc 1000", `1000:${HEX}`, /out of range/],
    ["wc int32 max", `2147483647:${HEX}`, /out of range/],
    ["wc huge", `${"9".repeat(40)}:${HEX}`, /out of range/],
    ["wc +0", `+0:${HEX}`, /decimal integer.*'\+'/],
    ["wc 00", `00:${HEX}`, /leading zeros/],
    ["wc 01", `01:${HEX}`, /leading zeros/],
    ["wc -0", `-0:${HEX}`, /"-0"/],
    ["wc -", `-:${HEX}`, /no digits/],
    ["wc missing", `:${HEX}`, /workchain before ':' is missing/],
    ["wc hex", `0x0:${HEX}`, /decimal integer/],
    ["wc float", `0.0:${HEX}`, /decimal integer/],
    ["bare hex", HEX, /workchain is missing/],
    ["word", "not_an_address", /got 14 characters/],
    ["leading space", " " + BOUNCEABLE, /whitespace/],
    ["trailing newline", BOUNCEABLE + "\n", /whitespace/],
    ["trailing space, raw", RAW + " ", /whitespace/],
    ["leading tab, raw", "\t" + RAW, /whitespace/],
    ["nbsp", "\u00a0" + BOUNCEABLE, /whitespace/],
    ["inner space", "0: " + HEX.slice(1), /U\+0020 at position 3 is not a hex digit/],
    ["space after colon, 48 chars", "0: " + "0".repeat(45), /expected 64 hex digits/],
    ["Cyrillic Е in friendly", "\u0415" + BOUNCEABLE.slice(1), /U\+0415 at position 1 is not base64/],
    ["fullwidth digit in raw", "0:\uff10" + HEX.slice(1), /U\+FF10/],
    ["emoji", "\u{1F600}" + BOUNCEABLE.slice(2), /U\+1F600 at position 1/],
    ["NUL", BOUNCEABLE.slice(0, 47) + "\0", /U\+0000|whitespace/],
  ];

  for (const [name, input, msg] of cases) {
    it(name, () => {
      let err: unknown;
      try {
        parseAddress(input);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(AddressFormatError);
      expect(err).toBeInstanceOf(TonFormatError);
      expect(err).not.toBeInstanceOf(HashFormatError);
      const e = err as AddressFormatError;
      expect(e.name).toBe("AddressFormatError");
      expect(e.message).toMatch(msg);
      expect(e.message).not.toMatch(/\.$/);
      expect(e.message.length).toBeLessThan(300);
      expect(e.acceptedForms).toBe(ADDRESS_ACCEPTED_FORMS);
      expect(e.acceptedForms).toMatch(/raw/);
      // The result builders reject the same inputs the same way.
      expect(() => detectAddress(input)).toThrow(AddressFormatError);
      expect(() => packAddress(input)).toThrow(AddressFormatError);
      expect(() => unpackAddress(input)).toThrow(AddressFormatError);
    });
  }

  it("rejects non-strings from untyped callers", () => {
    expect(() => parseAddress(undefined as unknown as string)).toThrow(AddressFormatError);
    expect(() => parseAddress(null as unknown as string)).toThrow(/null/);
  });

  it("rejects every single-character corruption of a friendly address", () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let rejected = 0;
    for (let i = 0; i < 48; i++) {
      for (const c of alphabet) {
        if (c === BOUNCEABLE[i]) continue;
        const s = BOUNCEABLE.slice(0, i) + c + BOUNCEABLE.slice(i + 1);
        expect(() => parseAddress(s), s).toThrow(AddressFormatError);
        rejected++;
      }
    }
    expect(rejected).toBe(48 * 63);
  });

  it("rejects a non-hex character at every raw position", () => {
    for (let i = 0; i < 64; i++) {
      for (const c of ["g", "G", "z", " ", "-", "\u00e9"]) {
        const s = `0:${HEX.slice(0, i)}${c}${HEX.slice(i + 1)}`;
        expect(() => parseAddress(s), s).toThrow(AddressFormatError);
      }
    }
  });
});
