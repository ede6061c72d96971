// @tongate/ton: TON formats with no network: addresses, hashes, checksums.
export * from "./address.js";
export * from "./hash.js";
export { crc16 } from "./crc16.js";
export { describeInputError, formatCount, quoteValue, TonFormatError } from "./format-error.js";
export { crc32c, serializeBoc, type SerializeBocOptions } from "./boc.js";
export { BocError, EXTERNAL_MESSAGE_LIMITS, readBoc, readBocBase64, type BocBound, type BocLimits } from "./boc-reader.js";
export * from "./limits.js";
export { normalizedHash } from "./normalized-hash.js";
export { installFastSha256 } from "./fast-sha256.js";
export { installFastBitReader, originalBitReads } from "./fast-bits.js";
export { installSpeedShims } from "./speed-shims.js";
