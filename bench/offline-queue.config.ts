import path from "node:path";
import { defineConfig } from "@playwright/test";
import base, { e2eServer } from "../playwright.config";

// The offline-queue bench runs in the e2e setup (production build, embedded provider, Debian's Chromium).
const root = path.resolve(import.meta.dirname, "..");
export default defineConfig({
  ...base,
  testDir: ".",
  testMatch: "offline-queue.bench.ts",
  reporter: "list",
  outputDir: path.join(root, "test-results/bench"),
  workers: 1,
  webServer: { ...e2eServer(0), cwd: root },
});
