// Keys: unknown and revoked keys, network/address/origin policy, the admin token, the keys file.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { Decision_Outcome as O } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import { createLogger, httpStatusOf } from "@tongate/runtime";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ADMIN_TOKEN_FILE, KEYS_FILE, KeyStore, rateLimitService } from "../src/index.js";
import { ADMIN, client, FakeClock, startRateLimit, type Started } from "./support.js";

let s: Started | undefined;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tongate-ratelimit-"));
});
afterEach(async () => {
  await s?.close();
  s = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function statusOf(p: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await p;
  } catch (e) {
    return httpStatusOf(e);
  }
  throw new Error("expected the call to fail");
}

describe("keys", () => {
  it("a key is 64 hex characters, stored hashed; its id is the start of the hash", async () => {
    s = await startRateLimit();
    const res = await s.rl.createKey({ adminToken: ADMIN, plan: "plus", networks: ["Mainnet"], ips: ["10.0.0.0/8", "2001:DB8::/32"], origins: ["https://App.Example.com:443"], account: "acme" });
    expect(res.secret).toMatch(/^[0-9a-f]{64}$/);
    const hash = createHash("sha256").update(res.secret).digest("hex");
    expect(res.key).toMatchObject({ id: hash.slice(0, 12), plan: "plus", rps: 25, networks: ["mainnet"], ips: ["10.0.0.0/8", "2001:db8::/32"], origins: ["https://app.example.com"], account: "acme", revoked: false });
    expect(new Date(res.key!.createdAt).getTime()).toBe(s.clock.ms);
    const list = await s.rl.listKeys({ adminToken: ADMIN });
    expect(list.keys.map((k) => k.id)).toEqual([res.key!.id]);
    expect(JSON.stringify(list)).not.toContain(res.secret);
  });

  it("unknown and revoked keys: UNKNOWN_KEY, API key does not exist", async () => {
    s = await startRateLimit();
    expect((await s.rl.check({ client: client({ apiKey: "f".repeat(64) }) })).decision).toMatchObject({ outcome: O.UNKNOWN_KEY, reason: "API key does not exist" });
    const lease = await s.rl.lease({ client: client({ apiKey: "nonsense" }), want: 5 });
    expect(lease).toMatchObject({ granted: 0, validMs: 0 });
    expect(lease.decision).toMatchObject({ outcome: O.UNKNOWN_KEY, reason: "API key does not exist" });
    const a = await s.key();
    const b = await s.key();
    expect((await s.rl.check({ client: client({ apiKey: a.secret }) })).decision!.outcome).toBe(O.ALLOWED);
    // Revoked by id, or by the secret itself.
    expect((await s.rl.revokeKey({ adminToken: ADMIN, id: a.id })).key).toMatchObject({ id: a.id, revoked: true });
    expect((await s.rl.revokeKey({ adminToken: ADMIN, id: b.secret })).key).toMatchObject({ id: b.id, revoked: true });
    expect((await s.rl.revokeKey({ adminToken: ADMIN, id: b.id })).key!.revoked).toBe(true);
    for (const k of [a, b]) expect((await s.rl.check({ client: client({ apiKey: k.secret }) })).decision).toMatchObject({ outcome: O.UNKNOWN_KEY, reason: "API key does not exist" });
    expect((await s.rl.listKeys({ adminToken: ADMIN })).keys.map((k) => k.revoked)).toEqual([true, true]);
    expect(await statusOf(s.rl.revokeKey({ adminToken: ADMIN, id: "000000000000" }))).toEqual({ status: 404, message: "no API key with id 000000000000" });
  });

  it("refuses bad key specs with a clear message", async () => {
    s = await startRateLimit();
    const bad = async (spec: Record<string, unknown>) => statusOf(s!.rl.createKey({ adminToken: ADMIN, ...spec }));
    expect(await bad({ plan: "custom" })).toEqual({ status: 422, message: "plan custom needs rps: the key's requests per second (a whole number above 0)" });
    expect(await bad({ plan: "gold" })).toMatchObject({ status: 422, message: expect.stringContaining('"gold" is not a plan (known: free, plus, advanced, custom)') });
    expect(await bad({ plan: "free", rps: 50 })).toMatchObject({ status: 422, message: expect.stringContaining("plan custom") });
    expect(await bad({ ips: ["10.0.0.0/33"] })).toMatchObject({ status: 422, message: expect.stringContaining("ips:") });
    expect(await bad({ ips: ["example.com"] })).toMatchObject({ status: 422, message: expect.stringContaining("not an IP address or CIDR") });
    expect(await bad({ origins: ["https://x.example/path"] })).toMatchObject({ status: 422, message: expect.stringContaining("origins:") });
    expect(await bad({ networks: ["main net"] })).toMatchObject({ status: 422, message: expect.stringContaining("networks:") });
    expect(await bad({ account: "a b" })).toMatchObject({ status: 422, message: expect.stringContaining("account:") });
    // No plan: free.
    expect((await s.rl.createKey({ adminToken: ADMIN })).key).toMatchObject({ plan: "free", rps: 10 });
  });
});

describe("policy", () => {
  it("network", async () => {
    s = await startRateLimit();
    const k = await s.key({ networks: ["mainnet"] });
    expect((await s.rl.check({ client: client({ apiKey: k.secret, network: "mainnet" }) })).decision!.outcome).toBe(O.ALLOWED);
    expect((await s.rl.check({ client: client({ apiKey: k.secret, network: "testnet" }) })).decision).toMatchObject({ outcome: O.FORBIDDEN, reason: "API key is not allowed for network testnet" });
    expect((await s.rl.lease({ client: client({ apiKey: k.secret, network: "testnet" }), want: 3 })).decision).toMatchObject({ outcome: O.FORBIDDEN, reason: "API key is not allowed for network testnet" });
  });

  it("addresses: IPv4, IPv6, CIDRs", async () => {
    s = await startRateLimit();
    const k = await s.key({ plan: "advanced", ips: ["10.1.2.3", "192.168.0.0/16", "2001:db8::/32", "::1"] });
    const check = async (address: string) => (await s!.rl.check({ client: client({ apiKey: k.secret, address }) })).decision!;
    for (const ok of ["10.1.2.3", "::ffff:10.1.2.3", "192.168.44.5", "2001:db8:1::7", "2001:DB8::1", "::1"]) expect((await check(ok)).outcome, ok).toBe(O.ALLOWED);
    for (const no of ["10.1.2.4", "192.169.0.1", "2001:db9::1", "::2", "", "garbage"]) {
      expect(await check(no), no).toMatchObject({ outcome: O.FORBIDDEN, reason: `API key is not allowed for address ${no || "(not given)"}` });
    }
  });

  it("origins", async () => {
    s = await startRateLimit();
    const k = await s.key({ origins: ["https://app.example.com", "http://localhost:3000"] });
    const check = async (origin: string) => (await s!.rl.check({ client: client({ apiKey: k.secret, origin }) })).decision!;
    expect((await check("https://app.example.com")).outcome).toBe(O.ALLOWED);
    expect((await check("https://APP.example.com:443")).outcome).toBe(O.ALLOWED);
    expect((await check("http://localhost:3000")).outcome).toBe(O.ALLOWED);
    expect(await check("https://evil.example")).toMatchObject({ outcome: O.FORBIDDEN, reason: "API key is not allowed for origin https://evil.example" });
    expect(await check("http://app.example.com")).toMatchObject({ outcome: O.FORBIDDEN });
    expect(await check("")).toMatchObject({ outcome: O.FORBIDDEN, reason: "API key is not allowed for origin (no Origin header)" });
  });

  it("a key without restrictions is allowed from anywhere", async () => {
    s = await startRateLimit();
    const k = await s.key();
    expect((await s.rl.check({ client: { apiKey: k.secret } })).decision!.outcome).toBe(O.ALLOWED);
  });
});

describe("admin token", () => {
  it("is required, compared exactly", async () => {
    s = await startRateLimit();
    for (const adminToken of ["", "wrong", ADMIN + "x", ADMIN.slice(1)]) {
      expect(await statusOf(s.rl.listKeys({ adminToken }))).toEqual({ status: 401, message: "admin token is missing or wrong" });
      expect(await statusOf(s.rl.createKey({ adminToken, plan: "free" }))).toEqual({ status: 401, message: "admin token is missing or wrong" });
      expect(await statusOf(s.rl.revokeKey({ adminToken, id: "x" }))).toEqual({ status: 401, message: "admin token is missing or wrong" });
    }
    expect((await s.rl.listKeys({ adminToken: ADMIN })).keys).toEqual([]);
  });

  it("with a data dir and no --admin-token: generated once into DIR/admin-token (0600), kept across restarts", async () => {
    s = await startRateLimit({ adminToken: undefined, dataDir: dir });
    const path = join(dir, ADMIN_TOKEN_FILE);
    const token = readFileSync(path, "utf8").trim();
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect((await s.rl.listKeys({ adminToken: token })).keys).toEqual([]);
    await s.close();
    s = await startRateLimit({ adminToken: undefined, "data-dir": dir });
    expect((await s.rl.listKeys({ adminToken: token })).keys).toEqual([]);
    // --admin-token wins over the file.
    await s.close();
    s = await startRateLimit({ adminToken: "given", "data-dir": dir });
    expect(await statusOf(s.rl.listKeys({ adminToken: token }))).toMatchObject({ status: 401 });
  });

  it("without options: the service starts, with a token for this process, logged at warn", async () => {
    const lines: string[] = [];
    const log = createLogger({ level: "warn" });
    const logged = Object.assign(Object.create(log), { warn: (o: object, msg: string) => lines.push(JSON.stringify({ ...o, msg })) });
    const running = await rateLimitService.start({ log: logged, options: rateLimitService.options({}), needs: {} });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/"adminToken":"[0-9a-f]{48}"/);
    await running.close?.();
  });
});

describe("keys file", () => {
  it("keys survive a restart; revocations too", async () => {
    s = await startRateLimit({ dataDir: dir });
    const a = await s.key({ plan: "plus", ips: ["10.0.0.0/8"] });
    const b = await s.key({ plan: "custom", rps: 3, account: "acme" });
    await s.rl.revokeKey({ adminToken: ADMIN, id: b.id });
    const file = JSON.parse(readFileSync(join(dir, KEYS_FILE), "utf8"));
    expect(file).toHaveLength(2);
    expect(JSON.stringify(file)).not.toContain(a.secret);
    expect(statSync(join(dir, KEYS_FILE)).mode & 0o777).toBe(0o600);
    await s.close();
    s = await startRateLimit({ "data-dir": dir });
    expect((await s.rl.check({ client: client({ apiKey: a.secret }) })).decision).toMatchObject({ outcome: O.ALLOWED, limit: 25 });
    expect((await s.rl.check({ client: client({ apiKey: a.secret, address: "11.0.0.1" }) })).decision!.outcome).toBe(O.FORBIDDEN);
    expect((await s.rl.check({ client: client({ apiKey: b.secret }) })).decision!.outcome).toBe(O.UNKNOWN_KEY);
    expect((await s.rl.listKeys({ adminToken: ADMIN })).keys.map((k) => [k.id, k.plan, k.rps, k.revoked])).toEqual([
      [a.id, "plus", 25, false],
      [b.id, "custom", 3, true],
    ]);
  });

  it("is read again when another process changes it (checked at most once per second)", async () => {
    const clock = new FakeClock();
    s = await startRateLimit({ dataDir: dir }, clock);
    // Another ratelimit process on the same directory (e.g. `tongate serve` beside `tongate start`).
    const other = new KeyStore({ dir, now: clock.now });
    const { secret, record } = other.create({ plan: "free", rps: 10, networks: [], ips: [], origins: [], account: "" });
    // The file is looked at again once a second has passed since the last look.
    clock.advance(1000);
    expect((await s.rl.check({ client: client({ apiKey: secret }) })).decision!.outcome).toBe(O.ALLOWED);
    other.revoke(record.id);
    clock.advance(1000);
    expect((await s.rl.check({ client: client({ apiKey: secret }) })).decision!.outcome).toBe(O.UNKNOWN_KEY);
    // A damaged file: the keys read before stay in force.
    const live = other.create({ plan: "free", rps: 10, networks: [], ips: [], origins: [], account: "" });
    clock.advance(1000);
    expect((await s.rl.check({ client: client({ apiKey: live.secret }) })).decision!.outcome).toBe(O.ALLOWED);
    writeFileSync(join(dir, KEYS_FILE), "[{");
    clock.advance(1000);
    expect((await s.rl.check({ client: client({ apiKey: live.secret }) })).decision!.outcome).toBe(O.ALLOWED);
  });
});

describe("configuration", () => {
  it("plans and the keyless rate from --ratelimit-config; --keyless-rps wins", async () => {
    const config = join(dir, "limits.json");
    writeFileSync(config, JSON.stringify({ keylessRps: 2, plans: { free: 5, enterprise: 500 } }));
    s = await startRateLimit({ "ratelimit-config": config });
    expect((await s.rl.check({ client: client() })).decision).toMatchObject({ limit: 2, burst: 2, remaining: 1 });
    expect((await s.rl.createKey({ adminToken: ADMIN, plan: "free" })).key!.rps).toBe(5);
    expect((await s.rl.createKey({ adminToken: ADMIN, plan: "plus" })).key!.rps).toBe(25);
    const ent = await s.key({ plan: "enterprise" });
    expect((await s.rl.check({ client: client({ apiKey: ent.secret }) })).decision).toMatchObject({ limit: 500, remaining: 499 });
    await s.close();
    s = await startRateLimit({ ratelimitConfig: config, keylessRps: 4 });
    expect((await s.rl.check({ client: client() })).decision).toMatchObject({ limit: 4, remaining: 3 });
  });

  it("refuses a bad config with a message naming it", async () => {
    const config = join(dir, "limits.json");
    const start = (options: Record<string, unknown>) => startRateLimit(options).then(() => "started", (e: Error) => e.message);
    writeFileSync(config, JSON.stringify({ plans: { free: 0 } }));
    expect(await start({ "ratelimit-config": config })).toMatch(/plans\.free: 0 is not a whole number/);
    writeFileSync(config, JSON.stringify({ keylessRps: 1.5 }));
    expect(await start({ "ratelimit-config": config })).toMatch(/keylessRps: 1.5 is not a whole number/);
    writeFileSync(config, JSON.stringify({ plans: { custom: 5 } }));
    expect(await start({ "ratelimit-config": config })).toMatch(/plan "custom" has no rate/);
    writeFileSync(config, JSON.stringify({ burst: 5 }));
    expect(await start({ "ratelimit-config": config })).toMatch(/unknown setting "burst"/);
    expect(await start({ "ratelimit-config": join(dir, "missing.json") })).toMatch(/--ratelimit-config .*missing\.json: ENOENT/);
    expect(await start({ "keyless-rps": "zero" })).toMatch(/--keyless-rps: "zero" is not a whole number/);
  });
});
