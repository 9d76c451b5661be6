import path from "node:path";
import { defineConfig } from "@playwright/test";
import base from "../playwright.config";

// The offline-queue bench runs in the e2e setup (production build, embedded provider, Debian's Chromium).
const root = path.resolve(import.meta.dirname, "..");
export default defineConfig({
  ...base,
  testDir: ".",
  testMatch: "offline-queue.bench.ts",
  reporter: "list",
  outputDir: path.join(root, "test-results/bench"),
  webServer: { ...(base.webServer as object), cwd: root } as typeof base.webServer,
});
