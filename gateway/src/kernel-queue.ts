// What the kernel still holds for a TCP connection: bytes written and not yet acknowledged by the peer
// (Linux's tx_queue in /proc/net/tcp and /proc/net/tcp6, found by the socket's inode). Node does not
// tell: once the kernel has taken an answer whole, the socket looks idle whether or not the client
// reads. A client that does not read stops acknowledging once its receive buffer is full, so what
// stays queued here is what it left unread. Elsewhere than Linux: unknown (undefined).
import { existsSync } from "node:fs";
import { readFile, readlink } from "node:fs/promises";
import type { Socket } from "node:net";

const TABLES = ["/proc/net/tcp", "/proc/net/tcp6"];

/** The file descriptor of a connected socket (node's TCP handle keeps it on Unix). */
function fdOf(socket: Socket): number | undefined {
  const handle: unknown = Reflect.get(socket, "_handle");
  if (handle === null || typeof handle !== "object" || !("fd" in handle)) return undefined;
  return typeof handle.fd === "number" && handle.fd >= 0 ? handle.fd : undefined;
}

async function inodeOf(socket: Socket): Promise<string | undefined> {
  const fd = fdOf(socket);
  if (fd === undefined) return undefined;
  try {
    return /^socket:\[(\d+)\]$/.exec(await readlink(`/proc/self/fd/${fd}`))?.[1];
  } catch {
    return undefined;
  }
}

/** inode → tx_queue of the sockets of this network namespace. */
async function txQueues(): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const table of TABLES) {
    let text: string;
    try {
      text = await readFile(table, "latin1");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      const tx = parseInt(cols[4]!.split(":", 1)[0]!, 16);
      if (Number.isFinite(tx)) out.set(cols[9]!, tx);
    }
  }
  return out;
}

export class KernelQueues {
  private batch: { socket: Socket; resolve: (bytes: number | undefined) => void }[] = [];

  /** Whether this system tells (Linux's /proc). */
  static available(): boolean {
    return existsSync(TABLES[0]!) && existsSync("/proc/self/fd");
  }

  /** Bytes the kernel holds for `socket`'s peer; undefined when it cannot be told. Lookups close together share one read of the tables. */
  queued(socket: Socket): Promise<number | undefined> {
    return new Promise((resolve) => {
      this.batch.push({ socket, resolve });
      if (this.batch.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.batch;
    this.batch = [];
    try {
      const inodes = await Promise.all(batch.map((b) => (b.socket.destroyed ? undefined : inodeOf(b.socket))));
      const queues = await txQueues();
      batch.forEach((b, i) => b.resolve(inodes[i] === undefined ? undefined : queues.get(inodes[i]!)));
    } catch {
      for (const b of batch) b.resolve(undefined);
    }
  }
}
