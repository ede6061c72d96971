// The printed global config is enough for an unmodified ton-lite-client, and the
// control API's faucet funds an address that the client then sees.
import { once } from "node:events";
import http from "node:http";
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import { Address, beginCell } from "@ton/core";
import { LiteClient, LiteSingleEngine } from "ton-lite-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildShardState } from "../src/chain/state.js";
import { startControlApi, type ControlServer } from "../src/control.js";
import { Localnet } from "../src/localnet.js";
import { jetton2WalletLibrary } from "../../../tests/support/libraries.js";
import { localnetProofs } from "../src/proofs.js";

let net: Localnet;
let control: ControlServer;
let engine: LiteSingleEngine | undefined;
const base = () => `http://127.0.0.1:${control.port}`;
const JSON_TYPE = { "content-type": "application/json" };

beforeAll(async () => {
  net = await Localnet.start({ seed: "control", wallets: 1, listen: [{ host: "127.0.0.1", port: 0 }, { host: "127.0.0.1", port: 0 }], buildState: buildShardState, proofs: localnetProofs });
  control = await startControlApi(net, { host: "127.0.0.1", port: 0 });
});

afterAll(async () => {
  engine?.close();
  await control?.close();
  await net?.close();
});

describe("control API and global config", () => {
  it("funds an address seen through a client built from the global config", async () => {
    const config = (await (await fetch(`${base()}/localnet/global-config`)).json()) as any;
    expect(config.liteservers).toHaveLength(2);
    expect(new Set(config.liteservers.map((l: any) => l.id.key)).size).toBe(2); // one key per liteserver
    const ls = config.liteservers[1];
    const ip = [24, 16, 8, 0].map((s) => (ls.ip >>> s) & 255).join(".");
    engine = new LiteSingleEngine({ host: `tcp://${ip}:${ls.port}`, publicKey: Buffer.from(ls.id.key, "base64") });
    await once(engine, "ready");
    const client = new LiteClient({ engine });

    const to = new Address(0, Buffer.alloc(32, 0x42));
    const res = await fetch(`${base()}/localnet/faucet`, { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ address: to.toRawString(), amount: "2500000000" }) });
    expect(res.status).toBe(200);
    const mc = (await client.getMasterchainInfo()).last;
    const state = await client.getAccountState(to, mc);
    // The new (uninitialized) account pays its first transaction's fees out of the 2.5 TON.
    expect(state.balance.coins).toBeGreaterThan(2_499_000_000n);
    expect(state.balance.coins).toBeLessThanOrEqual(2_500_000_000n);
  });

  it("seals on demand and rejects bad faucet requests with 422", async () => {
    const before = net.chain.lastMasterchain!.id.seqno;
    const sealed = (await (await fetch(`${base()}/localnet/seal`, { method: "POST", headers: JSON_TYPE })).json()) as any;
    expect(sealed.seqno).toBe(before + 1);
    for (const body of [{ address: "nope", amount: "1" }, { address: "0:" + "11".repeat(32), amount: "-5" }, { address: "0:" + "11".repeat(32), amount: "1e9" }]) {
      const r = await fetch(`${base()}/localnet/faucet`, { method: "POST", headers: JSON_TYPE, body: JSON.stringify(body) });
      expect(r.status).toBe(422);
    }
    expect((await fetch(`${base()}/localnet/nothing`)).status).toBe(404);
    // Time moves forward on request: the next block carries the later time.
    const t0 = net.chain.lastMasterchain!.genUtime;
    const moved = await fetch(`${base()}/localnet/time`, { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ advance: 3600 }) });
    expect(moved.status).toBe(200);
    await net.chain.seal();
    expect(net.chain.lastMasterchain!.genUtime).toBeGreaterThanOrEqual(t0 + 3600);
    expect((await fetch(`${base()}/localnet/time`, { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ advance: -1 }) })).status).toBe(422);
    const wallets = (await (await fetch(`${base()}/localnet/wallets`)).json()) as any[];
    expect(wallets.map((w) => w.version)).toEqual(["v4r2", "v5r1"]);
  });

  it("answers keys as hex strings, not serialized Buffers", async () => {
    const wallets = (await (await fetch(`${base()}/localnet/wallets`)).json()) as any[];
    for (const [i, w] of wallets.entries()) {
      expect(w.public_key).toMatch(/^[0-9a-f]{64}$/);
      expect(w.secret_key).toMatch(/^[0-9a-f]{128}$/);
      expect(w.public_key).toBe(net.genesis.wallets[i]!.keyPair.publicKey.toString("hex"));
      expect(Address.parse(w.raw).equals(net.genesis.wallets[i]!.address)).toBe(true);
    }
  });

  it("publishes a library, and rejects bad input with 4xx naming the field", async () => {
    const post = (body: unknown) => fetch(`${base()}/localnet/libraries`, { method: "POST", headers: JSON_TYPE, body: typeof body === "string" ? body : JSON.stringify(body) });
    const lib = beginCell().storeUint(0x1ab, 32).storeStringTail("a control API library").endCell();
    for (const boc of [lib.toBoc().toString("base64"), lib.toBoc().toString("hex")]) {
      const r = await post({ boc });
      const body = (await r.json()) as any;
      expect(r.status, JSON.stringify(body)).toBe(200);
      expect(body).toEqual({ hash: lib.hash().toString("hex"), hash_base64: lib.hash().toString("base64"), mc_seqno: expect.any(Number), published: boc.startsWith("te6") });
      expect(body.mc_seqno).toBeLessThanOrEqual(net.chain.lastMasterchain!.id.seqno);
    }
    for (const [body, status, error] of [
      [{}, 422, /^boc: expected a BoC/],
      [{ boc: 5 }, 422, /^boc: expected a BoC/],
      [{ boc: "not base64!" }, 422, /^boc: not a base64 or hex string/],
      [{ boc: "AAAA" }, 422, /^boc: not a valid BoC/],
      [{ boc: lib.toBoc().toString("base64").slice(0, 20) }, 422, /^boc: not a valid BoC/],
      [{ boc: jetton2WalletLibrary().toBoc().toString("base64") }, 422, /^boc: a library must be an ordinary cell/],
      ["[1]", 400, /must be a JSON object/],
      ["{", 400, /not valid JSON/],
    ] as const) {
      const r = await post(body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(((await r.json()) as any).error).toMatch(error);
    }
  });

  it("splits and merges workchain 0's shards on request, and names the field of a bad request", async () => {
    const post = async (route: string, body?: object) => {
      const r = await fetch(`${base()}/localnet/${route}`, { method: "POST", headers: JSON_TYPE, body: body && JSON.stringify(body) });
      return { status: r.status, body: (await r.json()) as any };
    };
    const shards = async () => ((await (await fetch(`${base()}/localnet/shards`)).json()) as any[]).map((s) => s.shard);
    const seal = () => post("seal");
    expect(await shards()).toEqual(["8000000000000000"]);
    expect(await post("merge")).toMatchObject({ status: 422, body: { error: expect.stringMatching(/^shard: no two shards of workchain 0 can merge/) } });
    expect(await post("split", { shard: "8000000000000000" })).toEqual({ status: 200, body: { shards: ["8000000000000000"] } });
    expect(await post("split", { shard: "8000000000000000" })).toMatchObject({ status: 422, body: { error: expect.stringMatching(/^shard: shard 8000000000000000 is splitting/) } });
    await seal(); // before_split
    const announced = ((await (await fetch(`${base()}/localnet/shards`)).json()) as any[])[0];
    expect(announced).toMatchObject({ shard: "8000000000000000", before_split: true, want_merge: false });
    await seal(); // the two after_split children
    expect(await shards()).toEqual(["4000000000000000", "c000000000000000"]);
    for (const [route, body, error] of [
      ["split", { shard: "zz" }, /^shard: expected a shard id in hex/],
      ["split", { shard: 5 }, /^shard: expected a shard id in hex/],
      ["split", { shard: "0" }, /^shard: 0 is not a shard id/],
      ["split", { shard: "2000000000000000" }, /^shard: workchain 0 has no shard 2000000000000000/],
      ["merge", { shard: "4000000000000000" }, /^shard: shard 4000000000000000 is not the parent of two current shards/],
    ] as const) {
      expect(await post(route, body), JSON.stringify(body)).toMatchObject({ status: 422, body: { error: expect.stringMatching(error) } });
    }
    // with no body every shard splits (to 4), then every sibling pair merges (back to 2)
    expect((await post("split")).body.shards).toEqual(["4000000000000000", "c000000000000000"]);
    await seal();
    await seal();
    expect(await shards()).toHaveLength(4);
    expect((await post("merge")).body.shards).toEqual(["4000000000000000", "c000000000000000"]);
    await seal(); // want_merge
    await seal(); // after_merge
    expect(await shards()).toEqual(["4000000000000000", "c000000000000000"]);
    expect(await post("merge", { shard: "0x8000000000000000" })).toEqual({ status: 200, body: { shards: ["8000000000000000"] } });
    await seal();
    await seal();
    expect(await shards()).toEqual(["8000000000000000"]);
    expect(net.chain.lastShard!.meta.afterMerge).toBe(true);
  });
});

/** One request with headers as given (Host included, which fetch would set itself); its status and JSON body. */
function request(port: number, o: { method?: string; path: string; headers?: Record<string, string>; body?: string; host?: string }): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: o.host ?? "127.0.0.1", port, method: o.method ?? "GET", path: o.path, headers: o.headers, setHost: !o.headers?.host }, (res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined }));
    });
    req.on("error", reject);
    req.end(o.body);
  });
}

/** A non-loopback IPv4 address of this machine, if it has one. */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === "IPv4" && !i.internal)?.address;

describe("control API: only programs on this machine, not web pages", () => {
  const wallets = (host: string) => request(control.port, { path: "/localnet/wallets", headers: { host } });

  it("refuses a foreign Host (DNS rebinding) with 403 and gives no key away", async () => {
    for (const host of ["evil.example", `evil.example:${control.port}`, "localhost.evil.example", "127.0.0.1.evil.example", "my-laptop.local"]) {
      const r = await wallets(host);
      expect(r.status, host).toBe(403);
      expect(r.body.error).toMatch(/is not a loopback name.*DNS rebinding/);
      expect(JSON.stringify(r.body)).not.toMatch(/secret_key/);
    }
  });

  it("refuses a request without Host (HTTP/1.0) with 400", async () => {
    const socket = connect(control.port, "127.0.0.1");
    socket.end("GET /localnet/wallets HTTP/1.0\r\n\r\n");
    let text = "";
    for await (const d of socket) text += String(d);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toMatch(/no Host header/);
    expect(text).not.toMatch(/secret_key/);
  });

  it("answers loopback names, with or without the port", async () => {
    for (const host of ["localhost", `localhost:${control.port}`, "LOCALHOST", "127.0.0.1", `127.0.0.1:${control.port}`, "127.3.2.1:80", "[::1]", `[::1]:${control.port}`]) {
      const r = await wallets(host);
      expect(r.status, host).toBe(200);
      expect(r.body[0].secret_key).toMatch(/^[0-9a-f]{128}$/);
    }
  });

  it("takes POST bodies as JSON only: a text/plain, form or bodyless POST (what a page sends without a preflight) is 415 and does nothing", async () => {
    const head = net.chain.lastMasterchain!.id.seqno;
    const faucet = JSON.stringify({ address: "0:" + "42".repeat(32), amount: "1000" });
    for (const [path, type, body] of [
      ["/localnet/faucet", "text/plain", faucet],
      ["/localnet/faucet", "text/plain;charset=UTF-8", faucet],
      ["/localnet/faucet", "application/x-www-form-urlencoded", `${faucet}=`],
      ["/localnet/faucet", "multipart/form-data; boundary=x", `--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n${faucet}\r\n--x--\r\n`],
      ["/localnet/seal", undefined, undefined],
      ["/localnet/time", "text/plain", JSON.stringify({ advance: 3600 })],
    ] as const) {
      const r = await request(control.port, { method: "POST", path, headers: type ? { "content-type": type } : {}, body });
      expect(r.status, `${path} ${type}`).toBe(415);
      expect(r.body.error).toMatch(/POST bodies must be JSON, sent as Content-Type: application\/json/);
    }
    expect(net.chain.lastMasterchain!.id.seqno).toBe(head);
    // the same requests as JSON are answered
    expect((await request(control.port, { method: "POST", path: "/localnet/seal", headers: { "content-type": "application/json" } })).status).toBe(200);
    expect((await request(control.port, { method: "POST", path: "/localnet/time", headers: { "content-type": "application/json; charset=utf-8" }, body: JSON.stringify({ advance: 0 }) })).status).toBe(200);
  });

  it("refuses a request from another site's page (Origin) and sends no CORS header, so a preflight fails", async () => {
    const post = (origin: string) =>
      request(control.port, { method: "POST", path: "/localnet/seal", headers: { "content-type": "application/json", origin } });
    for (const origin of ["https://evil.example", "null", "http://evil.example:30380"]) {
      const r = await post(origin);
      expect(r.status, origin).toBe(403);
      expect(r.body.error).toMatch(/no requests from web pages of other sites/);
    }
    expect((await post(`http://localhost:${control.port}`)).status).toBe(200);
    const preflight = await request(control.port, {
      method: "OPTIONS",
      path: "/localnet/wallets",
      headers: { origin: "https://evil.example", "access-control-request-method": "GET" },
    });
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    expect(Object.keys(preflight.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
    const get = await request(control.port, { path: "/localnet/global-config" });
    expect(Object.keys(get.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
  });

  it("a refused request whose body is still coming gets its answer, not a broken pipe (fetch)", async () => {
    for (const [type, size, status] of [["text/plain", 20_000, 415], ["application/json", 300_000, 413]] as const) {
      const r = await fetch(`http://127.0.0.1:${control.port}/localnet/nothing`, { method: "POST", headers: { "content-type": type }, body: new Uint8Array(size).fill(0xff) });
      expect(r.status, `${type}, ${size} bytes`).toBe(status);
      await r.text();
    }
  });

  it("bounds the body: over 64 KiB is 413", async () => {
    const boc = "A".repeat(70 * 1024);
    const r = await request(control.port, { method: "POST", path: "/localnet/libraries", headers: { "content-type": "application/json" }, body: JSON.stringify({ boc }) });
    expect(r.status).toBe(413);
    expect(r.body.error).toMatch(/over 65536 bytes/);
  });

  it.skipIf(lanAddress === undefined)("bound to a LAN address by the user, it also answers that address as Host, never a DNS name", async () => {
    const lan = await startControlApi(net, { host: lanAddress!, port: 0 });
    try {
      const ok = await request(lan.port, { host: lanAddress, path: "/localnet/shards", headers: { host: `${lanAddress}:${lan.port}` } });
      expect(ok.status).toBe(200);
      const named = await request(lan.port, { host: lanAddress, path: "/localnet/shards", headers: { host: `evil.example:${lan.port}` } });
      expect(named.status).toBe(403);
      // another IP literal than the one the connection came in on is no name of this server
      const other = await request(lan.port, { host: lanAddress, path: "/localnet/shards", headers: { host: "10.255.255.1" } });
      expect(other.status).toBe(403);
    } finally {
      await lan.close();
    }
  });
});

