// stream.events over NATS JetStream (--nats-url): tongate's services in one process on a localnet,
// publishing on a real nats-server, and a subscriber on its own connection. A transfer sent through
// sendBocReturnHash gives its trace pending, confirmed, finalized, in order; every masterchain block
// its BlockEvent, in order; and JetStream kept every event (no two of them share a message id, which
// it would drop as a duplicate).
import { Address, beginCell, external, internal, SendMode, storeMessage, toNano } from "@ton/core";
import { WalletContractV4, WalletContractV5R1 } from "@ton/ton";
import { fromBinary } from "@bufbuild/protobuf";
import type { Localnet } from "@tongate/localnet";
import { Finality } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { type StreamEvent, StreamEventSchema } from "@tongate/proto/gen/tongate/streaming/v1/events_pb.js";
import { streamEventsSubject } from "@tongate/proto/subjects.js";
import { type EventBus, openBus } from "@tongate/runtime";
import { afterAll, beforeAll, expect, it } from "vitest";
import { decodedTo, getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { startTestLocalnet } from "../support/localnet.js";
import { hasNats, type NatsServer, startNatsServer } from "../support/nats.js";

let nats: NatsServer;
let net: Localnet;
let t: Embedded;
let bus: EventBus;
const events: { seq: number; e: StreamEvent }[] = [];

beforeAll(async () => {
  if (!hasNats) return;
  nats = await startNatsServer();
  net = await startTestLocalnet({ seed: "stream-events-nats", wallets: 2 });
  await net.chain.seal();
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on", "nats-url": nats.url });
  await decodedTo(t.url, net.chain.lastMasterchain!.id.seqno, { timeoutMs: 60_000 });
  bus = await openBus({ natsUrl: nats.url });
  await bus.subscribe(streamEventsSubject("localnet"), (m) => void events.push({ seq: m.seq, e: fromBinary(StreamEventSchema, m.data) }));
}, 120_000);

afterAll(async () => {
  await bus?.close();
  await t?.close();
  await net?.close();
  await nats?.stop();
});

async function until<T>(what: string, f: () => T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

it.skipIf(!hasNats)("a transfer's trace pending, confirmed, finalized, and every block, over JetStream", async () => {
  const g = net.genesis.wallets[2]!;
  const publicKey = g.keyPair.publicKey;
  const contract = g.version === "v4r2" ? WalletContractV4.create({ workchain: 0, publicKey }) : WalletContractV5R1.create({ workchain: 0, publicKey, walletId: { networkGlobalId: net.genesis.globalId } });
  const seqno = Number((await getJson(`${t.url}/api/v2/getWalletInformation?address=${contract.address.toString()}`)).body.result.seqno ?? 0);
  const transfer = { seqno, secretKey: g.keyPair.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, timeout: net.now() + 60, messages: [internal({ to: new Address(0, Buffer.alloc(32, 0x5a)), value: toNano("0.1"), bounce: false })] };
  const body = contract instanceof WalletContractV4 ? contract.createTransfer(transfer) : contract.createTransfer(transfer);
  const boc = beginCell().store(storeMessage(external({ to: contract.address, body }))).endCell().toBoc().toString("base64");
  const firstBlock = net.chain.lastMasterchain!.id.seqno + 1;
  const sent = await fetch(`${t.url}/api/v2/sendBocReturnHash`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ boc }) });
  expect(sent.status).toBe(200);
  const norm = ((await sent.json()) as { result: { hash_norm: string } }).result.hash_norm;
  const traces = () => events.flatMap(({ e }) => (e.event.case === "trace" && e.event.value.traceExternalHashNorm === norm ? [e.event.value.finality] : []));

  await until("the pending trace", () => (traces().length > 0 ? true : undefined));
  net.chain.pendingWindowMs = 3000;
  await net.chain.seal();
  net.chain.pendingWindowMs = 0;
  await net.chain.seal();
  await until("the finalized trace", () => (traces().includes(Finality.FINALIZED) ? true : undefined), 60_000);
  expect(traces()).toEqual([Finality.PENDING, Finality.CONFIRMED, Finality.FINALIZED]);

  const last = net.chain.lastMasterchain!.id.seqno;
  const blocks = await until("every block", () => {
    const b = events.flatMap(({ e }) => (e.event.case === "block" && e.event.value.mcSeqno >= firstBlock ? [e.event.value.mcSeqno] : []));
    return b.length >= last - firstBlock + 1 ? b : undefined;
  });
  expect(blocks).toEqual(Array.from({ length: last - firstBlock + 1 }, (_, i) => firstBlock + i));
  // the sender's finalized state came with its block (its id is the block's, not the blocks.indexed event's)
  const sender = contract.address.toRawString().toUpperCase();
  expect(events.some(({ e }) => e.event.case === "accountState" && e.event.value.account === sender && e.event.value.finality === Finality.FINALIZED)).toBe(true);
  expect(events.every((x, i) => i === 0 || x.seq > events[i - 1]!.seq)).toBe(true);
}, 90_000);
