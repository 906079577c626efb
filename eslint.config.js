// ESLint (flat config): typescript-eslint's recommended rules (not type-aware, so the whole
// tree lints in seconds), React hooks, jsx-a11y, no import cycles, and the import boundaries
// of docs/architecture.md ("Dependency direction"). `npm run lint`; `npm test` runs it with zero warnings.
import path from "node:path";
import { fileURLToPath } from "node:url";
import js from "@eslint/js";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const root = path.dirname(fileURLToPath(import.meta.url));
const at = (p) => path.join(root, p);

// The pure rule modules server/ may import: plain app/models/<area>/*.ts, neither *.server.ts nor tests.
const PURE_MODELS = at("app/models/**/!(*.server|*.test|*.spec).ts");

const ROUTE_MESSAGE = "A route never imports @server/* nor kysely: go through a model or the route kit — docs/architecture.md.";
const NO_REACT = "Models never import React (docs/architecture.md).";
const NO_REMIX = "Models never import Remix nor build HTTP answers: return data or throw a Refusal (docs/architecture.md).";
const NO_HTTP =
  "Models never import the route kit (~/http): take plain values (an origin, a language, a permission already checked) and throw a Refusal (docs/architecture.md).";

// What no model imports: React, Remix and the route kit. Used by both model blocks below, because a later block's
// options for the same rule replace an earlier one's.
const MODEL_PATHS = [
  { name: "react", message: NO_REACT },
  { name: "react-dom", message: NO_REACT },
  { name: "react-i18next", message: "Models never import React; take translated texts as arguments." },
];
const MODEL_PATTERNS = [
  { group: ["react/*", "react-dom/*"], message: NO_REACT },
  { group: ["@remix-run/*"], message: NO_REMIX },
  { group: ["~/http", "~/http/*"], message: NO_HTTP },
];

export default tseslint.config(
  { ignores: ["build/", ".cache/", "node_modules/", "data/", "public/", "test-results/", "playwright-report/", "tmp/"] },

  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // Unused names are errors, except a deliberately ignored `_name` (destructuring, arguments).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
    },
  },

  {
    // React code lives in app/; Playwright's fixtures call a function named `use` that is no hook.
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },

  { ...jsxA11y.flatConfigs.recommended, files: ["app/**/*.tsx"] },
  {
    files: ["app/**/*.tsx"],
    rules: {
      // Only real elements are checked: a component's autoFocus prop is decided where it reaches an <input>.
      "jsx-a11y/no-autofocus": ["error", { ignoreNonDOM: true }],
    },
  },

  {
    plugins: { "import-x": importX },
    settings: {
      // Resolves the tsconfig path aliases (~/…, @server/…) so the boundary and cycle rules see through them.
      "import-x/resolver-next": [
        createNodeResolver({
          extensions: [".ts", ".tsx", ".mjs", ".js", ".json", ".node"],
          conditionNames: ["import", "node", "require", "default"],
          tsconfig: { configFile: at("tsconfig.json") },
        }),
      ],
      "import-x/extensions": [".ts", ".tsx", ".js", ".mjs"],
    },
    rules: {
      // Dynamic import() counts too: a cycle hidden behind one is still a cycle.
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: at("server/**"),
              from: at("app/**"),
              except: [PURE_MODELS],
              message:
                "server/ imports from app/ only the pure rule modules (app/models/<area>/*.ts without .server): hand a provider what it needs instead (docs/architecture.md).",
            },
            {
              target: at("app/components/**"),
              from: [at("app/routes/**"), at("app/root.{ts,tsx}")],
              message: "A component never imports a route module or root: move the type or helper to its model or to app/components (docs/architecture.md).",
            },
            {
              target: at("app/**"),
              from: at("tests/**"),
              message: "Application code never imports from tests/.",
            },
          ],
        },
      ],
    },
  },

  {
    // A route never touches the database nor the server's infrastructure itself: it calls a model or the route kit.
    files: ["app/routes/**/*.{ts,tsx}"],
    ignores: ["app/routes/**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "kysely", message: ROUTE_MESSAGE }],
          patterns: [{ group: ["@server", "@server/*", "kysely/*"], message: ROUTE_MESSAGE }],
        },
      ],
    },
  },

  {
    files: ["app/models/**/*.ts"],
    ignores: ["app/models/**/*.test.ts"],
    rules: {
      "no-restricted-imports": ["error", { paths: MODEL_PATHS, patterns: MODEL_PATTERNS }],
    },
  },

  {
    // Pure rule modules run in the browser and in server/: no database, no server module — only their types.
    files: ["app/models/**/*.ts"],
    ignores: ["app/models/**/*.server.ts", "app/models/**/*.test.ts", "app/models/**/*.spec.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@server", "@server/*", "*.server", "**/*.server"],
              allowTypeImports: true,
              message:
                "A pure rule module (app/models/<area>/*.ts without .server) imports no server module, only its types (`import type`): move the code to a *.server.ts model (docs/architecture.md).",
            },
          ],
        },
      ],
    },
  },
);
