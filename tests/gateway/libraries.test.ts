// Public libraries end to end (issue 13): an account whose code is the Jetton 2.0 wallet's library
// cell — as mainnet jetton wallets are — runs get_wallet_data through API v2 and v3 once the
// localnet's control API published the library (and fails as toncenter does before); getLibraries
// serves it over ADNL and API v2, and getLibrariesWithProof's proof verifies.
import { Address, Cell } from "@ton/core";
import { AdnlClient } from "@tongate/adnl";
import { startControlApi, type ControlServer, type Localnet } from "@tongate/localnet";
import { type TonNodeBlockIdExt, verifyLibraries } from "@tongate/proof";
import { liteApi, type TlObject } from "@tongate/tl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, postJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { accountWithCode, jetton2WalletCode, jetton2WalletData, jetton2WalletLibrary } from "../support/libraries.js";
import { LocalnetSender } from "../support/localnet-deploy.js";
import { startTestLocalnet } from "../support/localnet.js";
import { v2ResponseErrors } from "../support/v2-schema.js";
import { v3ResponseErrors } from "../support/v3-schema.js";

let net: Localnet;
let control: ControlServer;
let t: Embedded;
let wallet: Address;
let owner: Address;
const code = jetton2WalletCode();

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "libraries-e2e", wallets: 2 });
  control = await startControlApi(net, { host: "127.0.0.1", port: 0 });
  const sender = new LocalnetSender(net, net.genesis.wallets[1]!);
  owner = sender.address;
  wallet = await accountWithCode(sender, jetton2WalletLibrary(), jetton2WalletData({ balance: 777_000n, owner, master: owner }), 1);
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "off" });
});

afterAll(async () => {
  await t?.close();
  await control?.close();
  await net?.close();
});

const v2Run = async () => {
  const r = await postJson(`${t.url}/api/v2/runGetMethod`, { address: wallet.toString(), method: "get_wallet_data", stack: [] });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(v2ResponseErrors("/api/v2/runGetMethod", r.body)).toBeNull();
  return r.body.result;
};
const v3Run = async () => {
  const r = await postJson(`${t.url}/api/v3/runGetMethod`, { address: wallet.toString(), method: "get_wallet_data", stack: [] });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(v3ResponseErrors("/api/v3/runGetMethod", r.body)).toBeNull();
  return r.body;
};
const v2Libraries = async () => (await getJson(`${t.url}/api/v2/getLibraries?libraries=${code.hash().toString("hex")}`)).body.result.result;

describe("public libraries through the gateway", () => {
  it("before publication: the code cannot be loaded (exit code 9), getLibraries finds nothing", async () => {
    expect((await v2Run()).exit_code).toBe(9);
    expect((await v3Run()).exit_code).toBe(9);
    expect(await v2Libraries()).toEqual([]);
  });

  it("POST /localnet/libraries publishes it; get_wallet_data then runs through v2 and v3", async () => {
    const res = await fetch(`http://127.0.0.1:${control.port}/localnet/libraries`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ boc: code.toBoc().toString("base64") }) });
    expect(res.status).toBe(200);
    const published = (await res.json()) as { hash: string; hash_base64: string; mc_seqno: number; published: boolean };
    expect(published).toEqual({ hash: code.hash().toString("hex"), hash_base64: code.hash().toString("base64"), mc_seqno: net.chain.lastMasterchain!.id.seqno, published: true });

    const v2 = await v2Run();
    expect(v2.exit_code).toBe(0);
    expect(v2.stack[0]).toEqual(["num", `0x${(777_000).toString(16)}`]);
    const v3 = await v3Run();
    expect(v3.exit_code).toBe(0);
    expect(v3.stack[0]).toEqual({ type: "num", value: `0x${(777_000).toString(16)}` });
    // The wallet's code (4th value) is the library cell, as on mainnet.
    expect(Cell.fromBase64(v3.stack[3].value).hash()).toEqual(jetton2WalletLibrary().hash());
    const info = (await getJson(`${t.url}/api/v2/getAddressInformation?address=${wallet.toString()}`)).body.result;
    expect(Cell.fromBase64(info.code).hash()).toEqual(jetton2WalletLibrary().hash());
  });

  it("getLibraries (API v2 and ADNL) serves it; getLibrariesWithProof verifies with packages/proof", async () => {
    const [entry] = await v2Libraries();
    expect(entry.hash).toBe(code.hash().toString("base64"));
    expect(Cell.fromBase64(entry.data).hash()).toEqual(code.hash());

    const ls = net.liteservers[0]!;
    const client = await AdnlClient.connect(ls.host, ls.port, ls.publicKey);
    try {
      const query = async (q: TlObject) => liteApi.decode(await client.query(liteApi.encode({ kind: "liteServer.query", data: liteApi.encode(q) })));
      const plain = await query({ kind: "liteServer.getLibraries", library_list: [code.hash(), Buffer.alloc(32, 1)] });
      expect((plain.result as TlObject[]).map((e) => (e.hash as Buffer).toString("hex"))).toEqual([code.hash().toString("hex")]);
      // The trusted block: localnet's own head, not what the liteserver says.
      const head = net.chain.lastMasterchain!.id;
      const last: TonNodeBlockIdExt = { kind: "tonNode.blockIdExt", workchain: -1, shard: -(1n << 63n), seqno: head.seqno, root_hash: head.rootHash, file_hash: head.fileHash };
      const asked = [code.hash(), Buffer.alloc(32, 1)];
      const proven = await query({ kind: "liteServer.getLibrariesWithProof", id: { ...last }, mode: 1, library_list: asked });
      const v = verifyLibraries(proven, last, asked);
      expect(v.found).toEqual([code.hash()]);
      expect(v.libraries.map((l) => l.hash().toString("hex"))).toEqual([code.hash().toString("hex")]);
      expect(v.absent.map((h) => h.toString("hex"))).toEqual([Buffer.alloc(32, 1).toString("hex")]);
      // Tampered answers are rejected: other data under the hash, a library left out, one not asked for.
      const entries = proven.result as { hash: Buffer; data: Buffer }[];
      const other = jetton2WalletLibrary().toBoc();
      expect(() => verifyLibraries({ ...proven, result: [{ ...entries[0]!, data: other }] }, last, asked)).toThrow(/hashes to/);
      expect(() => verifyLibraries({ ...proven, result: [] }, last, asked)).toThrow(/left out of the answer/);
      expect(() => verifyLibraries(proven, last, [Buffer.alloc(32, 1)])).toThrow(/was not asked for/);
    } finally {
      client.close();
    }
  });
});
