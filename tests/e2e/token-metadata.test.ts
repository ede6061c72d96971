// Token metadata end to end on a localnet, on the fixtures' real jetton and NFT code: on-chain
// content (name, symbol, image, decimals in the master's dictionary), off-chain content (a URI the
// test serves on loopback, fetched with --metadata-allow-private), semi-chain content (an on-chain
// dictionary with a `uri`: the JSON's fields, the on-chain ones laid over them), NFT items whose URI
// is their collection's common content joined to their own. Servers that hang, answer 10 MB or
// invalid JSON stall nothing: those tokens are indexed as not valid, and the others are answered.
// `metadata` of /jetton/wallets, /jetton/transfers, /nft/items, /messages and /metadata (toncenter's
// /transactions answer has no metadata); every
// answer validates against v3.yaml. (A redirect to a private address without the flag is refused by
// @tongate/metadata-fetch, whose tests assert it without a packet leaving loopback.)
import { createServer, type Server } from "node:http";
import type { Address } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onchainContent } from "../support/contracts/index.js";
import { decodedTo, getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { startTestLocalnet } from "../support/localnet.js";
import { actorsOf } from "../support/scenarios/chain.js";
import { jettonScenario, type JettonScenario } from "../support/scenarios/jettons.js";
import { getgemsScenario, type GetgemsScenario } from "../support/scenarios/nfts.js";
import { v3ResponseErrors } from "../support/v3-schema.js";

let net: Localnet;
let t: Embedded;
let server: Server;
let base: string;
let j: Record<"onchain" | "semichain" | "offchain" | "hang" | "big" | "invalid", JettonScenario>;
let nft: GetgemsScenario;
let mcSeqno = 0;

const raw = (a: Address) => a.toRawString().toUpperCase();

/** The test's metadata server: good JSON, and the three hostile answers. */
function metadataServer(): Server {
  return createServer((req, res) => {
    const url = req.url ?? "";
    const json = (v: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(v));
    if (url === "/off.json") return json({ name: "Off-chain jetton", symbol: "OFF", image: "http://img.test/off.png", decimals: "6", description: "served on loopback" });
    if (url === "/semi.json") return json({ name: "Semi from JSON", symbol: "NOT-THIS", image: "http://img.test/semi.png", decimals: 3 });
    const item = /^\/items\/(\d+)\.json$/.exec(url);
    if (item) return json({ name: `Item ${item[1]}`, image: `http://img.test/item-${item[1]}.png`, attributes: [{ trait_type: "n", value: Number(item[1]) }] });
    if (url === "/hang") return; // never answers
    if (url === "/big") {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const more = () => {
        while (sent < 10 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        res.end();
      };
      return more();
    }
    if (url === "/invalid") return res.writeHead(200, { "content-type": "application/json" }).end("{ not json");
    res.writeHead(404).end();
  });
}

async function v3(path: string, query: string) {
  const r = await getJson(`${t.url}/api/v3/${path}?${query}`);
  expect(r.status, `${path}?${query}: ${JSON.stringify(r.body)}`).toBe(200);
  expect(v3ResponseErrors(`/api/v3/${path}`, r.body), `${path} against v3.yaml`).toBeNull();
  return r.body;
}

beforeAll(async () => {
  server = metadataServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
  net = await startTestLocalnet({ seed: "token-metadata", wallets: 3 });
  const actors = actorsOf(net);
  j = {
    onchain: await jettonScenario(net, actors, "legacy"),
    semichain: await jettonScenario(net, actors, "legacy", { content: onchainContent({ uri: `${base}/semi.json`, symbol: "SEMI" }), queryIdBase: 10_000n }),
    offchain: await jettonScenario(net, actors, "jetton2", { metadataUri: `${base}/off.json` }),
    hang: await jettonScenario(net, actors, "stablecoin", { metadataUri: `${base}/hang` }),
    big: await jettonScenario(net, actors, "legacy", { content: onchainContent({ uri: `${base}/big` }), queryIdBase: 20_000n }),
    invalid: await jettonScenario(net, actors, "legacy", { content: onchainContent({ uri: `${base}/invalid` }), queryIdBase: 30_000n }),
  };
  nft = await getgemsScenario(net, actors, { commonContent: `${base}/items/` });
  mcSeqno = net.chain.lastMasterchain!.id.seqno;
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on", "metadata-fetch": "on", "metadata-allow-private": true, "metadata-timeout-ms": "1500" });
  await decodedTo(t.url, mcSeqno);
  // every token's content fetched (or failed): the hanging one after its timeout
  const tokens = [...Object.values(j).map((x) => raw(x.master.address)), ...nft.items.map((i) => raw(i.address))];
  for (let i = 0; ; i++) {
    const m = await v3("metadata", tokens.map((a) => `address=${a}`).join("&"));
    if (tokens.every((a) => m[a]?.is_indexed)) break;
    if (i > 150) throw new Error(`metadata not indexed: ${JSON.stringify(m)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}, 300_000);

afterAll(async () => {
  await t?.close();
  await net?.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

const masterInfo = (m: Record<string, { token_info: Record<string, unknown>[] }>, x: JettonScenario) => m[raw(x.master.address)]?.token_info[0];

describe("jetton metadata", () => {
  it("on-chain content: name, symbol, image and decimals in /jetton/wallets' metadata, with each wallet's entry", async () => {
    const body = await v3("jetton/wallets", `jetton_address=${raw(j.onchain.master.address)}&limit=100`);
    expect(masterInfo(body.metadata, j.onchain)).toMatchObject({ type: "jetton_masters", valid: true, name: "Scenario legacy jetton", symbol: "LEGACY", image: "https://example.org/legacy.png", extra: { decimals: "9" } });
    const w = body.jetton_wallets[0];
    expect(body.metadata[w.address]).toEqual({ is_indexed: true, token_info: [{ type: "jetton_wallets", valid: true, extra: { owner: w.owner, jetton: w.jetton, balance: w.balance } }] });
  });

  it("off-chain content: the JSON the URI serves (decimals: the on-chain one Jetton 2.0's get_jetton_data adds), in /jetton/transfers' metadata", async () => {
    const body = await v3("jetton/transfers", `jetton_master=${raw(j.offchain.master.address)}&limit=10`);
    expect(body.jetton_transfers.length).toBeGreaterThan(0);
    expect(masterInfo(body.metadata, j.offchain)).toMatchObject({ valid: true, name: "Off-chain jetton", symbol: "OFF", image: "http://img.test/off.png", extra: { decimals: "9", uri: `${base}/off.json` } });
  });

  it("semi-chain content: the JSON's fields, the on-chain ones over them", async () => {
    const m = await v3("metadata", `address=${raw(j.semichain.master.address)}`);
    expect(masterInfo(m, j.semichain)).toMatchObject({ valid: true, name: "Semi from JSON", symbol: "SEMI", image: "http://img.test/semi.png", extra: { decimals: 3 } });
  });

  it.each(["hang", "big", "invalid"] as const)("a server that answers %s: indexed, not valid; nothing else held up", async (k) => {
    const m = await v3("metadata", `address=${raw(j[k].master.address)}`);
    expect(m[raw(j[k].master.address)]).toEqual({ is_indexed: true, token_info: [{ type: "jetton_masters", valid: false }] });
    const h = (await getJson(`${t.url}/healthz`)).body.detail.decoder.metadataFetch;
    expect(h.failed).toMatchObject({ timeout: 1, too_large: 1, invalid_json: 1 });
  });

  it("/messages carries the metadata of the tokens it mentions (toncenter's /transactions has none)", async () => {
    const body = await v3("messages", `destination=${raw(j.onchain.master.address)}&limit=5`);
    expect(masterInfo(body.metadata, j.onchain)).toMatchObject({ symbol: "LEGACY" });
  });
});

describe("NFT metadata", () => {
  it("items: their URI is the collection's common content joined to their own; the collection's is on-chain", async () => {
    const body = await v3("nft/items", `collection_address=${raw(nft.collection.address)}&limit=100`);
    expect(body.nft_items.length).toBe(nft.items.length);
    for (const i of nft.items) {
      expect(body.metadata[raw(i.address)], `item ${i.index}`).toMatchObject({
        is_indexed: true,
        token_info: [{ type: "nft_items", valid: true, name: `Item ${i.index}`, image: `http://img.test/item-${i.index}.png`, nft_index: i.index.toString(), extra: { uri: `${base}/items/${i.index}.json` } }],
      });
    }
    expect(body.metadata[raw(nft.collection.address)].token_info[0]).toMatchObject({ type: "nft_collections", valid: true, name: "Scenario collection", image: "https://example.org/scenario-nft.png" });
  });
});

describe("/api/v3/metadata", () => {
  it("an address that is no token is left out; a bad address is a 422 naming the parameter", async () => {
    expect(await v3("metadata", `address=${raw(nft.sales.open.address)}`)).toEqual({});
    const bad = await getJson(`${t.url}/api/v3/metadata?address=nonsense`);
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/address/);
  });
});
