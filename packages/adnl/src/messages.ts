// Builders for the plaintext frames this package sends (payload written in place, one copy).
import { FrameEncoder } from "./frame.js";
import { TL_ADNL_MESSAGE_ANSWER, TL_ADNL_MESSAGE_QUERY, tlBytesSize, writeTlBytes } from "./tl.js";

const P = FrameEncoder.PAYLOAD_OFFSET;

/** Payload length of an adnl.message.query / adnl.message.answer carrying `length` bytes. */
export function messagePayloadLength(length: number): number {
  return 4 + 32 + tlBytesSize(length);
}

/** adnl.message.query or adnl.message.answer (same layout, different constructor). */
export function buildMessageFrame(
  encoder: FrameEncoder,
  constructorId: typeof TL_ADNL_MESSAGE_QUERY | typeof TL_ADNL_MESSAGE_ANSWER,
  queryId: Uint8Array,
  body: Uint8Array,
): Buffer {
  const frame = encoder.alloc(messagePayloadLength(body.length));
  frame.writeUInt32LE(constructorId, P);
  frame.set(queryId.subarray(0, 32), P + 4);
  writeTlBytes(frame, P + 36, body);
  return frame;
}

/** tcp.ping / tcp.pong: constructor + random_id:long (8 opaque bytes). */
export function buildPingFrame(encoder: FrameEncoder, constructorId: number, randomId: Uint8Array): Buffer {
  const frame = encoder.alloc(12);
  frame.writeUInt32LE(constructorId, P);
  frame.set(randomId.subarray(0, 8), P + 4);
  return frame;
}

/** The empty frame: handshake confirmation (server) or keepalive. */
export function buildEmptyFrame(encoder: FrameEncoder): Buffer {
  return encoder.alloc(0);
}
