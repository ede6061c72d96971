// ClickHouse as a dependency on /healthz (issue 16): a server (--clickhouse-url) is pinged every
// PING_EVERY_MS, so /healthz answers from the last ping without waiting on it; embedded chDB runs
// in this process and is up while the store is open.
import type { Store } from "./store.js";

export const PING_EVERY_MS = 5000;

export interface ClickHouseHealth {
  mode: "embedded" | "server";
  state: "up" | "down";
  since: string;
  error?: string;
}

export interface ClickHouseWatch {
  health(): ClickHouseHealth;
  stop(): void;
}

export function watchClickHouse(store: Store, everyMs = PING_EVERY_MS): ClickHouseWatch {
  let state: ClickHouseHealth = { mode: store.embedded ? "embedded" : "server", state: "up", since: new Date().toISOString() };
  if (store.embedded) return { health: () => state, stop: () => {} };
  let pinging = false;
  const timer = setInterval(() => {
    if (pinging) return;
    pinging = true;
    void store.client
      .ping()
      .then(
        (r) => (r.success ? { up: true, error: undefined } : { up: false, error: String(r.error) }),
        (e: unknown) => ({ up: false, error: String(e) }),
      )
      .then(({ up, error }) => {
        const next = up ? "up" : "down";
        if (next !== state.state) state = { mode: "server", state: next, since: new Date().toISOString() };
        state = error === undefined ? { mode: state.mode, state: state.state, since: state.since } : { ...state, error };
      })
      .finally(() => (pinging = false));
  }, everyMs);
  timer.unref();
  return { health: () => state, stop: () => clearInterval(timer) };
}
