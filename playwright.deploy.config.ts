import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * The deployment suite: nginx in front of two copies of the production build over PostgreSQL, with the
 * identity provider in a process of its own (e2e/deployment/topology.ts). Run after `npm run build`.
 */
export default defineConfig({
  testDir: "e2e/deployment",
  timeout: 180_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  outputDir: "test-results/deployment",
  reporter: [["list"], ["json", { outputFile: "test-results/deployment.json" }]],
  use: { ...base.use, baseURL: undefined },
  projects: [{ name: "deployment" }],
});
