// The pending engine: every external message the send service accepts is emulated once per
// normalized hash (a bounded memory of the hashes seen), in parallel with its broadcast, and kept
// as a pending trace when both succeed. A message the contract refuses in emulation, or the
// liteservers refuse, keeps nothing: the broadcast's answer is what the client gets.
//
// A client that asks right after sendBocReturnHash returned may come before the emulation ends:
// `find` waits (bounded) for the emulations in flight that its query would match.
import type { Address, Cell } from "@ton/core";
import type { Logger } from "@tongate/runtime";
import { LruMap } from "@tongate/runtime";
import { EmulationError, emulatePending, type EmulationDeps } from "./emulate.js";
import { NO_TRANSITIONS, type PendingTransitions } from "./events.js";
import type { PendingMetrics } from "./metrics.js";
import { hex, type PendingEntry, type PendingQuery, type PendingStore } from "./pending-store.js";

export interface PendingEngineOptions {
  /** Normalized hashes remembered as emulated (a repeated message is not emulated again). */
  dedupe: number;
  /** How long a pending trace is kept at most, ms (toncenter's ttl tracker: 60 s). */
  ttlMs: number;
  /** How long `find` waits for a matching emulation in flight, ms. */
  waitMs: number;
  /** Emulations at once; a message accepted past it keeps no pending trace (counted as "busy"). */
  maxInFlight: number;
}

export const PENDING_DEFAULTS: PendingEngineOptions = { dedupe: 16_384, ttlMs: 60_000, waitMs: 1_000, maxInFlight: 256 };

interface InFlight {
  extHashes: string[];
  /** the external's destination, raw */
  account: string;
  done: Promise<unknown>;
}

const rawOf = (a: Address) => `${a.workChain}:${a.hash.toString("hex").toUpperCase()}`;

export class PendingEngine {
  private readonly seen: LruMap<string, true>;
  private readonly inFlight = new Set<InFlight>();
  /** Unix ms of the last message accepted (0: none yet). */
  lastAcceptedAt = 0;

  constructor(
    private readonly deps: EmulationDeps,
    readonly store: PendingStore,
    private readonly metrics: PendingMetrics,
    private readonly log: Logger,
    private readonly o: PendingEngineOptions = PENDING_DEFAULTS,
    /** Told when a trace is kept (the finality watcher starts). */
    private readonly kept: () => void = () => {},
    /** Told of each trace kept (its pending.traces event). */
    private readonly transitions: PendingTransitions = NO_TRANSITIONS,
  ) {
    this.seen = new LruMap(o.dedupe);
  }

  /** An external message accepted for broadcast: emulated unless its normalized hash was. */
  accepted(m: { root: Cell; hashNorm: Buffer; dest: Address }, broadcast: Promise<void>): void {
    this.lastAcceptedAt = Date.now();
    const key = hex(m.hashNorm);
    if (this.seen.get(key)) return;
    // a flood of sends must not queue emulations without end: the broadcast goes on regardless
    if (this.inFlight.size >= this.o.maxInFlight) {
      this.metrics.failures.inc({ reason: "busy" });
      return;
    }
    this.seen.set(key, true);
    const started = performance.now();
    const flight: InFlight = { extHashes: [hex(m.root.hash()), key], account: rawOf(m.dest), done: Promise.resolve() };
    flight.done = this.emulate(m, broadcast, started)
      .catch((err: unknown) => this.log.warn({ err, hashNorm: key }, "pending: the pending trace could not be kept"))
      .finally(() => this.inFlight.delete(flight));
    this.inFlight.add(flight);
  }

  private async emulate(m: { root: Cell; hashNorm: Buffer }, broadcast: Promise<void>, started: number): Promise<void> {
    const [emulation, sent] = await Promise.allSettled([emulatePending(this.deps, { root: m.root, hashNorm: m.hashNorm, withActions: true }), broadcast]);
    if (emulation.status === "rejected" || sent.status === "rejected") {
      // a message sent again after a failure is emulated again
      this.seen.delete(hex(m.hashNorm));
      const reason = emulation.status === "rejected" ? (emulation.reason instanceof EmulationError ? emulation.reason.reason : "emulator") : "broadcast";
      this.metrics.failures.inc({ reason });
      const err: unknown = emulation.status === "rejected" ? emulation.reason : sent.status === "rejected" ? sent.reason : undefined;
      this.log.debug({ reason, err, hashNorm: hex(m.hashNorm) }, "pending: the external message keeps no pending trace");
      return;
    }
    const { trace, accounts } = emulation.value;
    this.kept();
    await this.store.put({ trace, accounts, expiresAt: Date.now() + this.o.ttlMs });
    this.transitions.changed(trace);
    this.metrics.emulated.inc();
    this.metrics.seconds.observe((performance.now() - started) / 1000);
  }

  /** The pending traces the query matches, after the matching emulations in flight (at most `waitMs`). */
  async find(q: PendingQuery): Promise<PendingEntry[]> {
    const waits = [...this.inFlight].filter((f) => f.extHashes.some((h) => q.extHashes.includes(h)) || q.accounts.includes(f.account)).map((f) => f.done);
    if (waits.length) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled(waits), new Promise((r) => (timer = setTimeout(r, this.o.waitMs)))]);
      clearTimeout(timer);
    }
    return this.store.find(q);
  }

  /** Waits for the emulations in flight (shutdown). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight].map((f) => f.done));
  }
}
