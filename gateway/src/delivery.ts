// Answers on their way to the clients. A client that does not read its answers is dropped (its
// connection closed) and what it left unread is freed, so slow or stalled clients cannot hold the
// gateway's memory:
// - every answer must be taken by the client's socket within the send timeout, counted from the moment
//   it is written in full (for an answer queued behind earlier ones on a pipelining connection, too);
// - the bytes of answers a connection has not taken stay under a bound: an answer that would pass it
//   drops the connection instead of being queued. One answer of any size is always sent on a connection
//   that has nothing unread, so the bound never refuses a large answer to a client that reads.
// Node pauses reading a connection whose answers are not taken, but only after the requests of the
// chunk at hand: one chunk of small pipelined requests can ask for hundreds of large answers.
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";

export interface DeliveryOptions {
  /** Time a client has to take an answer once it is written, ms. */
  sendTimeoutMs: number;
  /** Bytes of answers one connection may leave unread before it is dropped. */
  maxUnreadBytes: number;
}

export type DropReason = "send_timeout" | "unread_bytes";

interface Unread {
  bytes: number;
  timer: NodeJS.Timeout;
}

/** The answers a connection has not taken yet. */
interface Connection {
  bytes: number;
  readonly answers: Set<Unread>;
}

export class Delivery {
  private readonly connections = new WeakMap<Socket, Connection>();
  private unread = 0;

  constructor(
    private readonly o: DeliveryOptions,
    /** Told of every connection dropped. */
    private readonly dropped: (reason: DropReason) => void,
  ) {}

  get sendTimeoutMs(): number {
    return this.o.sendTimeoutMs;
  }

  /** Bytes of answers written and not yet taken by their clients, over all connections. */
  get unreadBytes(): number {
    return this.unread;
  }

  /** Whether an answer of `bytes` may be written on `socket`: false when its client already leaves too much unread. */
  admits(socket: Socket, bytes: number): boolean {
    const c = this.connections.get(socket);
    return !c || c.bytes === 0 || c.bytes + bytes <= this.o.maxUnreadBytes;
  }

  /** Follows an answer written in full (about `bytes` long) until its client has taken it; drops the client if it does not within the send timeout. */
  watch(socket: Socket, res: ServerResponse, bytes: number): void {
    if (res.writableFinished || res.destroyed || socket.destroyed) return;
    let c = this.connections.get(socket);
    if (!c) {
      const conn: Connection = { bytes: 0, answers: new Set() };
      this.connections.set(socket, conn);
      // Answers queued behind others on a connection that closes are not all told so: settle them here.
      socket.once("close", () => {
        for (const u of conn.answers) this.settle(conn, u);
        this.connections.delete(socket);
      });
      c = conn;
    }
    const conn = c;
    const u: Unread = { bytes, timer: setTimeout(() => this.drop(socket, "send_timeout"), this.o.sendTimeoutMs) };
    u.timer.unref();
    conn.answers.add(u);
    conn.bytes += bytes;
    this.unread += bytes;
    const taken = () => this.settle(conn, u);
    res.once("finish", taken);
    res.once("close", taken);
  }

  /** Closes a client's connection, freeing every answer it had not taken. */
  drop(socket: Socket, reason: DropReason): void {
    if (socket.destroyed) return;
    socket.destroy();
    this.dropped(reason);
  }

  private settle(c: Connection, u: Unread): void {
    if (!c.answers.delete(u)) return;
    clearTimeout(u.timer);
    c.bytes -= u.bytes;
    this.unread -= u.bytes;
  }
}
