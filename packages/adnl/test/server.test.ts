import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AdnlClient,
  AdnlClientError,
  AdnlServer,
  TL_ADNL_MESSAGE_QUERY,
  writeTlBytes,
  tlBytesSize,
  type AdnlCloseReason,
  type AdnlQueryContext,
} from "../src/index.js";
import { makeHandshake, plainFrame, rawConnect, rawReady } from "./helpers.js";

const echo = (query: Buffer): Buffer => Buffer.concat([Buffer.from("re:"), query]);

/** adnl.message.query payload (unencrypted, unframed). */
function queryPayload(queryId: Buffer, query: Buffer): Buffer {
  const b = Buffer.alloc(36 + tlBytesSize(query.length));
  b.writeUInt32LE(TL_ADNL_MESSAGE_QUERY, 0);
  queryId.copy(b, 4);
  writeTlBytes(b, 36, query);
  return b;
}

describe("AdnlServer + AdnlClient", () => {
  let server: AdnlServer;
  let port: number;
  let client: AdnlClient;
  const opened: number[] = [];
  const closed: AdnlCloseReason[] = [];
  const queryErrors: unknown[] = [];

  beforeAll(async () => {
    server = new AdnlServer({
      seed: randomBytes(32),
      handler: async (query) => {
        const text = query.toString();
        if (text === "throw") throw new Error("boom");
        if (text === "reject-unmapped") throw new RangeError("no mapping");
        if (text === "sync") return Buffer.from("sync-answer");
        if (text === "huge") return Buffer.alloc(16 * 1024 * 1024); // cannot fit a 16 MiB frame with its envelope
        await sleep(Math.random() * 10);
        return echo(query);
      },
      errorAnswer: (err) => (err instanceof RangeError ? undefined : Buffer.from(`error:${(err as Error).message}`)),
      hooks: {
        onConnectionOpen: (info) => opened.push(info.id),
        onConnectionClose: (_info, reason) => closed.push(reason),
        onQueryError: (err) => queryErrors.push(err),
      },
    });
    port = (await server.listen(0, "127.0.0.1")).port;
    client = await AdnlClient.connect("127.0.0.1", port, server.publicKey);
  });
  afterAll(async () => {
    client.close();
    await server.close({ graceMs: 500 });
  });

  it("exposes the public key and its key id", () => {
    expect(server.publicKey).toHaveLength(32);
    expect(server.keyId).toHaveLength(32);
    expect(opened).toHaveLength(1);
    expect(server.stats.readyConnections).toBe(1);
  });

  it("answers 1,000 concurrent queries (out of order) correctly", async () => {
    const queries = Array.from({ length: 1000 }, (_, i) => Buffer.from(`q${i}:${randomBytes(i % 50).toString("hex")}`));
    const answers = await Promise.all(queries.map((q) => client.query(q, 20_000)));
    for (let i = 0; i < queries.length; i++) expect(answers[i].equals(echo(queries[i]))).toBe(true);
    expect(client.inflight).toBe(0);
  });

  it("carries every TL bytes length form, including frames spanning many TCP chunks", async () => {
    for (const n of [0, 1, 253, 254, 255, 65_536, 1_000_000]) {
      const q = randomBytes(n);
      const a = await client.query(q);
      expect(a.equals(echo(q))).toBe(true);
    }
  });

  it("answers tcp.ping with tcp.pong", async () => {
    const before = server.stats.pings;
    const rtts = await Promise.all([client.ping(), client.ping(), client.ping()]);
    for (const rtt of rtts) expect(rtt).toBeGreaterThanOrEqual(0);
    expect(server.stats.pings).toBe(before + 3);
  });

  it("handler failures: hook fires; errorAnswer's bytes are sent; unmapped errors send nothing", async () => {
    expect((await client.query(Buffer.from("throw"))).toString()).toBe("error:boom");
    expect((await client.query(Buffer.from("sync"))).toString()).toBe("sync-answer");
    await expect(client.query(Buffer.from("reject-unmapped"), 300)).rejects.toMatchObject({ code: "timeout" });
    expect(queryErrors.length).toBe(2);
    await expect(client.query(Buffer.from("huge"), 300)).rejects.toMatchObject({ code: "timeout" });
    expect(queryErrors.length).toBe(3);
    expect(queryErrors[2]).toBeInstanceOf(RangeError);
    // the connection is still fine
    expect((await client.query(Buffer.from("x"))).toString()).toBe("re:x");
  });

  it("accepts the handshake and queries pipelined in the same write", async () => {
    const peer = await rawConnect(port);
    const hs = makeHandshake(server.publicKey);
    const id = randomBytes(32);
    const frame = hs.tx.update(plainFrame(queryPayload(id, Buffer.from("pipelined"))));
    let got = Buffer.alloc(0);
    const answered = new Promise<void>((resolve) =>
      peer.socket.on("data", (c: Buffer) => {
        got = Buffer.concat([got, hs.rx.update(c)]);
        if (got.length >= 68 + 4 + 68) resolve();
      }),
    );
    peer.socket.write(Buffer.concat([hs.envelope, frame]));
    await answered;
    expect(got.readUInt32LE(0)).toBe(64); // empty confirmation frame first
    const answer = got.subarray(68);
    expect(answer.readUInt32LE(36)).toBe(0x0fac8416);
    expect(answer.subarray(40, 72).equals(id)).toBe(true);
    expect(answer.subarray(73, 73 + answer[72]).toString()).toBe("re:pipelined");
    peer.socket.end();
    await peer.closed;
  });

  it("counts connections through hooks and stats", async () => {
    const before = server.stats;
    const extra = await AdnlClient.connect("127.0.0.1", port, server.publicKey);
    expect(server.connectionCount).toBe(before.connections + 1);
    extra.close();
    await extra.closed;
    await sleep(50);
    expect(server.connectionCount).toBe(before.connections);
    expect(closed).toContain("peer-closed");
  });
});

describe("flow control", () => {
  it("never runs more than maxInflightPerConnection handlers per connection, yet answers everything", async () => {
    let running = 0;
    let peak = 0;
    const server = new AdnlServer({
      seed: randomBytes(32),
      maxInflightPerConnection: 4,
      handler: async (q) => {
        peak = Math.max(peak, ++running);
        await sleep(1);
        running--;
        return q;
      },
    });
    const { port } = await server.listen(0, "127.0.0.1");
    const client = await AdnlClient.connect("127.0.0.1", port, server.publicKey);
    const qs = Array.from({ length: 300 }, (_, i) => Buffer.from(`n${i}`));
    const as = await Promise.all(qs.map((q) => client.query(q)));
    expect(as.map(String)).toEqual(qs.map(String));
    expect(peak).toBeLessThanOrEqual(4);
    client.close();
    await server.close();
  });
});

describe("misbehaving clients", () => {
  let server: AdnlServer;
  let port: number;
  let good: AdnlClient;
  let stop = false;
  let goodOk = 0;
  const goodErrors: unknown[] = [];
  let loop: Promise<void>;

  beforeAll(async () => {
    server = new AdnlServer({
      seed: randomBytes(32),
      // "big:" asks for a 512 KiB answer (to fill socket buffers with few queries)
      handler: (q) => (q.toString("latin1", 0, 4) === "big:" ? Buffer.alloc(512 * 1024) : echo(q)),
      handshakeTimeoutMs: 400,
      frameTimeoutMs: 400,
      idleTimeoutMs: 1_500,
      maxConnections: 20,
      maxFrameSize: 1 << 20,
    });
    port = (await server.listen(0, "127.0.0.1")).port;
    good = await AdnlClient.connect("127.0.0.1", port, server.publicKey);
    loop = (async () => {
      while (!stop) {
        try {
          const q = randomBytes(16);
          const a = await good.query(q, 2_000);
          if (!a.equals(echo(q))) throw new Error("wrong answer");
          goodOk++;
        } catch (e) {
          goodErrors.push(e);
        }
        await sleep(2);
      }
    })();
  });
  afterAll(async () => {
    stop = true;
    await loop;
    good.close();
    await server.close({ graceMs: 200 });
  });

  const closedCount = (reason: AdnlCloseReason): number => server.stats.closed[reason] ?? 0;

  async function expectClosedFor(reason: AdnlCloseReason, act: () => Promise<{ closed: Promise<void> }>, withinMs = 3_000) {
    const before = closedCount(reason);
    const t0 = Date.now();
    const peer = await act();
    await peer.closed;
    expect(Date.now() - t0).toBeLessThan(withinMs);
    expect(closedCount(reason)).toBe(before + 1);
  }

  it("garbage handshake", async () => {
    await expectClosedFor("unknown-key-id", async () => {
      const peer = await rawConnect(port);
      peer.socket.write(randomBytes(256));
      return peer;
    });
    await expectClosedFor("peer-closed", async () => {
      const peer = await rawConnect(port);
      peer.socket.end(randomBytes(100));
      return peer;
    });
  });

  it("wrong key id", async () => {
    await expectClosedFor("unknown-key-id", async () => {
      const peer = await rawConnect(port);
      peer.socket.write(makeHandshake(server.publicKey, { keyIdOf: randomBytes(32) }).envelope);
      return peer;
    });
  });

  it("right key id, tampered params / low-order ephemeral key", async () => {
    await expectClosedFor("bad-handshake", async () => {
      const peer = await rawConnect(port);
      const env = makeHandshake(server.publicKey).envelope;
      env[200] ^= 1;
      peer.socket.write(env);
      return peer;
    });
    await expectClosedFor("bad-handshake", async () => {
      const peer = await rawConnect(port);
      const identity = Buffer.alloc(32);
      identity[0] = 1;
      peer.socket.write(makeHandshake(server.publicKey, { ephemeralPublic: identity }).envelope);
      return peer;
    });
  });

  it("bad checksum", async () => {
    await expectClosedFor("bad-checksum", async () => {
      const peer = await rawReady(port, server.publicKey);
      peer.socket.write(peer.tx.update(plainFrame(queryPayload(randomBytes(32), Buffer.from("hi")), { badChecksum: true })));
      return peer;
    });
  });

  it("a declared 4 GB frame is refused at once (nothing buffered), as is one under 64 bytes", async () => {
    await expectClosedFor(
      "bad-frame-size",
      async () => {
        const peer = await rawReady(port, server.publicKey);
        const size = Buffer.alloc(4);
        size.writeUInt32LE(0xffffffff);
        peer.socket.write(peer.tx.update(size));
        return peer;
      },
      1_000,
    );
    await expectClosedFor("bad-frame-size", async () => {
      const peer = await rawReady(port, server.publicKey);
      peer.socket.write(peer.tx.update(plainFrame(Buffer.alloc(0), { sizeOverride: 10 })));
      return peer;
    });
    // above the configured limit (1 MiB here) but below the protocol's 16 MiB
    await expectClosedFor("bad-frame-size", async () => {
      const peer = await rawReady(port, server.publicKey);
      const size = Buffer.alloc(4);
      size.writeUInt32LE((1 << 20) + 1);
      peer.socket.write(peer.tx.update(size));
      return peer;
    });
  });

  it("truncated frames: then silence (frame timeout) or then EOF", async () => {
    await expectClosedFor("frame-timeout", async () => {
      const peer = await rawReady(port, server.publicKey);
      const frame = plainFrame(queryPayload(randomBytes(32), Buffer.from("truncated")));
      peer.socket.write(peer.tx.update(frame.subarray(0, 50)));
      return peer;
    });
    await expectClosedFor("peer-closed", async () => {
      const peer = await rawReady(port, server.publicKey);
      const frame = plainFrame(queryPayload(randomBytes(32), Buffer.from("truncated")));
      peer.socket.end(peer.tx.update(frame.subarray(0, 50)));
      return peer;
    });
  });

  it("malformed envelope inside a valid frame", async () => {
    await expectClosedFor("protocol-error", async () => {
      const peer = await rawReady(port, server.publicKey);
      const p = queryPayload(randomBytes(32), Buffer.from("abc"));
      p[36] = 200; // bytes length beyond the payload
      peer.socket.write(peer.tx.update(plainFrame(p)));
      return peer;
    });
  });

  it("unknown constructors are ignored; the connection keeps working", async () => {
    const peer = await rawReady(port, server.publicKey);
    const before = server.stats.unknownMessages;
    peer.socket.write(peer.tx.update(plainFrame(randomBytes(40))));
    peer.socket.write(peer.tx.update(plainFrame(queryPayload(randomBytes(32), Buffer.from("still")))));
    await sleep(100);
    expect(server.stats.unknownMessages).toBe(before + 1);
    expect(peer.received().length).toBeGreaterThan(68); // confirmation + answer
    peer.socket.destroy();
  });

  it("slowloris: handshake dribbled a byte at a time, and a frame dribbled after it", async () => {
    await expectClosedFor("handshake-timeout", async () => {
      const peer = await rawConnect(port);
      const env = makeHandshake(server.publicKey).envelope;
      let i = 0;
      const t = setInterval(() => {
        if (i < env.length && !peer.socket.destroyed) peer.socket.write(env.subarray(i, ++i));
      }, 20);
      void peer.closed.then(() => clearInterval(t));
      return peer;
    });
    await expectClosedFor("frame-timeout", async () => {
      const peer = await rawReady(port, server.publicKey);
      const enc = peer.tx.update(plainFrame(queryPayload(randomBytes(32), randomBytes(500))));
      let i = 0;
      const t = setInterval(() => {
        if (i < enc.length && !peer.socket.destroyed) peer.socket.write(enc.subarray(i, ++i));
      }, 20);
      void peer.closed.then(() => clearInterval(t));
      return peer;
    });
  });

  it("idle connections time out; maxConnections refuses extras without touching open ones", async () => {
    const idle = await Promise.all(Array.from({ length: 19 }, () => rawReady(port, server.publicKey)));
    expect(server.connectionCount).toBe(20);
    const rejectedBefore = server.stats.rejected;
    const extra = await rawConnect(port);
    await extra.closed;
    expect(server.stats.rejected).toBe(rejectedBefore + 1);
    const idleBefore = closedCount("idle-timeout");
    await Promise.all(idle.map((p) => p.closed));
    expect(closedCount("idle-timeout")).toBe(idleBefore + 19);
    expect(server.connectionCount).toBe(1); // the good client, kept alive by its traffic
  });

  it("a client that never reads its answers stops being read from, then times out", async () => {
    const peer = await rawReady(port, server.publicKey);
    peer.socket.pause(); // never read again
    const before = server.stats.queries;
    const count = 1000; // 512 MiB of answers requested; kernel socket buffers hold a few tens of MiB at most
    for (let i = 0; i < count; i++) {
      peer.socket.write(peer.tx.update(plainFrame(queryPayload(randomBytes(32), Buffer.from("big:")))));
    }
    const idleBefore = closedCount("idle-timeout");
    // (the peer's own 'close' waits for it to read what is buffered: watch the server side)
    while (closedCount("idle-timeout") === idleBefore) await sleep(50);
    // Only about one socket read's worth of queries ran: the rest were parked, then dropped.
    expect(server.stats.queries - before).toBeLessThan(count);
    peer.socket.destroy();
  });

  it("the good client was served throughout", () => {
    expect(goodErrors).toEqual([]);
    expect(goodOk).toBeGreaterThan(50);
    expect(good.isReady).toBe(true);
  });
});

describe("close()", () => {
  it("answers in-flight queries, then closes every connection and stops accepting", async () => {
    const server = new AdnlServer({
      seed: randomBytes(32),
      handler: async (q) => {
        await sleep(200);
        return echo(q);
      },
    });
    const { port } = await server.listen(0, "127.0.0.1");
    const clients = await Promise.all([1, 2, 3].map(() => AdnlClient.connect("127.0.0.1", port, server.publicKey)));
    const handshaking = await rawConnect(port); // never sends its handshake
    await sleep(20);
    const queries = clients.flatMap((c, i) => Array.from({ length: 5 }, (_, j) => c.query(Buffer.from(`${i}/${j}`))));
    await sleep(50); // let them reach the handler
    const t0 = Date.now();
    await server.close({ graceMs: 5_000 });
    expect(Date.now() - t0).toBeLessThan(2_000);
    const answers = await Promise.all(queries);
    expect(answers.map(String).sort()).toEqual(
      clients.flatMap((_, i) => Array.from({ length: 5 }, (_, j) => `re:${i}/${j}`)).sort(),
    );
    for (const c of clients) expect((await c.closed).code).toBe("closed");
    await handshaking.closed;
    expect(server.connectionCount).toBe(0);
    expect(server.stats.closed["server-closing"]).toBe(4);
    await expect(AdnlClient.connect("127.0.0.1", port, server.publicKey, { connectTimeoutMs: 1_000 })).rejects.toBeInstanceOf(
      AdnlClientError,
    );
  });

  it("destroys connections whose queries outlive the grace period and aborts their signal", async () => {
    let seen: AdnlQueryContext | undefined;
    const server = new AdnlServer({
      seed: randomBytes(32),
      handler: (_q, ctx) => {
        seen = ctx;
        return new Promise<Uint8Array>(() => {}); // never answers
      },
    });
    const { port } = await server.listen(0, "127.0.0.1");
    const client = await AdnlClient.connect("127.0.0.1", port, server.publicKey);
    const pending = client.query(Buffer.from("forever"), 10_000);
    await sleep(50);
    expect(seen?.signal.aborted).toBe(false);
    const t0 = Date.now();
    await server.close({ graceMs: 300 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(seen?.signal.aborted).toBe(true);
    await expect(pending).rejects.toMatchObject({ code: "closed" });
  });
});
