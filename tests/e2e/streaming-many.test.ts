// Many subscribers: 1,000 SSE connections watching 10,000 addresses in all (every one on "blocks",
// one in a hundred on the wallets that move) while blocks come: every subscriber gets every block,
// the wallets' watchers their transactions, and the process's heap stays bounded.
import { toNano } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodedTo, startEmbedded, type Embedded } from "../support/embedded.js";
import { LocalnetSender } from "../support/localnet-deploy.js";
import { startTestLocalnet } from "../support/localnet.js";
import { SseClient } from "../support/stream-client.js";

let net: Localnet;
let t: Embedded;
let w1: LocalnetSender;
let w2: LocalnetSender;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
type Json = any;

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "streaming-many", wallets: 2 });
  await net.chain.seal();
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on" });
  await decodedTo(t.url, net.chain.lastMasterchain!.id.seqno, { timeoutMs: 60_000 });
  w1 = new LocalnetSender(net, net.genesis.wallets[1]!);
  w2 = new LocalnetSender(net, net.genesis.wallets[2]!);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await net?.close();
});

const heapMiB = () => {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

describe("1,000 subscribers, 10,000 addresses", () => {
  it("every subscriber gets every block and its transactions, and memory stays bounded", async () => {
    const url = `${t.url}/api/streaming/v2/sse`;
    const before = heapMiB();
    const wallets = [w1.address.toRawString(), w2.address.toRawString()];
    const clients: SseClient[] = [];
    for (let i = 0; i < 1000; i++) {
      const addresses = Array.from({ length: 10 }, (_, k) => `0:${(i * 10 + k + 1).toString(16).padStart(64, "0")}`);
      if (i % 100 === 0) addresses[0] = wallets[(i / 100) % 2]!;
      clients.push(await SseClient.open(url, { types: ["transactions", "blocks"], addresses }));
    }
    expect(clients.every((c) => c.status === 200)).toBe(true);
    await Promise.all(clients.map((c) => c.waitFor((e) => e.event === "connected", 60_000)));
    const connected = heapMiB();
    let lastHash = "";
    for (let i = 0; i < 5; i++) {
      const txs = await w1.send({ to: w2.address, value: toNano("0.01") });
      lastHash = txs.find((x) => x.address === BigInt(`0x${w1.address.hash.toString("hex")}`))!.hash().toString("base64");
      await net.chain.seal();
    }
    const last = net.chain.lastMasterchain!.id.seqno;
    const isLast = (e: { event: string; data: string }) => e.event === "event" && JSON.parse(e.data).type === "blocks" && JSON.parse(e.data).block.seqno === last;
    await Promise.all(clients.map((c) => c.waitFor(isLast, 60_000)));
    // the wallets' last transactions come once the decoder has classified their traces
    const lastTx = (e: { event: string; data: string }) => e.event === "event" && JSON.parse(e.data).type === "transactions" && JSON.parse(e.data).transactions.some((x: Json) => x.hash === lastHash);
    await Promise.all(clients.filter((_, i) => i % 200 === 0).map((c) => c.waitFor(lastTx, 60_000)));
    const blocks = (c: SseClient) => c.notifications().filter((n: Json) => n.type === "blocks").length;
    expect(clients.every((c) => blocks(c) >= 5)).toBe(true);
    const watchers = clients.filter((_, i) => i % 100 === 0);
    for (const c of watchers) expect(c.notifications().filter((n: Json) => n.type === "transactions").length).toBeGreaterThanOrEqual(5);
    const others = clients.filter((_, i) => i % 100 !== 0);
    expect(others.every((c) => c.notifications().every((n: Json) => n.type === "blocks"))).toBe(true);
    const loaded = heapMiB();
    for (const c of clients) c.close();
    await sleep(1000);
    console.log(`streaming-many: heap ${before.toFixed(0)} MiB before, ${connected.toFixed(0)} with 1,000 subscribers, ${loaded.toFixed(0)} after 5 blocks, ${heapMiB().toFixed(0)} closed (clients in the same process)`);
    // the clients' own buffers are in this process too: a bound, not a measurement (bench/RESULTS.md)
    expect(loaded - before).toBeLessThan(400);
  }, 180_000);
});
