// Malformed requests to every API v3 endpoint, through the gateway to the indexer (chDB) over an
// indexed localnet: every answer is a 2xx or 4xx with v3's {"error"} body, never a 5xx; a 422 names
// the parameter at fault; and nothing stored changes (the index reads the same before and after).
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodedTo, getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { brokenCases, fuzzCases, runFuzz } from "../support/fuzz.js";
import { startTestLocalnet } from "../support/localnet.js";

let net: Localnet;
let t: Embedded;
beforeAll(async () => {
  net = await startTestLocalnet({ seed: "v3-fuzz" });
  for (let i = 0; i < 3; i++) await net.chain.seal();
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on", "parse-workers": 1 }); // the indexer parses in a worker here
  for (let i = 0; (await getJson(`${t.url}/api/v3/masterchainInfo`)).body?.last?.seqno !== net.chain.lastMasterchain!.id.seqno; i++) {
    if (i > 300) throw new Error("not indexed");
    await new Promise((r) => setTimeout(r, 100));
  }
  // the decoder's interfaces appear in the address books: the snapshot is taken once it is done
  await decodedTo(t.url, net.chain.lastMasterchain!.id.seqno);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await net?.close();
});

const v3Routes = () => [...t.gateway.routes.byPath.values()].flatMap((m) => [...m.values()]).filter((r) => r.path.startsWith("/api/v3/"));

/** What the index holds, as the API shows it. */
const snapshot = async () =>
  JSON.stringify([
    (await getJson(`${t.url}/api/v3/masterchainInfo`)).body,
    (await getJson(`${t.url}/api/v3/transactions?limit=1000&sort=asc`)).body,
    (await getJson(`${t.url}/api/v3/blocks?limit=1000&sort=asc`)).body,
    (await getJson(`${t.url}/api/v3/topAccountsByBalance?limit=1000`)).body,
  ]);

describe("v3 fuzz", () => {
  it("answers 1,000 random junk requests and 2,000 requests with one broken parameter with 2xx/4xx only; 422s name it; nothing stored changes", async () => {
    const before = await snapshot();
    const names = [...new Set(v3Routes().map((r) => r.path.slice("/api/v3/".length)))];
    const junk = await runFuzz(t.url, fuzzCases(names, 20261123, 1000, "/api/v3/"));
    expect(junk.failures.slice(0, 20)).toEqual([]);
    const address = net.genesis.wallets[0]!.address.toString();
    const broken = await runFuzz(t.url, brokenCases(t.gateway, v3Routes(), address, 20261124, 2000));
    expect(broken.failures.slice(0, 20)).toEqual([]);
    expect(broken.statuses.get(501) ?? 0).toBe(0);
    expect(broken.statuses.get(422)).toBeGreaterThan(800);
    expect(await snapshot()).toBe(before);
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  }, 300_000);
});
