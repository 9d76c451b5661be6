import fs from "node:fs";
import type { TestProject } from "vitest/node";
import { built, killHard, serverEnv, startHealthy } from "../../tests/server/real-server";

/**
 * One production server (server/index.js after `npm run build`) for the Firefox run: free ports, its own data
 * folder, the demo surveys, the embedded provider. The tests reach it at the URL provided as `appUrl`.
 */
export default async function setup(project: TestProject) {
  if (!built) throw new Error("The Firefox tests run the production build: run `npm run build` first.");
  const server = await startHealthy(await serverEnv({ DEMO_DATA: "true" }));
  project.provide("appUrl", server.url);
  project.provide("appPort", Number(server.env.PORT));
  return async () => {
    await killHard(server);
    fs.rmSync(server.env.DATA_DIR, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    appUrl: string;
    appPort: number;
  }
}
