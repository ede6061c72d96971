// Tick and tock transactions as a user sees them: every localnet masterchain block holds the
// elector's tick (-1:3333…, first) and the config contract's tock (-1:5555…, last), as mainnet
// blocks do. API v2 lists them in getBlockTransactions; API v3 (the indexer in the gateway's
// process, chDB) shows them as toncenter does: description type tick_tock with is_tock, no in_msg.
import { Address, toNano } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { LocalnetSender } from "../support/localnet-deploy.js";
import { startTestLocalnet } from "../support/localnet.js";
import { v3ResponseErrors } from "../support/v3-schema.js";

const ELECTOR = `-1:${"33".repeat(32)}`;
const CONFIG = `-1:${"55".repeat(32)}`;
const MC_SHARD = "-9223372036854775808";

let net: Localnet;
let t: Embedded;
let head: number;
/** The masterchain block in which a wallet's transfer reached the elector. */
let withTransfer: number;

const b64 = (b: Buffer) => b.toString("base64");

async function v2(path: string): Promise<any> {
  const r = await getJson(`${t.url}/api/v2/${path}`);
  expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body.result;
}

async function v3(path: string): Promise<any> {
  const r = await getJson(`${t.url}/api/v3/${path}`);
  expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
  expect(v3ResponseErrors(`/api/v3/${path.split("?")[0]}`, r.body)).toBeNull();
  return r.body;
}

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "ticktock-e2e" });
  const sender = new LocalnetSender(net, net.genesis.wallets.find((w) => w.version === "v4r2")!);
  await sender.send({ to: Address.parseRaw(ELECTOR), value: toNano("5") });
  withTransfer = net.chain.lastMasterchain!.id.seqno;
  await net.chain.seal();
  head = net.chain.lastMasterchain!.id.seqno;
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on" });
  for (let i = 0; ; i++) {
    const r = await getJson(`${t.url}/api/v3/masterchainInfo`);
    if (r.status === 200 && r.body.last.seqno >= head) break;
    if (i > 300) throw new Error(`not indexed up to ${head}: ${JSON.stringify(r.body)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
  await net?.close();
});

describe("tick and tock transactions through the gateway", () => {
  it("v2 getBlockTransactions lists the tick and the tock of every masterchain block", async () => {
    for (let seqno = 1; seqno <= head; seqno++) {
      const block = net.chain.masterchain[seqno - 1]!;
      const r = await v2(`getBlockTransactions?workchain=-1&shard=${MC_SHARD}&seqno=${seqno}&count=40`);
      expect(r.incomplete).toBe(false);
      // (account, lt) order: the elector's tick (and the transfer it got), then the config's tock
      const lts = [[ELECTOR, block.startLt + 1n], ...(seqno === withTransfer ? [[ELECTOR, block.startLt + 2n]] : []), [CONFIG, block.endLt - 1n]];
      expect(r.transactions.map((x: any) => [x.account, BigInt(x.lt)])).toEqual(lts);
      const hashes = new Map(block.transactions.map((x) => [x.lt, b64(x.hash)]));
      for (const x of r.transactions) expect(x.hash).toBe(hashes.get(BigInt(x.lt)));
    }
  });

  it("v2 getTransactions: the config contract's history is its tock transactions", async () => {
    const txs = await v2(`getTransactions?address=${CONFIG}&limit=100`);
    for (const x of txs) {
      expect(x.account).toBe(CONFIG);
      expect(x.fee).toBe("0"); // special accounts pay no gas and no storage
      expect(x.out_msgs).toEqual([]);
      expect(x.in_msg ?? null).toBeNull(); // no inbound message (tonlib's raw.transaction has in_msg null)
    }
    expect(txs.map((x: any) => BigInt(x.transaction_id.lt))).toEqual(net.chain.masterchain.map((b) => b.endLt - 1n).reverse());
  });

  it("v3 /transactions?workchain=-1 shows them as toncenter does: tick_tock, is_tock, no in_msg", async () => {
    const { transactions } = await v3("transactions?workchain=-1&limit=1000&sort=asc");
    const expectedCount = net.chain.masterchain.reduce((n, b) => n + b.transactions.length, 0);
    expect(transactions).toHaveLength(expectedCount);
    for (let seqno = 1; seqno <= head; seqno++) {
      const inBlock = transactions.filter((x: any) => x.block_ref.seqno === seqno);
      const first = inBlock[0];
      const last = inBlock[inBlock.length - 1];
      expect(first.account).toBe(ELECTOR);
      expect(first.description).toMatchObject({ type: "tick_tock", aborted: false, destroyed: false, is_tock: false, compute_ph: { success: true, exit_code: 0 } });
      expect(last.account).toBe(CONFIG);
      expect(last.description).toMatchObject({ type: "tick_tock", aborted: false, destroyed: false, is_tock: true, compute_ph: { success: true, exit_code: 0 } });
      for (const x of [first, last]) {
        // No inbound message. toncenter renders `"in_msg": null` (ton-index-go's Transaction.InMsg has
        // no omitempty); tongate's renderer leaves unset message fields out.
        expect(x.in_msg ?? null).toBeNull();
        expect(x.out_msgs).toEqual([]);
        expect(x.total_fees).toBe("0");
        expect(x.mc_block_seqno).toBe(seqno);
        // A transaction without an inbound message starts its own trace.
        expect(x.trace_id).toBe(x.hash);
      }
      expect(inBlock.length).toBe(seqno === withTransfer ? 3 : 2);
    }
    // A tick is a trace of its own: one transaction, no external message.
    const tick = transactions.find((x: any) => x.block_ref.seqno === head && x.description.type === "tick_tock" && !x.description.is_tock);
    const { traces } = await v3(`traces?tx_hash=${encodeURIComponent(tick.hash)}`);
    expect(traces).toHaveLength(1);
    expect(traces[0].trace_id).toBe(tick.hash);
    expect(traces[0].trace_info).toMatchObject({ trace_state: "complete", transactions: 1, pending_messages: 0 });
    expect(traces[0].external_hash ?? null).toBeNull();
    const transfer = transactions.find((x: any) => x.block_ref.seqno === withTransfer && x.description.type === "ord");
    expect(transfer.account).toBe(ELECTOR);
    expect(transfer.in_msg.value).toBe(toNano("5").toString());
  });
});
