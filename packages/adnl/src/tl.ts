// The few TL envelopes ADNL over TCP needs. Everything inside a query/answer is opaque bytes.

/** Constructor ids as read with `readUInt32LE` (the wire bytes are little-endian). */
export const TL_TCP_PING = 0x4d082b9a; // tcp.ping random_id:long = tcp.Pong
export const TL_TCP_PONG = 0xdc69fb03; // tcp.pong random_id:long = tcp.Pong
export const TL_ADNL_MESSAGE_QUERY = 0xb48bf97a; // adnl.message.query query_id:int256 query:bytes
export const TL_ADNL_MESSAGE_ANSWER = 0x0fac8416; // adnl.message.answer query_id:int256 answer:bytes

/** Largest length a TL `bytes` value can declare with the 0xfe + 3-byte form. */
export const TL_BYTES_MAX = 0xffffff;

/** Serialized size of a TL `bytes` field holding `length` bytes (prefix + data + padding to 4). */
export function tlBytesSize(length: number): number {
  const header = length < 254 ? 1 : 4;
  return (header + length + 3) & ~3;
}

/** Writes a TL `bytes` field at `offset`; returns the offset after the padding. Caller sized `target`. */
export function writeTlBytes(target: Buffer, offset: number, data: Uint8Array): number {
  const length = data.length;
  let p = offset;
  if (length < 254) {
    target[p++] = length;
  } else {
    if (length > TL_BYTES_MAX) throw new RangeError(`TL bytes too long: ${length}`);
    target[p++] = 0xfe;
    target[p++] = length & 0xff;
    target[p++] = (length >>> 8) & 0xff;
    target[p++] = (length >>> 16) & 0xff;
  }
  target.set(data, p);
  p += length;
  const end = offset + tlBytesSize(length);
  while (p < end) target[p++] = 0;
  return end;
}

/**
 * Reads a TL `bytes` field at `offset`. Returns the data bounds, or null when the
 * field is malformed or runs past the end of `source`. The trailing padding is not
 * required (a peer that omits it at the very end of a message is tolerated).
 */
export function readTlBytes(source: Buffer, offset: number): { start: number; end: number } | null {
  if (offset >= source.length) return null;
  const first = source[offset];
  let start: number;
  let length: number;
  if (first < 254) {
    start = offset + 1;
    length = first;
  } else if (first === 254) {
    if (offset + 4 > source.length) return null;
    start = offset + 4;
    length = source[offset + 1] | (source[offset + 2] << 8) | (source[offset + 3] << 16);
  } else {
    return null; // 0xff (8-byte length form) never fits in a frame this package accepts
  }
  const end = start + length;
  if (end > source.length) return null;
  return { start, end };
}
