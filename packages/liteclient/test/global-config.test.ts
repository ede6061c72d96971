import { ConfigError } from "@tongate/runtime";
import { describe, expect, it } from "vitest";
import { bundledGlobalConfig, bundledNetworks, globalConfigOf, liteserversFromGlobalConfig } from "@tongate/liteclient";

describe("global configs", () => {
  it("bundles mainnet's and testnet's and reads their liteservers", () => {
    expect(bundledNetworks().sort()).toEqual(["mainnet", "testnet"]);
    expect(liteserversFromGlobalConfig(bundledGlobalConfig("mainnet")).length).toBeGreaterThan(0);
    expect(liteserversFromGlobalConfig(bundledGlobalConfig("testnet")).length).toBeGreaterThan(0);
    expect(bundledGlobalConfig("nosuchnet")).toBeUndefined();
  });

  it("chooses the in-process config, then --global-config, then --network", () => {
    const inProcess = { liteservers: [] };
    expect(globalConfigOf({ globalConfig: inProcess, network: "mainnet" })).toBe(inProcess);
    expect(globalConfigOf({})).toBeUndefined();
    expect(globalConfigOf({ network: "mainnet" })).toEqual(bundledGlobalConfig("mainnet"));
    expect(() => globalConfigOf({ network: "localnet" })).toThrow(ConfigError);
    expect(() => globalConfigOf({ "global-config": "/nonexistent/global.json" })).toThrow(/--global-config \/nonexistent/);
  });
});
