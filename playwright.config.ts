import os from "node:os";
import { defineConfig, devices } from "@playwright/test";

/**
 * The e2e tests run in E2E_WORKERS workers (half the cores unless set, but two on two cores and one on one:
 * decision 047), each against a server of its own: its own database and files (a folder under the data
 * prefix), its own embedded provider, its own demo accounts. No state passes between workers, so a language
 * chosen or a survey published in one worker's tests cannot reach another's (docs/decisions/044-e2e-workers.md).
 * Inside a worker, spec files run one after another.
 *
 * E2E_PORT lets two runs share a machine: worker i's app listens on E2E_PORT + 2i, its provider on the port
 * after that.
 */
export const E2E_BASE_PORT = Number(process.env.E2E_PORT ?? 3100);
const CORES = os.availableParallelism();
export const E2E_WORKERS = Math.max(
  1,
  Number(process.env.E2E_WORKERS ?? Math.min(CORES, Math.max(2, Math.floor(CORES / 2)))),
);

/**
 * The browser: Chromium's headless build from Debian (chromium-headless-shell), the same engine as the
 * chromium package without its window and browser UI; E2E_CHROMIUM names another build, /usr/bin/chromium say
 * (docs/decisions/047-test-suite-on-two-cores.md).
 */
export const E2E_CHROMIUM = process.env.E2E_CHROMIUM ?? "/usr/bin/chromium-headless-shell";

export function e2eAppPort(worker: number) {
  return E2E_BASE_PORT + 2 * worker;
}

export function e2eDataDir(worker: number) {
  const base = E2E_BASE_PORT === 3100 ? "data-e2e" : `data-e2e-${E2E_BASE_PORT}`;
  return worker === 0 ? base : `${base}-w${worker}`;
}

/** The production server for worker `worker`, started fresh on demo data. */
export function e2eServer(worker: number) {
  const port = e2eAppPort(worker);
  return {
    command: `rm -rf ${e2eDataDir(worker)} && node server/index.js`,
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      IDP_PORT: String(port + 1),
      DATA_DIR: e2eDataDir(worker),
      LOG_LEVEL: "error",
      DEMO_DATA: "true",
    },
  };
}

const outputSuffix = E2E_BASE_PORT === 3100 ? "" : `-${E2E_BASE_PORT}`;

export default defineConfig({
  testDir: "e2e",
  // The deployment suite has a topology of its own (playwright.deploy.config.ts); the Firefox tests run
  // under vitest (vitest.firefox.config.ts).
  testIgnore: ["deployment/**", "firefox/**"],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: 0,
  outputDir: `test-results/e2e${outputSuffix}`,
  reporter: [["list"], ["json", { outputFile: `test-results/playwright${outputSuffix}.json` }]],
  use: {
    // Each test's own address comes from e2e/test.ts, by the worker it runs in.
    baseURL: `http://localhost:${e2eAppPort(0)}`,
    locale: "de-DE",
    // A trace records every action's page (about a quarter of the suite's CPU on two cores): only when asked,
    // E2E_TRACE=1; a failed test keeps its screenshot either way (decision 047).
    trace: process.env.E2E_TRACE === "1" ? "retain-on-failure" : "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: E2E_CHROMIUM,
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
  webServer: Array.from({ length: E2E_WORKERS }, (_, worker) => e2eServer(worker)),
});
