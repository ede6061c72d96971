// Issue 15: readers page through an account over HTTP while the indexer writes blocks, and are told
// of each indexed block by `blocks.indexed` on a real nats-server, as a dApp backend would be. The
// chain keeps sending the account transfers. Each reader, whenever it was told of masterchain block
// N, asks for the account's newest page: it must hold the account's newest transaction committed by
// N or a later one (never older than what it was told). It then walks every page by cursor: no
// transaction twice, none missing between the newest one it saw and the account's first.
import { Address, loadTransaction, toNano } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { decodeBlocksIndexed } from "@tongate/indexer";
import { connect, type NatsConnection } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { LocalnetSender } from "../support/localnet-deploy.js";
import { startTestLocalnet } from "../support/localnet.js";
import { hasNats, startNatsServer, type NatsServer } from "../support/nats.js";

const target = new Address(0, Buffer.alloc(32, 0x5c));
const raw = `0:${target.hash.toString("hex").toUpperCase()}`;
let net: Localnet;
let nats: NatsServer;
let nc: NatsConnection;
let t: Embedded;

/** The target's transactions the chain committed by masterchain block `mc`: lt (as a string) by hash. */
function committed(mc: number): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const b of net.chain.shardchain) {
    if (b.mcSeqno > mc) continue;
    for (const tx of b.transactions) {
      const parsed = loadTransaction(tx.cell.beginParse());
      if (parsed.address === BigInt("0x" + target.hash.toString("hex"))) out.set(tx.hash.toString("base64"), tx.lt);
    }
  }
  return out;
}

beforeAll(async () => {
  if (!hasNats) return;
  net = await startTestLocalnet({ seed: "v3-consistency", wallets: 1 });
  nats = await startNatsServer();
  nc = await connect({ servers: nats.url });
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on", "nats-url": nats.url });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await nc?.close();
  await nats?.stop();
  await net?.close();
});

describe.skipIf(!hasNats)("API v3 pages while blocks are written", () => {
  it("no reader sees a page older than the blocks.indexed it was told of, nor a duplicate or a gap across pages", async () => {
    let told = 0;
    const sub = nc.subscribe("tongate.*.blocks.indexed", {
      callback: (err, m) => {
        if (!err) told = Math.max(told, decodeBlocksIndexed(m.data).masterchain?.seqno ?? 0);
      },
    });
    const sender = new LocalnetSender(net, net.genesis.wallets[0]!);
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 30; i++) {
        await sender.send({ to: target, value: toNano("0.01") + BigInt(i), bounce: false });
        await net.chain.seal();
        // blocks at the pace the indexer keeps (the chain seals on this thread, as the readers run)
        const head = net.chain.lastMasterchain!.id.seqno;
        for (let w = 0; w < 100 && told < head - 1; w++) await new Promise((r) => setTimeout(r, 50));
        await new Promise((r) => setTimeout(r, 100));
      }
      writing = false;
    })();

    let checks = 0;
    let walks = 0;
    const reader = async () => {
      while (writing) {
        const mc = told;
        if (mc === 0) {
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        const known = committed(mc);
        const first = await getJson(`${t.url}/api/v3/transactions?account=${raw}&limit=3&sort=desc`);
        expect(first.status).toBe(200);
        const page = first.body.transactions as { hash: string; lt: string }[];
        // never older than block mc: the newest transaction it committed is on the first page or below a newer one
        if (known.size) {
          const newest = [...known.values()].reduce((a, b) => (a > b ? a : b));
          expect(page.length).toBeGreaterThan(0);
          expect(BigInt(page[0]!.lt) >= newest, `told of ${mc}: newest page starts at ${page[0]!.lt}, ${newest} was committed`).toBe(true);
        }
        checks++;
        // the walk from that page down: each transaction once, none missing
        const seen: { hash: string; lt: string }[] = [...page];
        let cursor: string | undefined = first.body.next_cursor;
        while (cursor) {
          const next = await getJson(`${t.url}/api/v3/transactions?account=${raw}&limit=3&sort=desc&cursor=${cursor}`);
          expect(next.status).toBe(200);
          seen.push(...(next.body.transactions as { hash: string; lt: string }[]));
          cursor = next.body.next_cursor;
        }
        if (!seen.length) continue;
        const hashes = seen.map((x) => x.hash);
        expect(new Set(hashes).size, "a transaction twice across pages").toBe(hashes.length);
        const top = BigInt(seen[0]!.lt);
        const expected = [...committed(Number.MAX_SAFE_INTEGER)].filter(([, lt]) => lt <= top).map(([h]) => h);
        expect(hashes.sort(), "a gap across pages").toEqual(expected.sort());
        walks++;
      }
    };
    await Promise.all([writer, reader(), reader(), reader()]);
    sub.unsubscribe();
    expect(checks).toBeGreaterThan(20);
    expect(walks).toBeGreaterThan(10);
  }, 180_000);
});
