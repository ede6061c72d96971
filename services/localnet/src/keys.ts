// Deterministic keys: everything localnet signs with derives from --seed, so a
// chain started twice with the same seed has the same validator, wallets and
// liteserver identities.
import { createHash } from "node:crypto";
import type { KeyPair } from "@ton/crypto";
import { ed25519KeyPairFromSeed } from "@tongate/adnl";

/**
 * An Ed25519 key pair as @ton/crypto's keyPairFromSeed makes it (secretKey = seed ‖ public key), its
 * public key derived by node's OpenSSL: tweetnacl's took most of a start with hundreds of wallets.
 */
export function deriveKeyPair(seed: string, label: string): KeyPair {
  const kp = ed25519KeyPairFromSeed(createHash("sha256").update(`tongate-localnet:${seed}:${label}`).digest());
  return { publicKey: kp.publicKey, secretKey: Buffer.concat([kp.seed, kp.publicKey]) };
}

/** 32 bytes derived from the seed, e.g. a block's random seed. */
export function deriveBytes(seed: string, label: string): Buffer {
  return createHash("sha256").update(`tongate-localnet-bytes:${seed}:${label}`).digest();
}
