// Log lines: one readable line per event on a terminal, JSON lines otherwise.
import { describe, expect, it } from "vitest";
import { createLogger, formatLogLine, logFormatOf, redactSecrets } from "../src/log.js";

const at = new Date(2026, 10, 24, 9, 5, 7, 42).toISOString();

describe("formatLogLine", () => {
  it("shows time, level, service, message and the key fields", () => {
    const line = formatLogLine({ level: 30, time: at, pid: 1, hostname: "h", name: "tongate", service: "indexer", msg: "caught up", mcSeqno: 12, lag: 0.123456, url: "http://x", note: "two words", list: [1, 2] });
    expect(line).toBe('09:05:07.042 INFO  [indexer] caught up mcSeqno=12 lag=0.123 url=http://x note="two words" list=[1,2]');
  });

  it("joins service and component, pads levels, cuts long values", () => {
    const line = formatLogLine({ level: 40, time: at, service: "lite-proxy", component: "pool", msg: "slow", detail: { s: "x".repeat(400) } });
    expect(line.startsWith("09:05:07.042 WARN  [lite-proxy/pool] slow detail={")).toBe(true);
    expect(line.endsWith("…")).toBe(true);
    expect(line.length).toBeLessThan(250);
  });

  it("shows an error's message, and its stack at error level", () => {
    const err = { type: "Error", message: "boom", stack: "Error: boom\n    at f (a.ts:1:1)" };
    expect(formatLogLine({ level: 40, time: at, msg: "retrying", err })).toBe('09:05:07.042 WARN  retrying err=boom');
    expect(formatLogLine({ level: 50, time: at, msg: "failed", err })).toBe("09:05:07.042 ERROR failed err=boom\n    at f (a.ts:1:1)");
  });

  it("colours only when asked", () => {
    expect(formatLogLine({ level: 30, time: at, msg: "m" }, { color: true })).toContain("\x1b[32mINFO");
    expect(formatLogLine({ level: 30, time: at, msg: "m" })).not.toContain("\x1b");
  });
});

describe("createLogger", () => {
  const sink = (isTTY: boolean) => {
    const lines: string[] = [];
    return { lines, stream: { isTTY, write: (s: string) => lines.push(s) } };
  };

  it("auto: readable on a terminal, JSON lines otherwise; json and pretty as asked", () => {
    const tty = sink(true);
    createLogger({ format: "auto", destination: tty.stream, color: false }).child({ service: "gateway" }).info({ port: 8081 }, "listening");
    expect(tty.lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO  \[gateway\] listening port=8081\n$/);
    const pipe = sink(false);
    createLogger({ format: "auto", destination: pipe.stream }).info({ port: 8081 }, "listening");
    expect(JSON.parse(pipe.lines[0]!)).toMatchObject({ level: 30, msg: "listening", port: 8081 });
    const json = sink(true);
    createLogger({ format: "json", destination: json.stream }).info("x");
    expect(JSON.parse(json.lines[0]!)).toMatchObject({ msg: "x" });
  });

  it("logFormatOf rejects what it does not know", () => {
    expect(logFormatOf("pretty")).toBe("pretty");
    expect(logFormatOf("auto", { isTTY: false })).toBe("json");
    expect(() => logFormatOf("yaml")).toThrow(/expected auto, pretty or json/);
  });
});

describe("API keys in log lines", () => {
  const KEY = "c0ffee5ecret0123456789abcdef";

  it("redactSecrets clears the api_key parameter (its name percent-encoded too), X-API-Key fields and header lines", () => {
    expect(redactSecrets(`/api/v2/getMasterchainInfo?api_key=${KEY}&x=1`)).toBe("/api/v2/getMasterchainInfo?api_key=***&x=1");
    expect(redactSecrets(`/a?x=1&API%5Fkey=${KEY}#f`)).toBe("/a?x=1&API%5Fkey=***#f");
    expect(redactSecrets(`{"url":"/a?api_key=${KEY}","headers":{"x-api-key":"${KEY}"},"apiKey":"${KEY}"}`)).toBe(
      '{"url":"/a?api_key=***","headers":{"x-api-key":"***"},"apiKey":"***"}',
    );
    expect(redactSecrets(`{"msg":"sent X-API-Key: ${KEY} twice"}`)).toBe('{"msg":"sent X-API-Key: *** twice"}');
    // a value with an escaped quote in a JSON line ends at the closing quote, not at the escape
    expect(redactSecrets(`{"url":"/a?api_key=ab\\"cd${KEY}"}`)).toBe('{"url":"/a?api_key=***"}');
    expect(redactSecrets("no keys here")).toBe("no keys here");
  });

  it("no line of either format carries a key, whatever field or error holds it", () => {
    for (const format of ["json", "pretty"] as const) {
      const lines: string[] = [];
      const log = createLogger({ format, level: "debug", destination: { write: (s: string) => lines.push(s) }, color: false });
      log.warn({ url: `/api/v2/x?api_key=${KEY}` }, "request failed");
      log.error({ err: new Error(`upstream refused /x?api_key=${KEY}`) }, "call failed");
      log.debug({ headers: { "x-api-key": KEY } }, "request");
      expect(lines).toHaveLength(3);
      for (const line of lines) expect(line, format).not.toContain(KEY);
      expect(lines[0]).toContain("api_key=***");
    }
  });
});
