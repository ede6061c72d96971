// API v2 utilities end to end: HTTP → gateway → in-process transport → lite-proxy.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, postJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { v2ErrorErrors, v2ResponseErrors } from "../support/v2-schema.js";

const RAW = "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8";
const BOUNCEABLE = "EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N";
const NON_BOUNCEABLE = "UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI";
const HASH_HEX = "83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8";

let t: Embedded;
beforeAll(async () => {
  t = await startEmbedded();
});
afterAll(async () => {
  await t.close();
});

const enc = encodeURIComponent;

describe("detectAddress", () => {
  it("answers the known vector in toncenter's shape", async () => {
    const { status, body } = await getJson(`${t.url}/api/v2/detectAddress?address=${enc(RAW)}`);
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    expect(body.result).toEqual({
      "@type": "ext.utils.detectedAddress",
      raw_form: RAW,
      bounceable: { "@type": "ext.utils.detectedAddressVariant", b64: BOUNCEABLE, b64url: BOUNCEABLE },
      non_bounceable: { "@type": "ext.utils.detectedAddressVariant", b64: NON_BOUNCEABLE, b64url: NON_BOUNCEABLE },
      given_type: "raw_form",
      test_only: false,
    });
    expect(typeof body["@extra"]).toBe("string");
    expect(v2ResponseErrors("/api/v2/detectAddress", body)).toBeNull();
  });

  it("gives the same address for every input form", async () => {
    const forms = [RAW, RAW.toUpperCase(), BOUNCEABLE, NON_BOUNCEABLE];
    const raws = await Promise.all(forms.map(async (f) => (await getJson(`${t.url}/api/v2/detectAddress?address=${enc(f)}`)).body.result.raw_form));
    expect(new Set(raws)).toEqual(new Set([RAW]));
    const given = (await getJson(`${t.url}/api/v2/detectAddress?address=${enc(NON_BOUNCEABLE)}`)).body.result.given_type;
    expect(given).toBe("friendly_non_bounceable");
  });

  it("is the same through REST GET, REST POST and /jsonRPC", async () => {
    const get = await getJson(`${t.url}/api/v2/detectAddress?address=${enc(BOUNCEABLE)}`);
    const post = await postJson(`${t.url}/api/v2/detectAddress`, { address: BOUNCEABLE });
    const rpc = await postJson(`${t.url}/api/v2/jsonRPC`, { jsonrpc: "2.0", id: "42", method: "detectAddress", params: { address: BOUNCEABLE } });
    expect(post.body.result).toEqual(get.body.result);
    expect(rpc.body.result).toEqual(get.body.result);
    expect(rpc.body.id).toBe("42");
    expect(rpc.body.jsonrpc).toBe("2.0");
    expect(v2ResponseErrors("/api/v2/jsonRPC", rpc.body)).toBeNull();
  });

  it("echoes the client's @extra", async () => {
    expect((await getJson(`${t.url}/api/v2/detectAddress?address=${enc(RAW)}&%40extra=abc`)).body["@extra"]).toBe("abc");
    expect((await postJson(`${t.url}/api/v2/detectAddress`, { address: RAW, "@extra": "def" })).body["@extra"]).toBe("def");
    const rpc = await postJson(`${t.url}/api/v2/jsonRPC`, { id: 7, method: "detectAddress", params: { address: RAW }, "@extra": "ghi" });
    expect(rpc.body["@extra"]).toBe("ghi");
    expect(rpc.body.id).toBe(7);
  });

  it("rejects garbage with 422 naming the parameter and the accepted forms", async () => {
    for (const bad of ["", "hello", RAW.slice(0, -1), BOUNCEABLE.slice(0, -1) + "A", "0:zz" + RAW.slice(4)]) {
      const { status, body } = await getJson(`${t.url}/api/v2/detectAddress?address=${enc(bad)}`);
      expect(status, bad).toBe(422);
      expect(body.ok).toBe(false);
      expect(body.code).toBe(422);
      expect(body.error).toMatch(/^address: /);
      if (bad !== "") expect(body.error).toMatch(/raw/i);
      expect(v2ErrorErrors(body)).toBeNull();
    }
    const missing = await getJson(`${t.url}/api/v2/detectAddress`);
    expect(missing.status).toBe(422);
    expect(missing.body.error).toBe("address: required parameter is missing");
  });
});

describe("detectHash, packAddress, unpackAddress", () => {
  it("detectHash accepts every form and validates against v2.json", async () => {
    const b64 = Buffer.from(HASH_HEX, "hex").toString("base64");
    const b64url = Buffer.from(HASH_HEX, "hex").toString("base64url");
    for (const form of [HASH_HEX, HASH_HEX.toUpperCase(), b64, b64url, b64url + "="]) {
      const { status, body } = await getJson(`${t.url}/api/v2/detectHash?hash=${enc(form)}`);
      expect(status, form).toBe(200);
      expect(body.result["@type"]).toBe("ext.utils.detectedHash");
      expect(body.result.hex).toBe(HASH_HEX);
      expect(body.result.b64).toBe(b64);
      expect(v2ResponseErrors("/api/v2/detectHash", body)).toBeNull();
    }
    expect((await getJson(`${t.url}/api/v2/detectHash?hash=abc`)).status).toBe(422);
  });

  it("packAddress and unpackAddress", async () => {
    const pack = await getJson(`${t.url}/api/v2/packAddress?address=${enc(RAW)}`);
    expect(pack.body.result).toBe(BOUNCEABLE);
    expect(v2ResponseErrors("/api/v2/packAddress", pack.body)).toBeNull();
    const unpack = await getJson(`${t.url}/api/v2/unpackAddress?address=${enc(NON_BOUNCEABLE)}`);
    expect(unpack.body.result).toEqual({ workchain: 0, bounceable: false, testnet: false, addr_hex: HASH_HEX });
    expect(v2ResponseErrors("/api/v2/unpackAddress", unpack.body)).toBeNull();
  });
});

describe("the v2 edge", () => {
  it("answers unknown paths with 404 and wrong methods with 405, in the v2 envelope", async () => {
    const nf = await getJson(`${t.url}/api/v2/noSuchMethod`);
    expect(nf.status).toBe(404);
    expect(nf.body).toMatchObject({ ok: false, code: 404 });
    const wrong = await getJson(`${t.url}/api/v2/sendBoc`);
    expect(wrong.status).toBe(405);
    expect(wrong.body).toMatchObject({ ok: false, code: 405 });
    expect(wrong.body.error).toMatch(/POST/);
  });

  it("answers methods that need a chain with 501 naming the method", async () => {
    const r = await getJson(`${t.url}/api/v2/getAddressInformation?address=${enc(RAW)}`);
    expect(r.status).toBe(501);
    expect(r.body).toMatchObject({ ok: false, code: 501 });
    expect(r.body.error).toContain("getAddressInformation");
  });

  it("routes getShards and its alias shards to one RPC, over REST and /jsonRPC", async () => {
    for (const p of ["getShards", "shards"]) {
      expect((await getJson(`${t.url}/api/v2/${p}?seqno=1`)).status).toBe(501);
      const rpc = await postJson(`${t.url}/api/v2/jsonRPC`, { id: "1", method: p, params: { seqno: 1 } });
      expect(rpc.status).toBe(501);
      expect(rpc.body.id).toBe("1");
    }
  });

  it("validates /jsonRPC params like REST (no bypass)", async () => {
    const r = await postJson(`${t.url}/api/v2/jsonRPC`, { id: "1", method: "getTransactions", params: { address: RAW, limit: 100000 } });
    expect(r.status).toBe(422);
    expect(r.body.error).toMatch(/^limit: /);
    expect(r.body.id).toBe("1");
    const unknown = await postJson(`${t.url}/api/v2/jsonRPC`, { id: "2", method: "noSuch", params: {} });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ ok: false, error: "Unknown method", code: 422, id: "2", jsonrpc: "2.0" });
    expect((await getJson(`${t.url}/api/v2/jsonRPC`)).status).toBe(405);
  });

  it("takes numbers given as strings and rejects non-numbers", async () => {
    const ok = await getJson(`${t.url}/api/v2/lookupBlock?workchain=-1&shard=-9223372036854775808&seqno=5`);
    expect(ok.status).toBe(501); // parsed and validated, then reaches the service
    const bad = await getJson(`${t.url}/api/v2/lookupBlock?workchain=x&shard=-9223372036854775808&seqno=5`);
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/^workchain: expected an integer/);
    const two = await getJson(`${t.url}/api/v2/lookupBlock?workchain=-1&shard=-9223372036854775808&seqno=5&unixtime=1`);
    expect(two.status).toBe(422);
    expect(two.body.error).toMatch(/exactly one of seqno, lt, unixtime/);
  });

  it("rejects bad JSON and oversized bodies with 4xx", async () => {
    const bad = await postJson(`${t.url}/api/v2/detectAddress`, "{not json");
    expect(bad.status).toBe(422);
    const big = await postJson(`${t.url}/api/v2/detectAddress`, { address: "x".repeat(2 << 20) });
    expect(big.status).toBe(413);
  });

  it("answers CORS preflight and marks responses", async () => {
    const pre = await fetch(`${t.url}/api/v2/detectAddress`, { method: "OPTIONS", headers: { origin: "https://example.org", "access-control-request-method": "POST" } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    const r = await getJson(`${t.url}/api/v2/detectAddress?address=${enc(RAW)}`);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("serves /healthz, /metrics, the OpenAPI document and Swagger UI", async () => {
    // no chain: only the emulator's processes, not started until a get-method needs them
    expect((await getJson(`${t.url}/healthz`)).body).toMatchObject({ status: "ok", detail: { dependencies: { emulator: { ok: true, detail: { state: "idle" } } } } });
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toMatch(/tongate_http_requests_total\{route="\/api\/v2\/detectAddress",method="GET",status="200"\} \d+/);
    const spec = (await getJson(`${t.url}/api/v2/openapi.json`)).body;
    expect(spec.openapi).toBe("3.1.0");
    expect(Object.keys(spec.paths).length).toBeGreaterThanOrEqual(35);
    expect(spec.paths["/api/v2/detectAddress"].get.parameters[0]).toMatchObject({ name: "address", in: "query", required: true });
    const html = await (await fetch(`${t.url}/api/v2/`)).text();
    expect(html).toContain("swagger-ui-bundle.js");
    const js = await fetch(`${t.url}/api/v2/swagger/swagger-ui-bundle.js`);
    expect(js.status).toBe(200);
  });
});
