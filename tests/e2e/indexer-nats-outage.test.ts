// The indexer through NATS outages (issue 16), as the acceptance names it: `tongate index
// --nats-url` follows a localnet that seals a block every SEAL_EVERY_MS (it starts behind, with a
// backfill of BACKFILL blocks), and a durable JetStream consumer on `blocks.indexed` (nats.js, explicit
// acks, pulling) reads the events the whole time, reconnecting by itself. NATS is stopped and started
// twice (its store kept); the second time the indexer is also killed (SIGKILL) and started again
// while NATS is down. Indexing never waits for the bus: the indexing lag (from a block's sealing to
// its storing, read from the indexer's /healthz every POLL_MS; and the indexer's own lag figure)
// stays under 3 s throughout, the restarted process's start-up aside; the events wait in the outbox
// meanwhile. The consumer receives every masterchain block's event exactly once, in order.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Address, toNano } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { decodeBlocksIndexed } from "@tongate/indexer";
import { AckPolicy, connect, DeliverPolicy, type ConsumerMessages, type NatsConnection } from "nats";
import { signalAndWait, startIndexCommand } from "../support/tongate.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../bench/support/processes.js";
import { startTestLocalnet } from "../support/localnet.js";
import { hasNats, startNatsServer, type NatsServer } from "../support/nats.js";

const SUBJECT = "tongate.localnet.blocks.indexed";
/** the stream the bus keeps every event in (README: "Events") */
const EVENTS_STREAM = "TONGATE_EVENTS";
const BACKFILL = 20;
const SEAL_EVERY_MS = 400;
const POLL_MS = 100;
const OUTAGE_MS = 6_000;
const MAX_LAG_MS = 3_000;

const dir = mkdtempSync(join(tmpdir(), "tongate-outbox-"));
const globalConfig = join(dir, "global-config.json");
let net: Localnet;
let nats: NatsServer;
let metricsPort = 0;

const fresh = (n: number) => new Address(0, Buffer.alloc(32, n % 250));

const startIndexer = (): ChildProcess => startIndexCommand({ globalConfig, natsUrl: nats.url, indexDir: join(dir, "db"), metricsPort });
const kill = signalAndWait;

interface Health {
  detail: { lastMcSeqno: number | null; lagSeconds: number | null; outbox: { depth: number; lagSeconds: number } };
}

async function health(): Promise<Health | undefined> {
  try {
    return (await (await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).json()) as Health;
  } catch {
    return undefined; // not listening (yet, or killed)
  }
}

async function until(what: string, cond: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const head = () => net.chain.lastMasterchain!.id.seqno;

/**
 * A durable pull consumer on `blocks.indexed` with explicit acks, as a downstream service (the
 * decoder) would run one: it reads from the stream's start, acks each event once it is recorded
 * (waiting for the server's confirmation), and rides out NATS restarts by itself (nats.js reconnects
 * and pulls again).
 */
class DurableReader {
  readonly seqnos: number[] = [];
  redelivered = 0;
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;

  private constructor(private readonly nc: NatsConnection) {}

  static async start(url: string): Promise<DurableReader> {
    const nc = await connect({ servers: url, maxReconnectAttempts: -1, reconnectTimeWait: 250, name: "e2e-decoder" });
    const jsm = await nc.jetstreamManager();
    // the indexer creates the stream when it first connects
    await until("the events stream", () => jsm.streams.info(EVENTS_STREAM).then(() => true, () => false), 30_000);
    await jsm.consumers.add(EVENTS_STREAM, { durable_name: "e2e-decoder", ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, filter_subject: SUBJECT, ack_wait: 30_000_000_000 });
    const reader = new DurableReader(nc);
    const consumer = await nc.jetstream().consumers.get(EVENTS_STREAM, "e2e-decoder");
    reader.messages = await consumer.consume({ max_messages: 16, idle_heartbeat: 1000, expires: 5000 });
    reader.loop = (async () => {
      for await (const m of reader.messages!) {
        if (m.redelivered) reader.redelivered++;
        reader.seqnos.push(decodeBlocksIndexed(m.data).masterchain!.seqno);
        // explicit ack, confirmed by the server (retried while it is down: an unconfirmed ack would bring the event again)
        for (;;) {
          try {
            await m.ackAck();
            break;
          } catch {
            await sleep(100);
          }
        }
      }
    })();
    return reader;
  }

  /** The last seqno received, 0 before any. */
  get last(): number {
    return this.seqnos.at(-1) ?? 0;
  }

  async close(): Promise<void> {
    this.messages?.stop();
    await this.loop;
    await this.nc.close();
  }
}

beforeAll(async () => {
  if (!hasNats) return;
  nats = await startNatsServer();
  net = await startTestLocalnet({ seed: "indexer-outbox-e2e" });
  // the chain is ahead when the indexer starts: it catches up first (a backfill), then follows
  for (let i = 0; i < BACKFILL; i++) {
    if (i % 2 === 0) await net.faucet(fresh(i), toNano("1"));
    await net.chain.seal();
  }
  writeFileSync(globalConfig, JSON.stringify(net.globalConfig()));
  metricsPort = await freePort();
});

afterAll(async () => {
  await net?.close();
  await nats?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasNats)("tongate index through NATS outages, a durable consumer reading", () => {
  it("keeps indexing within 3 s of the chain while NATS is down twice (and across a SIGKILL); the consumer gets every block's event exactly once, in order", async () => {
    let indexer = startIndexer();
    const reader = await DurableReader.start(nats.url);
    /** when the test sealed each block (performance.now()) */
    const sealedAt = new Map<number, number>();
    let stopping = false;
    let polled = false;
    let n = 100;
    const sealing = (async () => {
      while (!stopping) {
        if (n % 2 === 0) await net.faucet(fresh(n), toNano("1"));
        n++;
        await net.chain.seal();
        sealedAt.set(head(), performance.now());
        await sleep(SEAL_EVERY_MS);
      }
    })();
    /** The lag figures taken while the indexer runs (not while it starts again after the SIGKILL). */
    const lags: { at: number; ms: number; reported: number | null; stored: number }[] = [];
    let measuring = false;
    let lastStored = 0;
    const polling = (async () => {
      while (!polled) {
        const h = await health();
        const now = performance.now();
        if (h && h.detail.lastMcSeqno !== null) lastStored = h.detail.lastMcSeqno;
        if (measuring && h) {
          // the oldest block sealed and not stored yet: how long it has waited
          const waiting = [...sealedAt].filter(([seqno]) => seqno > lastStored).map(([, at]) => at);
          lags.push({ at: now, ms: waiting.length ? now - Math.min(...waiting) : 0, reported: h.detail.lagSeconds, stored: lastStored });
        }
        await sleep(POLL_MS);
      }
    })();
    const caughtUp = () => until("the indexer caught up with the chain", () => lastStored >= head(), 60_000);
    const readerCaughtUp = () => until("the consumer caught up with the indexer", () => reader.last >= lastStored && lastStored > 0, 30_000);
    const outboxDepths: number[] = [];
    try {
      await caughtUp();
      measuring = true;
      await sleep(2_000);
      for (const round of [1, 2]) {
        await readerCaughtUp();
        await nats.halt();
        await sleep(OUTAGE_MS / 2);
        if (round === 2) {
          // killed and started again while NATS is still down: it indexes on, its events wait
          measuring = false;
          await kill(indexer, "SIGKILL");
          indexer = startIndexer();
          // (its start-up is not indexing lag)
          await until("the restarted indexer's health", async () => (await health()) !== undefined);
          await caughtUp();
          measuring = true;
        }
        await sleep(OUTAGE_MS / 2);
        // the events wait in the outbox meanwhile
        outboxDepths.push((await health())!.detail.outbox.depth);
        await nats.resume();
        await until(`round ${round}: the outbox emptied`, async () => (await health())?.detail.outbox.depth === 0);
        await sleep(2_000);
      }
    } finally {
      stopping = true;
      await sealing;
    }
    try {
      await caughtUp();
      polled = true;
      await polling;
      const last = head();
      await until("every event read", () => reader.last >= last, 30_000);
      await sleep(500); // a duplicate would show up by now
      const expected = Array.from({ length: last }, (_, i) => i + 1);
      expect(reader.seqnos.length, "events received").toBe(expected.length);
      expect(reader.seqnos, "every masterchain block's event, once, in order").toEqual(expected);
      expect(reader.redelivered, "events delivered again").toBe(0);
    } finally {
      polled = true;
      await polling;
      await reader.close();
      await kill(indexer, "SIGTERM");
    }
    const worst = lags.reduce((a, b) => (b.ms > a.ms ? b : a));
    console.log(`indexing lag: ${lags.length} readings, worst ${worst.ms.toFixed(0)} ms at block ${worst.stored}; reported up to ${Math.max(...lags.map((l) => l.reported ?? 0))} s; outbox depths ${outboxDepths.join(", ")}; ${reader.seqnos.length} events read`);
    // each outage left events waiting (about OUTAGE_MS / SEAL_EVERY_MS blocks)
    for (const d of outboxDepths) expect(d, `outbox depth before NATS returned: ${outboxDepths.join(", ")}`).toBeGreaterThanOrEqual(OUTAGE_MS / SEAL_EVERY_MS / 3);
    expect(lags.length, "lag readings").toBeGreaterThan(100);
    expect(worst.ms, `indexing lag, worst of ${lags.length} readings (at block ${worst.stored}), ms`).toBeLessThan(MAX_LAG_MS);
    const reported = Math.max(...lags.map((l) => l.reported ?? 0));
    expect(reported, "the indexer's own lag figure (gen_utime to storing, whole seconds of gen_utime), s").toBeLessThan(MAX_LAG_MS / 1000 + 1);
  }, 180_000);
});
