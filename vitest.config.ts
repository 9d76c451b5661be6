import os from "node:os";
import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ["app/**/*.test.{ts,tsx}", "tests/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // A file per core at a time, not Vitest's default of one fewer: many files wait on servers they start,
    // tokens that lapse and child processes, and one file waiting leaves a core idle (decision 047).
    maxWorkers: os.availableParallelism(),
  },
});
