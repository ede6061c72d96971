// /healthz tells the truth, as an operator's probe reads it: ok while the chain advances and
// ClickHouse answers; "degraded" (200, with the reason) when the chain stops advancing; "unavailable"
// (503, with the reason) while ClickHouse does not answer, as API v3 cannot; ok again when each one
// recovers, without a restart. The chain is a localnet over ADNL whose sealing the test stops; the
// ClickHouse is a server on a real socket (chDB's engine behind ClickHouse's HTTP interface) that
// stops answering.
import { liteClientKey, LiteserverPool } from "@tongate/liteclient";
import type { Localnet } from "@tongate/localnet";
import { provide } from "@tongate/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startClickHouseHttp, type ClickHouseHttp } from "../support/clickhouse-http.js";
import { getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { startTestLocalnet } from "../support/localnet.js";

const HALT_AFTER_MS = 2000;

let net: Localnet;
let clickhouse: ClickHouseHttp;
let t: Embedded;
let sealer: NodeJS.Timeout | undefined;

let sealing: Promise<unknown> = Promise.resolve();

/** Seals a block every 250 ms, as a localnet with --block-interval 250 does, until stopSealing(). */
const startSealing = () => (sealer ??= setInterval(() => (sealing = net.chain.seal()), 250));
/** Stops sealing; resolves once the last seal has landed. */
const stopSealing = async () => {
  clearInterval(sealer);
  sealer = undefined;
  await sealing;
};

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "healthz" });
  await net.chain.seal();
  clickhouse = await startClickHouseHttp();
  const pool = () => LiteserverPool.fromGlobalConfig(net.globalConfig(), { probeIntervalMs: 200, haltAfterMs: HALT_AFTER_MS });
  t = await startEmbedded(
    { globalConfig: net.globalConfig(), index: "off", "clickhouse-url": clickhouse.url, "key-index": "off", clickhouseProbe: { everyMs: 200, timeoutMs: 1500 } },
    {},
    [provide(liteClientKey, pool)],
  );
  startSealing();
});

afterAll(async () => {
  await stopSealing();
  clickhouse?.resume();
  await t?.close();
  await clickhouse?.close();
  await net?.close();
});

/** /healthz polled until `ok` holds of it; the last answer when it never does within timeoutMs. */
async function healthUntil(ok: (h: { status: number; body: any }) => boolean, timeoutMs = 10_000): Promise<{ status: number; body: any }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const h = await getJson(`${t.url}/healthz`);
    if (ok(h) || Date.now() > deadline) return h;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const isOk = (h: { status: number; body: any }) => h.status === 200 && h.body.status === "ok";

describe("/healthz", () => {
  it("says ok while the chain advances and ClickHouse answers", async () => {
    const h = await healthUntil(isOk);
    expect(h.status).toBe(200);
    expect(h.body.status).toBe("ok");
    expect(h.body.reasons).toBeUndefined();
    expect(h.body.detail.dependencies.chain).toMatchObject({ ok: true, detail: { haltAfterSeconds: HALT_AFTER_MS / 1000 } });
    expect(h.body.detail.indexer.clickhouse).toMatchObject({ mode: "server", state: "up" });
  });

  it("says degraded (200) with the reason when the chain stops advancing, and ok when blocks come again", async () => {
    await stopSealing();
    const last = net.chain.lastMasterchain!.id.seqno;
    const h = await healthUntil((x) => x.body.status === "degraded");
    expect(h.status).toBe(200);
    expect(h.body.status).toBe("degraded");
    expect(h.body.reasons).toContainEqual(expect.stringMatching(new RegExp(`^chain: no new masterchain block for \\d+ s, last seqno ${last}$`)));
    expect(h.body.detail.dependencies.chain.ok).toBe(false);
    // API v2 still answers meanwhile (the newest block it has)
    const v2 = await getJson(`${t.url}/api/v2/getMasterchainInfo`);
    expect(v2.status).toBe(200);
    expect(v2.body.result.last.seqno).toBe(last);
    startSealing();
    expect(isOk(await healthUntil(isOk))).toBe(true);
  });

  it("says unavailable (503) with the reason while ClickHouse does not answer, and ok when it answers again", async () => {
    clickhouse.stall();
    const h = await healthUntil((x) => x.status === 503);
    expect(h.status).toBe(503);
    expect(h.body.status).toBe("unavailable");
    expect(h.body.reasons).toContainEqual(expect.stringMatching(/^clickhouse \(server\): no answer to SELECT 1 (for|within) [\d.]+ s; API v3 cannot answer$/));
    expect(h.body.detail.indexer.clickhouse).toMatchObject({ mode: "server", state: "down", lastAnswerAt: expect.any(String) });
    // the chain side answers meanwhile
    expect((await getJson(`${t.url}/api/v2/getMasterchainInfo`)).status).toBe(200);
    clickhouse.resume();
    const back = await healthUntil(isOk);
    expect(back.body).toMatchObject({ status: "ok", detail: { indexer: { clickhouse: { state: "up" } } } });
  });
});
