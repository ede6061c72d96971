// Logs, shared by every service: pino events written as JSON lines (one object per line, for
// collectors) or as one readable line per event (for a person at a terminal). The composition root
// picks the format: `auto` is readable on a TTY and JSON otherwise. Every line is cleared of API keys
// before it is written (redactSecrets), whatever logged them: a request's URL, its headers, an error.
import { pino, type Logger } from "pino";

export type { Logger };

export type LogFormat = "json" | "pretty";

export interface LoggerOptions {
  level?: string;
  name?: string;
  /** json (default), pretty, or auto: pretty when `destination` (stdout) is a terminal */
  format?: LogFormat | "auto";
  /** where lines go (default: stdout) */
  destination?: { write(line: string): unknown; isTTY?: boolean };
  /** ANSI colours in pretty lines (default: on a terminal, unless NO_COLOR is set) */
  color?: boolean;
}

/** The format `auto` resolves to on this stream; anything but auto, json and pretty is an error. */
export function logFormatOf(format: string | undefined, stream: { isTTY?: boolean } = process.stdout): LogFormat {
  if (format === undefined || format === "auto") return stream.isTTY ? "pretty" : "json";
  if (format === "json" || format === "pretty") return format;
  throw new Error(`--log-format ${format}: expected auto, pretty or json`);
}

/** What stands for a secret in a log line. */
export const REDACTED = "***";

// An API key as toncenter takes it: the api_key query parameter (its name percent-encoded too) and the
// X-API-Key header; as they appear in a URL, in logged JSON fields ("api_key", "apiKey", "x-api-key")
// and in a header line quoted by a message. The value runs to the end of the parameter, field or line.
const SECRET_HINT = /api(?:_|-|%5f)?key/i;
const SECRETS: [RegExp, string][] = [
  [/(\bapi(?:_|%5f)key=)(?:\\.|[^&#\s"\\])*/gi, `$1${REDACTED}`],
  [/("(?:api_key|apikey|x-api-key)"\s*:\s*")(?:\\.|[^"\\])*"/gi, `$1${REDACTED}"`],
  [/(\bx-api-key\s*:\s*)(?![\s"])(?:\\.|[^\s,;"\\])+/gi, `$1${REDACTED}`],
];

/** `text` (a log line, a URL) with the value of every API key in it replaced by REDACTED. */
export function redactSecrets(text: string): string {
  if (!SECRET_HINT.test(text)) return text;
  for (const [pattern, replacement] of SECRETS) text = text.replace(pattern, replacement);
  return text;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const out = options.destination ?? process.stdout;
  const format = options.format === undefined ? "json" : logFormatOf(options.format, out);
  const settings = {
    name: options.name ?? "tongate",
    level: options.level ?? process.env.TONGATE_LOG_LEVEL ?? "info",
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (format === "json") {
    const sink = options.destination ?? pino.destination();
    return pino(settings, { write: (line: string) => sink.write(redactSecrets(line)) });
  }
  const color = options.color ?? (!!out.isTTY && !process.env.NO_COLOR);
  return pino(settings, {
    write(raw: string) {
      const line = redactSecrets(raw);
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        out.write(line);
        return;
      }
      out.write(formatLogLine(entry, { color }) + "\n");
    },
  });
}

const LEVELS: Record<number, string> = { 10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL" };
const LEVEL_COLORS: Record<number, string> = { 10: "90", 20: "90", 30: "32", 40: "33", 50: "31", 60: "41;97" };
/** Fields every event carries or the line shows in its own place. */
const FRAME = new Set(["level", "time", "pid", "hostname", "name", "msg", "service", "component", "v"]);
const MAX_VALUE = 160;

function value(v: unknown): string {
  if (typeof v === "string") return v !== "" && /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  if (typeof v === "number" && !Number.isInteger(v)) return String(Number(v.toFixed(3)));
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint" || v === null || v === undefined) return String(v);
  const s = JSON.stringify(v) ?? String(v);
  return s.length > MAX_VALUE ? s.slice(0, MAX_VALUE - 1) + "…" : s;
}

function clock(time: unknown): string {
  const d = typeof time === "string" || typeof time === "number" ? new Date(time) : new Date();
  if (Number.isNaN(d.getTime())) return String(time);
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

/**
 * One event as a line a person reads: local time, level, [service/component], the message, then
 * the other fields as key=value (objects as compact JSON, cut at 160 characters). An error's stack
 * follows on indented lines at error and fatal.
 */
export function formatLogLine(entry: Record<string, unknown>, options: { color?: boolean } = {}): string {
  const paint = (code: string, s: string) => (options.color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const level = typeof entry.level === "number" ? entry.level : 30;
  const label = (LEVELS[level] ?? String(entry.level)).padEnd(5);
  const who = [entry.service, entry.component].filter((s) => typeof s === "string" && s !== "").join("/");
  const parts = [paint("90", clock(entry.time)), paint(LEVEL_COLORS[level] ?? "0", label)];
  if (who) parts.push(paint("36", `[${who}]`));
  if (typeof entry.msg === "string" && entry.msg !== "") parts.push(entry.msg);
  let stack = "";
  for (const [k, v] of Object.entries(entry)) {
    if (FRAME.has(k)) continue;
    if (k === "err" && v && typeof v === "object") {
      const err = v as { message?: unknown; stack?: unknown };
      parts.push(`${paint("90", "err=")}${value(err.message ?? v)}`);
      if (level >= 50 && typeof err.stack === "string") stack = "\n" + err.stack.split("\n").slice(1).map((l) => "    " + l.trim()).join("\n");
      continue;
    }
    parts.push(`${paint("90", k + "=")}${value(v)}`);
  }
  return parts.join(" ") + stack;
}
