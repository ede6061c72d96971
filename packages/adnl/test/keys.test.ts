import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import { keyPairFromSeed } from "@ton/crypto";
// The reference client's own primitives (the `adnl` package that ton-lite-client uses, and its curve library).
import { getSharedSecret } from "@noble/ed25519";
import { ADNLAddress } from "adnl/dist/address.js";
import { describe, expect, it } from "vitest";
import {
  adnlKeyId,
  ed25519KeyPairFromSeed,
  ed25519PublicKeyToX25519,
  FrameDecoder,
  FrameError,
  readTlBytes,
  tlBytesSize,
  writeTlBytes,
  x25519PrivateKeyFromEd25519Seed,
  x25519SharedSecret,
} from "../src/index.js";
import { plainFrame } from "./helpers.js";

describe("keys", () => {
  it("derives the same ed25519 public key as @ton/crypto (tweetnacl)", () => {
    for (let i = 0; i < 20; i++) {
      const seed = randomBytes(32);
      expect(ed25519KeyPairFromSeed(seed).publicKey).toEqual(keyPairFromSeed(seed).publicKey);
    }
  });

  it("key id is sha256(c6b41348 || key)", () => {
    const pub = Buffer.from("p2tSiaeSqX978BxE5zLxuTQM06WVDErf5/15QToxMYA=", "base64");
    expect(adnlKeyId(pub)).toEqual(createHash("sha256").update(Buffer.concat([Buffer.from("c6b41348", "hex"), pub])).digest());
    expect(adnlKeyId(pub)).toEqual(Buffer.from(new ADNLAddress(pub).hash));
  });

  it("server-side shared secret equals the adnl client's (noble getSharedSecret)", async () => {
    for (let i = 0; i < 10; i++) {
      const serverSeed = randomBytes(32);
      const clientSeed = randomBytes(32);
      const serverPub = ed25519KeyPairFromSeed(serverSeed).publicKey;
      const clientPub = ed25519KeyPairFromSeed(clientSeed).publicKey;
      const theirs = Buffer.from(await getSharedSecret(clientSeed, serverPub));
      const ours = x25519SharedSecret(x25519PrivateKeyFromEd25519Seed(serverSeed), ed25519PublicKeyToX25519(clientPub));
      expect(ours).toEqual(theirs);
    }
  });

  it("ed25519 -> x25519 conversions agree: DH(a, B) = DH(b, A)", () => {
    for (let i = 0; i < 20; i++) {
      const a = randomBytes(32);
      const b = randomBytes(32);
      const A = ed25519KeyPairFromSeed(a).publicKey;
      const B = ed25519KeyPairFromSeed(b).publicKey;
      const ab = x25519SharedSecret(x25519PrivateKeyFromEd25519Seed(a), ed25519PublicKeyToX25519(B));
      const ba = x25519SharedSecret(x25519PrivateKeyFromEd25519Seed(b), ed25519PublicKeyToX25519(A));
      expect(ab).toEqual(ba);
    }
  });

  it("matches node's own ed25519 keys too (sign bit ignored in the conversion)", () => {
    const { publicKey } = generateKeyPairSync("ed25519");
    const raw = publicKey.export({ format: "der", type: "spki" }).subarray(12);
    const flipped = Buffer.from(raw);
    flipped[31] ^= 0x80;
    expect(ed25519PublicKeyToX25519(raw)).toEqual(ed25519PublicKeyToX25519(flipped));
  });

  it("rejects a low-order peer key (identity point -> u = 0)", () => {
    const identity = Buffer.alloc(32);
    identity[0] = 1;
    expect(() => x25519SharedSecret(x25519PrivateKeyFromEd25519Seed(randomBytes(32)), ed25519PublicKeyToX25519(identity))).toThrow();
  });
});

describe("TL bytes", () => {
  it("round-trips short and long forms with padding", () => {
    for (const n of [0, 1, 3, 4, 253, 254, 255, 1000, 70_000]) {
      const data = randomBytes(n);
      const buf = Buffer.alloc(tlBytesSize(n) + 8, 0xaa);
      const end = writeTlBytes(buf, 0, data);
      expect(end % 4).toBe(0);
      expect(end).toBe(tlBytesSize(n));
      expect(buf[0]).toBe(n < 254 ? n : 0xfe);
      const r = readTlBytes(buf, 0)!;
      expect(buf.subarray(r.start, r.end)).toEqual(data);
      for (let i = r.end; i < end; i++) expect(buf[i]).toBe(0);
    }
  });

  it("rejects truncated and 0xff-prefixed values", () => {
    expect(readTlBytes(Buffer.from([5, 1, 2]), 0)).toBeNull();
    expect(readTlBytes(Buffer.from([0xfe, 0xff, 0xff]), 0)).toBeNull();
    expect(readTlBytes(Buffer.from([0xff, 0, 0, 0, 0, 0, 0, 0]), 0)).toBeNull();
    expect(readTlBytes(Buffer.alloc(0), 0)).toBeNull();
  });
});

describe("FrameDecoder", () => {
  const payloads = [Buffer.alloc(0), randomBytes(12), randomBytes(300), randomBytes(100_000)];
  const stream = Buffer.concat(payloads.map((p) => plainFrame(p)));

  it("decodes regardless of chunk boundaries", () => {
    for (const step of [1, 3, 67, 68, 1000, 65_536, stream.length]) {
      const got: Buffer[] = [];
      const d = new FrameDecoder(1 << 24, (p) => (got.push(Buffer.from(p)), true));
      for (let i = 0; i < stream.length; i += step) d.push(stream.subarray(i, i + step));
      expect(got.map((b) => b.toString("hex"))).toEqual(payloads.map((b) => b.toString("hex")));
      expect(d.hasPartial).toBe(false);
    }
  });

  it("rejects sizes out of range before buffering them, and bad checksums", () => {
    const huge = Buffer.alloc(4);
    huge.writeUInt32LE(0xffffffff);
    const d1 = new FrameDecoder(1 << 24, () => true);
    expect(() => d1.push(huge)).toThrow(FrameError);
    const small = plainFrame(Buffer.alloc(0), { sizeOverride: 63 });
    expect(() => new FrameDecoder(1 << 24, () => true).push(small)).toThrow(/frame size 63/);
    const bad = plainFrame(randomBytes(20), { badChecksum: true });
    try {
      new FrameDecoder(1 << 24, () => true).push(bad);
      expect.unreachable();
    } catch (e) {
      expect((e as FrameError).reason).toBe("bad-checksum");
    }
  });
});
