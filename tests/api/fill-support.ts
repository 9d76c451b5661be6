import crypto from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import type { DB } from "~/server/db/types.server";
import { seedDemoData } from "~/server/services/demo-data.server";
import type { TestIdp } from "~/server/idp/test-fixture.server";
import { startApi, type ApiHarness } from "../support/api";
import type { DialectName } from "../support/databases";

/** The demo people the fill tests sign in as. */
export const people = ["editor", "approver", "admin", "user", "outsider"] as const;
export type Who = (typeof people)[number] | "nobody";

export interface DemoSet {
  heart: number;
  postop: number;
  draft: number;
  ended: number;
  archived: number;
}

export interface FillWorld {
  api: ApiHarness;
  db: DB;
  /** Two copies of the demo surveys: `a` for most tests, `b` for tests that change a survey's status or teams. */
  a: DemoSet;
  b: DemoSet;
  call(who: Who, method: string, path: string, body?: unknown): Promise<Response>;
  /** Sends a body as it is (FormData, bytes) with the person's token. */
  raw(
    who: Who,
    method: string,
    path: string,
    init?: { body?: BodyInit; headers?: Record<string, string> },
  ): Promise<Response>;
}

const toSet = (ids: number[]): DemoSet => ({
  heart: ids[0],
  postop: ids[1],
  draft: ids[2],
  ended: ids[3],
  archived: ids[4],
});

/** The API on a fresh database of the given kind with the demo surveys seeded twice; for one describe block. */
export function useFillWorld(
  kind: DialectName,
  idp: () => TestIdp,
  prepare?: (w: FillWorld) => Promise<void>,
  env?: () => Record<string, string>,
) {
  let world: FillWorld | undefined;
  beforeAll(async () => {
    const api = await startApi(kind, { idp: idp(), env: env?.() });
    const tokens: Record<string, string> = {};
    for (const who of people) {
      tokens[who] = await api.token(who);
      await api.call("GET", "/users/current", { token: tokens[who] });
    }
    const db = api.testDb.db;
    const a = toSet(await seedDemoData(db));
    const b = toSet(await seedDemoData(db));
    world = {
      api,
      db,
      a,
      b,
      call: (who, method, path, body) =>
        api.call(method, path, { token: who === "nobody" ? undefined : tokens[who], body }),
      raw: (who, method, path, init = {}) => {
        const headers: Record<string, string> = { ...init.headers };
        if (who !== "nobody") headers.authorization = `Bearer ${tokens[who]}`;
        return Promise.resolve(
          api.ctx.api.request(`http://localhost:3000/api${path}`, { method, headers, body: init.body }),
        );
      },
    };
    await prepare?.(world);
  });
  afterAll(async () => {
    await world?.api.close();
  });
  return () => {
    if (!world) throw new Error("The fill world is made in beforeAll");
    return world;
  };
}

export async function json<T = unknown>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

export async function questionId(db: DB, surveyId: number, title: string): Promise<number> {
  const row = await db
    .selectFrom("questions")
    .select("id")
    .where("survey_id", "=", surveyId)
    .where("title", "=", title)
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function optionId(db: DB, question: number, text: string): Promise<number> {
  const row = await db
    .selectFrom("answer_options")
    .select("id")
    .where("question_id", "=", question)
    .where("text", "=", text)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A preliminary answer by its text, with its preliminary question. */
export async function preliminaryOption(db: DB, surveyId: number, text: string) {
  const row = await db
    .selectFrom("patient_form_answer_options")
    .select(["id", "attribute_id"])
    .where("survey_id", "=", surveyId)
    .where("text", "=", text)
    .executeTakeFirstOrThrow();
  return { attributeId: row.attribute_id, optionId: row.id };
}

/** Adds an image question with three markers to a survey's first category (and marks the survey changed). */
export async function addImageQuestion(db: DB, surveyId: number, multiple: boolean) {
  const category = await db
    .selectFrom("categories")
    .select("id")
    .where("survey_id", "=", surveyId)
    .orderBy("sort")
    .executeTakeFirstOrThrow();
  const question = await db
    .insertInto("questions")
    .values({
      survey_id: surveyId,
      category_id: category.id,
      parent_answer_option_id: null,
      title: multiple ? "Wo schmerzt es? (mehrere)" : "Wo schmerzt es am meisten?",
      type: 6,
      sort: 50,
      unit: null,
      image_src: "data:image/png;base64,iVBORw0KGgo=",
      allow_multiple_answers: multiple ? 1 : 0,
      dependence_type: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const options: number[] = [];
  for (const [i, text] of ["Kopf", "Brust", "Bauch"].entries()) {
    const o = await db
      .insertInto("answer_options")
      .values({
        survey_id: surveyId,
        question_id: question.id,
        text,
        value: null,
        weight: null,
        sort: i,
        pos_x: 0.1 * (i + 1),
        pos_y: 0.2,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    options.push(o.id);
  }
  await db
    .updateTable("surveys")
    .set({ hash: crypto.randomBytes(12).toString("hex"), updated_at: new Date().toISOString() })
    .where("id", "=", surveyId)
    .execute();
  return { questionId: question.id, optionIds: options };
}

/** Moves a case's last change into the past, as if nobody had touched it for that long. */
export async function ageCase(db: DB, surveyId: number, patientId: string, hours: number) {
  const at = new Date(Date.now() - hours * 3600_000).toISOString();
  await db
    .updateTable("patient_data")
    .set({ modified_at: at })
    .where("survey_id", "=", surveyId)
    .where("patient_id", "=", patientId)
    .execute();
  return at;
}

export async function caseRow(db: DB, surveyId: number, patientId: string) {
  return db
    .selectFrom("patient_data")
    .selectAll()
    .where("survey_id", "=", surveyId)
    .where("patient_id", "=", patientId)
    .executeTakeFirst();
}

/** Starts a case and returns its id. */
export async function startCase(w: FillWorld, surveyId: number, patientId: string, who: Who = "user") {
  const res = await w.call(who, "POST", `/patients/add?patientId=${patientId}&surveyId=${surveyId}`);
  if (res.status !== 201) throw new Error(`Could not start case ${patientId}: ${res.status} ${await res.text()}`);
  return (await json<{ PatientDataId: number }>(res)).PatientDataId;
}

/** Lets only the named team take part in a survey. */
export async function restrictParticipants(db: DB, surveyId: number, teamName: string) {
  const team = await db.selectFrom("teams").select("id").where("name", "=", teamName).executeTakeFirstOrThrow();
  await db
    .insertInto("survey_team_permissions")
    .values({ survey_id: surveyId, team_id: team.id, kind: "user" })
    .execute();
}
