import { defineConfig } from "@playwright/test";
import base from "../playwright.config";

// The offline-queue bench runs in the e2e setup (production build, embedded provider, Debian's Chromium).
export default defineConfig({ ...base, testDir: ".", testMatch: "offline-queue.bench.ts", reporter: "list" });
