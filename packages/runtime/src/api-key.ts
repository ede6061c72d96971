// An API key's names: what the RateLimit service stores of it (sha256 of the secret, hex) and its
// public id (the hash's first 12 hex digits), which the gateway also passes to services as the
// client's identity. One definition, so the two always name a key alike.
import { createHash } from "node:crypto";

/** sha256 of an API key's secret, hex. */
export const hashApiKey = (secret: string): string => createHash("sha256").update(secret, "utf8").digest("hex");
/** The public id of a key from its stored hash. */
export const apiKeyIdOfHash = (hash: string): string => hash.slice(0, 12);
/** The public id of a key from its secret. */
export const apiKeyId = (secret: string): string => apiKeyIdOfHash(hashApiKey(secret));
