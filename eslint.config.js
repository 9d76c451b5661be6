import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * Code that may run in the browser takes zod from app/domain/zod.ts, which keeps zod from probing `new Function`
 * under the pages' Content-Security-Policy (decision 037). Type-only imports of "zod/v4/core" stay allowed.
 */
const browserZod = ["zod", "zod/v4", "zod/mini"].map((name) => ({
  name,
  message: "Code that may run in the browser imports z from ~/domain/zod (no eval probe under the page's CSP).",
}));

/**
 * One rule set per folder (test files may reach across, for fixtures): its boundary, for static imports
 * (no-restricted-imports) and for dynamic ones (`import("…")`, no-restricted-syntax, which the first does not
 * see), and zod through app/domain/zod.ts wherever the code may run in the browser.
 */
function boundaries(rules) {
  return rules.map(({ files, regex, message, browser = true, ignores = [] }) => ({
    files,
    ignores: ["**/*.test.{ts,tsx}", "**/*.test-support.ts", "app/domain/zod.ts", ...ignores],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: browser ? browserZod : [], patterns: regex ? [{ regex, message }] : [] },
      ],
      "no-restricted-syntax": regex
        ? ["error", { selector: `ImportExpression[source.value=/${regex.replaceAll("/", "\\/")}/]`, message }]
        : "off",
    },
  }));
}

/** Browser code imports no server code: nothing of app/server or app/routes, and no `.server` module. */
const BROWSER_ONLY = {
  regex: "^(~/(server|routes)/|(\\.\\./)+(server|routes)/)|\\.server$",
  message: "Browser code imports no server code (call the API or take loader data).",
};

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "node_modules/**",
      "data/**",
      "data-*/**",
      "public/entry.worker.js",
      "test-results/**",
      "playwright-report/**",
      ".runtime/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read settings through app/server/env.server.ts." },
      ],
    },
  },
  // The folders' boundaries: shared rules live in app/domain, which imports nothing else of the app; the
  // offline layer and the server import no components; components import no server code.
  ...boundaries([
    {
      files: ["app/domain/**/*.{ts,tsx}"],
      // Of packages only zod (through ./zod, which the browser rule checks) and Conform's zod reader.
      regex: "^(~/(?!domain/)|\\.\\./|(?![.~])(?!zod(/|$))(?!@conform-to/zod/v4$))",
      message:
        "app/domain holds the shared rules: it imports nothing else of the app, and of packages only zod (./zod) and @conform-to/zod/v4.",
    },
    {
      files: ["app/contracts/**/*.{ts,tsx}"],
      // The endpoints' contracts run on both sides: schemas and words from app/domain, nothing else.
      regex: "^(~/(?!domain/|contracts/)|\\.\\./|(?![.~])(?!zod$))",
      message:
        "app/contracts holds the endpoints' contracts for server and browser alike: it imports only app/domain and zod's types.",
    },
    {
      files: ["app/offline/**/*.{ts,tsx}"],
      regex: "^(~/(components|routes|server)/|(\\.\\./)+(components|routes|server)/)|\\.server$",
      message:
        "The offline layer runs in the browser: it imports no components, routes or server code (move a rule to app/domain).",
    },
    {
      files: ["app/server/**/*.{ts,tsx}"],
      regex: "^(~/(components|routes|offline)/|(\\.\\./)+(components|routes|offline)/)",
      message: "The server imports no components, routes or browser-only offline code: move the rule to app/domain.",
      browser: false,
    },
    // A migration that has run must compute the same wherever it runs later: it keeps what it computes with
    // (a hash recipe, say) in itself, and imports packages and the modules beside it only; of the app, just the
    // dialect check in ../db.server that ./helpers uses. After the server's rule, which this one includes.
    {
      files: ["app/server/db/migrations/**/*.ts"],
      regex: "^(~/|\\.\\./(?!db\\.server$)|\\.\\./\\.\\./)",
      message:
        "A migration keeps the code it was written with: it imports packages and the modules beside it only, never the app's live code (copy what it needs into it).",
      browser: false,
    },
    { files: ["app/components/**/*.{ts,tsx}"], ...BROWSER_ONLY },
    // The top-level modules that run in the browser.
    {
      files: ["app/api-client.ts", "app/entry.client.tsx", "app/entry.worker.ts", "app/i18n.ts", "app/locale-files.ts"],
      ...BROWSER_ONLY,
    },
    // Routes and the root: server code only through `.server` modules, which the page's build leaves out.
    {
      files: ["app/routes/**/*.{ts,tsx}", "app/root.tsx"],
      regex: "^(~/server/|(\\.\\./)+server/)(?!.*\\.server$)",
      message: "A route reaches server code only through `.server` modules (the page's build leaves them out).",
    },
  ]),
  // Each e2e worker has a server of its own (playwright.config.ts): a spec takes `test` from e2e/test.ts, which
  // points its pages at that server.
  {
    files: ["e2e/**/*.ts"],
    ignores: ["e2e/test.ts", "e2e/deployment/**", "e2e/firefox/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@playwright/test",
              importNames: ["test"],
              message: "Take test from ./test: it points the pages at this worker's own server.",
            },
          ],
        },
      ],
    },
  },
  {
    files: [
      "app/server/env.server.ts",
      "server/**",
      "scripts/**",
      "bench/**",
      "tests/**",
      "e2e/**",
      "playwright.config.ts",
      "**/*.test.ts",
    ],
    rules: { "no-restricted-properties": "off" },
  },
);
