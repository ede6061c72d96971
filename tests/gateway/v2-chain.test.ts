// API v2 methods that read the chain: gateway → lite-proxy → liteserver pool →
// ADNL → a localnet, checked against what the chain holds and against v2.json.
import { Address, Cell } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, postJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { v2ErrorErrors, v2ResponseErrors } from "../support/v2-schema.js";
import { startTestLocalnet } from "../support/localnet.js";

let net: Localnet;
let t: Embedded;

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "v2-chain" });
  await net.chain.seal();
  t = await startEmbedded({ globalConfig: net.globalConfig() });
});

afterAll(async () => {
  await t?.close();
  await net?.close();
});

const enc = encodeURIComponent;

describe("API v2 over a localnet", () => {
  it("getMasterchainInfo is the localnet's head, in toncenter's shape", async () => {
    const r = await getJson(`${t.url}/api/v2/getMasterchainInfo`);
    expect(r.status).toBe(200);
    expect(v2ResponseErrors("/api/v2/getMasterchainInfo", r.body)).toBeNull();
    const last = net.chain.lastMasterchain!;
    expect(r.body.result.last).toEqual({
      "@type": "ton.blockIdExt",
      workchain: -1,
      shard: "-9223372036854775808",
      seqno: last.id.seqno,
      root_hash: last.id.rootHash.toString("base64"),
      file_hash: last.id.fileHash.toString("base64"),
    });
    expect(r.body.result.init.root_hash).toBe(net.chain.mcZero.rootHash.toString("base64"));
    const rpc = await postJson(`${t.url}/api/v2/jsonRPC`, { id: "1", method: "getMasterchainInfo", params: {} });
    expect(rpc.body.result.last.seqno).toBeGreaterThanOrEqual(last.id.seqno);
  });

  it("getConsensusBlock follows the pool's consensus", async () => {
    await new Promise((r) => setTimeout(r, 1200)); // one probe round
    const r = await getJson(`${t.url}/api/v2/getConsensusBlock`);
    expect(r.status).toBe(200);
    expect(v2ResponseErrors("/api/v2/getConsensusBlock", r.body)).toBeNull();
    expect(r.body.result.consensus_block).toBe(net.chain.lastMasterchain!.id.seqno);
  });

  it("getAddressBalance and getAddressState read accounts, now and at a past block", async () => {
    const w = net.genesis.wallets[0]!.address;
    const bal = await getJson(`${t.url}/api/v2/getAddressBalance?address=${enc(w.toString())}`);
    expect(bal.status).toBe(200);
    expect(bal.body.result).toBe((1_000_000n * 1_000_000_000n).toString());
    expect(v2ResponseErrors("/api/v2/getAddressBalance", bal.body)).toBeNull();
    const st = await getJson(`${t.url}/api/v2/getAddressState?address=${enc(w.toRawString())}`);
    expect(st.body.result).toBe("active");
    expect(v2ResponseErrors("/api/v2/getAddressState", st.body)).toBeNull();

    const fresh = new Address(0, Buffer.alloc(32, 0x5a));
    const before = await getJson(`${t.url}/api/v2/getAddressState?address=${enc(fresh.toRawString())}`);
    expect(before.body.result).toBe("uninitialized");
    await net.faucet(fresh, 2_000_000_000n);
    const seqnoBefore = net.chain.lastMasterchain!.id.seqno - 1;
    const after = await getJson(`${t.url}/api/v2/getAddressBalance?address=${enc(fresh.toRawString())}`);
    expect(BigInt(after.body.result)).toBeGreaterThan(1_900_000_000n);
    const past = await getJson(`${t.url}/api/v2/getAddressBalance?address=${enc(fresh.toRawString())}&seqno=${seqnoBefore}`);
    expect(past.body.result).toBe("0");
  });

  it("getAddressInformation: balance, code, data, last transaction and block, checked against proofs", async () => {
    const w = net.genesis.wallets[0]!;
    const r = await getJson(`${t.url}/api/v2/getAddressInformation?address=${enc(w.address.toString())}`);
    expect(r.status).toBe(200);
    expect(v2ResponseErrors("/api/v2/getAddressInformation", r.body)).toBeNull();
    const res = r.body.result;
    expect(res["@type"]).toBe("raw.fullAccountState");
    expect(res.state).toBe("active");
    expect(Cell.fromBase64(res.code).hash()).toEqual(w.init.code!.hash());
    expect(res.block_id.seqno).toBe(net.chain.lastMasterchain!.id.seqno);
    expect(res.last_transaction_id["@type"]).toBe("internal.transactionId");
    expect(res.sync_utime).toBeGreaterThan(0);
    // After the faucet sent from it, its last transaction is the faucet's.
    const sent = await net.faucet(new Address(0, Buffer.alloc(32, 0x6b)), 1_000_000_000n);
    const again = (await getJson(`${t.url}/api/v2/getAddressInformation?address=${enc(w.address.toRawString())}`)).body.result;
    expect(again.last_transaction_id.lt).toBe(sent.lt.toString());
    expect(again.last_transaction_id.hash).toBe(sent.hash.toString("base64"));
    const none = (await getJson(`${t.url}/api/v2/getAddressInformation?address=${enc(new Address(0, Buffer.alloc(32, 0x01)).toRawString())}`)).body.result;
    expect(none).toMatchObject({ balance: "0", state: "uninitialized", code: "", data: "" });
  });

  it("answers client mistakes with 4xx", async () => {
    const bad = await getJson(`${t.url}/api/v2/getAddressBalance?address=nope`);
    expect(bad.status).toBe(422);
    expect(v2ErrorErrors(bad.body)).toBeNull();
    const future = await getJson(`${t.url}/api/v2/getAddressBalance?address=${enc(net.genesis.wallets[0]!.address.toRawString())}&seqno=999999`);
    expect(future.status).toBe(404);
    expect(future.body.error).toMatch(/not found/);
  });
});
