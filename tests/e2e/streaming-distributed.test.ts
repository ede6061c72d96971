// The Streaming API scaled out: `tongate serve` runs the services that know the chain (lite-proxy,
// send, the indexer and the decoder, publishing on a real nats-server), and two `tongate gateway`
// processes on the same NATS each host the streaming service. A subscriber on either sees the same
// events with the same ids, and a client cut from one resumes on the other with its last id.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toNano } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../bench/support/processes.js";
import { decodedTo } from "../support/embedded.js";
import { LocalnetSender } from "../support/localnet-deploy.js";
import { startTestLocalnet } from "../support/localnet.js";
import { hasNats, startNatsServer, type NatsServer } from "../support/nats.js";
import { SseClient, type SseEvent } from "../support/stream-client.js";
import { Tongates } from "../support/tongate.js";

const procs = new Tongates();
const dir = mkdtempSync(join(tmpdir(), "tongate-streaming-distributed-"));
let net: Localnet;
let nats: NatsServer;
let gateways: string[] = [];
let w1: LocalnetSender;
let w2: LocalnetSender;

beforeAll(async () => {
  if (!hasNats) return;
  net = await startTestLocalnet({ seed: "streaming-distributed", wallets: 2 });
  await net.chain.seal();
  nats = await startNatsServer();
  const globalConfig = join(dir, "global-config.json");
  writeFileSync(globalConfig, JSON.stringify(net.globalConfig()));
  const [grpc, metrics, g1, g2] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const services = ["lite-proxy", "send", "indexer", "decoder"];
  await procs.start(
    ["serve", ...services.flatMap((s) => ["--service", s]), "--global-config", globalConfig, "--nats-url", nats.url, "--listen", `127.0.0.1:${grpc}`, "--metrics-listen", `127.0.0.1:${metrics}`, "--metadata-fetch", "off"],
    /services listening/,
    90_000,
  );
  const upstreams = services.flatMap((s) => ["--upstream", `${s}=http://127.0.0.1:${grpc}`]);
  for (const port of [g1, g2]) {
    await procs.start(["gateway", ...upstreams, "--global-config", globalConfig, "--nats-url", nats.url, "--ratelimit", "off", "--host", "127.0.0.1", "--port", String(port)], /gateway listening/, 90_000);
  }
  gateways = [g1, g2].map((p) => `http://127.0.0.1:${p}`);
  w1 = new LocalnetSender(net, net.genesis.wallets[1]!);
  w2 = new LocalnetSender(net, net.genesis.wallets[2]!);
  await decodedTo(`http://127.0.0.1:${metrics}`, net.chain.lastMasterchain!.id.seqno, { timeoutMs: 60_000 }).catch(() => undefined);
}, 240_000);

afterAll(async () => {
  await procs.stop();
  await nats?.stop();
  await net?.close();
  rmSync(dir, { recursive: true, force: true });
});

const subscription = () => ({ types: ["transactions", "blocks"], addresses: [w1.address.toRawString(), w2.address.toRawString()] });
const events = (c: SseClient) => c.events.filter((e) => e.event === "event");
const key = (e: SseEvent) => `${e.id}|${e.data}`;

describe.runIf(hasNats)("two gateways on one NATS", () => {
  it("a subscriber on either sees the same events, and resumes on the other", async () => {
    const [a, b] = await Promise.all(gateways.map((g) => SseClient.open(`${g}/api/streaming/v2/sse`, subscription())));
    expect([a!.status, b!.status]).toEqual([200, 200]);
    await Promise.all([a!.waitFor((e) => e.event === "connected"), b!.waitFor((e) => e.event === "connected")]);
    const moving = await SseClient.open(`${gateways[0]}/api/streaming/v2/sse`, subscription());
    let lastHash = "";
    for (let i = 0; i < 6; i++) {
      await w1.send({ to: w2.address, value: toNano("0.02") });
      const txs = await w2.send({ to: w1.address, value: toNano("0.01") });
      lastHash = txs.find((x) => x.address === BigInt(`0x${w2.address.hash.toString("hex")}`))!.hash().toString("base64");
      await net.chain.seal();
      if (i === 2) {
        // cut from the first gateway, resumed on the second with the last id
        await moving.waitFor((e) => e.event === "event", 30_000);
        moving.close();
      }
    }
    const last = net.chain.lastMasterchain!.id.seqno;
    const isLast = (e: SseEvent) => e.event === "event" && JSON.parse(e.data).type === "blocks" && JSON.parse(e.data).block.seqno === last;
    // the block comes at once (the indexer), its traces once the decoder has classified them
    const lastTx = (e: SseEvent) => e.event === "event" && JSON.parse(e.data).type === "transactions" && JSON.parse(e.data).transactions.some((x: { hash: string }) => x.hash === lastHash);
    await Promise.all([a!.waitFor(isLast, 60_000), b!.waitFor(isLast, 60_000)]);
    const [ea] = await Promise.all([a!.waitFor(lastTx, 60_000), b!.waitFor(lastTx, 60_000)]);
    const upTo = (list: SseEvent[]) => list.slice(0, list.findIndex((e) => e.id === ea!.id) + 1);
    expect(upTo(events(a!)).map(key)).toEqual(upTo(events(b!)).map(key));
    expect(upTo(events(a!)).filter((e) => JSON.parse(e.data).type === "transactions").length).toBeGreaterThanOrEqual(12);

    const before = events(moving);
    const resumed = await SseClient.open(`${gateways[1]}/api/streaming/v2/sse`, subscription(), { "Last-Event-ID": before.at(-1)!.id! });
    await resumed.waitFor((e) => e.id === ea.id, 30_000);
    const union = [...before, ...events(resumed)];
    const all = events(a!);
    const from = all.findIndex((e) => e.id === union[0]!.id);
    expect(union.map(key)).toEqual(all.slice(from, all.findIndex((e) => e.id === ea.id) + 1).map(key));
    for (const c of [a!, b!, resumed]) c.close();
  }, 180_000);
});
