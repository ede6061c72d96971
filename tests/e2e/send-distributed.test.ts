// Distributed layout of the send service: `tongate serve --service send` on a localnet's chain, and
// a gateway reaching it with --upstream send=URL (lite-proxy, the indexer's API v3 in the gateway's
// process). A wallet's transfers go through API v2's sendBocReturnHash, /jsonRPC's sendBoc and API
// v3's /message, over HTTP → gRPC → the liteserver, and land on the chain.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Address, beginCell, Cell, external, internal, loadMessage, SendMode, storeMessage, toNano } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import type { Localnet } from "@tongate/localnet";
import { normalizedHash } from "@tongate/ton";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../bench/support/processes.js";
import { postJson } from "../support/embedded.js";
import { runGetMethod } from "../support/localnet-deploy.js";
import { startTestLocalnet } from "../support/localnet.js";
import { Tongates } from "../support/tongate.js";

const procs = new Tongates();
const dir = mkdtempSync(join(tmpdir(), "tongate-send-distributed-"));
let net: Localnet;
let url = "";
let wallet: WalletContractV4;
let secretKey: Buffer;
const VALID_UNTIL = Math.floor(Date.now() / 1000) + 900;

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "send-distributed", wallets: 2 });
  await net.chain.seal();
  const g = net.genesis.wallets[2]!;
  wallet = WalletContractV4.create({ workchain: 0, publicKey: g.keyPair.publicKey });
  secretKey = g.keyPair.secretKey;
  const globalConfig = join(dir, "global-config.json");
  writeFileSync(globalConfig, JSON.stringify(net.globalConfig()));
  const [grpc, http] = await Promise.all([freePort(), freePort()]);
  await procs.start(["serve", "--service", "send", "--global-config", globalConfig, "--listen", `127.0.0.1:${grpc}`], /services listening/);
  await procs.start(["gateway", "--upstream", `send=http://127.0.0.1:${grpc}`, "--global-config", globalConfig, "--index", "off", "--ratelimit", "off", "--host", "127.0.0.1", "--port", String(http)], /gateway listening/);
  url = `http://127.0.0.1:${http}`;
}, 90_000);

afterAll(async () => {
  await procs.stop();
  await net?.close();
  rmSync(dir, { recursive: true, force: true });
});

const hashNorm = (root: Cell) => normalizedHash(loadMessage(root.beginParse())).toString("base64");
const seqno = async () => (await runGetMethod(net, wallet.address, "seqno")).readNumber();

/** A signed transfer of our wallet at its current seqno, as an external message's BoC. */
async function transfer(to: Address): Promise<{ boc: string; root: Cell }> {
  const body = wallet.createTransfer({ seqno: await seqno(), timeout: VALID_UNTIL, secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [internal({ to, value: toNano("0.5"), bounce: false })] });
  const root = beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell();
  return { boc: root.toBoc().toString("base64"), root };
}

describe("the send service in its own process, behind a gateway", () => {
  it("sendBocReturnHash answers the hashes, and the transfer lands", async () => {
    const before = await seqno();
    const { boc, root } = await transfer(new Address(0, Buffer.alloc(32, 0x51)));
    const r = await postJson(`${url}/api/v2/sendBocReturnHash`, { boc });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.result).toEqual({ "@type": "raw.extMessageInfo", hash: root.hash().toString("base64"), hash_norm: hashNorm(root) });
    await net.chain.seal();
    expect(await seqno()).toBe(before + 1);
  });

  it("/jsonRPC's sendBoc and API v3's /message reach it too", async () => {
    const before = await seqno();
    const a = await transfer(new Address(0, Buffer.alloc(32, 0x52)));
    const rpc = await postJson(`${url}/api/v2/jsonRPC`, { jsonrpc: "2.0", id: 7, method: "sendBoc", params: { boc: a.boc } });
    expect(rpc.body, JSON.stringify(rpc.body)).toMatchObject({ ok: true, result: { "@type": "ok" }, id: 7, jsonrpc: "2.0" });
    await net.chain.seal();
    expect(await seqno()).toBe(before + 1);
    const b = await transfer(new Address(0, Buffer.alloc(32, 0x53)));
    const v3 = await postJson(`${url}/api/v3/message`, { boc: b.boc });
    expect(v3.status, JSON.stringify(v3.body)).toBe(200);
    expect(v3.body).toEqual({ message_hash: b.root.hash().toString("base64"), message_hash_norm: hashNorm(b.root) });
    await net.chain.seal();
    expect(await seqno()).toBe(before + 2);
  });

  it("a message the contract refuses is a 409 across the process boundary, a malformed one a 422", async () => {
    const replay = await transfer(new Address(0, Buffer.alloc(32, 0x54)));
    expect((await postJson(`${url}/api/v2/sendBoc`, { boc: replay.boc })).status).toBe(200);
    const again = await postJson(`${url}/api/v2/sendBoc`, { boc: replay.boc });
    // the liteserver refuses the replayed seqno only once the first has landed
    await net.chain.seal();
    const late = await postJson(`${url}/api/v2/sendBoc`, { boc: replay.boc });
    expect([again.status, late.status]).toContain(409);
    const bad = await postJson(`${url}/api/v2/sendBoc`, { boc: beginCell().storeUint(1, 8).endCell().toBoc().toString("base64") });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/^boc: the cell is not a message/);
  });
});
