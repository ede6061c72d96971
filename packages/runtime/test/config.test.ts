import { describe, expect, it } from "vitest";
import { ConfigError, parseListen, parseOptions, type OptionSpec } from "../src/config.js";
import { apiError, httpStatusOf } from "../src/api-error.js";
import { Code, ConnectError } from "@connectrpc/connect";

const specs: OptionSpec[] = [
  { name: "port", default: "8081", description: "" },
  { name: "upstream", repeated: true, description: "" },
  { name: "verbose", boolean: true, description: "" },
];

describe("parseOptions", () => {
  it("reads flags, then TONGATE_* environment, then defaults", () => {
    expect(parseOptions([], specs, {})).toEqual({ port: "8081" });
    expect(parseOptions([], specs, { TONGATE_PORT: "9000" }).port).toBe("9000");
    expect(parseOptions(["--port", "7000"], specs, { TONGATE_PORT: "9000" }).port).toBe("7000");
    expect(parseOptions(["--port=7001"], specs, {}).port).toBe("7001");
  });
  it("collects repeated flags and comma-separated environment lists", () => {
    expect(parseOptions(["--upstream", "a=1", "--upstream", "b=2"], specs, {}).upstream).toEqual(["a=1", "b=2"]);
    expect(parseOptions([], specs, { TONGATE_UPSTREAM: "a=1, b=2" }).upstream).toEqual(["a=1", "b=2"]);
  });
  it("takes switches without values", () => {
    expect(parseOptions(["--verbose"], specs, {}).verbose).toBe(true);
    expect(parseOptions(["--verbose=false"], specs, {}).verbose).toBe(false);
  });
  it("names what is wrong", () => {
    expect(() => parseOptions(["--nope"], specs, {})).toThrow(/unknown option --nope/);
    expect(() => parseOptions(["--port"], specs, {})).toThrow(/--port needs a value/);
    expect(() => parseOptions(["stray"], specs, {})).toThrow(ConfigError);
  });
  it("parses HOST:PORT", () => {
    expect(parseListen("0.0.0.0:9090")).toEqual({ host: "0.0.0.0", port: 9090 });
    expect(parseListen("9090")).toEqual({ host: "127.0.0.1", port: 9090 });
    expect(() => parseListen("host:99999")).toThrow(ConfigError);
  });
});

describe("API errors", () => {
  it("carry toncenter's HTTP status through gRPC metadata", () => {
    for (const status of [404, 409, 422, 429, 504, 542]) {
      expect(httpStatusOf(apiError(status, "m"))).toEqual({ status, message: "m" });
    }
  });
  it("map plain gRPC codes to HTTP statuses", () => {
    expect(httpStatusOf(new ConnectError("x", Code.NotFound)).status).toBe(404);
    expect(httpStatusOf(new ConnectError("x", Code.Unimplemented)).status).toBe(501);
    expect(httpStatusOf(new ConnectError("x", Code.DeadlineExceeded)).status).toBe(504);
    expect(httpStatusOf(new Error("boom")).status).toBe(500);
  });
});
