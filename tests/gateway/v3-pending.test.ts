// API v3's pending endpoints and the Emulate API: how they render what the send service returns.
// A localnet's transfers (a comment, a bounce) are indexed and classified by tongate in this process;
// the same transactions, taken from the localnet as their BoCs and made into the send service's
// PendingTraces (tongate.send.v1.Pending's messages), render as /pendingTransactions,
// /pendingTraces, /pendingActions and emulateTrace answer them: valid against v3.yaml and equal to
// /transactions, /traces and /actions for the same transactions apart from emulated, finality and
// the block. Over HTTP: the parameters' 422s, and 1,000 malformed emulateTrace bodies answered 4xx
// with the reason while the gateway keeps serving.
import { create, type DescMessage } from "@bufbuild/protobuf";
import { Address, beginCell, Cell, external, internal, SendMode, storeMessage, toNano, type Transaction as ChainTransaction } from "@ton/core";
import { TonClient, WalletContractV4 } from "@ton/ton";
import { actionToJson, classifyTrace, MapInterfaceLookup, type TraceInput, type TraceMessage, type TraceTransaction } from "@tongate/actions";
import { emulatedTraceOf, pendingActionsOf, pendingSource, pendingTraceOf, traceTransactions } from "@tongate/indexer";
import type { Localnet } from "@tongate/localnet";
import { EmulateTraceResponseSchema } from "@tongate/proto/gen/tongate/emulate/v1/emulate_pb.js";
import { AccountStateSummarySchema, Finality, type PendingTrace, PendingTraceSchema, PendingTransactionSchema } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { ActionsResponseSchema, TracesResponseSchema } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import { TransactionsResponseSchema } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { renderMessage } from "@tongate/proto/json/render.js";
import { httpStatusOf } from "@tongate/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, postJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { bocText, hostileBoc, hostileBodyBytes, hostileValue, pick, weighted } from "../support/hostile.js";
import { LocalnetSender } from "../support/localnet-deploy.js";
import { startTestLocalnet } from "../support/localnet.js";
import { rng } from "../support/rng.js";
import { v3Parameters, v3ResponseErrors } from "../support/v3-schema.js";

let net: Localnet;
let t: Embedded;
let sender: LocalnetSender;
const alice = new Address(0, Buffer.alloc(32, 0xa1));
const bob = new Address(0, Buffer.alloc(32, 0xb0)); // never deployed: a bounceable transfer bounces back
const raw = (a: Address) => `${a.workChain}:${a.hash.toString("hex").toUpperCase()}`;

/** The transaction cells the localnet made, by hash (base64). */
const cells = new Map<string, Cell>();
/** An internal message the localnet delivered (the comment's), as a BoC. */
let internalBoc = "";
const roots = { comment: "", bounce: "" };

type Json = any;

async function v3(path: string): Promise<Json> {
  const r = await getJson(`${t.url}/api/v3/${path}`);
  expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body;
}

/** A rendered answer as the gateway writes it, checked against v3.yaml's schema of `path`. */
function rendered(path: string, desc: DescMessage, msg: Record<string, unknown>): Json {
  const body = JSON.parse(JSON.stringify(renderMessage(desc, msg)));
  expect(v3ResponseErrors(path, body), path).toBeNull();
  return body;
}

const rootOf = (txs: ChainTransaction[], wallet: Address) =>
  txs.find((x) => x.inMessage?.info.type === "external-in" && x.address === BigInt("0x" + wallet.hash.toString("hex")))!.hash().toString("base64");

/** The indexed trace, read back through /traces. */
async function indexedTrace(traceId: string): Promise<Json> {
  const { traces } = await v3(`traces?trace_id=${encodeURIComponent(traceId)}`);
  expect(traces).toHaveLength(1);
  return traces[0];
}

/**
 * A v3 account_state_before/after as the send service's summary of it; none where the index shows
 * only the hash (it keeps no state between two transactions of an account in one block).
 */
function summary(s: Json) {
  if (s.account_status === undefined) return undefined;
  const bytes = (b64: string | undefined) => (b64 ? Buffer.from(b64, "base64") : new Uint8Array());
  return create(AccountStateSummarySchema, {
    hash: bytes(s.hash),
    balance: BigInt(s.balance ?? 0),
    status: s.account_status,
    codeHash: bytes(s.code_hash),
    dataHash: bytes(s.data_hash),
    frozenHash: bytes(s.frozen_hash),
  });
}

/** What the classifier reads of a trace, from its transactions as v3 renders them. */
function traceInputOf(trace: Json): TraceInput {
  const big = (v: string | null | undefined) => (v === null || v === undefined ? null : BigInt(v));
  const message = (m: Json): TraceMessage => ({
    hash: m.hash,
    hashNorm: m.hash_norm ?? null,
    source: m.source ?? null,
    destination: m.destination ?? null,
    value: big(m.value),
    valueExtraCurrencies: null,
    fwdFee: big(m.fwd_fee),
    ihrFee: big(m.ihr_fee),
    importFee: big(m.import_fee),
    createdLt: big(m.created_lt),
    createdAt: m.created_at === undefined ? null : Number(m.created_at),
    opcode: m.opcode === undefined ? null : Number(BigInt.asIntN(32, BigInt(m.opcode))),
    bounce: m.bounce ?? null,
    bounced: m.bounced ?? null,
    body: m.message_content.body,
    bodyHash: m.message_content.hash,
    initState: m.init_state?.body ?? null,
    initStateHash: m.init_state?.hash ?? null,
  });
  const txs: TraceTransaction[] = trace.transactions_order.map((h: string) => {
    const x = trace.transactions[h];
    const d = x.description;
    return {
      hash: x.hash,
      lt: BigInt(x.lt),
      account: x.account,
      now: x.now,
      mcBlockSeqno: x.mc_block_seqno,
      origStatus: x.orig_status,
      endStatus: x.end_status,
      totalFees: BigInt(x.total_fees),
      descr: d.type,
      aborted: d.aborted ?? false,
      destroyed: d.destroyed ?? false,
      isTock: d.is_tock ?? null,
      computeExitCode: d.compute_ph?.skipped === false ? (d.compute_ph.exit_code ?? null) : null,
      computeSkipped: d.compute_ph?.skipped === true,
      computeSkipReason: d.compute_ph?.reason ?? null,
      actionResultCode: d.action?.result_code ?? null,
      bounce: d.bounce?.type ?? null,
      inMsg: x.in_msg ? message(x.in_msg) : null,
      outMsgs: x.out_msgs.map(message),
    } satisfies TraceTransaction;
  });
  const root = txs[0]!;
  return {
    traceId: trace.trace_id,
    externalHash: trace.external_hash ?? null,
    externalHashNorm: root.inMsg?.hashNorm ?? null,
    mcSeqnoStart: Number(trace.mc_seqno_start),
    mcSeqnoEnd: Number(trace.mc_seqno_end),
    startLt: BigInt(trace.start_lt),
    endLt: BigInt(trace.end_lt),
    startUtime: trace.start_utime,
    endUtime: trace.end_utime,
    transactions: txs,
  };
}

/**
 * The send service's PendingTrace of an indexed trace: its transactions as the localnet's BoCs, the
 * states around them, its actions as the classifier makes them.
 */
function pendingOf(trace: Json, finality: Finality = Finality.PENDING): PendingTrace {
  const root = trace.transactions[trace.trace_id];
  return create(PendingTraceSchema, {
    traceId: Buffer.from(trace.trace_id, "base64"),
    externalHash: Buffer.from(trace.external_hash, "base64"),
    externalHashNorm: Buffer.from(root.in_msg.hash_norm, "base64"),
    transactions: trace.transactions_order.map((h: string) => {
      const x = trace.transactions[h];
      return create(PendingTransactionSchema, {
        boc: cells.get(h)!.toBoc().toString("base64"),
        finality,
        mcBlockSeqno: x.mc_block_seqno,
        ...(finality === Finality.PENDING ? {} : { blockWorkchain: x.block_ref.workchain, blockShard: BigInt.asIntN(64, BigInt("0x" + x.block_ref.shard)).toString(), blockSeqno: x.block_ref.seqno }),
        accountStateBefore: summary(x.account_state_before),
        accountStateAfter: summary(x.account_state_after),
        inMsgHash: x.in_msg.source ? Buffer.from(x.in_msg.hash, "base64") : new Uint8Array(),
      });
    }),
    actionsJson: classifyTrace(traceInputOf(trace), new MapInterfaceLookup(new Map())).actions.map((a) => JSON.stringify(actionToJson(a))),
    classificationState: "ok",
    finality,
    mcBlockSeqno: root.mc_block_seqno,
    randSeed: "00".repeat(32),
  });
}

/** A transaction without what differs between its pending and its indexed rendering. */
const settled = (x: Json) => ({ ...x, emulated: undefined, finality: undefined, block_ref: undefined });

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "v3-pending" });
  const genesis = net.genesis.wallets.find((w) => w.version === "v4r2")!;
  sender = new LocalnetSender(net, genesis);
  const comment = await sender.send({ to: alice, value: toNano("2"), bounce: false, body: beginCell().storeUint(0, 32).storeStringTail("hello pending").endCell() });
  const bounce = await sender.send({ to: bob, value: toNano("1"), bounce: true });
  for (const x of [...comment, ...bounce]) cells.set(x.hash().toString("base64"), x.raw);
  const delivered = comment.find((x) => x.inMessage?.info.type === "internal")!.inMessage!;
  internalBoc = beginCell().store(storeMessage(delivered)).endCell().toBoc().toString("base64");
  roots.comment = rootOf(comment, genesis.address);
  roots.bounce = rootOf(bounce, genesis.address);
  await net.chain.seal();
  const head = net.chain.lastMasterchain!.id.seqno;
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on" });
  // indexed up to the head, and the traces classified by the decoder
  for (let i = 0; ; i++) {
    const info = await getJson(`${t.url}/api/v3/masterchainInfo`);
    const actions = info.status === 200 && info.body.last.seqno >= head ? await getJson(`${t.url}/api/v3/actions?trace_id=${encodeURIComponent(roots.bounce)}`) : undefined;
    if (actions?.status === 200 && actions.body.actions.length > 0) break;
    if (i > 600) throw new Error(`not indexed and classified up to ${head}: ${JSON.stringify(info.body)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
  await net?.close();
});

describe("pending traces render as the indexed ones", () => {
  it("/pendingTransactions: every transaction equals /transactions of it, but emulated and pending", async () => {
    for (const id of [roots.comment, roots.bounce]) {
      const trace = await indexedTrace(id);
      const pending = pendingOf(trace);
      const body = rendered("/api/v3/pendingTransactions", TransactionsResponseSchema, create(TransactionsResponseSchema, { transactions: traceTransactions(pending) }));
      expect(body.transactions.map((x: Json) => x.hash)).toEqual(trace.transactions_order);
      for (const x of body.transactions) {
        expect(x.emulated).toBe(true);
        expect(x.finality).toBe("pending");
        expect(x.trace_id).toBe(id);
        expect(x.block_ref).toEqual({ workchain: 0, shard: "8000000000000000", seqno: 0 });
        const [indexed] = (await v3(`transactions?hash=${encodeURIComponent(x.hash)}`)).transactions;
        expect(indexed.finality).toBe("finalized");
        expect(settled(x)).toEqual(settled(indexed));
      }
    }
    // the bounce's trace has three transactions, the last one bounced back to the wallet
    const bounced = traceTransactions(pendingOf(await indexedTrace(roots.bounce)));
    expect(bounced).toHaveLength(3);
    expect(bounced[2]!.inMsg?.bounced).toBe(true);
  });

  it("a confirmed transaction shows its shard block and is not emulated", async () => {
    const trace = await indexedTrace(roots.comment);
    const [x] = traceTransactions(pendingOf(trace, Finality.CONFIRMED));
    const indexed = trace.transactions[trace.trace_id];
    expect(x!.finality).toBe("confirmed");
    expect(x!.emulated).toBe(false);
    const body = rendered("/api/v3/pendingTransactions", TransactionsResponseSchema, create(TransactionsResponseSchema, { transactions: [x!] }));
    expect(body.transactions[0].block_ref).toEqual(indexed.block_ref);
  });

  it("/pendingTraces: the tree, order and counts of /traces, trace_state pending, the actions of /actions", async () => {
    for (const id of [roots.comment, roots.bounce]) {
      const trace = await indexedTrace(id);
      const pending = pendingOf(trace);
      const txs = traceTransactions(pending);
      const body = rendered(
        "/api/v3/pendingTraces",
        TracesResponseSchema,
        create(TracesResponseSchema, { traces: [pendingTraceOf(pending, txs, pendingActionsOf(pending, []))] }),
      );
      const [p] = body.traces;
      for (const k of ["trace_id", "external_hash", "mc_seqno_start", "mc_seqno_end", "start_lt", "start_utime", "end_lt", "end_utime", "trace", "transactions_order", "is_incomplete"]) {
        expect(p[k], k).toEqual(trace[k]);
      }
      expect(p.trace_info).toEqual({ ...trace.trace_info, trace_state: "pending", pending_messages: trace.trace_info.messages, classification_state: "ok" });
      expect(Object.keys(p.transactions).sort()).toEqual(Object.keys(trace.transactions).sort());
      const { actions } = await v3(`actions?trace_id=${encodeURIComponent(id)}&include_accounts=true`);
      expect(actions.length).toBeGreaterThan(0);
      const sort = (list: Json[]) => [...list].sort((a, b) => (a.action_id < b.action_id ? -1 : 1));
      expect(sort(p.actions).map((a: Json) => ({ ...a, finality: undefined }))).toEqual(sort(actions).map((a: Json) => ({ ...a, finality: undefined })));
      for (const a of p.actions) expect(a.finality).toBe("pending");
    }
  });

  it("/pendingActions: the actions, with their transactions when asked, for the types the client supports", async () => {
    const trace = await indexedTrace(roots.comment);
    const pending = pendingOf(trace);
    const txs = traceTransactions(pending);
    const body = rendered("/api/v3/pendingActions", ActionsResponseSchema, create(ActionsResponseSchema, { actions: pendingActionsOf(pending, ["latest"], txs) }));
    expect(body.actions.map((a: Json) => a.type)).toEqual(["ton_transfer"]);
    const [a] = body.actions;
    expect(a.details.comment).toBe("hello pending");
    expect(a.transactions_full.map((x: Json) => x.hash)).toEqual(a.transactions);
    expect(a.transactions_full.every((x: Json) => x.emulated && x.finality === "pending")).toBe(true);
  });

  it("emulateTrace: toncenter's EmulateTraceResponse, the transactions with no trace id yet", async () => {
    const trace = await indexedTrace(roots.bounce);
    const pending = pendingOf(trace);
    const r = emulatedTraceOf(pending, { withActions: true, includeCodeData: false, supportedActionTypes: [] });
    const body = JSON.parse(JSON.stringify(renderMessage(EmulateTraceResponseSchema, r)));
    expect(Object.keys(body)).toEqual(["mc_block_seqno", "trace", "transactions", "actions", "rand_seed", "is_incomplete"]);
    expect(body.trace).toEqual(trace.trace);
    expect(Object.keys(body.transactions).sort()).toEqual(Object.keys(trace.transactions).sort());
    for (const [h, x] of Object.entries<Json>(body.transactions)) {
      expect(x.trace_id).toBeUndefined();
      expect(settled(x)).toEqual(settled({ ...trace.transactions[h], trace_id: undefined }));
    }
    expect(body.actions.length).toBeGreaterThan(0);
    expect(emulatedTraceOf(pending, { withActions: false, includeCodeData: false, supportedActionTypes: [] }).actions).toEqual([]);
  });
});

describe("the pending endpoints over HTTP", () => {
  it("refuse bad parameters with 422 naming them", async () => {
    const cases: [string, RegExp][] = [
      ["pendingTraces", /exactly one of account, ext_msg_hash/],
      [`pendingTraces?account=${raw(alice)}&ext_msg_hash=${"A".repeat(43)}=`, /exactly one of account, ext_msg_hash/],
      ["pendingTraces?account=nope", /account/],
      [`pendingTraces?account=${raw(alice)}&limit=5`, /limit/],
      ["pendingActions", /exactly one of account, ext_msg_hash/],
      ["pendingActions?ext_msg_hash=xyz", /ext_msg_hash/],
      [`pendingActions?account=${raw(alice)}&supported_action_types=a-b`, /supported_action_types/],
      [`pendingActions?account=${raw(alice)}&include_transactions=maybe`, /include_transactions/],
      ["pendingTransactions", /exactly one of account, trace_id/],
      [`pendingTransactions?account=${raw(alice)}&trace_id=${encodeURIComponent(roots.comment)}`, /exactly one of account, trace_id/],
      ["pendingTransactions?trace_id=123", /trace_id/],
    ];
    for (const [path, reason] of cases) {
      const r = await getJson(`${t.url}/api/v3/${path}`);
      expect(r.status, path).toBe(422);
      expect(r.body.error, path).toMatch(reason);
    }
    const bad = await postJson(`${t.url}/api/emulate/v1/emulateTrace`, { boc: "te6cc", with_action: true });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/with_action/);
    const none = await postJson(`${t.url}/api/emulate/v1/emulateTrace`, {});
    expect(none.status).toBe(422);
    expect(none.body.error).toMatch(/boc/);
  });

  it("take every parameter v3.yaml declares, and the OpenAPI document lists them and the Emulate API", async () => {
    const doc = (await getJson(`${t.url}/api/v3/openapi.json`)).body;
    for (const path of ["/api/v3/pendingTransactions", "/api/v3/pendingTraces", "/api/v3/pendingActions"]) {
      const ours = new Set(doc.paths[path].get.parameters.map((p: Json) => p.name));
      for (const name of v3Parameters(path).keys()) expect(ours.has(name), `${path} ${name}`).toBe(true);
    }
    const emulate = doc.paths["/api/emulate/v1/emulateTrace"].post;
    expect(emulate.tags).toEqual(["emulate"]);
    const body = doc.components.schemas[emulate.requestBody.content["application/json"].schema.$ref.split("/").pop()];
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(["boc", "ignore_chksig", "with_actions", "include_code_data", "include_address_book", "include_metadata", "mc_block_seqno"]));
  });

  it("without a send service to ask, answer 503 naming it", async () => {
    const unreachable = pendingSource(() => undefined);
    let error: unknown;
    try {
      unreachable();
    } catch (e) {
      error = e;
    }
    expect(httpStatusOf(error)).toMatchObject({ status: 503, message: expect.stringMatching(/send service/) });
  });

  it("1,000 malformed emulateTrace bodies: each a 4xx with its reason, and the gateway keeps serving", async () => {
    const r = rng(26);
    const wallet = sender.address;
    const built = new Map<string, string>();
    const message = (info: "internal" | "external-out" | "deep" | "cells" | "huge"): string => {
      let boc = built.get(info);
      if (boc === undefined) built.set(info, (boc = messageBoc(info)));
      return boc;
    };
    const messageBoc = (info: "internal" | "external-out" | "deep" | "cells" | "huge"): string => {
      let cell: Cell;
      if (info === "internal") return internalBoc;
      if (info === "external-out") cell = beginCell().storeUint(0b11, 2).storeAddress(wallet).storeUint(0, 2).storeUint(0, 64 + 32).storeBit(0).storeBit(0).endCell();
      else {
        let body = beginCell().endCell();
        const n = info === "deep" ? 600 : info === "cells" ? 9000 : 0;
        for (let i = 0; i < n; i++) body = info === "deep" ? beginCell().storeRef(body).endCell() : beginCell().storeUint(i, 32).storeRef(body).endCell();
        if (info === "huge") body = beginCell().storeBuffer(Buffer.alloc(127, 1)).endCell();
        cell = beginCell().store(storeMessage(external({ to: wallet, body }))).endCell();
        if (info === "huge") return Buffer.concat([cell.toBoc(), Buffer.alloc(80_000)]).toString("base64");
      }
      return cell.toBoc().toString("base64");
    };
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1000; i++) {
      const kind = weighted(r, [
        [40, "boc"],
        [25, "message"],
        [15, "field"],
        [20, "bytes"],
      ] as const);
      let body: unknown;
      if (kind === "boc") body = { boc: bocText(r, hostileBoc(r).bytes), ignore_chksig: r() < 0.5 };
      else if (kind === "message") body = { boc: message(pick(r, ["internal", "external-out", "deep", "cells", "huge"] as const)), ignore_chksig: true, with_actions: true };
      else if (kind === "field") body = { boc: message("internal"), [pick(r, ["ignore_chksig", "with_actions", "mc_block_seqno", "include_metadata", "supported_action_types"])]: hostileValue(r) };
      else body = hostileBodyBytes(r, { boc: message("internal"), ignore_chksig: true });
      const res = await fetch(`${t.url}/api/emulate/v1/emulateTrace`, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body) });
      const text = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      expect(res.status >= 400 && res.status < 500, `#${i} ${kind}: ${res.status} ${text.slice(0, 300)}`).toBe(true);
      const error = (JSON.parse(text) as { error?: unknown }).error;
      expect(typeof error === "string" && error.length > 5, `#${i}: ${text.slice(0, 300)}`).toBe(true);
    }
    expect(statuses.get(422)).toBeGreaterThan(500);
    // nothing was sent or kept: the wallet has no pending trace
    expect((await v3(`pendingTraces?account=${raw(wallet)}`)).traces).toEqual([]);
    // still serving
    expect((await getJson(`${t.url}/api/v3/masterchainInfo`)).status).toBe(200);
    const internalMsg = await postJson(`${t.url}/api/emulate/v1/emulateTrace`, { boc: message("internal") });
    expect(internalMsg).toMatchObject({ status: 422, body: { error: expect.stringMatching(/boc: an inbound external message is expected, this is an internal message/) } });
    const deep = await postJson(`${t.url}/api/emulate/v1/emulateTrace`, { boc: message("deep") });
    expect(deep).toMatchObject({ status: 422, body: { error: expect.stringMatching(/^boc: .*depth/) } });
  }, 120_000);
});

describe("end to end: a transfer sent through sendBocReturnHash", () => {
  it("emulateTrace shows it unsent, the pending endpoints from the send (pending, then confirmed) until it is final, and the emulation equals the real trace", async () => {
    const genesis = net.genesis.wallets.find((w) => w.version === "v4r2")!;
    const client = new TonClient({ endpoint: `${t.url}/api/v2/jsonRPC` });
    const wallet = client.open(WalletContractV4.create({ workchain: 0, publicKey: genesis.keyPair.publicKey }));
    const body = wallet.createTransfer({
      seqno: await wallet.getSeqno(),
      secretKey: genesis.keyPair.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      timeout: net.now() + 60,
      messages: [internal({ to: bob, value: toNano("0.5"), bounce: true, body: beginCell().storeUint(0, 32).storeStringTail("pending e2e").endCell() })],
    });
    const boc = beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell().toBoc().toString("base64");
    const account = raw(wallet.address);

    // emulated, sending nothing
    const emulated = await postJson(`${t.url}/api/emulate/v1/emulateTrace`, { boc, with_actions: true, include_code_data: true, include_address_book: true, mc_block_seqno: null });
    expect(emulated.status, JSON.stringify(emulated.body)).toBe(200);
    const e = emulated.body;
    expect(Object.keys(e.transactions)).toHaveLength(3); // the wallet, bob bouncing, the wallet again
    expect(e.actions.map((a: Json) => a.type)).toContain("ton_transfer");
    expect(Object.keys(e.code_cells).length).toBeGreaterThan(0);
    expect(e.address_book[account]).toBeDefined();
    expect((await v3(`pendingTraces?account=${account}`)).traces).toEqual([]);
    // without ignore_chksig, an unsigned message is refused with the reason
    const unsigned = await postJson(`${t.url}/api/emulate/v1/emulateTrace`, {
      boc: beginCell().store(storeMessage(external({ to: wallet.address, body: beginCell().storeBuffer(Buffer.alloc(64)).storeSlice(body.beginParse().skip(512)).endCell() }))).endCell().toBoc().toString("base64"),
    });
    expect(unsigned, JSON.stringify(unsigned.body)).toMatchObject({ status: 409, body: { error: expect.stringMatching(/exit code|not accept|signature/i) } });

    // sent: pending until a block has it
    const sent = await fetch(`${t.url}/api/v2/sendBocReturnHash`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ boc }) });
    const { result } = (await sent.json()) as { result: { hash: string; hash_norm: string } };
    const traces = await v3(`pendingTraces?ext_msg_hash=${encodeURIComponent(result.hash)}`);
    expect(v3ResponseErrors("/api/v3/pendingTraces", traces)).toBeNull();
    expect(traces.traces).toHaveLength(1);
    const [p] = traces.traces;
    expect(p.trace_info).toMatchObject({ trace_state: "pending", transactions: 3 });
    expect(p.external_hash).toBe(result.hash);
    expect((await v3(`pendingTraces?ext_msg_hash=${encodeURIComponent(result.hash_norm)}`)).traces.map((x: Json) => x.trace_id)).toEqual([p.trace_id]);
    const txs = await v3(`pendingTransactions?account=${account}`);
    expect(v3ResponseErrors("/api/v3/pendingTransactions", txs)).toBeNull();
    expect(txs.transactions.map((x: Json) => x.hash)).toEqual(p.transactions_order);
    expect(txs.transactions.every((x: Json) => x.emulated && x.finality === "pending" && x.trace_id === p.trace_id)).toBe(true);
    // the emulation's states around each transaction, as the indexer shows states it knows
    expect(txs.transactions[0].account_state_before).toMatchObject({ account_status: "active", code_hash: expect.any(String) });
    expect(txs.transactions[1].account_state_after).toMatchObject({ account_status: "nonexist", balance: "0" });
    const actions = await v3(`pendingActions?account=${account}&include_transactions=true`);
    expect(v3ResponseErrors("/api/v3/pendingActions", actions)).toBeNull();
    const transfer = actions.actions.find((a: Json) => a.type === "ton_transfer");
    expect(transfer).toMatchObject({ finality: "pending", trace_id: p.trace_id, details: { comment: "pending e2e", destination: raw(bob) } });
    expect(transfer.transactions_full.length).toBe(transfer.transactions.length);

    // in a signed shard block that no masterchain block has committed yet: confirmed, the real transaction
    net.chain.pendingWindowMs = 3000;
    const sealing = net.chain.seal();
    let confirmed: Json;
    for (let i = 0; ; i++) {
      const r = await getJson(`${t.url}/api/v3/pendingTransactions?account=${account}`);
      confirmed = r.status === 200 ? r.body.transactions.find((x: Json) => x.hash === p.trace_id || x.in_msg?.hash === result.hash) : undefined;
      if (confirmed?.finality === "confirmed") break;
      if (i > 100) throw new Error(`never confirmed: ${JSON.stringify(r.body).slice(0, 300)}`);
      await new Promise((res) => setTimeout(res, 25));
    }
    expect(v3ResponseErrors("/api/v3/pendingTransactions", { transactions: [confirmed] })).toBeNull();
    expect(confirmed).toMatchObject({ emulated: false, block_ref: { workchain: 0 } });
    expect(confirmed.block_ref.seqno).toBeGreaterThan(0);
    await sealing;
    net.chain.pendingWindowMs = 0;

    // landed and indexed: the emulation was the real trace, but for lt and time
    const head = net.chain.lastMasterchain!.id.seqno;
    let real: Json;
    for (let i = 0; ; i++) {
      const r = await getJson(`${t.url}/api/v3/traces?msg_hash=${encodeURIComponent(result.hash)}`);
      if (r.status === 200 && r.body.traces.length === 1 && Number(r.body.traces[0].mc_seqno_end) <= head) {
        real = r.body.traces[0];
        break;
      }
      if (i > 300) throw new Error(`the transfer was not indexed: ${JSON.stringify(r.body)}`);
      await new Promise((res) => setTimeout(res, 100));
    }
    // finalized: it leaves the pending endpoints (/traces and /actions have it)
    for (let i = 0; ; i++) {
      const r = await getJson(`${t.url}/api/v3/pendingTraces?ext_msg_hash=${encodeURIComponent(result.hash)}`);
      expect(r.status).toBe(200);
      if (r.body.traces.length === 0) break;
      if (i > 300) throw new Error(`the trace stayed pending after it was indexed: ${JSON.stringify(r.body.traces[0].trace_info)}`);
      await new Promise((res) => setTimeout(res, 100));
    }
    expect((await getJson(`${t.url}/api/v3/pendingTransactions?account=${account}`)).status).toBe(404);
    // the confirmed transaction was the indexed one, in the same block
    const [indexedRoot] = (await v3(`transactions?hash=${encodeURIComponent(confirmed.hash)}`)).transactions;
    expect({ ...confirmed, emulated: undefined, finality: undefined, mc_block_seqno: undefined }).toEqual({ ...indexedRoot, emulated: undefined, finality: undefined, mc_block_seqno: undefined });
    const shape = (node: Json, txOf: (h: string) => Json): Json => ({ account: txOf(node.tx_hash).account, children: node.children.map((c: Json) => shape(c, txOf)) });
    expect(shape(e.trace, (h) => e.transactions[h])).toEqual(shape(real.trace, (h) => real.transactions[h]));
    const timeFree = (d: Json) => ({ ...d, storage_ph: undefined, action: d.action && { ...d.action, action_list_hash: undefined } });
    const inOrder = (txs: Record<string, Json>) => Object.values(txs).sort((a, b) => (BigInt(a.lt) < BigInt(b.lt) ? -1 : 1));
    const [emulatedTxs, realTxs] = [inOrder(e.transactions), inOrder(real.transactions)];
    expect(emulatedTxs.map((x) => x.account)).toEqual(realTxs.map((x) => x.account));
    emulatedTxs.forEach((x, i) => {
      expect(timeFree(x.description), x.account).toEqual(timeFree(realTxs[i].description));
      expect(x.in_msg.message_content, x.account).toEqual(realTxs[i].in_msg.message_content);
    });
  }, 120_000);
});
