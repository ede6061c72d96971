// ClickHouse's state on /healthz comes from a real query with a timeout: embedded chDB that is held
// by a long statement (it runs one statement of a session at a time) does not answer and is down
// until it answers again; a closed chDB answers every query with an error; a server that accepts
// and never answers is down once the probe's timeout passes.
import { ClickHouseLogLevel, createClient } from "@clickhouse/client";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { watchClickHouse } from "../src/health.js";
import { openStore, type Store } from "../src/store.js";

const until = async (ok: () => boolean, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!ok() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
};

const servers: http.Server[] = [];
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

describe("watchClickHouse", () => {
  it("embedded chDB: down while a long statement holds it, with how long it has not answered; up when it answers", async () => {
    const store = await openStore();
    const watch = watchClickHouse(store, { everyMs: 100, timeoutMs: 400 });
    try {
      await until(() => watch.health().lastAnswerAt !== undefined);
      expect(watch.health()).toMatchObject({ mode: "embedded", state: "up" });
      // ~2.5 s of sleeping rows: the probes queue behind it
      const long = store.client.query({ query: "SELECT sleepEachRow(0.5) FROM numbers(5) SETTINGS max_block_size = 1", format: "JSONEachRow" }).then((r) => r.json());
      await until(() => watch.health().state === "down");
      expect(watch.health()).toMatchObject({ mode: "embedded", state: "down", error: expect.stringMatching(/^no answer to SELECT 1 (for|within) [\d.]+ s$/) });
      await long;
      await until(() => watch.health().state === "up");
      expect(watch.health()).toMatchObject({ state: "up" });
      expect(watch.health().error).toBeUndefined();
    } finally {
      watch.stop();
      await store.close();
    }
  });

  it("embedded chDB that answers every query with an error (closed): down with chDB's error", async () => {
    const store = await openStore();
    const watch = watchClickHouse(store, { everyMs: 100, timeoutMs: 1000 });
    await until(() => watch.health().lastAnswerAt !== undefined);
    await store.close();
    await until(() => watch.health().state === "down");
    watch.stop();
    expect(watch.health()).toMatchObject({ mode: "embedded", state: "down", error: expect.stringMatching(/^SELECT 1 failed: .*closed/) });
  });

  it("a server that accepts and never answers: down once the probe's timeout passes", async () => {
    const silent = http.createServer(() => {});
    servers.push(silent);
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const client = createClient({ url, log: { level: ClickHouseLogLevel.OFF } });
    const store: Pick<Store, "client" | "embedded"> = { client, embedded: false };
    const watch = watchClickHouse(store, { everyMs: 100, timeoutMs: 300 });
    try {
      expect(watch.health().state).toBe("up"); // nothing known yet
      await until(() => watch.health().state === "down");
      expect(watch.health()).toMatchObject({ mode: "server", state: "down", error: expect.stringMatching(/^no answer to SELECT 1 (within|for) [\d.]+ s$/) });
      expect(watch.health().lastAnswerAt).toBeUndefined();
    } finally {
      watch.stop();
      await client.close();
    }
  });
});
