// The import direction (eslint.config.js: no-restricted-imports per folder) and the @tongate/*
// dependencies every workspace declares.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const RULES = new Set(["no-restricted-imports", "no-restricted-syntax"]);
const eslint = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => RULES.has(ruleId) });

async function violations(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe("import direction", () => {
  it.each([
    ["packages/ton/src/x.ts", 'import { indexService } from "@tongate/indexer";'],
    ["packages/runtime/src/x.ts", 'import type { Gateway } from "@tongate/gateway";'],
    ["packages/block/src/x.ts", 'export { main } from "@tongate/cli";'],
    ["packages/tl/src/x.ts", 'import { x } from "../../../services/localnet/src/chain/chain.js";'],
    ["services/indexer/src/x.ts", 'import { LiteserverPool } from "@tongate/lite-proxy";'],
    ["services/lite-proxy/src/x.ts", 'import { Localnet } from "@tongate/localnet";'],
    ["services/localnet/src/deep/x.ts", 'import { x } from "../../../indexer/src/rows/index.js";'],
    ["services/ratelimit/src/x.ts", 'import { Gateway } from "@tongate/gateway";'],
    ["gateway/src/x.ts", 'import { rateLimitService } from "@tongate/ratelimit";'],
    ["packages/runtime/src/x.ts", 'export const m = await import("@tongate/lite-proxy");'],
    ["services/indexer/src/x.ts", 'export const m = await import("../../localnet/src/index.js");'],
  ])("fails on %s: %s", async (file, code) => {
    const found = await violations(file, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^no-restricted-(imports|syntax): /);
  });

  it.each([
    ["packages/proof/src/x.ts", 'import { x } from "@tongate/block";\nimport { y } from "../../tl/src/index.js";'],
    ["services/indexer/src/x.ts", 'import { x } from "@tongate/runtime";\nimport { y } from "./rows/index.js";'],
    ["gateway/src/x.ts", 'import { x } from "@tongate/proto";\nimport { y } from "./ratelimit/client-identity.js";'],
    ["cli/src/x.ts", 'import { x } from "@tongate/indexer";\nimport { y } from "@tongate/gateway";'],
    ["services/ratelimit/src/x.ts", 'export const m = await import("./nats-store.js");'],
  ])("allows %s: %s", async (file, code) => {
    expect(await violations(file, code)).toEqual([]);
  });

  it("the tree keeps the direction", { timeout: 120_000 }, async () => {
    const results = await eslint.lintFiles(["packages", "gateway", "services", "cli"]);
    const found = results.flatMap((r) => r.messages.map((m) => `${relative(root, r.filePath)}:${m.line} ${m.message}`));
    expect(found).toEqual([]);
  });
});

function sources(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return f === "node_modules" || f === "gen" ? [] : sources(p);
    return /\.(ts|mjs|js)$/.test(f) ? [p] : [];
  });
}

describe("declared dependencies", () => {
  const workspaces = [
    ...readdirSync(join(root, "packages")).map((d) => `packages/${d}`),
    "cli",
    "gateway",
    ...readdirSync(join(root, "services")).map((d) => `services/${d}`),
  ];
  it.each(workspaces)("%s lists the @tongate/* workspaces it imports", (dir) => {
    const pkg = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8")) as { name: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    const imported = (sub: string[]) =>
      [...new Set(sub.flatMap((s) => sources(join(root, dir, s))).flatMap((f) => [...readFileSync(f, "utf8").matchAll(/(?:from |import\()"(@tongate\/[a-z-]+)/g)].map((m) => m[1]!)))]
        .filter((n) => n !== pkg.name)
        .sort();
    const declared = (deps?: Record<string, string>) => Object.keys(deps ?? {}).filter((n) => n.startsWith("@tongate/"));
    const runtime = declared(pkg.dependencies);
    expect(runtime.sort()).toEqual(imported(["src", "bin"]));
    for (const n of imported(["test"])) expect([...runtime, ...declared(pkg.devDependencies)]).toContain(n);
  });
});
