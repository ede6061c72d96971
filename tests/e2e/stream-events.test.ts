// The Streaming API's events on the bus (stream.events), as the indexer renders them from what the
// send service, the decoder and the indexer publish — read on the process's own bus while tongate
// runs embedded on a localnet. A jetton transfer sent through sendBocReturnHash gives its trace
// pending, then confirmed, then finalized; the finalized trace carries the actions /api/v3/actions
// gives for it and the transactions /api/v3/transactions gives; account states and the jetton
// wallets follow; every block has its BlockEvent equal to /api/v3/blocks; finality never goes back
// and a trace that does not render is skipped; a transfer the chain cannot run as emulated is
// invalidated.
import { Address, beginCell, type Cell, external, internal, SendMode, storeMessage, toNano } from "@ton/core";
import { WalletContractV4, WalletContractV5R1 } from "@ton/ton";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { actionFromJson, type ActionJson } from "@tongate/actions";
import { storeJettonTransfer, storeTextComment } from "@tongate/contracts";
import type { Localnet } from "@tongate/localnet";
import { Finality, type PendingTraceChanged, PendingTraceChangedSchema } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { type StreamEvent, StreamEventSchema } from "@tongate/proto/gen/tongate/streaming/v1/events_pb.js";
import { pendingTracesSubject, streamEventsSubject } from "@tongate/proto/subjects.js";
import { busKey, InProcessBus, provide, type PublishOptions } from "@tongate/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodedTo, getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { startTestLocalnet } from "../support/localnet.js";
import { actorsOf } from "../support/scenarios/chain.js";
import { jettonScenario, type JettonScenario } from "../support/scenarios/jettons.js";

type Json = any;
let net: Localnet;
let t: Embedded;
let jetton: JettonScenario;
/** every message id published, as JetStream's one stream of all subjects would deduplicate them */
const ids: string[] = [];
class RecordingBus extends InProcessBus {
  override publish(subject: string, data: Uint8Array, o?: PublishOptions): Promise<void> {
    ids.push(o?.id ?? `no id on ${subject}`);
    return super.publish(subject, data);
  }
}
const bus = new RecordingBus();
const events: { seq: number; e: StreamEvent }[] = [];
/** what the send service published (pending.traces), to play a late one again */
const changes: { data: Uint8Array; e: PendingTraceChanged }[] = [];
const raw = (a: Address) => a.toRawString().toUpperCase();

async function v3(path: string): Promise<Json> {
  const r = await getJson(`${t.url}/api/v3/${path}`);
  expect(r.status, `${path}: ${JSON.stringify(r.body).slice(0, 300)}`).toBe(200);
  return r.body;
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

const traces = (norm: string) => events.flatMap(({ e }) => (e.event.case === "trace" && e.event.value.traceExternalHashNorm === norm ? [e.event.value] : []));

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "stream-events", wallets: 3 });
  jetton = await jettonScenario(net, actorsOf(net), "legacy");
  await bus.subscribe(streamEventsSubject("localnet"), (m) => void events.push({ seq: m.seq, e: fromBinary(StreamEventSchema, m.data) }));
  await bus.subscribe(pendingTracesSubject("localnet"), (m) => void changes.push({ data: m.data, e: fromBinary(PendingTraceChangedSchema, m.data) }));
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on" }, {}, [provide(busKey, () => bus)]);
  await decodedTo(t.url, net.chain.lastMasterchain!.id.seqno, { timeoutMs: 120_000 });
}, 180_000);

afterAll(async () => {
  await t?.close();
  await net?.close();
});

/** A genesis wallet's signed external message carrying `messages`, as a base64 BoC. */
async function signed(index: number, messages: ReturnType<typeof internal>[], seqno?: number): Promise<{ boc: string; wallet: Address }> {
  const g = net.genesis.wallets[index]!;
  const publicKey = g.keyPair.publicKey;
  const contract = g.version === "v4r2" ? WalletContractV4.create({ workchain: 0, publicKey }) : WalletContractV5R1.create({ workchain: 0, publicKey, walletId: { networkGlobalId: net.genesis.globalId } });
  const r = await getJson(`${t.url}/api/v2/getWalletInformation?address=${contract.address.toString()}`);
  const transfer = { seqno: seqno ?? Number(r.body.result.seqno ?? 0), secretKey: g.keyPair.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, timeout: net.now() + 60, messages };
  const body: Cell = contract instanceof WalletContractV4 ? contract.createTransfer(transfer) : contract.createTransfer(transfer);
  return { boc: beginCell().store(storeMessage(external({ to: contract.address, body }))).endCell().toBoc().toString("base64"), wallet: contract.address };
}

async function sendReturnHash(boc: string): Promise<{ hash: string; hash_norm: string }> {
  const sent = await fetch(`${t.url}/api/v2/sendBocReturnHash`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ boc }) });
  expect(sent.status).toBe(200);
  return ((await sent.json()) as { result: { hash: string; hash_norm: string } }).result;
}

describe("stream.events", () => {
  it("a jetton transfer: its trace pending, confirmed, finalized in order; actions, transactions, account states and jetton wallets as API v3 shows them; a BlockEvent per block", async () => {
    const aliceWallet = jetton.wallets[0]!;
    const bobOwner = jetton.wallets[1]!.owner!;
    const firstBlock = net.chain.lastMasterchain!.id.seqno + 1;
    const body = beginCell()
      .store(storeJettonTransfer({ queryId: 4242n, amount: 1_000n, destination: bobOwner, responseDestination: aliceWallet.owner!, customPayload: null, forwardTonAmount: toNano("0.01"), forwardPayload: { cell: beginCell().store(storeTextComment({ text: "streamed" })).endCell(), inRef: false } }))
      .endCell();
    const { boc, wallet } = await signed(2, [internal({ to: aliceWallet.address, value: toNano("0.2"), bounce: true, body })]);
    const { hash_norm: norm } = await sendReturnHash(boc);
    const pendingEvent = await until("the pending trace", () => traces(norm)[0]);
    // its transactions are /api/v3/pendingTransactions' (the same JSON), newest first
    const pendingTxs = (await v3(`pendingTransactions?trace_id=${encodeURIComponent(pendingEvent.traceId)}`)).transactions as Json[];
    expect(pendingEvent.transactions.map((x) => JSON.parse(x.json))).toEqual([...pendingTxs].reverse());
    net.chain.pendingWindowMs = 3000;
    await net.chain.seal();
    net.chain.pendingWindowMs = 0;
    await net.chain.seal();
    const finalized = await until("the finalized trace", () => traces(norm).find((x) => x.finality === Finality.FINALIZED), 60_000);
    expect(traces(norm).map((x) => x.finality)).toEqual([Finality.PENDING, Finality.CONFIRMED, Finality.FINALIZED]);
    const pending = traces(norm)[0]!;
    const types = (x: typeof pending) => x.actions.map((a) => actionFromJson(JSON.parse(a.rowJson) as ActionJson).type);
    expect(types(pending)).toContain("jetton_transfer");

    // the finalized trace's actions are the decoder's: /api/v3/actions of the trace
    const actions = (await v3(`actions?trace_id=${encodeURIComponent(finalized.traceId)}&supported_action_types=latest`)).actions as Json[];
    const rows = finalized.actions.map((a) => actionFromJson(JSON.parse(a.rowJson) as ActionJson));
    expect(rows.map((r) => r.action_id).sort()).toEqual(actions.map((a) => a.action_id).sort());
    expect(rows.find((r) => r.type === "jetton_transfer")?.accounts).toEqual(expect.arrayContaining([raw(wallet), raw(aliceWallet.address)]));
    // its transactions, newest first, are /api/v3/transactions' (the same JSON)
    const lts = finalized.transactions.map((x) => BigInt(JSON.parse(x.json).lt));
    expect(lts).toEqual([...lts].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    for (const x of finalized.transactions) {
      const tx = JSON.parse(x.json);
      expect(x.account).toBe(tx.account);
      expect((await v3(`transactions?hash=${encodeURIComponent(tx.hash)}`)).transactions[0]).toEqual(tx);
    }
    expect(JSON.parse(finalized.traceJson).tx_hash).toBe(finalized.traceId);
    expect(Object.keys(finalized.addressBookJson)).toEqual(expect.arrayContaining([raw(wallet), raw(aliceWallet.address)]));

    // the sender's finalized account state; alice's jetton wallet as /jetton/wallets shows it
    const states = (f: Finality) => events.flatMap(({ e }) => (e.event.case === "accountState" && e.event.value.account === raw(wallet) && e.event.value.finality === f ? [JSON.parse(e.event.value.stateJson)] : []));
    // a confirmed state is told only when the emulation left exactly the chain's state (the same
    // hash): the sender's real transaction ran at another time (other storage fees) than emulated
    for (const c of states(Finality.CONFIRMED)) expect(c.balance).not.toBe("0");
    const account = (await v3(`accountStates?address=${raw(wallet)}&include_boc=false`)).accounts[0];
    expect(states(Finality.FINALIZED).at(-1)).toEqual({ hash: account.account_state_hash, balance: account.balance, account_status: account.status, data_hash: account.data_hash, code_hash: account.code_hash });
    const jettonEvent = await until("alice's jetton wallet", () =>
      events.flatMap(({ e }) => (e.event.case === "jettons" && e.event.value.address === raw(aliceWallet.address) ? [e.event.value] : [])).at(-1),
    );
    const w = (await v3(`jetton/wallets?address=${raw(aliceWallet.address)}`)).jetton_wallets[0];
    expect(JSON.parse(jettonEvent.jettonJson)).toEqual({ address: w.address, balance: w.balance, owner: w.owner, jetton: w.jetton, last_transaction_lt: w.last_transaction_lt });
    expect(jettonEvent.owner).toBe(raw(aliceWallet.owner!));

    // one BlockEvent per masterchain block, in order, as /api/v3/blocks renders it
    const last = net.chain.lastMasterchain!.id.seqno;
    const blocks = await until("every block", () => {
      const b = events.flatMap(({ e }) => (e.event.case === "block" && e.event.value.mcSeqno >= firstBlock ? [e.event.value] : []));
      return b.length >= last - firstBlock + 1 ? b : undefined;
    });
    expect(blocks.map((b) => b.mcSeqno)).toEqual(Array.from({ length: last - firstBlock + 1 }, (_, i) => firstBlock + i));
    const mc = (await v3(`blocks?workchain=-1&seqno=${last}`)).blocks[0];
    expect(JSON.parse(blocks.at(-1)!.blockJson)).toEqual(mc);
    expect(blocks.at(-1)!.shardBlocksJson.length).toBeGreaterThan(0);
    // each bus event once: sequence numbers grow; every message has an id of its own (JetStream
    // would drop a second message of an id it has seen)
    expect(events.every((x, i) => i === 0 || x.seq > events[i - 1]!.seq)).toBe(true);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);

    // finality only grows: the confirmed change played again after the trace is finalized, and an
    // invalidation of it, are dropped (the renderer handles its inputs in order: the next block's
    // event says it has seen them)
    const confirmedChange = changes.find((c) => c.e.trace && Buffer.from(c.e.externalHashNorm).toString("base64") === norm && c.e.trace.finality === Finality.CONFIRMED)!;
    expect(confirmedChange).toBeDefined();
    const seen = events.length;
    await bus.publish(pendingTracesSubject("localnet"), confirmedChange.data);
    await bus.publish(pendingTracesSubject("localnet"), toBinary(PendingTraceChangedSchema, create(PendingTraceChangedSchema, { invalidated: true, externalHashNorm: confirmedChange.e.externalHashNorm, reason: "late" })));
    // a trace that does not render (a transaction that is not a BoC) is skipped; what follows goes on
    const broken = create(PendingTraceChangedSchema, { externalHashNorm: new Uint8Array(32).fill(7), trace: { externalHashNorm: new Uint8Array(32).fill(7), finality: Finality.PENDING, transactions: [{ boc: "not a boc" }] } });
    await bus.publish(pendingTracesSubject("localnet"), toBinary(PendingTraceChangedSchema, broken));
    await net.chain.seal();
    const next = net.chain.lastMasterchain!.id.seqno;
    await until("the next block", () => events.slice(seen).some(({ e }) => e.event.case === "block" && e.event.value.mcSeqno === next) || undefined);
    const brokenNorm = Buffer.alloc(32, 7).toString("base64");
    expect(events.slice(seen).filter(({ e }) => (e.event.case === "trace" || e.event.case === "invalidated") && [norm, brokenNorm].includes(e.event.value.traceExternalHashNorm))).toEqual([]);
  }, 120_000);

  it("a transfer the chain cannot run as emulated: TraceInvalidated", async () => {
    // two transfers of one seqno: both are emulated, only the first can land
    const a = await signed(1, [internal({ to: new Address(0, Buffer.alloc(32, 0x71)), value: toNano("0.05"), bounce: false })]);
    const seqno = Number((await getJson(`${t.url}/api/v2/getWalletInformation?address=${a.wallet.toString()}`)).body.result.seqno);
    const b = await signed(1, [internal({ to: new Address(0, Buffer.alloc(32, 0x72)), value: toNano("0.05"), bounce: false })], seqno);
    const ha = await sendReturnHash(a.boc);
    const hb = await sendReturnHash(b.boc);
    await until("both pending", () => (traces(ha.hash_norm).length > 0 && traces(hb.hash_norm).length > 0) || undefined);
    net.chain.pendingWindowMs = 3000;
    await net.chain.seal();
    net.chain.pendingWindowMs = 0;
    // whichever of the two the chain took first is confirmed, the other invalidated
    const invalidated = (norm: string) => events.some(({ e }) => e.event.case === "invalidated" && e.event.value.traceExternalHashNorm === norm);

    await until("the invalidation", () => invalidated(ha.hash_norm) || invalidated(hb.hash_norm) || undefined);
    const [lost, landed] = invalidated(hb.hash_norm) ? [hb, ha] : [ha, hb];
    expect(invalidated(landed.hash_norm)).toBe(false);
    expect(traces(lost.hash_norm).map((x) => x.finality)).toEqual([Finality.PENDING]);
  }, 60_000);
});
