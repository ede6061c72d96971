import tseslint from "typescript-eslint";

// Import direction (docs/architecture.md): packages/ are libraries and import no service, no gateway
// and no cli; the gateway imports packages only; a service imports packages only, never another
// service (it calls its RPCs or consumes its events); cli/, the composition root, imports anything.
// Each workspace also lists the @tongate/* workspaces it imports in its package.json.
const SERVICES = ["indexer", "lite-proxy", "localnet", "ratelimit"];
const TOP = ["gateway", "cli"];

/** The rules that refuse these workspaces, by package name or by a relative path into their folder (static and dynamic imports). */
function forbid(names, why) {
  const services = names.filter((n) => !TOP.includes(n));
  const folders = names.map((n) => (TOP.includes(n) ? n : `services/${n}`));
  const regexes = [
    `^@tongate/(${names.join("|")})(/|$)`,
    `^(\\.\\./)+(${folders.join("|")})(/|$)`,
    // from inside services/: a sibling service's folder
    ...(services.length ? [`^(\\.\\./){2,}(${services.join("|")})/`] : []),
  ];
  return {
    "no-restricted-imports": ["error", { patterns: regexes.map((regex) => ({ regex, message: why })) }],
    "no-restricted-syntax": ["error", ...regexes.map((r) => ({ selector: `ImportExpression[source.value=/${r.replaceAll("/", "\\/")}/]`, message: why }))],
  };
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
    rules: forbid([...SERVICES, ...TOP], "packages/ are libraries: they import no service, no gateway and no cli"),
  },
  {
    files: ["gateway/src/**"],
    rules: forbid([...SERVICES, "cli"], "the gateway imports packages only; it reaches services through their RPCs"),
  },
  ...SERVICES.map((s) => ({
    files: [`services/${s}/src/**`],
    rules: forbid(
      [...SERVICES.filter((o) => o !== s), ...TOP],
      "a service imports packages only: call another service's RPCs or consume its events (shared code belongs in packages/)",
    ),
  })),
);
