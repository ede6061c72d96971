// A wallet sends a jetton transfer: its owner's wallet found with @ton/ton's TonClient through
// tongate's API v2, the signed message sent with sendBocReturnHash. /pendingActions shows the
// jetton_transfer at once (pending), then confirmed while its shard block is signed but not yet
// committed, and the trace leaves the pending endpoints once its masterchain block is indexed; the
// actions the decoder then classifies from the chain equal the pending ones (but for finality and
// what only the real chain knows: lts, times, the trace's id).
import { Address, beginCell } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodedTo, getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { startTestLocalnet } from "../support/localnet.js";
import { actorsOf } from "../support/scenarios/chain.js";
import { jettonScenario, type JettonScenario } from "../support/scenarios/jettons.js";
import { genesisWalletOnTongate, sendJettonTransferReturnHash } from "../support/scenarios/wallet-send.js";
import { v3ResponseErrors } from "../support/v3-schema.js";

let net: Localnet;
let t: Embedded;
let jetton: JettonScenario;

type Json = any;
const raw = (a: Address) => a.toRawString().toUpperCase();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function v3(path: string): Promise<Json> {
  const r = await getJson(`${t.url}/api/v3/${path}`);
  expect(r.status, `${path}: ${JSON.stringify(r.body).slice(0, 500)}`).toBe(200);
  expect(v3ResponseErrors(`/api/v3/${path.split("?")[0]}`, r.body), path).toBeNull();
  return r.body;
}

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "pending-jetton", wallets: 3 });
  jetton = await jettonScenario(net, actorsOf(net), "legacy");
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on" });
  // the decoder has confirmed alice's jetton wallet: the pending trace is classified on its facts
  await decodedTo(t.url, net.chain.lastMasterchain!.id.seqno, { timeoutMs: 120_000 });
}, 240_000);

afterAll(async () => {
  await t?.close();
  await net?.close();
});

describe("a jetton transfer sent through sendBocReturnHash", () => {
  it("is a pending jetton_transfer at once, confirmed from its signed shard block, gone once indexed, and the indexed actions are the pending ones", async () => {
    // alice (actorsOf): genesis wallet 2, opened with @ton/ton's TonClient on tongate
    const { client, wallet } = genesisWalletOnTongate(net, t.url, 2);
    const aliceWallet = jetton.wallets[0]!;
    const bobOwner = jetton.wallets[1]!.owner!;
    // alice's jetton wallet, as a client finds it: the master's get_wallet_address through API v2
    const found = await client.runMethod(jetton.master.address, "get_wallet_address", [{ type: "slice", cell: beginCell().storeAddress(wallet.address).endCell() }]);
    expect(found.stack.readAddress().equals(aliceWallet.address)).toBe(true);

    const result = await sendJettonTransferReturnHash(net, t.url, 2, { jettonWallet: aliceWallet.address, destination: bobOwner, amount: 12_345n, queryId: 777n, comment: "pending jetton" });

    // pending: readable once emulated (the service waits up to a second for an emulation in flight;
    // the process's first emulation compiles the contracts' code and may take longer on a busy host)
    const account = raw(wallet.address);
    let pending: Json;
    for (let i = 0; ; i++) {
      pending = await v3(`pendingActions?account=${account}&include_transactions=true`);
      if (pending.actions.some((a: Json) => a.type === "jetton_transfer") || i >= 100) break;
      await sleep(100);
    }
    const jt = pending.actions.find((a: Json) => a.type === "jetton_transfer");
    expect(jt, JSON.stringify(pending.actions.map((a: Json) => a.type))).toBeDefined();
    expect(jt).toMatchObject({
      finality: "pending",
      trace_external_hash: result.hash,
      details: { asset: raw(jetton.master.address), sender: account, receiver: raw(bobOwner), amount: "12345", query_id: "777", comment: "pending jetton", is_encrypted_comment: false },
    });
    expect(jt.transactions_full.every((x: Json) => x.emulated === true && x.finality === "pending")).toBe(true);
    expect((await v3(`pendingActions?ext_msg_hash=${encodeURIComponent(result.hash_norm)}`)).actions.map((a: Json) => a.action_id)).toContain(jt.action_id);

    // confirmed: its transactions are in a signed shard block no masterchain block has committed yet
    net.chain.pendingWindowMs = 3000;
    const sealing = net.chain.seal();
    let confirmed: Json;
    for (let i = 0; ; i++) {
      const r = await getJson(`${t.url}/api/v3/pendingActions?account=${account}`);
      confirmed = r.status === 200 ? r.body.actions.find((a: Json) => a.type === "jetton_transfer") : undefined;
      if (confirmed?.finality === "confirmed") break;
      if (i > 120) throw new Error(`never confirmed: ${JSON.stringify(r.body).slice(0, 400)}`);
      await sleep(20);
    }
    await sealing;
    net.chain.pendingWindowMs = 0;

    // finalized: once the indexer has the block, the trace leaves the pending endpoints
    for (let i = 0; ; i++) {
      const r = await getJson(`${t.url}/api/v3/pendingTraces?ext_msg_hash=${encodeURIComponent(result.hash)}`);
      expect(r.status).toBe(200);
      if (r.body.traces.length === 0) break;
      if (i > 600) throw new Error(`still pending after its block: ${JSON.stringify(r.body.traces[0].trace_info)}`);
      await sleep(100);
    }
    await decodedTo(t.url, net.chain.lastMasterchain!.id.seqno, { timeoutMs: 60_000 });
    const final = await v3(`actions?account=${account}&action_type=jetton_transfer&sort=desc&limit=1`);
    const indexed = final.actions[0];
    expect(indexed.trace_external_hash).toBe(result.hash);
    // the same action the chain then made, but for what only the chain knows
    const chainFree = (a: Json) => ({ ...a, accounts: undefined, finality: undefined, trace_id: undefined, start_lt: undefined, end_lt: undefined, start_utime: undefined, end_utime: undefined, trace_end_lt: undefined, trace_end_utime: undefined, trace_mc_seqno_end: undefined, transactions: undefined, action_id: undefined, transactions_full: undefined });
    expect(chainFree(confirmed)).toEqual(chainFree(indexed));
    expect(indexed.finality).toBe("finalized");
  }, 180_000);
});
