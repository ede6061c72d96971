import tseslint from "typescript-eslint";

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
);
