import { defineConfig, devices } from "@playwright/test";

// E2E_PORT lets two runs share a machine; the provider takes the next port, the data its own folder.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const IDP_PORT = PORT + 1;
export const E2E_DATA_DIR = PORT === 3100 ? "data-e2e" : `data-e2e-${PORT}`;

export default defineConfig({
  testDir: "e2e",
  // The deployment suite has a topology of its own (playwright.deploy.config.ts); the Firefox tests run
  // under vitest (vitest.firefox.config.ts).
  testIgnore: ["deployment/**", "firefox/**"],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  outputDir: PORT === 3100 ? "test-results/e2e" : `test-results/e2e-${PORT}`,
  reporter: [
    ["list"],
    ["json", { outputFile: PORT === 3100 ? "test-results/playwright.json" : `test-results/playwright-${PORT}.json` }],
  ],
  use: {
    baseURL: `http://localhost:${PORT}`,
    locale: "de-DE",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: `rm -rf ${E2E_DATA_DIR} && node server/index.js`,
    url: `http://localhost:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(PORT),
      IDP_PORT: String(IDP_PORT),
      DATA_DIR: E2E_DATA_DIR,
      LOG_LEVEL: "error",
      DEMO_DATA: "true",
    },
  },
});
