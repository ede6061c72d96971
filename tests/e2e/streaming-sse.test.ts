// The Streaming API through the gateway, embedded on a localnet: a jetton transfer sent through
// sendBocReturnHash reaches an SSE subscriber to the sender as its jetton transfer action, pending,
// then confirmed, then finalized, in that order; the finalized actions are /api/v3/actions' for the
// trace; a reconnect with Last-Event-ID resumes after it.
import { Address, beginCell, type Cell, external, internal, SendMode, storeMessage, toNano } from "@ton/core";
import { WalletContractV4, WalletContractV5R1 } from "@ton/ton";
import { storeJettonTransfer, storeTextComment } from "@tongate/contracts";
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, expect, it } from "vitest";
import { decodedTo, getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { startTestLocalnet } from "../support/localnet.js";
import { actorsOf } from "../support/scenarios/chain.js";
import { jettonScenario, type JettonScenario } from "../support/scenarios/jettons.js";

type Json = any;
let net: Localnet;
let t: Embedded;
let jetton: JettonScenario;
const raw = (a: Address) => a.toRawString().toUpperCase();

interface SseEvent {
  id: string;
  event: string;
  data: Json;
}

/** An SSE connection read into `events` until aborted. */
function sse(body: unknown, headers: Record<string, string> = {}): { events: SseEvent[]; abort: AbortController; done: Promise<void> } {
  const events: SseEvent[] = [];
  const abort = new AbortController();
  const done = (async () => {
    const r = await fetch(`${t.url}/api/streaming/v2/sse`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body), signal: abort.signal });
    expect(r.headers.get("content-type")).toMatch(/text\/event-stream/);
    const decoder = new TextDecoder();
    let buf = "";
    for await (const chunk of r.body!) {
      buf += decoder.decode(chunk as Uint8Array, { stream: true });
      for (let i = buf.indexOf("\n\n"); i >= 0; i = buf.indexOf("\n\n")) {
        const frame = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const e: SseEvent = { id: "", event: "message", data: undefined };
        const data: string[] = [];
        for (const line of frame.split("\n")) {
          if (line.startsWith("id: ")) e.id = line.slice(4);
          else if (line.startsWith("event: ")) e.event = line.slice(7);
          else if (line.startsWith("data: ")) data.push(line.slice(6));
        }
        if (data.length) events.push({ ...e, data: JSON.parse(data.join("\n")) });
      }
    }
  })().catch((e: unknown) => {
    if (!abort.signal.aborted) throw e;
  });
  return { events, abort, done };
}

async function until<T>(what: string, f: () => T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "streaming-sse", wallets: 3 });
  jetton = await jettonScenario(net, actorsOf(net), "legacy");
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on" });
  await decodedTo(t.url, net.chain.lastMasterchain!.id.seqno, { timeoutMs: 120_000 });
}, 180_000);

afterAll(async () => {
  await t?.close();
  await net?.close();
});

function walletOf(index: number): WalletContractV4 | WalletContractV5R1 {
  const g = net.genesis.wallets[index]!;
  const publicKey = g.keyPair.publicKey;
  return g.version === "v4r2" ? WalletContractV4.create({ workchain: 0, publicKey }) : WalletContractV5R1.create({ workchain: 0, publicKey, walletId: { networkGlobalId: net.genesis.globalId } });
}

async function signed(index: number, messages: ReturnType<typeof internal>[]): Promise<{ boc: string; wallet: Address }> {
  const g = net.genesis.wallets[index]!;
  const publicKey = g.keyPair.publicKey;
  const contract = g.version === "v4r2" ? WalletContractV4.create({ workchain: 0, publicKey }) : WalletContractV5R1.create({ workchain: 0, publicKey, walletId: { networkGlobalId: net.genesis.globalId } });
  const r = await getJson(`${t.url}/api/v2/getWalletInformation?address=${contract.address.toString()}`);
  const transfer = { seqno: Number(r.body.result.seqno ?? 0), secretKey: g.keyPair.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, timeout: net.now() + 60, messages };
  const body: Cell = contract instanceof WalletContractV4 ? contract.createTransfer(transfer) : contract.createTransfer(transfer);
  return { boc: beginCell().store(storeMessage(external({ to: contract.address, body }))).endCell().toBoc().toString("base64"), wallet: contract.address };
}

it("a jetton transfer: its action pending, confirmed, finalized over SSE; the finalized actions are /api/v3/actions'; Last-Event-ID resumes", async () => {
  const aliceWallet = jetton.wallets[0]!;
  const bobOwner = jetton.wallets[1]!.owner!;
  const body = beginCell()
    .store(storeJettonTransfer({ queryId: 77n, amount: 1_000n, destination: bobOwner, responseDestination: aliceWallet.owner!, customPayload: null, forwardTonAmount: toNano("0.01"), forwardPayload: { cell: beginCell().store(storeTextComment({ text: "streamed" })).endCell(), inRef: false } }))
    .endCell();
  // the owner of alice's jetton wallet sends
  const owner = net.genesis.wallets.findIndex((_, i) => walletOf(i).address.equals(aliceWallet.owner!));
  expect(owner).toBeGreaterThanOrEqual(0);
  const { boc, wallet } = await signed(owner, [internal({ to: aliceWallet.address, value: toNano("0.2"), bounce: true, body })]);
  const s = sse({ types: ["actions", "transactions"], addresses: [wallet.toString()], min_finality: "pending" });
  await until("connected", () => s.events[0]);
  expect(s.events[0]).toMatchObject({ event: "connected", data: { status: "subscribed" } });

  const sent = await fetch(`${t.url}/api/v2/sendBocReturnHash`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ boc }) });
  const norm = ((await sent.json()) as Json).result.hash_norm as string;
  const actionsOf = () => s.events.filter((e) => e.data.type === "actions" && e.data.trace_external_hash_norm === norm);
  await until("the pending action", () => actionsOf().length > 0 || undefined);
  net.chain.pendingWindowMs = 3000;
  await net.chain.seal();
  net.chain.pendingWindowMs = 0;
  await net.chain.seal();
  const finalized = await until("the finalized actions", () => actionsOf().find((e) => e.data.finality === "finalized"), 60_000);
  expect(actionsOf().map((e) => e.data.finality)).toEqual(["pending", "confirmed", "finalized"]);
  for (const e of actionsOf()) expect(e.data.actions.map((a: Json) => a.type)).toContain("jetton_transfer");
  const transfer = finalized.data.actions.find((a: Json) => a.type === "jetton_transfer");
  expect(transfer.accounts).toEqual(expect.arrayContaining([raw(wallet)]));
  const v3 = (await getJson(`${t.url}/api/v3/actions?trace_id=${encodeURIComponent(transfer.trace_id)}&include_accounts=true`)).body.actions as Json[];
  const visible = v3.filter((a) => a.accounts.includes(raw(wallet)));
  expect([...finalized.data.actions].sort((a: Json, b: Json) => (a.action_id < b.action_id ? -1 : 1))).toEqual(visible.sort((a, b) => (a.action_id < b.action_id ? -1 : 1)));

  // resume after the pending action: the rest again, in order, from the bus's history
  const pendingId = actionsOf()[0]!.id;
  const after = s.events.slice(s.events.findIndex((e) => e.id === pendingId) + 1).filter((e) => e.id !== "");
  s.abort.abort();
  await s.done;
  const r = sse({ types: ["actions", "transactions"], addresses: [raw(wallet)], min_finality: "pending" }, { "Last-Event-ID": pendingId });
  await until("the replay", () => (r.events.length >= after.length + 1 ? true : undefined));
  expect(r.events.slice(1, after.length + 1).map((e) => [e.id, e.data])).toEqual(after.map((e) => [e.id, e.data]));
  r.abort.abort();
  await r.done;
}, 120_000);
