import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

/**
 * The main path in Debian's Firefox ESR (e2e/firefox), driven by Puppeteer over WebDriver BiDi against the
 * production build: `npm run test:firefox` after `npm run build`. One file at a time: each starts its own
 * browser with a fresh profile.
 */
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["e2e/firefox/**/*.test.ts"],
    globalSetup: ["e2e/firefox/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: "forks",
    fileParallelism: false,
  },
});
