// The service modules as `tongate start`/`serve` host them: each parses its own options (a bad value
// is a ConfigError naming the flag, before anything is left running), and a module the host
// supplies no chain to starts without one.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, createLogger } from "@tongate/runtime";
import { findService, serviceModules, startHost } from "../src/services.js";

const log = createLogger({ level: "silent" });

describe("hosting the service modules", () => {
  it.each([
    [{ index: "maybe" }, "--index maybe: expected on or off"],
    [{ "parse-workers": "-1" }, "--parse-workers -1: expected 0..64"],
    [{ "index-from": "0" }, "--index-from 0 is not a masterchain seqno (an integer ≥ 1)"],
    [{ "clickhouse-url": "http://127.0.0.1:1", "index-dir": "/tmp/x" }, "--clickhouse-url and --index-dir: give one (a ClickHouse server, or chDB's directory)"],
  ])("the indexer refuses %j", async (options, message) => {
    await expect(startHost(serviceModules, options, log)).rejects.toThrow(new ConfigError(message));
  });

  it("the ratelimit service refuses a bad --keyless-rps, naming it", async () => {
    await expect(startHost([findService("ratelimit")], { "keyless-rps": "lots" }, log)).rejects.toThrow(/keyless-rps/);
  });

  it("the store is opened once per process, and only when a module needs it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tongate-hosting-"));
    const data = join(dir, "db");
    try {
      // lite-proxy alone needs no store: no chDB, no data directory
      const proxy = await startHost([findService("lite-proxy")], { "index-dir": data }, log);
      await proxy.close();
      expect(existsSync(data)).toBe(false);
      const host = await startHost([findService("indexer")], { "index-dir": data, index: "off", "key-readers": "0" }, log);
      try {
        expect(existsSync(join(data, "key-index"))).toBe(true);
        expect(await host.health()()).toMatchObject({ ok: true, detail: { indexer: { keyIndex: expect.stringMatching(/^(rebuilding|complete)$/) } } });
      } finally {
        await host.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the streaming service refuses a bad --stream-buffer, naming it; alone it subscribes to its network's stream.events", async () => {
    await expect(startHost([findService("streaming")], { "stream-buffer": "0" }, log)).rejects.toThrow(new ConfigError("--stream-buffer 0: expected a whole number, 1 or more"));
    const host = await startHost([findService("streaming")], { network: "testnet" }, log);
    try {
      expect(await host.health()()).toMatchObject({ ok: true, detail: { streaming: { subject: "tongate.testnet.stream.events", subscribers: 0 } } });
    } finally {
      await host.close();
    }
  });

  it("lite-proxy without a chain starts, healthy", async () => {
    const host = await startHost([findService("lite-proxy")], {}, log);
    try {
      expect(host.services.map((s) => s.name)).toEqual(["lite-proxy"]);
      // no chain: healthy, its emulator's processes not started until a get-method needs them
      expect(await host.health()()).toMatchObject({ ok: true, detail: { dependencies: { emulator: { ok: true, detail: { state: "idle" } } } } });
    } finally {
      await host.close();
    }
  });
});
