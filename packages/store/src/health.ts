// ClickHouse as a dependency on /healthz: asked `SELECT 1` every PROBE_EVERY_MS, embedded chDB as
// much as a server (after a fatal error chDB stays loaded and answers every query with an error; a
// server may accept and never answer). /healthz answers from the last probe without waiting on it,
// but a probe that has waited longer than its timeout counts as no answer at that moment, so a
// ClickHouse that hangs is down even while its probe never returns.
import type { Store } from "./store.js";

export const PROBE_EVERY_MS = 5000;
/** Past this a probe counts as no answer (above the gateway's default call deadline of 10 s: a busy ClickHouse is not a dead one). */
export const PROBE_TIMEOUT_MS = 15_000;

export interface ClickHouseHealth {
  mode: "embedded" | "server";
  state: "up" | "down";
  since: string;
  /** Why it is down: the error of the last probe, or how long the current one has waited. */
  error?: string;
  /** When ClickHouse last answered a probe. */
  lastAnswerAt?: string;
}

export interface ClickHouseWatch {
  health(): ClickHouseHealth;
  stop(): void;
}

export interface ClickHouseWatchOptions {
  everyMs?: number;
  timeoutMs?: number;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export function watchClickHouse(store: Pick<Store, "client" | "embedded">, o: ClickHouseWatchOptions = {}): ClickHouseWatch {
  const everyMs = o.everyMs ?? PROBE_EVERY_MS;
  const timeoutMs = o.timeoutMs ?? PROBE_TIMEOUT_MS;
  const mode = store.embedded ? "embedded" : "server";
  let last: { up: boolean; since: number; error?: string } = { up: true, since: Date.now() };
  let answeredAt: number | undefined;
  let pendingSince: number | undefined;
  let stopped = false;
  const settle = (up: boolean, error?: string) => {
    if (up !== last.up) last = { up, since: Date.now() };
    last = { up, since: last.since, ...(error === undefined ? {} : { error }) };
  };
  const probe = async () => {
    if (pendingSince !== undefined || stopped) return;
    pendingSince = Date.now();
    // a server's request is aborted at the timeout; chDB may not stop, its probe then stays pending
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    try {
      const rs = await store.client.query({ query: "SELECT 1 AS one", format: "JSONEachRow", abort_signal: abort.signal });
      const rows = await rs.json<{ one: number | string }>();
      if (Number(rows[0]?.one) !== 1) throw new Error(`SELECT 1 answered ${JSON.stringify(rows).slice(0, 200)}`);
      answeredAt = Date.now();
      settle(true);
    } catch (e) {
      settle(false, abort.signal.aborted ? `no answer to SELECT 1 within ${seconds(timeoutMs)}` : `SELECT 1 failed: ${String(e).slice(0, 300)}`);
    } finally {
      clearTimeout(timer);
      pendingSince = undefined;
    }
  };
  void probe();
  const timer = setInterval(() => void probe(), everyMs);
  timer.unref();
  return {
    health(): ClickHouseHealth {
      const lastAnswerAt = answeredAt === undefined ? {} : { lastAnswerAt: new Date(answeredAt).toISOString() };
      const waited = pendingSince === undefined ? 0 : Date.now() - pendingSince;
      if (waited > timeoutMs) {
        const since = new Date(last.up ? pendingSince! + timeoutMs : last.since).toISOString();
        return { mode, state: "down", since, error: `no answer to SELECT 1 for ${seconds(waited)}`, ...lastAnswerAt };
      }
      return { mode, state: last.up ? "up" : "down", since: new Date(last.since).toISOString(), ...(last.error ? { error: last.error } : {}), ...lastAnswerAt };
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
