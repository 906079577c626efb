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

// The pure rule modules server/ may import: plain app/models/*.ts, neither *.server.ts nor tests.
const PURE_MODELS = at("app/models/**/!(*.server|*.test|*.spec).ts");

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
                "server/ imports from app/ only the pure rule modules (app/models/*.ts without .server): hand a provider what it needs instead (docs/architecture.md).",
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
    files: ["app/models/**/*.ts"],
    ignores: ["app/models/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "react", message: "Models never import React (docs/architecture.md)." },
            { name: "react-dom", message: "Models never import React (docs/architecture.md)." },
            { name: "react-i18next", message: "Models never import React; take translated texts as arguments." },
          ],
          patterns: [
            { group: ["react/*", "react-dom/*"], message: "Models never import React (docs/architecture.md)." },
            {
              group: ["@remix-run/*"],
              message: "Models never import Remix nor build HTTP answers: return data or throw a domain error (docs/architecture.md).",
            },
          ],
        },
      ],
    },
  },
);
