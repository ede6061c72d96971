// tongate started while NATS is down (issue 16): `tongate start` (a localnet, every service in one
// process, its ratelimit buckets and its indexer's events in NATS), `tongate serve --service
// ratelimit` and a `tongate gateway` in front of that service all start although the nats-server
// they are given is stopped. Meanwhile /healthz says "degraded" (200) with NATS reconnecting, and
// the ratelimit services limit by their outage policy (local: each its own buckets, so a keyless
// client gets the rate from each). Once NATS starts, every process connects by itself (no restart):
// within RECOVER_MS the two ratelimit services share one bucket (the client gets the rate across
// both gateways, within 10 %), and the indexer's events, kept in its outbox, are in the stream.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../bench/support/processes.js";
import { hasNats, startNatsServer, type NatsServer } from "../support/nats.js";
import { sleep, Tongates } from "../support/tongate.js";

const RPS = 20;
const RECOVER_MS = 5_000;
const MEASURE_MS = 4_000;
const WARM_MS = 1_500;
const DETECT = "/api/v2/detectAddress?address=EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N";

const procs = new Tongates();
let nats: NatsServer;
let dataDir = "";
/** `start`'s gateway, the gateway in front of `serve`'s ratelimit */
let gateways: string[] = [];
/** the /healthz of `start`, of `serve` (its metrics listener), of the gateway */
let healthz: string[] = [];

beforeAll(async () => {
  if (!hasNats) return;
  nats = await startNatsServer();
  await nats.halt();
  dataDir = mkdtempSync(join(tmpdir(), "tongate-nats-down-"));
  const [startPort, lite, control, rlPort, rlMetrics, gwPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort(), freePort()]);
  const limits = ["--keyless-rps", String(RPS), "--nats-url", nats.url];
  await Promise.all([
    procs.start(
      ["start", "--host", "127.0.0.1", "--port", String(startPort), "--liteserver", `127.0.0.1:${lite}`, "--control", `127.0.0.1:${control}`, "--wallets", "1", "--block-interval", "500", "--data-dir", dataDir, "--ratelimit", "on", "--log-format", "json", ...limits],
      /"msg":"tongate ready"/,
    ),
    procs.start(["serve", "--service", "ratelimit", "--listen", `127.0.0.1:${rlPort}`, "--metrics-listen", `127.0.0.1:${rlMetrics}`, ...limits], /metrics listening/),
    // its in-process indexer's bus is NATS too (no chain: it only answers from its store)
    procs.start(["gateway", "--upstream", `ratelimit=http://127.0.0.1:${rlPort}`, "--host", "127.0.0.1", "--port", String(gwPort), "--nats-url", nats.url], /gateway listening/),
  ]);
  gateways = [startPort, gwPort].map((p) => `http://127.0.0.1:${p}`);
  healthz = [startPort, rlMetrics, gwPort].map((p) => `http://127.0.0.1:${p}/healthz`);
}, 90_000);

afterAll(async () => {
  await procs.stop();
  await nats?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Keyless clients on both gateways for WARM_MS + `ms`; the answers admitted by each gateway to the
 * requests sent after WARM_MS (by then the full buckets of an idle client are spent).
 */
async function admitted(ms: number): Promise<{ perGateway: number[]; statuses: Set<number> }> {
  const from = performance.now() + WARM_MS;
  const end = from + ms;
  const perGateway = [0, 0];
  const statuses = new Set<number>();
  await Promise.all(
    gateways.flatMap((base, gw) =>
      [0, 1].map(async () => {
        while (performance.now() < end) {
          const res = await fetch(`${base}${DETECT}`);
          await res.arrayBuffer();
          // counted by when the answer came (the limiter decided just before it), not when the
          // request left: on a loaded machine a request waits in queues before the limiter sees it
          const at = performance.now();
          statuses.add(res.status);
          if (res.status === 200 && at >= from && at < end) perGateway[gw]!++;
        }
      }),
    ),
  );
  return { perGateway, statuses };
}

type Health = { status: number; body: { status: string; detail?: Record<string, unknown> } };
const health = async (url: string): Promise<Health> => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Health["body"] };
};

describe.skipIf(!hasNats)("tongate started while NATS is down", () => {
  it("start, serve and gateway start degraded, limit by policy, and share their limits once NATS starts, without a restart", async () => {
    const pids = procs.started.map((p) => p.child.pid);
    const [start, serve, gateway] = await Promise.all(healthz.map(health));
    expect(start, "start's /healthz").toMatchObject({ status: 200, body: { status: "degraded", detail: { ratelimit: { nats: { state: "reconnecting", outagePolicy: "local" } }, dependencies: { nats: { ok: false } } } } });
    expect(serve, "serve's /healthz").toMatchObject({ status: 200, body: { status: "degraded", detail: { ratelimit: { nats: { state: "reconnecting" } } } } });
    expect(gateway, "the gateway's /healthz").toMatchObject({ status: 200, body: { status: "degraded", detail: { dependencies: { nats: { ok: false, detail: { state: "reconnecting" } } } } } });

    // each ratelimit service limits with its own buckets: the client gets the rate from each
    const down = await admitted(MEASURE_MS);
    const seconds = MEASURE_MS / 1000;
    expect(down.statuses, "answers while NATS is down").toEqual(new Set([200, 429]));
    for (const n of down.perGateway) {
      expect(n, `admitted by one gateway while NATS is down: ${down.perGateway.join(", ")}`).toBeGreaterThanOrEqual(RPS * seconds * 0.9);
      // a token bucket's bound: what refills in the window and one full bucket (the burst, RPS)
      expect(n).toBeLessThanOrEqual(RPS * seconds + RPS);
    }

    await nats.resume();
    const resumed = performance.now();
    await Promise.all(
      healthz.map(async (url) => {
        for (;;) {
          const h = await health(url);
          if (h.body.status === "ok") return;
          expect(performance.now() - resumed, `${url} still ${JSON.stringify(h.body)}`).toBeLessThan(RECOVER_MS);
          await sleep(100);
        }
      }),
    );
    await sleep(Math.max(0, resumed + RECOVER_MS - performance.now()));

    // one bucket in NATS for both services: the rate across both gateways
    const up = await admitted(MEASURE_MS);
    const total = up.perGateway[0]! + up.perGateway[1]!;
    expect(up.statuses, "answers once NATS is up").toEqual(new Set([200, 429]));
    expect(total, `admitted by both gateways in ${MEASURE_MS} ms, ${RECOVER_MS} ms after NATS started: ${up.perGateway.join(" + ")}`).toBeGreaterThanOrEqual(RPS * seconds * 0.9);
    expect(total).toBeLessThanOrEqual(RPS * seconds + RPS); // one shared bucket (unshared: twice the rate)
    for (const n of up.perGateway) expect(n, "each gateway's share").toBeGreaterThan(0);

    // the events `start`'s indexer stored while NATS was down are in the stream now, in order from block 1
    const nc = await connect({ servers: nats.url });
    try {
      const info = await (await nc.jetstreamManager()).streams.info("TONGATE_EVENTS");
      expect(info.state.messages, "blocks.indexed events in the stream").toBeGreaterThan(seconds);
      // the stream holds the other events too (blocks.decoded, stream.events): the first blocks.indexed
      const jsm = await nc.jetstreamManager();
      let first = await jsm.streams.getMessage("TONGATE_EVENTS", { seq: info.state.first_seq });
      for (let seq = info.state.first_seq + 1; first.subject !== "tongate.localnet.blocks.indexed" && seq <= info.state.last_seq; seq++) first = await jsm.streams.getMessage("TONGATE_EVENTS", { seq });
      expect(first.subject).toBe("tongate.localnet.blocks.indexed");
      expect(first.header.get("Nats-Msg-Id")).toBe("tongate.localnet.blocks.indexed:1");
    } finally {
      await nc.close();
    }

    // no process was restarted
    expect(procs.allRunning()).toBe(true);
    expect(procs.started.map((p) => p.child.pid)).toEqual(pids);
    expect(procs.started[1]!.out()).toMatch(/NATS unreachable: rate limits are per replica until it returns/);
  }, 90_000);
});
