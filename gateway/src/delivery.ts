// Answers on their way to the clients. A client that does not read its answers is dropped (its
// connection reset) and what it left unread is freed, so slow or stalled clients cannot hold memory:
// - every answer must be taken within the send timeout, counted from the moment it is written in full
//   (for an answer queued behind earlier ones on a pipelining connection, too): by the client's socket
//   in the process, and — for a large answer the kernel took whole — acknowledged by the client
//   (kernel-queue.ts; Linux only): a client that does not read leaves it queued in the kernel, and a
//   client that sends a request after an answer left the process has read that answer;
// - the bytes of answers a connection has not taken stay under a bound: an answer that would pass it
//   drops the connection instead of being queued. One answer of any size is always sent on a connection
//   that has nothing unread, so the bound never refuses a large answer to a client that reads.
// Node pauses reading a connection whose answers are not taken, but only after the requests of the
// chunk at hand: one chunk of small pipelined requests can ask for hundreds of large answers. A reset
// (not a close) frees what the kernel holds for the client too.
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { KernelQueues } from "./kernel-queue.js";

export interface DeliveryOptions {
  /** Time a client has to take an answer once it is written, ms. */
  sendTimeoutMs: number;
  /** Bytes of answers one connection may leave unread in the process before it is dropped. */
  maxUnreadBytes: number;
}

export type DropReason = "send_timeout" | "unread_bytes";

/**
 * Answers at least this large are followed into the kernel: smaller ones left unread cost the kernel
 * little per connection (and the keep-alive timeout closes an idle connection).
 */
const KERNEL_FOLLOW_BYTES = 64 * 1024;

/** One answer on its way. */
interface Sending {
  bytes: number;
  timer: NodeJS.Timeout;
  /** The process handed it to the kernel whole. */
  taken: boolean;
  /** The connection's requests when it was taken. */
  requestsThen: number;
}

/** What one connection has on its way. */
interface Connection {
  /** Bytes of its answers still in the process. */
  unread: number;
  readonly sending: Set<Sending>;
  /** Requests received on it so far: one received after an answer left the process means the client read that answer. */
  requests: number;
}

export class Delivery {
  private readonly connections = new WeakMap<Socket, Connection>();
  private unread = 0;
  private readonly kernel = KernelQueues.available() ? new KernelQueues() : undefined;

  constructor(
    private readonly o: DeliveryOptions,
    /** Told of every connection dropped. */
    private readonly dropped: (reason: DropReason) => void,
  ) {}

  get sendTimeoutMs(): number {
    return this.o.sendTimeoutMs;
  }

  /** Bytes of answers written and not yet handed to the kernel, over all connections. */
  get unreadBytes(): number {
    return this.unread;
  }

  /** Whether an answer of `bytes` may be written on `socket`: false when its client already leaves too much unread. */
  admits(socket: Socket, bytes: number): boolean {
    const c = this.connections.get(socket);
    return !c || c.unread === 0 || c.unread + bytes <= this.o.maxUnreadBytes;
  }

  /** Counts a request received on `socket` (a client that asks again has read its earlier answers). */
  received(socket: Socket): void {
    const c = this.connections.get(socket);
    if (c) c.requests++;
  }

  /** Follows an answer written in full (about `bytes` long) until its client has taken it; drops the client if it does not within the send timeout. */
  watch(socket: Socket, res: ServerResponse, bytes: number): void {
    if (res.destroyed || socket.destroyed) return;
    const follow = this.kernel !== undefined && bytes >= KERNEL_FOLLOW_BYTES;
    if (res.writableFinished && !follow) return;
    const c = this.connectionOf(socket);
    const s: Sending = { bytes, taken: false, requestsThen: 0, timer: setTimeout(() => void this.expire(socket, c, s), this.o.sendTimeoutMs) };
    s.timer.unref();
    c.sending.add(s);
    c.unread += bytes;
    this.unread += bytes;
    if (res.writableFinished) this.taken(c, s, follow);
    else res.once("finish", () => this.taken(c, s, follow));
  }

  /** Resets a client's connection, freeing every answer it had not taken, in the process and in the kernel. */
  drop(socket: Socket, reason: DropReason): void {
    if (socket.destroyed) return;
    socket.resetAndDestroy();
    this.dropped(reason);
  }

  private connectionOf(socket: Socket): Connection {
    const known = this.connections.get(socket);
    if (known) return known;
    const c: Connection = { unread: 0, sending: new Set(), requests: 0 };
    this.connections.set(socket, c);
    // Answers queued behind others on a connection that closes are not all told so: they end here.
    socket.once("close", () => {
      for (const s of c.sending) {
        this.release(c, s);
        clearTimeout(s.timer);
      }
      c.sending.clear();
      this.connections.delete(socket);
    });
    return c;
  }

  /** The answer left the process (`follow`: its timer stays, to see whether the client reads it). */
  private taken(c: Connection, s: Sending, follow: boolean): void {
    this.release(c, s);
    if (!follow) this.settle(c, s);
  }

  private release(c: Connection, s: Sending): void {
    if (s.taken) return;
    s.taken = true;
    s.requestsThen = c.requests;
    c.unread -= s.bytes;
    this.unread -= s.bytes;
  }

  private async expire(socket: Socket, c: Connection, s: Sending): Promise<void> {
    // Still in the process: the connection's close releases it.
    if (!s.taken) return this.drop(socket, "send_timeout");
    this.settle(c, s);
    // Taken by the kernel: has the client read it? Asking again since says so; else what the kernel still holds.
    const readSince = () => c.requests !== s.requestsThen;
    if (readSince() || socket.destroyed) return;
    const queued = await this.kernel?.queued(socket);
    if (queued !== undefined && queued > 0 && !readSince()) this.drop(socket, "send_timeout");
  }

  private settle(c: Connection, s: Sending): void {
    if (c.sending.delete(s)) clearTimeout(s.timer);
  }
}
