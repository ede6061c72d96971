// Actions on a localnet, indexed and decoded by `tongate start`'s services in this process: a TON
// transfer with a comment gives a ton_transfer action in ClickHouse and in the key index; with the
// decoder off the indexer goes on while the chain carries more traffic (TON transfers, a bounced
// one, a jetton wallet seen before its master and a transfer from it), and the decoder, started
// again, catches up — the transfer classified again as a jetton_transfer in the block that brings
// the master — and its actions then equal those of a decoder that decoded the same index from the
// start without a stop (rows sorted, the key index's entries compared).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Address, beginCell, contractAddress, loadTransaction, toNano } from "@ton/core";
import { actionFromJson, traceInputFromTransactions } from "@tongate/actions";
import { storeJettonTransfer, storeTextComment, type JettonTransfer } from "@tongate/contracts";
import type { Localnet } from "@tongate/localnet";
import { provide } from "@tongate/runtime";
import { DECODED_KEYS, DecodedKeys, DECODER_CHECKPOINT, DECODER_OWNER, getCheckpoint, openStore, select, setCheckpoint, storeKey, type Store } from "@tongate/store";
import { afterAll, beforeAll, expect, it } from "vitest";
import { contractCode, jettonMinterData, jettonWalletData, onchainContent } from "../../../tests/support/contracts/index.js";
import { decodedTo, getJson, startEmbedded, type Embedded } from "../../../tests/support/embedded.js";
import { LocalnetSender } from "../../../tests/support/localnet-deploy.js";
import { startTestLocalnet } from "../../../tests/support/localnet.js";
import { readTraceInputs, type TraceRecordRow } from "../src/actions/trace-input.js";

/** The decoder's tables (its migrations), emptied for the run without a stop. */
const DECODER_TABLES = [
  "account_interfaces", "jetton_masters", "jetton_wallets", "nft_collections", "nft_items", "nft_sales", "token_metadata", "metadata_fetches",
  "jetton_transfers", "jetton_burns", "nft_transfers", "actions", "action_accounts", "trace_classifications",
];

const dir = mkdtempSync(join(tmpdir(), "tongate-actions-pipeline-"));
let net: Localnet;
let t: Embedded | undefined;
let store: Store;
let alice: LocalnetSender;
let bob: LocalnetSender;

const raw = (a: Address) => a.toRawString().toUpperCase();
const comment = (text: string) => beginCell().store(storeTextComment({ text })).endCell();
const jettonTransfer = (t: JettonTransfer) => beginCell().store(storeJettonTransfer(t)).endCell();
const head = () => net.chain.lastMasterchain!.id.seqno;

/** `tongate start`'s services on the index in `dir` (the store reopened, as a restarted process does). */
async function start(options: Record<string, unknown>): Promise<void> {
  store = await openStore({ path: join(dir, "store"), keyIndex: true });
  t = await startEmbedded({ globalConfig: net.globalConfig(), "emulator-processes": 1, ...options }, {}, [provide(storeKey, () => store)]);
}

async function stop(): Promise<void> {
  await t?.close();
  t = undefined;
}

/** Seals blocks until every message sent is delivered (traces complete). */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await net.chain.seal();
}

/** The decoder's current actions and classifications (the version rule), sorted; and its key index's entries of them. */
async function actionsDump() {
  const actions = await select<Record<string, unknown>>(
    store,
    `SELECT * EXCEPT deleted FROM (SELECT * FROM actions ORDER BY trace_id, action_id, version DESC LIMIT 1 BY trace_id, action_id) WHERE NOT deleted ORDER BY trace_id, action_id`,
    {},
  );
  const accounts = await select<Record<string, unknown>>(
    store,
    `SELECT * EXCEPT deleted FROM (SELECT * FROM action_accounts ORDER BY account, trace_end_lt, trace_id, end_lt, action_id, version DESC LIMIT 1 BY account, trace_end_lt, trace_id, end_lt, action_id)
      WHERE NOT deleted ORDER BY account, trace_end_lt, trace_id, end_lt, action_id`,
    {},
  );
  const classifications = await select<Record<string, unknown>>(store, "SELECT * FROM trace_classifications FINAL ORDER BY trace_id", {});
  const keys = [...DecodedKeys.of(store.keyIndex!.tables(DECODER_OWNER, DECODED_KEYS)).contents()].filter((e) => /^(actions|trace_classifications)/.test(e.table.split("/").pop()!));
  return { actions, accounts, classifications, keys };
}

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "actions-pipeline", wallets: 2 });
  alice = new LocalnetSender(net, net.genesis.wallets[1]!);
  bob = new LocalnetSender(net, net.genesis.wallets[2]!);
}, 60_000);

afterAll(async () => {
  await stop();
  await net?.close();
  rmSync(dir, { recursive: true, force: true });
});

it("a TON transfer with a comment is a ton_transfer action, in ClickHouse and in the key index", async () => {
  await start({ index: "on" });
  await alice.send({ to: bob.address, value: toNano("1.5"), body: comment("hello, actions"), bounce: false });
  await settle();
  await decodedTo(t!.url, head(), { keyIndex: true, timeoutMs: 30_000 });

  const rows = await select<{ type: string; row: string; accounts: string[]; trace_id: string }>(store, "SELECT type, row, accounts, trace_id FROM actions FINAL WHERE NOT deleted AND type = 'ton_transfer'", {});
  expect(rows).toHaveLength(1);
  const action = actionFromJson(JSON.parse(rows[0]!.row));
  expect(action).toMatchObject({ type: "ton_transfer", source: raw(alice.address), destination: raw(bob.address), value: toNano("1.5"), ton_transfer_data: { content: "hello, actions", encrypted: false } });
  expect(rows[0]!.accounts.sort()).toEqual([raw(alice.address), raw(bob.address)].sort());
  const [record] = await select<{ classification_state: string; action_ids: string[] }>(store, "SELECT classification_state, action_ids FROM trace_classifications FINAL WHERE trace_id = {id:String}", { id: rows[0]!.trace_id });
  expect(record).toMatchObject({ classification_state: "ok" });

  const keys = DecodedKeys.of(store.keyIndex!.tables(DECODER_OWNER, DECODED_KEYS));
  const ofBob = [...keys.actionsOfAccount(raw(bob.address), { reverse: true })].map((e) => e.action);
  expect(ofBob.map((a) => [a.type, a.trace_id])).toEqual([["ton_transfer", rows[0]!.trace_id]]);
  expect(keys.actionsOfTraces([rows[0]!.trace_id]).get(rows[0]!.trace_id)?.map((a) => a.action_id)).toEqual(record!.action_ids);

  // the classifier's input from the indexer's rows is the one built from the chain's transaction cells (an emulated trace's way)
  const [trace] = await select<TraceRecordRow>(store, "SELECT * FROM traces WHERE trace_id = {id:String} ORDER BY mc_seqno_end DESC LIMIT 1", { id: rows[0]!.trace_id });
  const fromRows = (await readTraceInputs(store, [trace!], 100, head())).get(trace!.trace_id)!;
  const txs = await select<{ account: string; lt: string }>(store, "SELECT account, lt FROM transactions WHERE trace_id = {id:String}", { id: trace!.trace_id });
  const cells = txs.map(({ account, lt }) => {
    const a = Address.parseRaw(account);
    const tx = net.chain.transaction(a.workChain, a.hash, BigInt(lt))!;
    return { transaction: loadTransaction(tx.cell.beginParse()), cell: tx.cell, address: a, mcSeqno: tx.mcSeqno };
  });
  expect(fromRows.transactions).toHaveLength(2);
  expect(traceInputFromTransactions(cells, { mcSeqno: 0, externalHashNorm: trace!.external_hash_norm })).toEqual(fromRows);
}, 60_000);

it("the decoder stopped, the indexer goes on; started again, it catches up, with the actions of a run without the stop", async () => {
  await stop();
  const decodedBefore = head();
  // the decoder off: the indexer alone follows the chain's traffic
  await start({ index: "on", decode: "off" });
  for (const [from, to, text] of [[alice, bob, "one"], [bob, alice, "two"], [alice, bob, "three"]] as const) {
    await from.send({ to: to.address, value: toNano("0.3"), body: comment(text), bounce: false });
  }
  // a jetton wallet seen before its master (its storage as the master would make it: balance 0),
  // and a transfer from it: classified while the wallet is
  // pending, classified again (as a jetton transfer) in the block that brings its master
  const [minterCode, walletCode] = await Promise.all([contractCode("jetton-minter"), contractCode("jetton-wallet")]);
  const lateMaster = { code: minterCode, data: jettonMinterData({ totalSupply: 0n, admin: alice.address, content: onchainContent({ name: "Late" }), walletCode }) };
  const early = await bob.deploy({ code: walletCode, data: jettonWalletData({ balance: 0n, owner: bob.address, master: contractAddress(0, lateMaster), walletCode }) }, toNano("0.2"));
  await bob.send({ to: early, value: toNano("0.3"), body: jettonTransfer({ queryId: 5n, amount: 0n, destination: alice.address, responseDestination: bob.address, customPayload: null, forwardTonAmount: toNano("0.01"), forwardPayload: { cell: comment("before the master"), inRef: true } }) });
  await settle();
  await alice.deploy(lateMaster, toNano("0.2"));
  // a transfer to an account that does not exist, bounced back
  await alice.send({ to: Address.parseRaw(`0:${"77".repeat(32)}`), value: toNano("0.2"), body: comment("bounce me"), bounce: true });
  await settle();
  const last = head();
  for (let until = Date.now() + 30_000; ((await getCheckpoint(store, "follower")) ?? 0) < last; ) {
    if (Date.now() > until) throw new Error("the indexer did not reach the head");
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(await getCheckpoint(store, DECODER_CHECKPOINT)).toBeLessThanOrEqual(decodedBefore);
  await stop();

  // started again: it catches up
  await start({ index: "on" });
  await decodedTo(t!.url, last, { keyIndex: true, timeoutMs: 30_000 });
  const resumed = await actionsDump();
  const types = resumed.actions.map((a) => a.type);
  expect(types.filter((x) => x === "ton_transfer").length).toBeGreaterThanOrEqual(5);
  expect(resumed.keys.length).toBeGreaterThan(0);
  // the early wallet's transfer: a jetton transfer once its master confirmed the wallet, classified
  // again in that block (its first classification's rows retired, none listed twice)
  const [confirmedAt] = await select<{ mc_seqno: number }>(store, "SELECT mc_seqno FROM jetton_wallets WHERE address = {a:String} AND verdict = 'confirmed' ORDER BY mc_seqno LIMIT 1", { a: raw(early) });
  const jettonTransfers = resumed.actions.filter((a) => a.type === "jetton_transfer");
  expect(jettonTransfers).toMatchObject([{ version: confirmedAt!.mc_seqno }]);
  expect(actionFromJson(JSON.parse(String(jettonTransfers[0]!.row)))).toMatchObject({ source: raw(bob.address), source_secondary: raw(early), destination: raw(alice.address), amount: 0n });
  const traceId = String(jettonTransfers[0]!.trace_id);
  const history = await select<{ version: number; deleted: boolean }>(store, "SELECT DISTINCT version, deleted FROM actions WHERE trace_id = {t:String} ORDER BY version, deleted", { t: traceId });
  expect(history.map((h) => h.version)[0]).toBeLessThan(confirmedAt!.mc_seqno);
  expect(resumed.classifications.filter((c) => c.trace_id === traceId)).toMatchObject([{ version: confirmedAt!.mc_seqno, classification_state: "ok" }]);

  await stop();

  // the same index decoded from the start without a stop
  store = await openStore({ path: join(dir, "store"), keyIndex: true });
  for (const table of DECODER_TABLES) await store.client.command({ query: `TRUNCATE TABLE ${table}` });
  await setCheckpoint(store, DECODER_CHECKPOINT, 0);
  await store.close();
  await start({ index: "off" });
  await decodedTo(t!.url, last, { keyIndex: true, timeoutMs: 30_000 });
  const whole = await actionsDump();
  const { tracesClassified, classifyMs } = (await getJson(`${t!.url}/healthz`)).body.detail.decoder;
  console.log(`the run without a stop: ${tracesClassified} traces classified in ${classifyMs} ms`);
  expect(whole.actions).toEqual(resumed.actions);
  expect(whole.accounts).toEqual(resumed.accounts);
  expect(whole.classifications).toEqual(resumed.classifications);
  expect(whole.keys).toEqual(resumed.keys);
}, 120_000);
