// ADNL TCP framing on top of the two AES-256-CTR streams:
//   size:uint32le | nonce:32 | payload | sha256(nonce | payload):32
// where size counts everything after the size field (64 .. max).
import type { Socket } from "node:net";
import { hash, randomFillSync, type Cipher } from "node:crypto";

/** Bytes a frame adds around its payload: size field, nonce, checksum. */
export const FRAME_OVERHEAD = 4 + 32 + 32;
/** Smallest legal `size` (an empty payload: the handshake confirmation / keepalive). */
export const FRAME_MIN_SIZE = 64;
/** The protocol's upper bound for `size` (16 MiB). */
export const FRAME_MAX_SIZE = 16 * 1024 * 1024;

export type FrameErrorReason = "bad-frame-size" | "bad-checksum";

export class FrameError extends Error {
  constructor(
    readonly reason: FrameErrorReason,
    message: string,
  ) {
    super(message);
    this.name = "FrameError";
  }
}

/**
 * Splits a decrypted byte stream into verified frame payloads.
 *
 * Whole frames inside one chunk are handed out as zero-copy views of that chunk;
 * a frame spanning chunks is joined once, when its last byte arrives (no quadratic
 * re-concatenation, and memory held for an incomplete frame is only what was received,
 * never the declared size).
 */
export class FrameDecoder {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Total bytes (size field included) of the incomplete frame, 0 while its size field is incomplete. */
  private need = 0;
  /** Frames completed so far; lets the owner notice progress for its frame timeout. */
  framesDecoded = 0;

  /**
   * @param onPayload called with each verified payload (a view, valid until the caller
   *   drops it; it is never overwritten). Return false to stop decoding (connection closed).
   */
  constructor(
    private readonly maxFrameSize: number,
    private readonly onPayload: (payload: Buffer) => boolean,
  ) {}

  /** True while part of a frame has been received but not all of it. */
  get hasPartial(): boolean {
    return this.pendingBytes > 0;
  }

  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  /** Feeds decrypted bytes. Throws FrameError on a size out of range or a bad checksum. */
  push(chunk: Buffer): void {
    let data = chunk;
    if (this.pendingBytes > 0) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      if (this.need !== 0 && this.pendingBytes < this.need) return;
      data = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
      this.pending = [];
      this.pendingBytes = 0;
      this.need = 0;
    }
    const max = this.maxFrameSize;
    let off = 0;
    for (;;) {
      const left = data.length - off;
      if (left < 4) break;
      const size = data.readUInt32LE(off);
      if (size < FRAME_MIN_SIZE || size > max) {
        throw new FrameError("bad-frame-size", `frame size ${size} outside ${FRAME_MIN_SIZE}..${max}`);
      }
      if (left < 4 + size) {
        this.need = 4 + size;
        break;
      }
      const bodyStart = off + 4;
      const sumStart = bodyStart + size - 32;
      off = bodyStart + size;
      const digest = hash("sha256", data.subarray(bodyStart, sumStart), "buffer");
      if (digest.compare(data, sumStart, sumStart + 32) !== 0) {
        throw new FrameError("bad-checksum", "frame checksum mismatch");
      }
      this.framesDecoded++;
      if (!this.onPayload(data.subarray(bodyStart + 32, sumStart))) return;
    }
    if (off < data.length) {
      this.pending.push(off === 0 ? data : data.subarray(off));
      this.pendingBytes = data.length - off;
    }
  }

  /** Drops buffered bytes (on close). */
  reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.need = 0;
  }
}

const NONCE_POOL_SIZE = 32 * 256;

/**
 * Builds encrypted frames on one direction's cipher stream. Usage:
 *   const f = enc.alloc(payloadLength); write payload at f[PAYLOAD_OFFSET..]; socket.write(enc.seal(f));
 * `seal` must be called in the same order the frames are written to the socket.
 */
export class FrameEncoder {
  static readonly PAYLOAD_OFFSET = 36;
  private noncePool = Buffer.allocUnsafe(NONCE_POOL_SIZE);
  private nonceOffset = NONCE_POOL_SIZE;

  constructor(private readonly cipher: Cipher) {}

  /** A plaintext frame with size and nonce filled in; the payload region is uninitialized. */
  alloc(payloadLength: number): Buffer {
    const frame = Buffer.allocUnsafe(FRAME_OVERHEAD + payloadLength);
    frame.writeUInt32LE(FRAME_MIN_SIZE + payloadLength, 0);
    if (this.nonceOffset === NONCE_POOL_SIZE) {
      randomFillSync(this.noncePool);
      this.nonceOffset = 0;
    }
    this.noncePool.copy(frame, 4, this.nonceOffset, this.nonceOffset + 32);
    this.nonceOffset += 32;
    return frame;
  }

  /** Writes the checksum and returns the encrypted frame (advances the cipher stream). */
  seal(frame: Buffer): Buffer {
    const sumStart = frame.length - 32;
    hash("sha256", frame.subarray(4, sumStart), "buffer").copy(frame, sumStart);
    return this.cipher.update(frame);
  }
}

/**
 * Seals and writes frames to a socket, corking the socket for the rest of the current
 * tick so answers resolved together leave in one writev instead of one syscall each.
 */
export class FrameWriter {
  private corked = false;

  constructor(
    private readonly socket: Socket,
    readonly encoder: FrameEncoder,
  ) {}

  /** Returns socket.write's result (false: above the socket's high-water mark). */
  write(frame: Buffer): boolean {
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(this.uncork);
    }
    return this.socket.write(this.encoder.seal(frame));
  }

  private readonly uncork = (): void => {
    this.corked = false;
    this.socket.uncork();
  };
}
