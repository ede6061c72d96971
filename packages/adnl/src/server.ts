// ADNL over TCP, server side (what a TON liteserver speaks).
import { createCipheriv, createDecipheriv, hash, type Decipher, type KeyObject } from "node:crypto";
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { FRAME_MAX_SIZE, FrameDecoder, FrameEncoder, FrameError, FrameWriter } from "./frame.js";
import {
  adnlKeyId,
  aesCtr,
  ed25519KeyPairFromSeed,
  ed25519PublicKeyToX25519,
  handshakeCipherParams,
  x25519PrivateKeyFromEd25519Seed,
  x25519SharedSecret,
} from "./keys.js";
import { buildEmptyFrame, buildMessageFrame, buildPingFrame, messagePayloadLength } from "./messages.js";
import {
  readTlBytes,
  TL_ADNL_MESSAGE_ANSWER,
  TL_ADNL_MESSAGE_QUERY,
  TL_BYTES_MAX,
  TL_TCP_PING,
  TL_TCP_PONG,
} from "./tl.js";

/** Size of the client's handshake envelope: key id | ephemeral pubkey | sha256(params) | encrypted params. */
export const HANDSHAKE_SIZE = 256;

/** Why a connection ended (for metrics and logs). */
export type AdnlCloseReason =
  | "peer-closed" // the client closed (FIN/RST) on its own
  | "socket-error"
  | "unknown-key-id" // handshake addressed to another identity (or garbage)
  | "bad-handshake" // key agreement failed or decrypted params do not match their hash
  | "bad-frame-size" // declared size < 64 or > maxFrameSize
  | "bad-checksum"
  | "protocol-error" // a frame whose envelope does not parse
  | "handshake-timeout"
  | "idle-timeout"
  | "frame-timeout" // an incomplete frame did not finish in time (slowloris)
  | "server-closing";

export interface AdnlConnectionInfo {
  /** Process-unique, increasing. */
  readonly id: number;
  readonly remoteAddress: string;
  readonly remotePort: number;
  /** Date.now() at accept. */
  readonly openedAt: number;
}

export interface AdnlQueryContext {
  readonly connection: AdnlConnectionInfo;
  /** The client's 32-byte query id (a view; copy it if kept past the call). */
  readonly queryId: Buffer;
  /** Aborted when the connection closes: the answer would be dropped. */
  readonly signal: AbortSignal;
}

/**
 * Answers one query. `query` is the content of adnl.message.query's `query:bytes`
 * (for a liteserver: a boxed liteServer.query). It is a view into the receive buffer:
 * read it, do not keep it for long. Return the bytes for adnl.message.answer's `answer`.
 * A throw/rejection sends nothing unless `errorAnswer` maps it to bytes.
 */
export type AdnlQueryHandler = (query: Buffer, ctx: AdnlQueryContext) => Promise<Uint8Array> | Uint8Array;

export interface AdnlServerHooks {
  /** A TCP connection was accepted (handshake still pending). */
  onConnectionOpen?(info: AdnlConnectionInfo): void;
  /** The handshake succeeded; queries can flow. */
  onConnectionReady?(info: AdnlConnectionInfo): void;
  /** A connection ended; `ready` tells whether it ever completed the handshake. */
  onConnectionClose?(info: AdnlConnectionInfo, reason: AdnlCloseReason, ready: boolean): void;
  /** A connection was refused because maxConnections were open. */
  onConnectionRejected?(remoteAddress: string): void;
  /** The handler threw/rejected, or its answer could not be framed. */
  onQueryError?(error: unknown, info: AdnlConnectionInfo): void;
}

export interface AdnlServerOptions {
  /** 32-byte ed25519 private seed of the server identity. */
  seed: Uint8Array;
  handler: AdnlQueryHandler;
  /** Largest frame `size` accepted from a client. Default 16 MiB, the protocol's maximum
   *  (which also caps answers, whatever this is set to). */
  maxFrameSize?: number;
  /** Open TCP connections (including ones mid-handshake). Default 1024. */
  maxConnections?: number;
  /** Queries handed to the handler and not yet answered, per connection; beyond it the
   *  connection stops reading until answers go out. Default 256. */
  maxInflightPerConnection?: number;
  /** Stop reading from a connection while this much answer data waits in its socket. Default 4 MiB. */
  maxWriteBufferBytes?: number;
  /** Close after this long with no inbound data and nothing in flight. Default 60 s (as TON's server). */
  idleTimeoutMs?: number;
  /** The 256-byte handshake must arrive within this. Default 10 s. */
  handshakeTimeoutMs?: number;
  /** A frame that has started arriving must complete within this. Default 30 s. */
  frameTimeoutMs?: number;
  /** Maps a handler failure to answer bytes (e.g. a TL liteServer.error); undefined: send nothing. */
  errorAnswer?(error: unknown, query: Buffer): Uint8Array | undefined;
  hooks?: AdnlServerHooks;
}

export interface AdnlServerStats {
  /** Currently open connections (handshaking or ready). */
  connections: number;
  /** Currently open connections that completed the handshake. */
  readyConnections: number;
  accepted: number;
  rejected: number;
  queries: number;
  queryErrors: number;
  pings: number;
  /** Frames with a constructor this package does not handle (ignored). */
  unknownMessages: number;
  closed: Partial<Record<AdnlCloseReason, number>>;
}

interface ResolvedOptions {
  maxFrameSize: number;
  maxInflight: number;
  maxWriteBuffer: number;
  idleTimeoutMs: number;
  handshakeTimeoutMs: number;
  frameTimeoutMs: number;
}

let nextConnectionId = 1;

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number`);
  return value;
}

export class AdnlServer {
  /** The server's ed25519 public key (what clients configure). */
  readonly publicKey: Buffer;
  /** ADNL short id of the public key: the first 32 bytes every handshake must carry. */
  readonly keyId: Buffer;

  private readonly x25519Private: KeyObject;
  private readonly handler: AdnlQueryHandler;
  private readonly errorAnswer: AdnlServerOptions["errorAnswer"];
  private readonly hooks: AdnlServerHooks;
  private readonly maxConnections: number;
  /** @internal */
  readonly opts: ResolvedOptions;
  private readonly connections = new Set<ServerConnection>();
  private readonly net: Server;
  private closing: Promise<void> | null = null;
  private readonly counters: Omit<AdnlServerStats, "connections" | "readyConnections"> = {
    accepted: 0,
    rejected: 0,
    queries: 0,
    queryErrors: 0,
    pings: 0,
    unknownMessages: 0,
    closed: {},
  };
  private ready = 0;

  constructor(options: AdnlServerOptions) {
    const keys = ed25519KeyPairFromSeed(options.seed);
    this.publicKey = keys.publicKey;
    this.keyId = adnlKeyId(keys.publicKey);
    this.x25519Private = x25519PrivateKeyFromEd25519Seed(options.seed);
    this.handler = options.handler;
    this.errorAnswer = options.errorAnswer;
    this.hooks = options.hooks ?? {};
    this.maxConnections = positive("maxConnections", options.maxConnections, 1024);
    const maxFrameSize = positive("maxFrameSize", options.maxFrameSize, FRAME_MAX_SIZE);
    if (maxFrameSize < 64 || maxFrameSize > FRAME_MAX_SIZE) throw new RangeError(`maxFrameSize must be in 64..${FRAME_MAX_SIZE}`);
    this.opts = {
      maxFrameSize,
      maxInflight: positive("maxInflightPerConnection", options.maxInflightPerConnection, 256),
      maxWriteBuffer: positive("maxWriteBufferBytes", options.maxWriteBufferBytes, 4 * 1024 * 1024),
      idleTimeoutMs: positive("idleTimeoutMs", options.idleTimeoutMs, 60_000),
      handshakeTimeoutMs: positive("handshakeTimeoutMs", options.handshakeTimeoutMs, 10_000),
      frameTimeoutMs: positive("frameTimeoutMs", options.frameTimeoutMs, 30_000),
    };
    this.net = createServer({ noDelay: true, allowHalfOpen: true }, (socket) => this.handleSocket(socket));
    // A listen/accept error must not crash the process; listen() reports its own errors.
    this.net.on("error", () => {});
  }

  /** Starts listening; port 0 picks a free port. Resolves with the bound address. */
  listen(port: number, host?: string): Promise<AddressInfo> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error): void => reject(err);
      this.net.once("error", onError);
      this.net.listen(port, host, () => {
        this.net.off("error", onError);
        resolve(this.net.address() as AddressInfo);
      });
    });
  }

  /** The bound address, or null before listen(). */
  address(): AddressInfo | null {
    const a = this.net.address();
    return a !== null && typeof a === "object" ? a : null;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  get stats(): AdnlServerStats {
    return {
      connections: this.connections.size,
      readyConnections: this.ready,
      ...this.counters,
      closed: { ...this.counters.closed },
    };
  }

  /**
   * Serves an already-accepted socket (what the listener does for each connection;
   * public so a caller can own the listener, e.g. behind a proxy protocol parser).
   */
  handleSocket(socket: Socket): void {
    if (this.closing !== null || this.connections.size >= this.maxConnections) {
      this.counters.rejected++;
      const remote = socket.remoteAddress ?? "";
      socket.on("error", () => {});
      socket.destroy();
      this.hooks.onConnectionRejected?.(remote);
      return;
    }
    this.counters.accepted++;
    const conn = new ServerConnection(this, socket);
    this.connections.add(conn);
    this.hooks.onConnectionOpen?.(conn.info);
  }

  /**
   * Stops accepting, lets ready connections finish the queries already handed to the
   * handler (no new ones are read), then closes them; anything still open after
   * `graceMs` (default 5 s) is destroyed. Idempotent.
   */
  close(options: { graceMs?: number } = {}): Promise<void> {
    if (this.closing !== null) return this.closing;
    const graceMs = options.graceMs ?? 5_000;
    this.closing = new Promise<void>((resolve) => {
      let pending = 2;
      const done = (): void => {
        if (--pending === 0) resolve();
      };
      if (this.net.listening) this.net.close(() => done());
      else done();
      const timer = setTimeout(() => {
        for (const c of [...this.connections]) c.close("server-closing");
      }, graceMs);
      timer.unref();
      this.allClosed = () => {
        clearTimeout(timer);
        this.allClosed = null;
        done();
      };
      for (const c of [...this.connections]) c.beginGracefulClose();
      if (this.connections.size === 0) this.allClosed();
    });
    return this.closing;
  }

  private allClosed: (() => void) | null = null;

  // ---- called by connections -------------------------------------------------------------

  /** @internal */
  handshake(
    envelope: Buffer,
  ): { decipher: Decipher; encoder: FrameEncoder } | "unknown-key-id" | "bad-handshake" {
    if (!envelope.subarray(0, 32).equals(this.keyId)) return "unknown-key-id";
    const paramsHash = envelope.subarray(64, 96);
    let secret: Buffer;
    try {
      secret = x25519SharedSecret(this.x25519Private, ed25519PublicKeyToX25519(envelope.subarray(32, 64)));
    } catch {
      return "bad-handshake"; // low-order ephemeral key
    }
    const { key, iv } = handshakeCipherParams(secret, paramsHash);
    const params = aesCtr(key, iv, envelope.subarray(96, 256));
    if (!hash("sha256", params, "buffer").equals(paramsHash)) return "bad-handshake";
    // Client: rx_key | tx_key | rx_nonce | tx_nonce | padding. The server sends with the
    // client's rx pair and receives with its tx pair.
    const encoder = new FrameEncoder(createCipheriv("aes-256-ctr", params.subarray(0, 32), params.subarray(64, 80)));
    const decipher = createDecipheriv("aes-256-ctr", params.subarray(32, 64), params.subarray(80, 96));
    return { decipher, encoder };
  }

  /** @internal */
  runHandler(query: Buffer, ctx: AdnlQueryContext): Promise<Uint8Array> | Uint8Array {
    this.counters.queries++;
    return this.handler(query, ctx);
  }

  /** @internal Returns answer bytes for a failed query, or undefined. */
  queryFailed(error: unknown, query: Buffer, info: AdnlConnectionInfo): Uint8Array | undefined {
    this.counters.queryErrors++;
    this.hooks.onQueryError?.(error, info);
    if (this.errorAnswer === undefined) return undefined;
    try {
      return this.errorAnswer(error, query);
    } catch (e) {
      this.hooks.onQueryError?.(e, info);
      return undefined;
    }
  }

  /** @internal */
  countPing(): void {
    this.counters.pings++;
  }

  /** @internal */
  countUnknown(): void {
    this.counters.unknownMessages++;
  }

  /** @internal */
  connectionReady(conn: ServerConnection): void {
    this.ready++;
    this.hooks.onConnectionReady?.(conn.info);
  }

  /** @internal */
  connectionClosed(conn: ServerConnection, reason: AdnlCloseReason, wasReady: boolean): void {
    if (!this.connections.delete(conn)) return;
    if (wasReady) this.ready--;
    this.counters.closed[reason] = (this.counters.closed[reason] ?? 0) + 1;
    this.hooks.onConnectionClose?.(conn.info, reason, wasReady);
    if (this.connections.size === 0) this.allClosed?.();
  }
}

const enum State {
  Handshake,
  Ready,
  /** Graceful close: no new queries, waiting for in-flight answers. */
  Draining,
  Closed,
}

interface Deferred {
  queryId: Buffer;
  query: Buffer;
}

class ServerConnection {
  readonly info: AdnlConnectionInfo;
  private state = State.Handshake;
  private handshakeBuf: Buffer | null = null;
  private decipher: Decipher | null = null;
  private writer: FrameWriter | null = null;
  private readonly decoder: FrameDecoder;
  private readonly abort = new AbortController();
  private inflight = 0;
  /** Queries parsed while at the in-flight limit; the socket is paused meanwhile. */
  private backlog: Deferred[] = [];
  private paused = false;
  private pumping = false;
  private waitingDrain = false;
  private lastActivity: number;
  private partialSince = 0;
  private framesSeen = 0;
  private timer: NodeJS.Timeout | null = null;
  private timerDue = 0;
  private drainReason: AdnlCloseReason = "server-closing";
  private ending = false;

  constructor(
    private readonly server: AdnlServer,
    private readonly socket: Socket,
  ) {
    const now = Date.now();
    this.info = {
      id: nextConnectionId++,
      remoteAddress: socket.remoteAddress ?? "",
      remotePort: socket.remotePort ?? 0,
      openedAt: now,
    };
    this.lastActivity = now;
    this.decoder = new FrameDecoder(server.opts.maxFrameSize, this.onPayload);
    socket.setNoDelay(true);
    socket.on("data", this.onData);
    socket.on("error", () => this.close("socket-error"));
    socket.on("close", () => this.close("peer-closed"));
    socket.on("end", () => {
      // Half-close from the client: answer what is in flight, then close our side.
      if (this.state === State.Ready || this.state === State.Draining) this.finishDrain("peer-closed");
      else this.close("peer-closed");
    });
    socket.on("drain", this.onDrain);
    this.armTimer();
  }

  // ---- inbound ---------------------------------------------------------------------------

  private readonly onData = (chunk: Buffer): void => {
    if (this.state === State.Closed) return;
    this.lastActivity = Date.now();
    if (this.state === State.Handshake) {
      let data = chunk;
      if (this.handshakeBuf !== null) {
        data = Buffer.concat([this.handshakeBuf, chunk]);
        this.handshakeBuf = null;
      }
      if (data.length < HANDSHAKE_SIZE) {
        this.handshakeBuf = data;
        return;
      }
      const result = this.server.handshake(data.subarray(0, HANDSHAKE_SIZE));
      if (typeof result === "string") {
        this.close(result);
        return;
      }
      this.decipher = result.decipher;
      this.writer = new FrameWriter(this.socket, result.encoder);
      this.state = State.Ready;
      this.writer.write(buildEmptyFrame(result.encoder));
      this.server.connectionReady(this);
      if (data.length === HANDSHAKE_SIZE) return;
      chunk = data.subarray(HANDSHAKE_SIZE);
    }
    if (this.state === State.Draining) return; // not reading new queries any more
    const plain = this.decipher!.update(chunk);
    try {
      this.decoder.push(plain);
    } catch (err) {
      this.close(err instanceof FrameError ? err.reason : "protocol-error");
      return;
    }
    if (this.paused) {
      this.partialSince = 0; // we stopped reading: an incomplete frame is not the peer's fault
    } else if (this.decoder.hasPartial) {
      if (this.partialSince === 0 || this.decoder.framesDecoded !== this.framesSeen) {
        this.partialSince = this.lastActivity;
        this.armTimer();
      }
    } else {
      this.partialSince = 0;
    }
    this.framesSeen = this.decoder.framesDecoded;
  };

  /** Handles one verified payload; returns false when the connection got closed. */
  private readonly onPayload = (payload: Buffer): boolean => {
    if (this.state !== State.Ready) return false;
    if (payload.length === 0) return true; // keepalive
    if (payload.length < 4) return this.protocolError();
    const constructorId = payload.readUInt32LE(0);
    switch (constructorId) {
      case TL_ADNL_MESSAGE_QUERY: {
        if (payload.length < 37) return this.protocolError();
        const bytes = readTlBytes(payload, 36);
        if (bytes === null) return this.protocolError();
        const queryId = payload.subarray(4, 36);
        const query = payload.subarray(bytes.start, bytes.end);
        // Paused (write backlog or in-flight limit): park the rest of this chunk's queries
        // instead of running them, so small queries cannot amplify into unbounded answers.
        if (this.paused || this.inflight >= this.server.opts.maxInflight || this.backlog.length > 0) {
          this.backlog.push({ queryId, query });
          this.pause();
        } else {
          this.dispatch(queryId, query);
        }
        return this.state === State.Ready;
      }
      case TL_TCP_PING: {
        if (payload.length < 12) return this.protocolError();
        this.server.countPing();
        this.send(buildPingFrame(this.writer!.encoder, TL_TCP_PONG, payload.subarray(4, 12)));
        return true;
      }
      case TL_TCP_PONG:
        return true;
      default:
        // tcp.authentificate and anything newer: not supported, harmless to ignore.
        this.server.countUnknown();
        return true;
    }
  };

  private protocolError(): false {
    this.close("protocol-error");
    return false;
  }

  // ---- queries ---------------------------------------------------------------------------

  private dispatch(queryId: Buffer, query: Buffer): void {
    this.inflight++;
    const ctx: AdnlQueryContext = { connection: this.info, queryId, signal: this.abort.signal };
    let result: Promise<Uint8Array> | Uint8Array;
    try {
      result = this.server.runHandler(query, ctx);
    } catch (err) {
      this.failed(queryId, query, err);
      return;
    }
    if (result instanceof Uint8Array) {
      this.answered(queryId, query, result);
    } else {
      Promise.resolve(result).then(
        (answer) => this.answered(queryId, query, answer),
        (err: unknown) => this.failed(queryId, query, err),
      );
    }
  }

  private answered(queryId: Buffer, query: Buffer, answer: Uint8Array): void {
    if (this.state === State.Closed) return;
    if (!(answer instanceof Uint8Array)) {
      this.failed(queryId, query, new TypeError("handler must return a Uint8Array"));
      return;
    }
    if (answer.length > TL_BYTES_MAX || 64 + messagePayloadLength(answer.length) > FRAME_MAX_SIZE) {
      this.failed(queryId, query, new RangeError(`answer of ${answer.length} bytes exceeds the frame limit`));
      return;
    }
    this.inflight--;
    this.send(buildMessageFrame(this.writer!.encoder, TL_ADNL_MESSAGE_ANSWER, queryId, answer));
    this.afterAnswer();
  }

  private failed(queryId: Buffer, query: Buffer, error: unknown): void {
    if (this.state === State.Closed) return;
    this.inflight--;
    const fallback = this.server.queryFailed(error, query, this.info);
    if (fallback !== undefined && fallback.length <= TL_BYTES_MAX) {
      if (64 + messagePayloadLength(fallback.length) <= FRAME_MAX_SIZE) {
        this.send(buildMessageFrame(this.writer!.encoder, TL_ADNL_MESSAGE_ANSWER, queryId, fallback));
      }
    }
    this.afterAnswer();
  }

  private afterAnswer(): void {
    if (this.state === State.Draining) {
      if (this.inflight === 0) this.finishDrain(this.drainReason);
      return;
    }
    this.pump();
  }

  /** Runs parked queries while limits allow, then resumes reading if nothing is parked. */
  private pump(): void {
    if (this.pumping) return; // a synchronous handler answers inside dispatch and lands here again
    this.pumping = true;
    const max = this.server.opts.maxInflight;
    while (this.backlog.length > 0 && this.inflight < max && !this.waitingDrain && this.state === State.Ready) {
      const next = this.backlog.shift()!;
      this.dispatch(next.queryId, next.query);
    }
    this.pumping = false;
    this.maybeResume();
  }

  // ---- outbound / flow control -----------------------------------------------------------

  private send(frame: Buffer): void {
    this.writer!.write(frame);
    if (this.socket.writableLength > this.server.opts.maxWriteBuffer) {
      this.waitingDrain = true;
      this.pause();
    }
  }

  private pause(): void {
    if (!this.paused) {
      this.paused = true;
      this.partialSince = 0;
      this.socket.pause();
    }
  }

  private maybeResume(): void {
    if (
      this.paused &&
      this.state === State.Ready &&
      !this.waitingDrain &&
      this.backlog.length === 0 &&
      this.inflight < this.server.opts.maxInflight
    ) {
      this.paused = false;
      this.socket.resume();
      if (this.decoder.hasPartial) {
        this.partialSince = Date.now();
        this.armTimer();
      }
    }
  }

  private readonly onDrain = (): void => {
    this.lastActivity = Date.now(); // the peer is consuming answers
    if (!this.waitingDrain) return;
    this.waitingDrain = false;
    this.pump();
  };

  // ---- timers ----------------------------------------------------------------------------

  private nextDeadline(): number {
    const o = this.server.opts;
    let due = this.lastActivity + o.idleTimeoutMs;
    if (this.state === State.Handshake) due = Math.min(due, this.info.openedAt + o.handshakeTimeoutMs);
    if (this.partialSince !== 0) due = Math.min(due, this.partialSince + o.frameTimeoutMs);
    return due;
  }

  /** One lazy timer per connection: re-armed only when a nearer deadline appears or it fires. */
  private armTimer(): void {
    if (this.state === State.Closed) return;
    const due = this.nextDeadline();
    if (this.timer !== null) {
      if (this.timerDue <= due) return;
      clearTimeout(this.timer);
    }
    this.timerDue = due;
    this.timer = setTimeout(this.onTimer, Math.max(0, due - Date.now()));
    this.timer.unref();
  }

  private readonly onTimer = (): void => {
    this.timer = null;
    if (this.state === State.Closed) return;
    const o = this.server.opts;
    const now = Date.now();
    if (this.state === State.Handshake && now >= this.info.openedAt + o.handshakeTimeoutMs) {
      this.close("handshake-timeout");
      return;
    }
    if (this.partialSince !== 0 && now >= this.partialSince + o.frameTimeoutMs) {
      this.close("frame-timeout");
      return;
    }
    if (now >= this.lastActivity + o.idleTimeoutMs) {
      // Queries still running are not idleness; a peer that neither sends nor drains answers is.
      if (this.inflight > 0) this.lastActivity = now;
      else {
        this.close("idle-timeout");
        return;
      }
    }
    this.armTimer();
  };

  // ---- closing ---------------------------------------------------------------------------

  /** Server shutdown: stop reading, answer what the handler already has, then close. */
  beginGracefulClose(): void {
    if (this.state === State.Handshake) this.close("server-closing");
    else if (this.state !== State.Closed) this.finishDrain("server-closing");
  }

  /**
   * Stops reading new queries; once nothing is in flight, flushes and ends our side.
   * A peer that never reads keeps end() pending: the server's grace timer (on close())
   * or the idle timer destroys it.
   */
  private finishDrain(reason: AdnlCloseReason): void {
    if (this.state === State.Closed) return;
    if (this.state !== State.Draining) {
      this.state = State.Draining;
      this.drainReason = reason;
      this.backlog = [];
      this.pause();
    }
    if (this.inflight === 0 && !this.ending) {
      this.ending = true;
      this.socket.end(() => this.close(this.drainReason));
    }
  }

  close(reason: AdnlCloseReason): void {
    if (this.state === State.Closed) return;
    const wasReady = this.state !== State.Handshake;
    this.state = State.Closed;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.backlog = [];
    this.handshakeBuf = null;
    this.decoder.reset();
    this.socket.destroy();
    this.abort.abort();
    this.server.connectionClosed(this, reason, wasReady);
  }
}
