import tseslint from "typescript-eslint";

// Import direction (docs/architecture.md): packages/ are libraries and import no service, no gateway
// and no cli; the gateway imports packages only; a service imports packages only, never another
// service (it calls its RPCs or consumes its events); cli/, the composition root, imports anything.
// Each workspace also lists the @tongate/* workspaces it imports in its package.json.
const SERVICES = ["indexer", "lite-proxy", "localnet", "ratelimit"];
const TOP = ["gateway", "cli"];

/** no-restricted-imports of these workspaces, by package name and by a relative path into their folder. */
function forbid(names, why) {
  const folders = names.map((n) => (TOP.includes(n) ? n : `services/${n}`));
  return [
    "error",
    {
      patterns: [
        { regex: `^@tongate/(${names.join("|")})(/|$)`, message: why },
        { regex: `^(\\.\\./)+(${folders.join("|")})(/|$)`, message: why },
        // from inside services/: a sibling service's folder
        { regex: `^(\\.\\./){2,}(${names.filter((n) => !TOP.includes(n)).join("|") || "$^"})/`, message: why },
      ],
    },
  ];
}

export default tseslint.config(
  { ignores: ["**/node_modules/**", "packages/proto/src/gen/**"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  {
    // Tests poke at JSON bodies of any shape.
    files: ["tests/**", "**/test/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["packages/**"],
    rules: { "no-restricted-imports": forbid([...SERVICES, ...TOP], "packages/ are libraries: they import no service, no gateway and no cli") },
  },
  {
    files: ["gateway/src/**"],
    rules: { "no-restricted-imports": forbid([...SERVICES, "cli"], "the gateway imports packages only; it reaches services through their RPCs") },
  },
  ...SERVICES.map((s) => ({
    files: [`services/${s}/src/**`],
    rules: {
      "no-restricted-imports": forbid(
        [...SERVICES.filter((o) => o !== s), ...TOP],
        "a service imports packages only: call another service's RPCs or consume its events (shared code belongs in packages/)",
      ),
    },
  })),
);
