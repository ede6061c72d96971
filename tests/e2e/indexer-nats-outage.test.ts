// The indexer through NATS outages (issue 16): `tongate index --nats-url` follows a localnet while
// the nats-server is stopped and started twice (its store kept). Indexing never waits for the bus:
// every block sealed during an outage is stored within 3 s, its event waits in the outbox (/healthz
// shows the depth) and goes out once NATS is back. The second time the indexer is also killed
// (SIGKILL) and started again while NATS is down. The stream then holds every masterchain block's
// event exactly once, in order.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Address, toNano } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { decodeBlocksIndexed } from "@tongate/indexer";
import { openBus } from "@tongate/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../bench/support/processes.js";
import { startTestLocalnet } from "../support/localnet.js";
import { hasNats, startNatsServer, type NatsServer } from "../support/nats.js";

const BIN = fileURLToPath(new URL("../../cli/bin/tongate.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "tongate-outbox-"));
const globalConfig = join(dir, "global-config.json");
let net: Localnet;
let nats: NatsServer;
let metricsPort = 0;

const fresh = (n: number) => new Address(0, Buffer.alloc(32, n));

function startIndexer(): ChildProcess {
  const child = spawn(
    process.execPath,
    [BIN, "index", "--global-config", globalConfig, "--network-name", "localnet", "--nats-url", nats.url, "--index-dir", join(dir, "db"), "--metrics-listen", `127.0.0.1:${metricsPort}`],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  child.stderr!.resume();
  return child;
}

function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}

interface Health {
  detail: { lastMcSeqno: number | null; outbox: { depth: number; lagSeconds: number } };
}

async function health(): Promise<Health | undefined> {
  try {
    return (await (await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).json()) as Health;
  } catch {
    return undefined; // not listening yet
  }
}

async function until(what: string, cond: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const head = () => net.chain.lastMasterchain!.id.seqno;
const stored = async () => (await health())?.detail.lastMcSeqno ?? 0;

/** Seals a block with a transfer in it; resolves with how long the indexer took to store it, ms. */
async function sealAndTime(n: number): Promise<number> {
  await net.faucet(fresh(n), toNano("1"));
  await net.chain.seal();
  const t0 = performance.now();
  const want = head();
  await until(`block ${want} stored`, async () => (await stored()) >= want, 30_000);
  return performance.now() - t0;
}

beforeAll(async () => {
  if (!hasNats) return;
  nats = await startNatsServer();
  net = await startTestLocalnet({ seed: "indexer-outbox-e2e" });
  await net.faucet(fresh(1), toNano("1"));
  await net.chain.seal();
  writeFileSync(globalConfig, JSON.stringify(net.globalConfig()));
  metricsPort = await freePort();
});

afterAll(async () => {
  await net?.close();
  await nats?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasNats)("tongate index through NATS outages", () => {
  it("keeps indexing while NATS is down and publishes every block's event exactly once, in order, across two outages and a SIGKILL", async () => {
    let indexer = startIndexer();
    const lags: number[] = [];
    let n = 10;
    try {
      await until("the first blocks stored", async () => (await stored()) >= head());
      for (const round of [1, 2]) {
        await nats.halt();
        for (let i = 0; i < 3; i++) lags.push(await sealAndTime(n++));
        // the events wait in the outbox meanwhile
        expect((await health())!.detail.outbox.depth, `round ${round}: outbox depth`).toBeGreaterThanOrEqual(3);
        if (round === 2) {
          // killed and started again while NATS is still down: it indexes on, its events wait
          await kill(indexer, "SIGKILL");
          await net.faucet(fresh(n++), toNano("1"));
          await net.chain.seal();
          indexer = startIndexer();
          // (its start-up is not indexing lag)
          await until("the restarted indexer caught up", async () => (await stored()) >= head());
          lags.push(await sealAndTime(n++));
          expect((await health())!.detail.outbox.depth, "after the restart: outbox depth").toBeGreaterThanOrEqual(5);
        }
        await nats.resume();
        await until(`round ${round}: the outbox emptied`, async () => {
          const h = await health();
          return !!h && h.detail.lastMcSeqno === head() && h.detail.outbox.depth === 0;
        });
        lags.push(await sealAndTime(n++));
      }
    } finally {
      await kill(indexer, "SIGTERM");
    }
    expect(Math.max(...lags), `indexing lag during and after the outages, ms: ${lags.map(Math.round).join(", ")}`).toBeLessThan(3000);

    // the stream holds every masterchain block's event once, in order (a reader from its start)
    const bus = await openBus({ natsUrl: nats.url });
    const seqnos: number[] = [];
    const sub = await bus.subscribe("tongate.localnet.blocks.indexed", (m) => void seqnos.push(decodeBlocksIndexed(m.data).masterchain!.seqno), { deliver: "all" });
    await until("the stream read", () => seqnos.length >= head(), 10_000);
    await new Promise((r) => setTimeout(r, 300)); // a duplicate would show up by now
    await sub.unsubscribe();
    await bus.close();
    expect(seqnos).toEqual(Array.from({ length: head() }, (_, i) => i + 1));
  }, 180_000);
});
