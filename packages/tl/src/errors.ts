// Errors thrown by the TL codec. Each has a stable class so callers can tell a malformed peer
// (TlDecodeError) from a bad value built by our own code (TlEncodeError) or a bad schema (TlSchemaError).

/** The schema text is malformed or uses a TL feature this codec does not support. */
export class TlSchemaError extends Error {
  override name = "TlSchemaError";
}

/** A value cannot be serialized: wrong shape, out-of-range number, flags inconsistent with fields. */
export class TlEncodeError extends Error {
  override name = "TlEncodeError";
}

/** Bytes are not a valid serialization: truncated, trailing data, unknown constructor id, absurd length. */
export class TlDecodeError extends Error {
  override name = "TlDecodeError";
  /** Byte offset in the input where the problem was detected. */
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(`${message} (at byte ${offset})`);
    this.offset = offset;
  }
}
