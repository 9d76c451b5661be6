import { test as base, expect } from "@playwright/test";
import { postgresReachable, Topology } from "./topology";

/**
 * One topology per worker (the suite runs one worker): started before the first test that asks for it,
 * stopped after the last. Without PostgreSQL the suite is skipped, unless REQUIRE_POSTGRES=1 makes that a
 * failure.
 */
export const test = base.extend<{ topology: Topology }, { shared: Topology | null }>({
  shared: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture takes from its first argument
    async ({}, provide, workerInfo) => {
      if (!(await postgresReachable())) {
        if (process.env.REQUIRE_POSTGRES === "1") throw new Error("PostgreSQL is required (REQUIRE_POSTGRES=1)");
        await provide(null);
        return;
      }
      const topology = new Topology(`${workerInfo.project.outputDir}/logs`);
      try {
        await topology.start();
        await provide(topology);
      } finally {
        await topology.stop();
      }
    },
    { scope: "worker", timeout: 180_000 },
  ],
  topology: async ({ shared }, provide) => {
    test.skip(!shared, "PostgreSQL is not reachable: the deployment suite is SKIPPED");
    await provide(shared!);
  },
  baseURL: async ({ shared }, provide) => {
    await provide(shared?.url);
  },
});

export { expect };
