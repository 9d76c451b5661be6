import { sql } from "kysely";
import { z } from "zod";
import { AppError } from "~/domain/errors";
import { route } from "../route.server";

export const healthRoutes = [
  route({
    method: "get",
    path: "/health",
    tag: "Health",
    summary: "Liveness and database reachability",
    public: true,
    response: z.object({ Status: z.literal("Healthy") }),
    handler: async ({ deps, c }) => {
      try {
        await sql`select 1`.execute(deps.db);
      } catch {
        throw new AppError("SERVICE_UNAVAILABLE", "The database is not reachable");
      }
      c.header("Cache-Control", "no-store");
      return { Status: "Healthy" as const };
    },
  }),
];
