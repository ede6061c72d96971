// The last line of defence of a long-running tongate process: an exception no code caught, or a
// promise rejection no code handled, is logged once with its error and counted
// (tongate_uncaught_errors_total), and the process goes on serving. Why that is safe here, and what it
// does not cover: docs/architecture.md ("No uncaught exception ends the process").
import { Counter, Registry } from "prom-client";
import type { Logger } from "./log.js";

/** The process's own metrics; a process's /metrics includes them (the gateway's and `serve`'s do). */
export const processRegistry = new Registry();
const uncaught = new Counter({
  name: "tongate_uncaught_errors_total",
  help: "Exceptions no code caught (kind exception) and promise rejections no code handled (kind rejection); the process served on",
  labelNames: ["kind"],
  registers: [processRegistry],
});

/** The process's metrics, for a registry of its own to show (the gateway's /metrics does). */
export const processMetrics: readonly Counter[] = [uncaught];

type Kind = "exception" | "rejection";

/**
 * Keeps the process serving through uncaught exceptions and unhandled rejections: each is counted and
 * logged once, at error, with its error. Returns a function that takes the handlers off again.
 */
export function guardProcess(log: Logger): () => void {
  const report = (kind: Kind, reason: unknown) => {
    uncaught.inc({ kind });
    const msg = kind === "exception" ? "uncaught exception; serving on" : "unhandled promise rejection; serving on";
    try {
      // Only an Error is logged as it is: any other value may be too deep or too large to write.
      log.error({ err: reason instanceof Error ? reason : { type: Array.isArray(reason) ? "array" : typeof reason } }, msg);
    } catch {
      process.stderr.write(`tongate: ${msg}\n`);
    }
  };
  const onException = (err: Error) => report("exception", err);
  const onRejection = (reason: unknown) => report("rejection", reason);
  process.on("uncaughtException", onException);
  process.on("unhandledRejection", onRejection);
  return () => {
    process.off("uncaughtException", onException);
    process.off("unhandledRejection", onRejection);
  };
}
