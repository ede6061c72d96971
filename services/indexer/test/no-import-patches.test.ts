// Importing a tongate module changes nothing in @ton/core: the speed shims (SHA-256, BitReader) are
// installed by the composition root only. Checked in a fresh process, since the test setup installs them.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));

function probe(body: string): Record<string, boolean> {
  const script = `
    import { createRequire } from "node:module";
    import { BitReader } from "@ton/core";
    const require = createRequire(import.meta.resolve("@ton/core"));
    const sha = require("@ton/crypto/dist/primitives/sha256.js");
    const p = BitReader.prototype;
    const before = [p._preloadUint, p._preloadInt, p._preloadBuffer, sha.sha256_sync];
    const same = () => [p._preloadUint, p._preloadInt, p._preloadBuffer, sha.sha256_sync].every((f, i) => f === before[i]);
    ${body}
  `;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").pop()!) as Record<string, boolean>;
}

describe("speed shims", () => {
  it("importing the indexer (and the other services) leaves @ton/core as it is", { timeout: 60_000 }, () => {
    const r = probe(`
      await import("@tongate/indexer");
      await import("@tongate/lite-proxy");
      await import("@tongate/localnet");
      const imported = same();
      (await import("@tongate/ton")).installSpeedShims();
      console.log(JSON.stringify({ imported, installed: !same() && sha.sha256_sync !== before[3] && p._preloadUint !== before[0] }));
    `);
    expect(r).toEqual({ imported: true, installed: true });
  });
});
