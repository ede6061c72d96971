// @ton/core hashes every cell it builds or reads with @ton/crypto's sha256_sync,
// which runs SHA-256 in JavaScript through hex strings (jssha): most of the time
// localnet spends around the emulator went there. This swaps in Node's native
// SHA-256 (same digests) where @ton/core looks it up on every call. Call it once
// at startup, from the composition root; it is idempotent.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";

let installed = false;

export function installFastSha256(): void {
  if (installed) return;
  const require = createRequire(import.meta.url);
  const primitives = require("@ton/crypto/dist/primitives/sha256.js") as { sha256_sync: (source: Buffer | string) => Buffer };
  primitives.sha256_sync = (source) => createHash("sha256").update(typeof source === "string" ? Buffer.from(source, "utf-8") : source).digest();
  installed = true;
}
