// @tongate/tl: TL (Type Language) schemas compiled at runtime into binary codecs; TON's liteserver API ready-made.
export { TlSchema, type TlCombinator, type TlField, type TlSchemaOptions } from "./schema.js";
export { type TlObject, type DecodeLimits, DEFAULT_LIMITS, MAX_BYTES_LENGTH } from "./codec.js";
export { TlDecodeError, TlEncodeError, TlSchemaError } from "./errors.js";
export { crc32 } from "./crc32.js";
export { liteApi, LITE_API_TL, TCP_TRANSPORT_TL } from "./lite-api.js";
