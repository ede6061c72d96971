// API v2 runGetMethod and runGetMethodStd: gateway → lite-proxy → liteserver pool → a localnet,
// the method run in TON's emulator on the proven account state, results compared with what the
// localnet's own emulator answers and validated against toncenter's v2.json.
import { buildShardState, getMethodId, Localnet, localnetProofs } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { runGetMethod } from "../support/localnet-deploy.js";
import { v2ResponseErrors } from "../support/v2-schema.js";

let net: Localnet;
let t: Embedded;

beforeAll(async () => {
  net = await Localnet.start({ seed: "v2-get-methods", wallets: 1, listen: [{ host: "127.0.0.1", port: 0 }], buildState: buildShardState, proofs: localnetProofs, checkWorkers: 0 });
  await net.chain.seal();
  t = await startEmbedded({ globalConfig: net.globalConfig() });
});

afterAll(async () => {
  await t?.close();
  await net?.close();
});

const run = (body: object) => postJson(`${t.url}/api/v2/runGetMethod`, body);

describe("runGetMethod", () => {
  it("runs seqno and get_public_key of a v4r2 wallet by name and by id", async () => {
    const w = net.genesis.wallets[0]!;
    const r = await run({ address: w.address.toString(), method: "get_public_key", stack: [] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(v2ResponseErrors("/api/v2/runGetMethod", r.body)).toBeNull();
    expect(r.body.result.exit_code).toBe(0);
    expect(r.body.result.stack).toEqual([["num", "0x" + w.keyPair.publicKey.toString("hex").replace(/^0+/, "")]]);
    const expected = (await runGetMethod(net, w.address, "seqno")).readBigNumber();
    const byId = await run({ address: w.address.toRawString(), method: getMethodId("seqno"), stack: [] });
    expect(byId.status, JSON.stringify(byId.body)).toBe(200);
    expect(byId.body.result.stack).toEqual([["num", "0x" + expected.toString(16)]]);
    expect(byId.body.result.gas_used).toBeGreaterThan(0);
  });
});
