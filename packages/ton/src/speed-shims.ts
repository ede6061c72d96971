// The speed shims of @ton/core, installed together by a composition root (`tongate`'s main, a
// worker thread's entry, test setup, a bench script) and never by importing a module: native
// SHA-256 for cell hashes (./fast-sha256.ts) and byte-wise BitReader reads (./fast-bits.ts).
// Both give the same results as the originals; both are process-wide (per thread) and idempotent.
import { installFastBitReader } from "./fast-bits.js";
import { installFastSha256 } from "./fast-sha256.js";

export function installSpeedShims(): void {
  installFastSha256();
  installFastBitReader();
}
