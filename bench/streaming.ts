// Benchmark: the Streaming API on a localnet, tongate embedded as `tongate start` runs it (the
// localnet's liteserver on loopback, the indexer and decoder on chDB, the gateway on HTTP), the SSE
// clients in this process too (so every figure includes their parsing on the same 2 cores).
//   1. block sealed → its `finalized` transactions event at an SSE client (BENCH_BLOCKS blocks);
//   2. sendBocReturnHash returning → the `pending` event (BENCH_MESSAGES transfers);
//   3. BENCH_SUBSCRIBERS SSE subscribers with BENCH_ADDRESSES addresses in all, every one on
//      "blocks" and a few on the busy wallets: notifications delivered per second and the process's
//      memory, against one subscriber on the same traffic (the baseline of the same run).
//   npm run bench:streaming
import { Address, beginCell, external, internal, SendMode, storeMessage, toNano } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { buildShardState, localnetProofs, Localnet } from "@tongate/localnet";
import { installSpeedShims } from "@tongate/ton";
import { decodedTo, startEmbedded } from "../tests/support/embedded.js";
import { LocalnetSender } from "../tests/support/localnet-deploy.js";
import { SseClient } from "../tests/support/stream-client.js";

installSpeedShims();

const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 60);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100);
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const ADDRESSES = Number(process.env.BENCH_ADDRESSES ?? 10_000);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 20);

/** A notification's JSON, read field by field. */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;
const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
const memory = () => {
  globalThis.gc?.();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
};

const net = await Localnet.start({ seed: "bench-streaming", wallets: 2, listen: [{ host: "127.0.0.1", port: 0 }], buildState: buildShardState, proofs: localnetProofs, emulator: { size: 1 } });
await net.chain.seal();
const t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on", "emulator-processes": "1" });
await decodedTo(t.url, net.chain.lastMasterchain!.id.seqno, { timeoutMs: 120_000 });
const sse = `${t.url}/api/streaming/v2/sse`;
const w1 = new LocalnetSender(net, net.genesis.wallets[1]!);
const w2 = new LocalnetSender(net, net.genesis.wallets[2]!);
const raw = (a: Address) => a.toRawString().toUpperCase();
console.log(`bench:streaming on ${t.url}: ${BLOCKS} blocks, ${MESSAGES} messages, ${SUBSCRIBERS} subscribers / ${ADDRESSES} addresses`);

// 1. sealed → finalized
{
  const sub = await SseClient.open(sse, { types: ["transactions", "blocks"], addresses: [raw(w1.address)] });
  await sub.waitFor((e) => e.event === "connected");
  const lat: number[] = [];
  const blockLat: number[] = [];
  const w1Account = BigInt(`0x${w1.address.hash.toString("hex")}`);
  for (let i = 0; i < BLOCKS + 3; i++) {
    const from = sub.events.length;
    // the sender seals the block that carries the transfer: t0 is when the block exists
    const txs = await w1.send({ to: w2.address, value: toNano("0.01") });
    const t0 = performance.now();
    const hash = txs.find((x) => x.address === w1Account)!.hash().toString("base64");
    const seqno = net.chain.lastMasterchain!.id.seqno;
    const block = sub.waitFor((e) => e.event === "event" && (JSON.parse(e.data) as Json).type === "blocks" && (JSON.parse(e.data) as Json).block.seqno === seqno, 30_000, from).then(() => performance.now() - t0);
    await sub.waitFor((e) => e.event === "event" && (JSON.parse(e.data) as Json).type === "transactions" && (JSON.parse(e.data) as Json).transactions.some((x: Json) => x.hash === hash), 30_000, from);
    // the first blocks warm the decoder and the renderer
    if (i >= 3) {
      lat.push(performance.now() - t0);
      blockLat.push(await block);
    }
    await sleep(50);
  }
  sub.close();
  console.log(`block sealed → finalized transactions event at an SSE client (${lat.length} blocks): p50 ${ms(pct(lat, 50))}, p99 ${ms(pct(lat, 99))}, max ${ms(Math.max(...lat))}`);
  console.log(`  of which block sealed → its blocks event (indexed, before the decoder): p50 ${ms(pct(blockLat, 50))}, p99 ${ms(pct(blockLat, 99))}`);
}

// 2. sendBocReturnHash → pending
{
  const g = net.genesis.wallets[0]!;
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: g.keyPair.publicKey });
  const info = (await (await fetch(`${t.url}/api/v2/getWalletInformation?address=${wallet.address.toString()}`)).json()) as Json;
  const seqno = Number(info.result.seqno ?? 0);
  const sub = await SseClient.open(sse, { types: ["transactions"], addresses: [raw(wallet.address)], min_finality: "pending" });
  await sub.waitFor((e) => e.event === "connected");
  const validUntil = Math.floor(Date.now() / 1000) + 3600;
  const lat: number[] = [];
  for (let i = 0; i < MESSAGES + 5; i++) {
    const to = new Address(0, Buffer.from((i + 1).toString(16).padStart(64, "0"), "hex"));
    const body = wallet.createTransfer({ seqno, timeout: validUntil, secretKey: g.keyPair.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [internal({ to, value: toNano("0.01"), bounce: false })] });
    const boc = beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell().toBoc().toString("base64");
    const r = await fetch(`${t.url}/api/v2/sendBocReturnHash`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ boc }) });
    const norm = ((await r.json()) as Json).result.hash_norm as string;
    const t0 = performance.now();
    await sub.waitFor((e) => e.event === "event" && (JSON.parse(e.data) as Json).trace_external_hash_norm === norm, 30_000);
    if (i >= 5) lat.push(performance.now() - t0); // the first emulations compile the contracts' code
  }
  sub.close();
  console.log(`sendBocReturnHash returned → pending transactions event (${lat.length} transfers): p50 ${ms(pct(lat, 50))}, p99 ${ms(pct(lat, 99))}, max ${ms(Math.max(...lat))}`);
}

// 3. many subscribers
async function load(subscribers: number): Promise<{ delivered: number; seconds: number; blocks: number; mem: { rss: number; heap: number }; idle: { rss: number; heap: number } }> {
  const perSub = Math.max(1, Math.floor(ADDRESSES / subscribers));
  const clients: SseClient[] = [];
  for (let i = 0; i < subscribers; i++) {
    const addresses = Array.from({ length: perSub }, (_, k) => `0:${(i * perSub + k + 1).toString(16).padStart(64, "0")}`);
    if (i % 100 === 0) addresses[0] = raw(i % 200 === 0 ? w1.address : w2.address);
    clients.push(await SseClient.open(sse, { types: ["transactions", "blocks"], addresses }));
  }
  await Promise.all(clients.map((c) => c.waitFor((e) => e.event === "connected", 60_000)));
  const idle = memory();
  const count = () => clients.reduce((n, c) => n + c.events.length, 0);
  const start = count();
  const t0 = performance.now();
  let blocks = 0;
  while (performance.now() - t0 < LOAD_SECONDS * 1000) {
    // two blocks with transfers every half second: a pace the indexer and the decoder keep on 2 cores
    await w1.send({ to: w2.address, value: toNano("0.01") });
    await w2.send({ to: w1.address, value: toNano("0.01") });
    blocks += 2;
    await sleep(500);
  }
  const last = net.chain.lastMasterchain!.id.seqno;
  await Promise.all(clients.map((c) => c.waitFor((e) => e.event === "event" && (JSON.parse(e.data) as Json).type === "blocks" && (JSON.parse(e.data) as Json).block.seqno === last, 180_000)));
  const seconds = (performance.now() - t0) / 1000;
  const delivered = count() - start;
  const mem = memory();
  for (const c of clients) c.close();
  await sleep(500);
  return { delivered, seconds, blocks, mem, idle };
}

const before = memory();
const one = await load(1);
const many = await load(SUBSCRIBERS);
const after = memory();
console.log(`1 subscriber: ${one.delivered} notifications in ${one.seconds.toFixed(1)} s (${one.blocks} blocks): ${(one.delivered / one.seconds).toFixed(1)}/s`);
console.log(
  `${SUBSCRIBERS} subscribers, ${ADDRESSES} addresses: ${many.delivered} notifications in ${many.seconds.toFixed(1)} s (${many.blocks} blocks): ${(many.delivered / many.seconds).toFixed(0)}/s delivered (${(many.delivered / many.seconds / (one.delivered / one.seconds)).toFixed(0)}× the single subscriber's)`,
);
console.log(`memory (rss / heap): before ${mib(before.rss)} / ${mib(before.heap)}; ${SUBSCRIBERS} connected and idle ${mib(many.idle.rss)} / ${mib(many.idle.heap)}; after the load ${mib(many.mem.rss)} / ${mib(many.mem.heap)}; all closed ${mib(after.rss)} / ${mib(after.heap)}`);

// closing the embedded host and the localnet ends the process (a close that waits on a client is not waited for)
setTimeout(() => process.exit(0), 10_000).unref();
await t.close();
await net.close();
process.exit(0);
