import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoutes } from "~/server/api/app.server";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { startApi } from "../support/api";
import { dialects } from "../support/databases";
import { idFields, issuePath, withField, type IdField } from "../support/id-fields";
import { endpoints, send, type Probe } from "./endpoint-table";
import { buildWorld, type World } from "./endpoint-world";

/**
 * Every contract of the API, walked for the ids its path, query and body take: each id in turn is sent
 * beyond the database's integer range (2^31, 2^53 + 1) and below it (-1, 0), in an otherwise valid request of
 * the endpoint table, as the admin. Each answer is a 400 VALIDATION_ERROR envelope naming that id: the
 * schema refuses it before any handler or database sees it, on SQLite and on PostgreSQL alike.
 */

const BIG = "9007199254740993";
/** Numbers as a JSON text carries them; 2^53 + 1 is not a double, so it is written into the text as is. */
const bad = [2_147_483_648, BIG, -1, 0] as const;
const MARK = "\u0001big\u0001";

function bodyText(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v === BIG ? MARK : v)).replaceAll(`"${MARK}"`, BIG);
}

interface Case {
  where: "path" | "query" | "body";
  field: IdField;
  value: (typeof bad)[number];
}

function casesOf(route: (typeof apiRoutes)[number], seed: Probe): Case[] {
  const out: Case[] = [];
  const places: [Case["where"], IdField[]][] = [
    ["path", idFields(route.params, {})],
    ["query", idFields(route.query, seed.query ?? {})],
    ["body", seed.form ? [] : idFields(route.body, seed.body)],
  ];
  for (const [where, fields] of places)
    for (const field of fields) for (const value of bad) out.push({ where, field, value });
  return out;
}

function probeWith(
  route: (typeof apiRoutes)[number],
  seed: Probe,
  c: Case,
): { probe: Probe; raw?: { body: string; contentType: string } } {
  const text = String(c.value);
  if (c.where === "path") {
    const pattern = route.path.split("/");
    const segments = seed.path.split("/");
    const at = pattern.indexOf(`:${String(c.field.at[0])}`);
    segments[at] = text;
    return { probe: { ...seed, path: segments.join("/") } };
  }
  if (c.where === "query") return { probe: { ...seed, query: { ...seed.query, [String(c.field.at[0])]: text } } };
  const body = withField(seed.body ?? {}, c.field, c.value);
  return { probe: seed, raw: { body: bodyText(body), contentType: "application/json" } };
}

const key = (r: { method: string; path: string }) => `${r.method.toUpperCase()} ${r.path}`;

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("ids out of range on %s", (kind) => {
  let w: World;
  const seeds = new Map<string, Probe>();
  beforeAll(async () => {
    w = await buildWorld(await startApi(kind, { idp }));
    for (const e of endpoints) seeds.set(e.route, await e.probe(w));
  });
  afterAll(async () => {
    await w?.api.close();
  });

  it("finds the ids of every contract that takes any", () => {
    const found = apiRoutes.flatMap((r) => {
      const seed = seeds.get(key(r));
      expect(seed, `${key(r)} has no row in the endpoint table`).toBeDefined();
      return casesOf(r, seed!).map((c) => `${key(r)} ${issuePath(c.where, c.field)}`);
    });
    // A few the walk must see, among them the one that reached the database.
    expect(found).toEqual(
      expect.arrayContaining([
        "POST /erasures body.SurveyId",
        "GET /surveys/:id path.id",
        "GET /file-attachments query.patientDataId",
        "POST /question-responses/multiple-selection body.AnswerOptionIds.0",
        "POST /survey-offline-sync/:surveyId body.QuestionAnswers.0.QuestionId",
        "PUT /surveys/:id body.TagIds.0",
        "POST /statistics/:surveyId body.PreliminaryQuestionsSelection.<key>",
        "POST /statistics/:surveyId body.PreliminaryQuestionsSelection.1.0",
      ]),
    );
  });

  for (const route of apiRoutes) {
    it(`${key(route)} refuses an id out of range with a 400 envelope`, async () => {
      const seed = seeds.get(key(route))!;
      const wrong: string[] = [];
      for (const c of casesOf(route, seed)) {
        const { probe, raw } = probeWith(route, seed, c);
        const res = await send(
          w,
          route.method.toUpperCase(),
          probe,
          { authorization: `Bearer ${w.tokens.admin}` },
          raw,
        );
        const text = await res.text();
        let body: { Type?: unknown; Error?: unknown } = {};
        try {
          body = JSON.parse(text) as typeof body;
        } catch {
          // not JSON: reported below
        }
        const named = issuePath(c.where, c.field, c.value);
        const ok =
          res.status === 400 &&
          body.Type === "VALIDATION_ERROR" &&
          typeof body.Error === "string" &&
          body.Error.includes(`${named}:`);
        if (!ok) wrong.push(`${named} = ${c.value}: ${res.status} ${text.slice(0, 200)}`);
      }
      expect(wrong).toEqual([]);
    });
  }
});
