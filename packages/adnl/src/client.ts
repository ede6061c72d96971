// A small ADNL over TCP client, for our own tests and tools (ton-lite-client is the
// production-grade reference peer). Queries are pipelined on one connection.
import { createCipheriv, createDecipheriv, generateKeyPairSync, hash, randomBytes, type Decipher } from "node:crypto";
import { connect as netConnect, type Socket } from "node:net";
import { FRAME_MAX_SIZE, FrameDecoder, FrameEncoder, FrameError, FrameWriter } from "./frame.js";
import {
  adnlKeyId,
  aesCtr,
  ed25519PublicKeyToX25519,
  handshakeCipherParams,
  x25519PrivateKeyFromEd25519Seed,
  x25519SharedSecret,
} from "./keys.js";
import { buildMessageFrame, buildPingFrame } from "./messages.js";
import { readTlBytes, TL_ADNL_MESSAGE_ANSWER, TL_ADNL_MESSAGE_QUERY, TL_TCP_PING, TL_TCP_PONG } from "./tl.js";

export class AdnlClientError extends Error {
  constructor(
    readonly code: "closed" | "timeout" | "connect" | "protocol",
    message: string,
  ) {
    super(message);
    this.name = "AdnlClientError";
  }
}

export interface AdnlClientOptions {
  /** TCP connect + handshake deadline. Default 10 s. */
  connectTimeoutMs?: number;
  /** Largest inbound frame accepted. Default 16 MiB. */
  maxFrameSize?: number;
}

interface Pending {
  resolve(value: Buffer): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/** The 256-byte handshake envelope and the two stream ciphers it establishes. */
function clientHandshake(serverPublicKey: Uint8Array): { envelope: Buffer; encoder: FrameEncoder; decipher: Decipher } {
  // Ephemeral ed25519 identity; its seed gives the x25519 scalar, the server converts the public key.
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const seed = privateKey.export({ format: "der", type: "pkcs8" }).subarray(16, 48);
  const ephemeralPublic = publicKey.export({ format: "der", type: "spki" }).subarray(12, 44);
  const secret = x25519SharedSecret(
    x25519PrivateKeyFromEd25519Seed(seed),
    ed25519PublicKeyToX25519(serverPublicKey),
  );
  const params = randomBytes(160); // rx_key | tx_key | rx_nonce | tx_nonce | padding
  const paramsHash = hash("sha256", params, "buffer");
  const { key, iv } = handshakeCipherParams(secret, paramsHash);
  const envelope = Buffer.concat([adnlKeyId(serverPublicKey), ephemeralPublic, paramsHash, aesCtr(key, iv, params)]);
  const encoder = new FrameEncoder(createCipheriv("aes-256-ctr", params.subarray(32, 64), params.subarray(80, 96)));
  const decipher = createDecipheriv("aes-256-ctr", params.subarray(0, 32), params.subarray(64, 80));
  return { envelope, encoder, decipher };
}

export class AdnlClient {
  private readonly pending = new Map<string, Pending>();
  private readonly pings = new Map<string, Pending>();
  private readonly writer: FrameWriter;
  private readonly decoder: FrameDecoder;
  private ready = false;
  private closedError: AdnlClientError | null = null;
  private readyWaiter: { resolve(): void; reject(err: Error): void } | null = null;
  private idPool = Buffer.alloc(0);
  private idOffset = 0;
  /** Resolves when the connection is gone (any cause). */
  readonly closed: Promise<AdnlClientError>;
  private resolveClosed!: (err: AdnlClientError) => void;

  private constructor(
    private readonly socket: Socket,
    encoder: FrameEncoder,
    private readonly decipher: Decipher,
    maxFrameSize: number,
  ) {
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    this.writer = new FrameWriter(socket, encoder);
    this.decoder = new FrameDecoder(maxFrameSize, this.onPayload);
    socket.on("data", (chunk: Buffer) => {
      try {
        this.decoder.push(this.decipher.update(chunk));
      } catch (err) {
        this.fail(new AdnlClientError("protocol", err instanceof FrameError ? err.message : String(err)));
      }
    });
    socket.on("error", (err) => this.fail(new AdnlClientError("closed", `socket error: ${err.message}`)));
    socket.on("close", () => this.fail(new AdnlClientError("closed", "connection closed")));
  }

  /** Connects and completes the handshake (resolves after the server's empty confirmation frame). */
  static connect(
    host: string,
    port: number,
    serverPublicKey: Uint8Array,
    options: AdnlClientOptions = {},
  ): Promise<AdnlClient> {
    if (serverPublicKey.length !== 32) return Promise.reject(new RangeError("serverPublicKey must be 32 bytes"));
    const { envelope, encoder, decipher } = clientHandshake(serverPublicKey);
    const socket = netConnect({ host, port, noDelay: true });
    const client = new AdnlClient(socket, encoder, decipher, options.maxFrameSize ?? FRAME_MAX_SIZE);
    const timeoutMs = options.connectTimeoutMs ?? 10_000;
    return new Promise<AdnlClient>((resolve, reject) => {
      const timer = setTimeout(() => {
        client.fail(new AdnlClientError("timeout", `handshake with ${host}:${port} timed out`));
      }, timeoutMs);
      client.readyWaiter = {
        resolve: () => {
          clearTimeout(timer);
          resolve(client);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      socket.once("connect", () => socket.write(envelope));
    });
  }

  get isReady(): boolean {
    return this.ready && this.closedError === null;
  }

  /** Sends adnl.message.query with `query` as its bytes; resolves with the answer bytes. */
  query(query: Uint8Array, timeoutMs = 10_000): Promise<Buffer> {
    if (this.closedError !== null) return Promise.reject(this.closedError);
    const id = this.randomId(32);
    const key = id.toString("latin1");
    const frame = buildMessageFrame(this.writer.encoder, TL_ADNL_MESSAGE_QUERY, id, query);
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(key);
        reject(new AdnlClientError("timeout", `query timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(key, { resolve, reject, timer });
      this.writer.write(frame);
    });
  }

  /** tcp.ping; resolves with the round-trip time in ms. */
  ping(timeoutMs = 5_000): Promise<number> {
    if (this.closedError !== null) return Promise.reject(this.closedError);
    const id = this.randomId(8);
    const key = id.toString("latin1");
    const started = performance.now();
    const frame = buildPingFrame(this.writer.encoder, TL_TCP_PING, id);
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pings.delete(key);
        reject(new AdnlClientError("timeout", `ping timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.pings.set(key, { resolve: () => resolve(performance.now() - started), reject, timer });
      this.writer.write(frame);
    });
  }

  /** Number of queries awaiting an answer. */
  get inflight(): number {
    return this.pending.size;
  }

  /** Closes the connection; pending queries reject with code "closed". */
  close(): void {
    this.fail(new AdnlClientError("closed", "client closed"));
  }

  private randomId(length: number): Buffer {
    if (this.idOffset + length > this.idPool.length) {
      this.idPool = randomBytes(4096);
      this.idOffset = 0;
    }
    const id = this.idPool.subarray(this.idOffset, this.idOffset + length);
    this.idOffset += length;
    return id;
  }

  private readonly onPayload = (payload: Buffer): boolean => {
    if (this.closedError !== null) return false;
    if (!this.ready) {
      if (payload.length !== 0) {
        this.fail(new AdnlClientError("protocol", "bad handshake confirmation"));
        return false;
      }
      this.ready = true;
      this.readyWaiter?.resolve();
      this.readyWaiter = null;
      return true;
    }
    if (payload.length < 4) return true; // keepalive
    const constructorId = payload.readUInt32LE(0);
    if (constructorId === TL_ADNL_MESSAGE_ANSWER) {
      const bytes = payload.length >= 37 ? readTlBytes(payload, 36) : null;
      if (bytes === null) {
        this.fail(new AdnlClientError("protocol", "malformed adnl.message.answer"));
        return false;
      }
      const key = payload.toString("latin1", 4, 36);
      const p = this.pending.get(key);
      if (p !== undefined) {
        this.pending.delete(key);
        clearTimeout(p.timer);
        // Copy: the view would pin the whole receive chunk for as long as the caller keeps it.
        p.resolve(Buffer.from(payload.subarray(bytes.start, bytes.end)));
      }
    } else if (constructorId === TL_TCP_PONG && payload.length >= 12) {
      const key = payload.toString("latin1", 4, 12);
      const p = this.pings.get(key);
      if (p !== undefined) {
        this.pings.delete(key);
        clearTimeout(p.timer);
        p.resolve(payload);
      }
    } else if (constructorId === TL_TCP_PING && payload.length >= 12) {
      this.writer.write(buildPingFrame(this.writer.encoder, TL_TCP_PONG, payload.subarray(4, 12)));
    }
    return true;
  };

  private fail(err: AdnlClientError): void {
    if (this.closedError !== null) return;
    this.closedError = err;
    this.socket.destroy();
    this.decoder.reset();
    this.readyWaiter?.reject(err);
    this.readyWaiter = null;
    for (const map of [this.pending, this.pings]) {
      for (const p of map.values()) {
        clearTimeout(p.timer);
        p.reject(err);
      }
      map.clear();
    }
    this.resolveClosed(err);
  }
}
