// API v2 configuration methods end to end: getConfigParam, getConfigAll and getLibraries over a localnet
// whose masterchain state also holds one public library (put there by a state builder of this test).
import { Address, beginCell, Cell, Dictionary } from "@ton/core";
import { libDescr, loadShardStateUnsplit, shardStateCell, type ShardStateOther } from "@tongate/block";
import { buildShardState, type Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, postJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { v2ErrorErrors, v2ResponseErrors } from "../support/v2-schema.js";
import { startTestLocalnet } from "../support/localnet.js";

let net: Localnet;
let t: Embedded;

const library = beginCell().storeUint(0xdeadbeef, 32).storeStringTail("a tongate test library").endCell();
const publisher = new Address(-1, Buffer.alloc(32, 0x5e));

/** Localnet's states, with `library` among the masterchain state's public libraries. */
const withLibrary: typeof buildShardState = (input) => {
  const cell = buildShardState(input);
  if (input.workchain !== -1) return cell;
  const state = loadShardStateUnsplit(cell.beginParse());
  (state.other as ShardStateOther).libraries.set(BigInt(`0x${library.hash().toString("hex")}`), libDescr(library, [publisher.hash]));
  // The other parts as built (refs: out queue, accounts, ^[… libraries …], McStateExtra).
  return shardStateCell({ ...state, outMsgQueueInfo: cell.refs[0]!, accounts: cell.refs[1]!, custom: cell.refs[3]! });
};

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "v2-config", buildState: withLibrary });
  await net.chain.seal();
  await net.chain.seal();
  t = await startEmbedded({ globalConfig: net.globalConfig() });
});

afterAll(async () => {
  await t?.close();
  await net?.close();
});

async function get(method: string, query = "") {
  const r = await getJson(`${t.url}/api/v2/${method}${query ? `?${query}` : ""}`);
  expect(r.status === 200 ? v2ResponseErrors(`/api/v2/${method}`, r.body) : v2ErrorErrors(r.body)).toBeNull();
  return r;
}

/** The localnet's configuration (the genesis one: nothing changes it). */
const configParam = (n: number) => Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), net.genesis.config).get(n)!;
const cellOf = (result: { "@type": string; config: { "@type": string; bytes: string } }) => {
  expect(result["@type"]).toBe("configInfo");
  expect(result.config["@type"]).toBe("tvm.cell");
  return Cell.fromBase64(result.config.bytes);
};

describe("API v2 config over a localnet", () => {
  it("getConfigParam: one parameter's cell, by param or config_id, now or at a past block (GET, POST, jsonRPC)", async () => {
    for (const n of [0, 34, 8]) {
      const r = await get("getConfigParam", `param=${n}`);
      expect(r.status).toBe(200);
      expect(cellOf(r.body.result).hash()).toEqual(configParam(n).hash());
    }
    const alias = await get("getConfigParam", "config_id=34&seqno=1");
    expect(cellOf(alias.body.result).hash()).toEqual(configParam(34).hash());
    const post = await postJson(`${t.url}/api/v2/getConfigParam`, { param: 12, seqno: 2 });
    expect(v2ResponseErrors("/api/v2/getConfigParam", post.body)).toBeNull();
    expect(cellOf(post.body.result).hash()).toEqual(configParam(12).hash());
    const rpc = await postJson(`${t.url}/api/v2/jsonRPC`, { jsonrpc: "2.0", id: 1, method: "getConfigParam", params: { config_id: 1 } });
    expect(cellOf(rpc.body.result).hash()).toEqual(configParam(1).hash());
  });

  it("getConfigParam: a parameter that is not set, a block that does not exist, a missing param", async () => {
    const unset = await get("getConfigParam", "param=999");
    expect(unset.status).toBe(404);
    expect(unset.body.error).toMatch(/^param: config param 999 is not set/);
    const future = await get("getConfigParam", "param=34&seqno=10000");
    expect(future.status).toBe(404);
    expect(future.body.error).toMatch(/seqno 10000 was not found/);
    expect((await get("getConfigParam")).status).toBe(422);
    expect((await get("getConfigParam", "param=34&seqno=0")).status).toBe(422);
  });

  it("getConfigAll: the whole ConfigParams dictionary, now and at a past block", async () => {
    for (const query of ["", "seqno=1"]) {
      const r = await get("getConfigAll", query);
      expect(r.status).toBe(200);
      expect(cellOf(r.body.result).hash()).toEqual(net.genesis.config.hash());
    }
    expect((await get("getConfigAll", "seqno=10000")).status).toBe(404);
  });

  it("getLibraries: the library cells found among the hashes asked for", async () => {
    const hash = library.hash();
    const missing = Buffer.alloc(32, 0x42);
    const r = await get("getLibraries", `libraries=${hash.toString("hex")}&libraries=${encodeURIComponent(missing.toString("base64"))}`);
    expect(r.status).toBe(200);
    expect(r.body.result).toEqual({ "@type": "smc.libraryResult", result: [{ "@type": "smc.libraryEntry", hash: hash.toString("base64"), data: expect.any(String) }] });
    expect(Cell.fromBase64(r.body.result.result[0].data).hash()).toEqual(hash);
    expect((await get("getLibraries", `libraries=${missing.toString("hex")}`)).body.result.result).toEqual([]);
    expect((await get("getLibraries")).body.result.result).toEqual([]);
    const post = await postJson(`${t.url}/api/v2/getLibraries`, { libraries: [hash.toString("base64url").slice(0, 43)] });
    expect(post.body.result.result).toHaveLength(1);
    const bad = await get("getLibraries", "libraries=xyz");
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/^libraries\[0\]: /);
  });
});
