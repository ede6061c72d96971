// Malformed requests to every API v2 method, through the gateway to lite-proxy and a localnet: every
// answer is a 2xx or 4xx in the right envelope (or a 501 for a method not implemented yet, counted),
// never a 5xx (504 and 542 included), a 422 names the parameter that is wrong, and the server keeps
// answering. Two generators: random junk, and valid requests with one parameter broken.
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbedded, type Embedded } from "../support/embedded.js";
import { brokenCases, fuzzCases, runFuzz } from "../support/fuzz.js";
import { startTestLocalnet } from "../support/localnet.js";

let net: Localnet;
let t: Embedded;
beforeAll(async () => {
  net = await startTestLocalnet({ seed: "fuzz" });
  await net.chain.seal();
  await net.chain.seal();
  t = await startEmbedded({ globalConfig: net.globalConfig() });
});
afterAll(async () => {
  await t?.close();
  await net?.close();
});

/** Every API v2 method name (both names of shards/getShards). */
const v2Methods = () => [...t.gateway.routes.byRpcName.keys()];

describe("fuzz", () => {
  it("answers 2,500 random junk requests with 2xx/4xx (or 501), never a 5xx", async () => {
    const { failures } = await runFuzz(t.url, fuzzCases(v2Methods(), 20261121, 2500));
    expect(failures.slice(0, 20)).toEqual([]);
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  });

  it("answers 3,000 requests with one broken parameter of every v2 method with 2xx/4xx (or 501), 422s naming it", async () => {
    const routes = [...t.gateway.routes.byRpcName.values()];
    const address = net.genesis.wallets[0]!.address.toString();
    const { failures, statuses } = await runFuzz(t.url, brokenCases(t.gateway, routes, address, 20261122, 3000));
    expect(failures.slice(0, 20)).toEqual([]);
    expect(statuses.get(422)).toBeGreaterThan(1000);
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  });
});
