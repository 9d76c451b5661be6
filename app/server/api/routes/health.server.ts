import { healthApi } from "~/contracts/health";
import { sql } from "kysely";
import { AppError } from "~/domain/errors";
import { isDraining } from "~/server/lifecycle.server";
import { log } from "~/server/log.server";
import { route } from "../route.server";
import type { ApiDeps } from "../types.server";

const CHECK_TIMEOUT_MS = 3_000;

/** Runs one check within CHECK_TIMEOUT_MS; resolves to the problem, or null when it passed. */
async function problemOf(check: () => Promise<unknown>): Promise<string | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

const databaseProblem = (deps: ApiDeps) => problemOf(() => sql`select 1`.execute(deps.db));

export const healthRoutes = [
  route(healthApi.health, async ({ deps }) => {
    if (await databaseProblem(deps)) throw new AppError("SERVICE_UNAVAILABLE", "The database is not reachable");
    return { Status: "Healthy" as const };
  }),
  route(healthApi.live, async () => ({ Status: "Alive" as const })),
  route(healthApi.ready, async ({ deps, c }) => {
    const draining = isDraining();
    const [database, store] = await Promise.all([databaseProblem(deps), problemOf(() => deps.attachments.check())]);
    const ready = !draining && !database && !store;
    if (!ready) log.info("health.not_ready", { draining, database, attachmentStore: store });
    const body = {
      Status: ready ? "Ready" : "NotReady",
      Draining: draining,
      Database: !database,
      AttachmentStore: !store,
    };
    return c.json(body, ready ? 200 : 503);
  }),
];
