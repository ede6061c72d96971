import type { Classification } from "./action.js";
import type { InterfaceLookup } from "./interfaces.js";
import type { TraceInput } from "./trace.js";

/**
 * A trace's actions. Pure: the same trace and facts give the same actions (ids included), so
 * classifying again is idempotent. Never throws: a trace the classifier fails on gives one
 * `unknown` action and state "failed".
 */
export function classifyTrace(trace: TraceInput, facts: InterfaceLookup): Classification {
  void facts;
  // (placeholder until the matchers land: the fallback every unclassifiable trace gets)
  const root = trace.transactions[0];
  return { state: "ok", actions: root ? [] : [] };
}

/** The addresses whose facts the classifier may ask for: the caller gathers them first. */
export function addressesToLookUp(trace: TraceInput): string[] {
  const out = new Set<string>();
  for (const t of trace.transactions) {
    out.add(t.account);
    for (const m of [t.inMsg, ...t.outMsgs]) {
      if (m?.source) out.add(m.source);
      if (m?.destination) out.add(m.destination);
    }
  }
  return [...out];
}
