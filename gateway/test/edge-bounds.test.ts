// The edge's text checks that run before any parsing: the nesting of a JSON body (one pass, strings
// skipped), the request target as logs show it (API keys out), and error messages cut to a bound.
import { describe, expect, it } from "vitest";
import { boundedMessage, errorBody, MAX_ERROR_MESSAGE } from "../src/envelope.js";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../src/stages/body.js";
import { rpcEchoOf } from "../src/stages/jsonrpc.js";
import { loggedUrl } from "../src/stages/target.js";

describe("nestsDeeperThan", () => {
  const nested = (n: number) => "[".repeat(n) + "]".repeat(n);

  it("counts arrays and objects, up to the bound and past it", () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan(`{"a":${nested(2)},"b":{"c":[1]}}`, 3)).toBe(false);
    expect(nestsDeeperThan(`{"a":${nested(3)}}`, 3)).toBe(true);
    // 64 siblings are not 64 levels
    expect(nestsDeeperThan(`[${Array(1000).fill("[]").join(",")}]`, 2)).toBe(false);
  });

  it("skips brackets inside strings, escaped quotes included", () => {
    expect(nestsDeeperThan(JSON.stringify({ s: nested(1000), t: '\\"[[[[' }), 2)).toBe(false);
    expect(nestsDeeperThan(`["\\\\", ${nested(3)}]`, 3)).toBe(true);
  });

  it("takes a 10 MB text without recursion", () => {
    expect(nestsDeeperThan(nested(5_000_000), MAX_JSON_DEPTH)).toBe(true);
  });
});

describe("loggedUrl", () => {
  it("replaces the value of api_key however its name is escaped, and nothing else", () => {
    expect(loggedUrl("/api/v2/x?api_key=s3cret&a=1")).toBe("/api/v2/x?api_key=***&a=1");
    expect(loggedUrl("/x?a=api_key%3Ds3cret&%61pi%5Fkey=s3cret&api_key")).toBe("/x?a=api_key%3Ds3cret&%61pi%5Fkey=***&api_key");
    expect(loggedUrl("/x?%zz=1&api_key=")).toBe("/x?%zz=1&api_key=***");
    expect(loggedUrl("/api/v2/x")).toBe("/api/v2/x");
  });

  it("cuts a long target at 256 characters", () => {
    expect(loggedUrl(`/x?a=${"b".repeat(1000)}`)).toHaveLength(257);
  });
});

describe("error messages", () => {
  it("are cut at the bound, with … and the original length, in both envelopes", () => {
    const long = "m".repeat(10_000);
    expect(boundedMessage(long)).toBe(`${"m".repeat(MAX_ERROR_MESSAGE)}… (10000 characters)`);
    expect(boundedMessage("short")).toBe("short");
    expect(errorBody("v3", 422, long, "_")).toEqual({ error: boundedMessage(long) });
    expect(errorBody("v2", 422, long, "_")).toMatchObject({ ok: false, error: boundedMessage(long), code: 422 });
  });
});

describe("rpcEchoOf", () => {
  it("echoes a string, a number or null as id, anything else is refused with id null", () => {
    expect(rpcEchoOf({ id: "a", jsonrpc: "2.0" })).toEqual({ echo: { id: "a", jsonrpc: "2.0" } });
    expect(rpcEchoOf({ id: 1 })).toEqual({ echo: { id: 1, jsonrpc: "2.0" } });
    expect(rpcEchoOf({})).toEqual({ echo: { id: undefined, jsonrpc: "2.0" } });
    expect(rpcEchoOf({ id: [1] })).toEqual({ echo: { id: null, jsonrpc: "2.0" }, problem: "id: a JSON-RPC id is a string, a number or null, got an array" });
    expect(rpcEchoOf({ id: "x".repeat(257) }).problem).toBe("id: at most 256 characters, got 257");
    expect(rpcEchoOf({ id: 5, jsonrpc: 2 })).toEqual({ echo: { id: 5, jsonrpc: "2.0" }, problem: 'jsonrpc: expected "2.0" (a string of at most 16 characters), got a number' });
  });
});
