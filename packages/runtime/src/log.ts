// Structured JSON logs (one object per line on stdout), shared by every service.
import { pino, type Logger } from "pino";

export type { Logger };

export function createLogger(options: { level?: string; name?: string } = {}): Logger {
  return pino({
    name: options.name ?? "tongate",
    level: options.level ?? process.env.TONGATE_LOG_LEVEL ?? "info",
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
