// Key material for ADNL over TCP: ed25519 identities, their ADNL key ids, the
// ed25519 -> x25519 conversions used by TON's envelope encryption, and the
// handshake cipher derivation. Node's crypto only; no third-party curve code.
import {
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  hash,
  type KeyObject,
} from "node:crypto";

/** DER prefixes that turn 32 raw key bytes into something `createPrivateKey`/`createPublicKey` accept. */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const PKCS8_X25519_PREFIX = Buffer.from("302e020100300506032b656e04220420", "hex");
const SPKI_X25519_PREFIX = Buffer.from("302a300506032b656e032100", "hex");
const SPKI_RAW_OFFSET = 12; // both ed25519 and x25519 SPKI DER end with the 32 raw key bytes

/** TL constructor `pub.ed25519 key:int256 = PublicKey`, little-endian wire bytes. */
const PUB_ED25519_TL = Buffer.from([0xc6, 0xb4, 0x13, 0x48]);

export interface Ed25519KeyPair {
  /** The 32-byte private seed (what TON configs and `@ton/crypto` call the secret key's first half). */
  readonly seed: Buffer;
  /** The 32-byte ed25519 public key. */
  readonly publicKey: Buffer;
}

function assertLength(name: string, value: Uint8Array, length: number): void {
  if (value.length !== length) throw new RangeError(`${name} must be ${length} bytes, got ${value.length}`);
}

/** Derives the ed25519 public key from a 32-byte seed. */
export function ed25519KeyPairFromSeed(seed: Uint8Array): Ed25519KeyPair {
  assertLength("ed25519 seed", seed, 32);
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: "der",
    type: "pkcs8",
  });
  const spki = createPublicKey(privateKey).export({ format: "der", type: "spki" });
  return { seed: Buffer.from(seed), publicKey: Buffer.from(spki.subarray(SPKI_RAW_OFFSET)) };
}

/** ADNL short id of an ed25519 public key: sha256 of the boxed TL `pub.ed25519 key:int256`. */
export function adnlKeyId(publicKey: Uint8Array): Buffer {
  assertLength("ed25519 public key", publicKey, 32);
  return hash("sha256", Buffer.concat([PUB_ED25519_TL, publicKey]), "buffer");
}

/**
 * The x25519 private key that corresponds to an ed25519 seed: the first half of
 * sha512(seed) (the ed25519 secret scalar; X25519 clamps it the same way ed25519 does).
 */
export function x25519PrivateKeyFromEd25519Seed(seed: Uint8Array): KeyObject {
  assertLength("ed25519 seed", seed, 32);
  const scalar = hash("sha512", seed, "buffer").subarray(0, 32);
  return createPrivateKey({ key: Buffer.concat([PKCS8_X25519_PREFIX, scalar]), format: "der", type: "pkcs8" });
}

const P = (1n << 255n) - 19n;

/** Modular inverse by the extended Euclidean algorithm (inputs are public: no constant-time need). */
function modInverse(a: bigint): bigint {
  let t = 0n;
  let nt = 1n;
  let r = P;
  let nr = a % P;
  while (nr !== 0n) {
    const q = r / nr;
    [t, nt] = [nt, t - q * nt];
    [r, nr] = [nr, r - q * nr];
  }
  return t < 0n ? t + P : t;
}

function readLe(bytes: Uint8Array): bigint {
  return BigInt("0x" + Buffer.from(bytes).reverse().toString("hex"));
}

function writeLe32(v: bigint): Buffer {
  return Buffer.from(v.toString(16).padStart(64, "0"), "hex").reverse();
}

/**
 * Birational map from an ed25519 public key (Edwards y, sign bit ignored) to the
 * Montgomery u coordinate: u = (1 + y) / (1 - y) mod p. Same as libsodium's
 * crypto_sign_ed25519_pk_to_curve25519 and noble's Point.toX25519 (used by the `adnl`
 * client). y = 1 (the identity) maps to u = 0, which X25519 then rejects as low order.
 */
export function ed25519PublicKeyToX25519(publicKey: Uint8Array): Buffer {
  assertLength("ed25519 public key", publicKey, 32);
  const yBytes = Buffer.from(publicKey);
  yBytes[31] &= 0x7f;
  const y = readLe(yBytes) % P;
  const num = (1n + y) % P;
  const den = (P + 1n - y) % P;
  const u = den === 0n ? 0n : (num * modInverse(den)) % P;
  return writeLe32(u);
}

/** x25519(privateKey, u); throws when the peer key is of low order (all-zero secret). */
export function x25519SharedSecret(privateKey: KeyObject, peerU: Uint8Array): Buffer {
  const publicKey = createPublicKey({ key: Buffer.concat([SPKI_X25519_PREFIX, peerU]), format: "der", type: "spki" });
  return diffieHellman({ privateKey, publicKey });
}

/**
 * The AES-256-CTR key and iv that protect the 160 handshake bytes:
 * key = secret[0..16] | hash[16..32], iv = hash[0..4] | secret[20..32].
 */
export function handshakeCipherParams(secret: Uint8Array, paramsHash: Uint8Array): { key: Buffer; iv: Buffer } {
  const key = Buffer.concat([secret.subarray(0, 16), paramsHash.subarray(16, 32)]);
  const iv = Buffer.concat([paramsHash.subarray(0, 4), secret.subarray(20, 32)]);
  return { key, iv };
}

/** AES-256-CTR one-shot (encryption and decryption are the same operation). */
export function aesCtr(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Buffer {
  const d = createDecipheriv("aes-256-ctr", key, iv);
  return Buffer.concat([d.update(data), d.final()]);
}
