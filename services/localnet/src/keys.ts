// Deterministic keys: everything localnet signs with derives from --seed, so a
// chain started twice with the same seed has the same validator, wallets and
// liteserver identities.
import { createHash } from "node:crypto";
import { keyPairFromSeed, type KeyPair } from "@ton/crypto";

export function deriveKeyPair(seed: string, label: string): KeyPair {
  return keyPairFromSeed(createHash("sha256").update(`tongate-localnet:${seed}:${label}`).digest());
}

/** 32 bytes derived from the seed, e.g. a block's random seed. */
export function deriveBytes(seed: string, label: string): Buffer {
  return createHash("sha256").update(`tongate-localnet-bytes:${seed}:${label}`).digest();
}
