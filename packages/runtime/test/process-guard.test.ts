// The process-level safety net, in a real child process: an uncaught exception and unhandled rejections
// are each logged once, with the error, and counted, and the process goes on until it ends by itself.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const child = fileURLToPath(new URL("./support/guarded-process.ts", import.meta.url));

describe("guardProcess", () => {
  it("logs each uncaught error once, counts it, and keeps the process running", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", child], { encoding: "utf8", timeout: 20_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain("still serving");
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { level: number; msg: string; err?: { message?: string; type?: string } });
    expect(lines.map((l) => [l.level, l.msg, l.err?.message ?? l.err?.type]).sort()).toEqual(
      [
        [50, "uncaught exception; serving on", "thrown from a timer"],
        [50, "unhandled promise rejection; serving on", "rejected, never handled"],
        [50, "unhandled promise rejection; serving on", "array"],
      ].sort(),
    );
    expect(run.stderr).toMatch(/tongate_uncaught_errors_total\{kind="exception"\} 1\b/);
    expect(run.stderr).toMatch(/tongate_uncaught_errors_total\{kind="rejection"\} 2\b/);
  });
});
