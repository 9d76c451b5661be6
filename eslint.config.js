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
 * One no-restricted-imports rule per folder (test files may reach across, for fixtures): its boundary, and
 * zod through app/domain/zod.ts wherever the code may run in the browser.
 */
function boundaries(rules) {
  return rules.map(({ files, regex, message, browser = true }) => ({
    files,
    ignores: ["**/*.test.{ts,tsx}", "app/domain/zod.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: browser ? browserZod : [], patterns: regex ? [{ regex, message }] : [] },
      ],
    },
  }));
}

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
      regex: "^(~/(?!domain/)|\\.\\./)",
      message: "app/domain holds the shared rules and imports nothing else of the app.",
    },
    {
      files: ["app/offline/**/*.{ts,tsx}"],
      regex: "^(~/(components|routes)/|(\\.\\./)+(components|routes)/)",
      message: "The offline layer and the server import no components or routes: move the rule to app/domain.",
    },
    {
      files: ["app/server/**/*.{ts,tsx}"],
      regex: "^(~/(components|routes)/|(\\.\\./)+(components|routes)/)",
      message: "The offline layer and the server import no components or routes: move the rule to app/domain.",
      browser: false,
    },
    {
      files: ["app/components/**/*.{ts,tsx}"],
      regex: "^(~/(server|routes)/|(\\.\\./)+(server|routes)/)|\\.server$",
      message: "Components run in the browser: they import no server code (call the API or take loader data).",
    },
    { files: ["app/routes/**/*.{ts,tsx}", "app/*.{ts,tsx}"] },
  ]),
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
