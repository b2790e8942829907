// ESLint (flat config): JavaScript's and typescript-eslint's recommended rules over the service, its tests, the
// benchmarks, the scripts, the dashboard and the example front-end. Run by `npm test` (scripts/lint-if-stale.mjs)
// and `npm run lint`.
// A rule is switched off here only with the reason beside it; an `eslint-disable` comment in the code names the rule
// it silences and says why on the same line.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";
import { layersFrom, layersPlugin } from "./scripts/eslint-layers.mjs";

export default tseslint.config(
  { ignores: ["node_modules/", "dist/", "dashboard/dist/", "src/generated/", "dashboard/src/graphql-env.d.ts", "examples/front-end/src/gql/", "examples/front-end/dist/", "bench/peers/postgraphile/node_modules/", "artifacts/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_`-prefixed parameters and destructured leftovers are deliberate (a callback's unused arguments, omitting a
      // field from a rest object).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    // A function longer than a screenful does several things: name them. Tests are exempt: a `describe` callback's
    // length is its number of cases.
    files: ["**/*.{ts,tsx,mts,js,mjs,cjs}"],
    ignores: ["test/**"],
    rules: { "max-lines-per-function": ["error", { max: 120 }] },
  },
  {
    // Layers of src/ import one way and no file imports itself back: the list is ARCHITECTURE.md "Layers".
    files: ["src/**/*.ts"],
    plugins: { layers: layersPlugin },
    rules: { "layers/one-way": ["error", { root: "src", ...layersFrom(new URL("./ARCHITECTURE.md", import.meta.url).pathname) }] },
  },
  {
    files: ["**/*.js", "**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" }, // CommonJS files require by design
  },
  {
    files: ["test/**"],
    // Tests read JSON answers and the OpenAPI document by path (body.data.items[0].id): a declared type for each
    // answer would restate the OpenAPI document the answers are already validated against (test/support/openapi.ts).
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["dashboard/src/**", "examples/front-end/src/**"],
    languageOptions: { globals: { ...globals.browser } },
  },
);
