// `tongate keys create/list/revoke` against a gateway and the ratelimit service in this process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keysCommand } from "../src/keys.js";
import { startEmbedded, type Embedded } from "../../tests/support/embedded.js";

const TOKEN = "cli-test-admin-token";
let tg: Embedded;

beforeAll(async () => {
  tg = await startEmbedded({ adminToken: TOKEN }, { rateLimit: { network: "mainnet" } });
});
afterAll(async () => tg?.close());

async function keys(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await keysCommand(argv, { out: (t) => (out += t), err: (t) => (err += t), env: { TONGATE_URL: tg.url, TONGATE_ADMIN_TOKEN: TOKEN } });
  return { code, out, err };
}

const v2 = (key?: string) => fetch(`${tg.url}/api/v2/detectAddress?address=EQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAM9c`, { headers: key ? { "x-api-key": key } : {} });

describe("tongate keys", () => {
  it("creates a key (secret printed once), lists it, revokes it; the gateway honours each step", async () => {
    const created = await keys("create", "--plan", "plus", "--networks", "mainnet", "--ips", "127.0.0.1,::1", "--ips", "10.0.0.0/8", "--origins", "https://app.example.com", "--account", "acme");
    expect(created).toMatchObject({ code: 0, err: "" });
    const secret = /secret \(shown once[^)]*\): ([0-9a-f]{64})/.exec(created.out)?.[1];
    const id = /^created ([0-9a-f]{12})  plus \(25 rps\)  account acme  networks mainnet  ips 127\.0\.0\.1,::1,10\.0\.0\.0\/8  origins https:\/\/app\.example\.com/.exec(created.out)?.[1];
    expect(secret, created.out).toBeDefined();
    expect(id, created.out).toBeDefined();

    const listed = await keys("list");
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(`${id}  plus (25 rps)`);
    expect(listed.out).not.toContain(secret);
    const json = JSON.parse((await keys("list", "--json")).out);
    expect(json.keys).toEqual([expect.objectContaining({ id, plan: "plus", rps: 25, account: "acme", revoked: false, created_at: expect.any(String) })]);

    // The gateway admits the key from an allowed address and origin (the test's requests come from loopback)...
    const withOrigin = (key: string, origin: string) => fetch(`${tg.url}/api/v2/detectAddress?address=EQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAM9c`, { headers: { "x-api-key": key, origin } });
    expect((await withOrigin(secret!, "https://app.example.com")).status).toBe(200);
    const evil = await withOrigin(secret!, "https://evil.example");
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { error: string }).error).toContain("https://evil.example");

    const revoked = await keys("revoke", id!);
    expect(revoked).toMatchObject({ code: 0, err: "" });
    expect(revoked.out).toMatch(new RegExp(`^revoked ${id}  plus .* REVOKED\\n$`));
    const refused = await withOrigin(secret!, "https://app.example.com");
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toBe("API key does not exist");
    expect((await keys("list")).out).toContain("REVOKED");
  });

  it("custom keys need --rps; the service's message is shown", async () => {
    expect(await keys("create", "--plan", "custom")).toMatchObject({ code: 1, out: "", err: "tongate keys create: 422 plan custom needs rps: the key's requests per second (a whole number above 0)\n" });
    const custom = await keys("create", "--plan", "custom", "--rps", "3", "--json");
    expect(custom.code).toBe(0);
    const { key, secret } = JSON.parse(custom.out);
    expect(key).toMatchObject({ plan: "custom", rps: 3 });
    // Three requests at once, then 429.
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await v2(secret)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // A revoke by the secret itself.
    expect((await keys("revoke", secret)).code).toBe(0);
  });

  it("a wrong or missing admin token, an unknown id, a missing id, an unreachable gateway", async () => {
    let err = "";
    expect(await keysCommand(["list", "--admin-token", "nope", "--url", tg.url], { out: () => {}, err: (t) => (err += t), env: {} })).toBe(1);
    expect(err).toBe("tongate keys list: 401 admin token is missing or wrong\n");
    err = "";
    expect(await keysCommand(["list", "--url", tg.url], { out: () => {}, err: (t) => (err += t), env: {} })).toBe(2);
    expect(err).toContain("needs --admin-token (or TONGATE_ADMIN_TOKEN)");
    expect(await keys("revoke", "000000000000")).toMatchObject({ code: 1, err: "tongate keys revoke: 404 no API key with id 000000000000\n" });
    expect(await keys("revoke")).toMatchObject({ code: 2, err: expect.stringContaining("needs the key's ID") });
    expect(await keys("rotate")).toMatchObject({ code: 2, err: expect.stringContaining("tongate keys create") });
    err = "";
    expect(await keysCommand(["list", "--url", "http://127.0.0.1:9", "--admin-token", "x"], { out: () => {}, err: (t) => (err += t), env: {} })).toBe(1);
    expect(err).toContain("cannot reach http://127.0.0.1:9/api/admin/v1/keys/list");
  });
});
