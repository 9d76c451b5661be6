import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoutes } from "~/server/api/app.server";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { startApi } from "../support/api";
import { dialects } from "../support/databases";
import { endpoints, send, splitRoute, type Probe } from "./endpoint-table";
import { buildWorld, type World } from "./endpoint-world";

/**
 * What the API answers a caller without valid credentials, held to what its OpenAPI document says: for every
 * endpoint (the metrics on, with their token set), the status it answers such a caller is listed for its
 * operation, and for an error the envelope's Type is among those listed there. And every endpoint that takes
 * a JSON object refuses a key it does not know, alike.
 */

const METRICS_TOKEN = "metrics-token-of-the-test-0123456789";

interface Operation {
  responses: Record<
    string,
    { content?: { "application/json"?: { schema?: { allOf?: { properties?: { Type?: { enum?: string[] } } }[] } } } }
  >;
}

/** The error types the document lists for a status of an operation. */
function listedTypes(op: Operation, status: number): string[] {
  const schema = op.responses[String(status)]?.content?.["application/json"]?.schema;
  return schema?.allOf?.flatMap((part) => part.properties?.Type?.enum ?? []) ?? [];
}

/**
 * The bodies that ignore a key they do not know (docs/decisions/049-unknown-keys.md): what the fill pages and
 * the offline layer send (answers, a fill synced, a file removed), which a device may send from an earlier or
 * later build than the server's; the bodies of the statistics' reads, which hold filters and write nothing;
 * and a FHIR resource imported, which carries whatever FHIR allows. Every other body refuses such a key.
 */
const tolerant = new Set([
  "POST /attribute-responses/",
  "POST /attribute-responses",
  "POST /question-responses/single-selection",
  "POST /question-responses/multiple-selection",
  "POST /question-responses/free-text",
  "POST /question-responses/date-time",
  "POST /question-responses/numerical",
  "DELETE /question-responses/question",
  "DELETE /file-attachments/delete",
  "POST /survey-offline-sync/:surveyId",
  "POST /statistics/:surveyId",
  "POST /statistics/:surveyId/patient-ids",
  "POST /statistics/:surveyId/csv",
  "POST /statistics/:surveyId/free-text/:questionId",
  "POST /statistics/:surveyId/fhir",
  "POST /file-attachments/get-by-question-id/:id",
  "POST /file-attachments/get-archived",
  "POST /statistics-dashboards/get-by-survey-id/:id",
  "POST /statistics-dashboards/:id/benchmark/:surveyId",
  "POST /surveys/fhir-import",
]);

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("answers as documented on %s", (kind) => {
  let w: World;
  let paths: Record<string, Record<string, Operation>>;
  const seeds = new Map<string, Probe>();
  beforeAll(async () => {
    w = await buildWorld(await startApi(kind, { idp, env: { METRICS_TOKEN } }));
    for (const e of endpoints) seeds.set(e.route, await e.probe(w));
    const res = await w.api.call("GET", "/openapi.json");
    paths = ((await res.json()) as { paths: typeof paths }).paths;
  });
  afterAll(async () => {
    await w?.api.close();
  });

  const callers: [string, Record<string, string>][] = [
    ["no credentials", {}],
    ["a token that is none", { authorization: "Bearer not-a-token" }],
  ];
  for (const [who, headers] of callers) {
    it(`every endpoint answers ${who} with a status and type its operation lists`, async () => {
      const wrong: string[] = [];
      const seen = new Set<number>();
      for (const e of endpoints) {
        const { method, path } = splitRoute(e.route);
        const op = paths[path.replace(/:(\w+)/g, "{$1}")]?.[method.toLowerCase()];
        if (!op) {
          wrong.push(`${e.route}: not in the document`);
          continue;
        }
        const res = await send(w, method, seeds.get(e.route)!, headers).catch((error: unknown) => error as Error);
        if (res instanceof Error) {
          wrong.push(`${e.route}: ${res.message}`);
          continue;
        }
        seen.add(res.status);
        const text = await res.text();
        if (!op.responses[String(res.status)]) {
          wrong.push(`${e.route}: answered ${res.status}, which its operation does not list`);
        } else if (res.status >= 400) {
          const type = (JSON.parse(text) as { Type?: string }).Type ?? "";
          if (!listedTypes(op, res.status).includes(type)) {
            wrong.push(
              `${e.route}: answered ${res.status} ${type}, not among ${listedTypes(op, res.status).join(", ")}`,
            );
          }
        }
      }
      expect(wrong).toEqual([]);
      // Both kinds of answer were met: the public endpoints' and the refusals'.
      expect([...seen].sort()).toEqual(expect.arrayContaining([200, 401]));
    });
  }

  it("the metrics' refusal without their token is documented", () => {
    const op = paths["/metrics"]!.get!;
    expect(listedTypes(op, 401)).toContain("UNAUTHORIZED");
  });

  it("every body refuses a key it does not know, but those that ignore it by decision", async () => {
    const wrong: string[] = [];
    const refused: string[] = [];
    for (const route of apiRoutes) {
      const name = `${route.method.toUpperCase()} ${route.path}`;
      const seed = seeds.get(name)!;
      if (!route.body || seed.form) continue;
      // Each call gets its own target where the endpoint's row makes one (a removed file, an erased case).
      const probe = await endpoints.find((e) => e.route === name)!.probe(w);
      const body = { ...((probe.body as Record<string, unknown> | undefined) ?? {}), Unknown: 1 };
      const res = await send(
        w,
        route.method.toUpperCase(),
        { ...probe, body },
        { authorization: `Bearer ${w.tokens.admin}` },
      );
      const answer = (await res.json().catch(() => null)) as { Type?: string; Error?: string } | null;
      if (tolerant.has(name)) {
        if (res.status >= 300)
          wrong.push(`${name} (ignores it): ${res.status} ${JSON.stringify(answer).slice(0, 160)}`);
      } else if (res.status === 400 && answer?.Type === "VALIDATION_ERROR" && answer.Error?.includes("Unknown")) {
        refused.push(name);
      } else wrong.push(`${name} (refuses it): ${res.status} ${JSON.stringify(answer).slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
    expect(refused).toEqual(
      expect.arrayContaining([
        "POST /surveys",
        "PUT /surveys/:id",
        "POST /categories",
        "POST /erasures",
        "POST /statistics-dashboards/:id/charts/add",
        "POST /statistics-dashboards/:id/charts/update/:chartId",
      ]),
    );
  });
});
