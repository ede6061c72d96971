// Distributed mode (issue 6): `tongate index --nats-url` in its own process follows a localnet and
// publishes tongate.<network>.blocks.indexed on a real nats-server's JetStream; the test reads the
// stream from its start and gets one event per masterchain block, in order, with the transaction
// and block counts the chain recorded. The indexer is killed (SIGKILL) and restarted: the stream
// goes on without a gap or a duplicate (the re-published last block is dropped by its message id).
// Its /metrics and /healthz answer while it runs.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Address, toNano } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { type BlocksIndexed, decodeBlocksIndexed } from "@tongate/indexer";
import { type EventBus, openBus, type Subscription } from "@tongate/runtime";
import { signalAndWait, startIndexCommand } from "../support/tongate.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../bench/support/processes.js";
import { startTestLocalnet } from "../support/localnet.js";
import { hasNats, startNatsServer, type NatsServer } from "../support/nats.js";

const SUBJECT = "tongate.localnet.blocks.indexed";
const dir = mkdtempSync(join(tmpdir(), "tongate-events-"));
const globalConfig = join(dir, "global-config.json");
let net: Localnet;
let nats: NatsServer;
let bus: EventBus;
let sub: Subscription;
let metricsPort = 0;
const events: { seq: number; subject: string; e: BlocksIndexed }[] = [];

const fresh = (n: number) => new Address(0, Buffer.alloc(32, n));

const startIndexer = (): ChildProcess => startIndexCommand({ globalConfig, natsUrl: nats.url, indexDir: join(dir, "db"), metricsPort });
const kill = signalAndWait;

async function until(what: string, cond: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What the localnet recorded for masterchain block `mc`: transactions and blocks. */
function recorded(mc: number): { txs: number; blocks: number } {
  let txs = 0;
  let blocks = 0;
  for (const b of [...net.chain.masterchain, ...net.chain.shardchain]) {
    if (b.mcSeqno !== mc) continue;
    blocks++;
    txs += b.transactions.length;
  }
  return { txs, blocks };
}

const seqnos = () => events.map((x) => x.e.masterchain!.seqno);
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

beforeAll(async () => {
  if (!hasNats) return;
  nats = await startNatsServer();
  net = await startTestLocalnet({ seed: "indexer-events-e2e" });
  await net.faucet(fresh(1), toNano("1"));
  await net.chain.seal();
  writeFileSync(globalConfig, JSON.stringify(net.globalConfig()));
  metricsPort = await freePort();
  bus = await openBus({ natsUrl: nats.url });
  // the stream exists once the indexer (or this bus) connected; subscribe from its start
  sub = await bus.subscribe(`tongate.*.blocks.indexed`, (m) => void events.push({ seq: m.seq, subject: m.subject, e: decodeBlocksIndexed(m.data) }), { deliver: "all" });
});

afterAll(async () => {
  await sub?.unsubscribe();
  await bus?.close();
  await net?.close();
  await nats?.stop();
});

describe.skipIf(!hasNats)("tongate index --nats-url", () => {
  it("publishes blocks.indexed for every masterchain block in order, without a gap across a SIGKILL and restart", async () => {
    let indexer = startIndexer();
    try {
      let head = net.chain.lastMasterchain!.id.seqno;
      await until("the first events", () => events.length >= head);
      await net.faucet(fresh(2), toNano("1"));
      await net.chain.seal();
      head = net.chain.lastMasterchain!.id.seqno;
      await until("events up to the head", () => seqnos().at(-1) === head);
      expect(seqnos()).toEqual(range(1, head));

      const health = (await (await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).json()) as { status: string; detail: { lastMcSeqno: number; lagBlocks: number } };
      expect(health).toMatchObject({ status: "ok", detail: { lastMcSeqno: head, lagBlocks: 0 } });
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(metrics).toMatch(new RegExp(`^tongate_indexer_last_mc_seqno ${head}$`, "m"));
      expect(metrics).toMatch(/^tongate_indexer_blocks_total \d+$/m);

      // killed without warning, blocks sealed meanwhile, restarted
      await kill(indexer, "SIGKILL");
      await net.faucet(fresh(3), toNano("1"));
      await net.chain.seal();
      indexer = startIndexer();
      await net.faucet(fresh(4), toNano("1"));
      head = net.chain.lastMasterchain!.id.seqno;
      await until("events after the restart", () => seqnos().at(-1) === head);
      // let a late duplicate show up if there were one
      await new Promise((r) => setTimeout(r, 300));
      expect(seqnos()).toEqual(range(1, head));
      expect(events.map((x) => x.seq)).toEqual(range(1, head));
      expect(new Set(events.map((x) => x.subject))).toEqual(new Set([SUBJECT]));
      for (const { e } of events) {
        const want = recorded(e.masterchain!.seqno);
        expect({ seqno: e.masterchain!.seqno, txs: e.transactionCount, blocks: 1 + e.shardBlocks.length }).toEqual({ seqno: e.masterchain!.seqno, ...want });
        expect(e.masterchain!.workchain).toBe(-1);
        expect(Buffer.from(e.masterchain!.rootHash).equals(net.chain.masterchain.find((b) => b.id.seqno === e.masterchain!.seqno)!.id.rootHash)).toBe(true);
      }
      expect(events.reduce((n, x) => n + x.e.transactionCount, 0)).toBeGreaterThanOrEqual(4);
    } finally {
      await kill(indexer, "SIGTERM");
    }
  }, 150_000);
});
