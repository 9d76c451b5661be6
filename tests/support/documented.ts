import fs from "node:fs";
import { apiRoutes } from "~/server/api/app.server";
import { documentedErrors } from "~/server/api/openapi.server";

/**
 * Holds the OpenAPI document to what the API does: every error answer the tests meet must be listed for
 * its operation (status and type). A test that makes the API answer an error its operation does not list
 * fails with the route named.
 */

const routes = apiRoutes.map((r) => ({
  route: r,
  method: r.method.toUpperCase(),
  pattern: new RegExp(`^/api${r.path.replace(/:\w+/g, "[^/]+").replace(/\/$/, "")}/?$`),
}));

export async function checkDocumented(input: unknown, init: RequestInit | undefined, res: Response): Promise<void> {
  if (res.status < 400) return;
  const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  const url = input instanceof Request ? input.url : String(input);
  const pathname = new URL(url, "http://localhost").pathname;
  const match = routes.find((r) => r.method === method && r.pattern.test(pathname));
  if (!match) return;
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { Type?: unknown } | null;
  const type = body?.Type;
  if (typeof type !== "string" || documentedErrors(match.route).has(type as never)) return;
  const message = `${method} ${match.route.path} answered ${res.status} ${type}, which its OpenAPI operation does not list`;
  const log = process.env.DOCUMENTED_ERRORS_LOG;
  if (log) fs.appendFileSync(log, `${method} ${match.route.path} ${type}\n`);
  else throw new Error(message);
}
