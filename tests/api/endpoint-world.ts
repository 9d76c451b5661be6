import { expect } from "vitest";
import type { DB } from "~/server/db/types.server";
import { seedDemoData } from "~/server/services/demo-data.server";
import type { ApiHarness } from "../support/api";
import { addQuestion } from "../support/surveys";
import { form, pdf, PNG } from "./fill-files";
import { preliminaryOption, questionId } from "./fill-support";

/**
 * The data every endpoint of the endpoint table is called against: the demo surveys, a Draft survey with
 * a category, questions, an answer, a sub-question and a preliminary question, an Open and a Closed case of
 * the Active survey with answers and files, and a statistics dashboard with a chart. Built through the API
 * as the admin (editor and approver of both teams). With `team`, every survey of the world (and every one
 * made later through `newSurvey`) is restricted to that team for participation, editing and approval.
 */

export type Who = "editor" | "approver" | "admin" | "user" | "outsider" | "newcomer";
export const signedIn: Who[] = ["editor", "approver", "admin", "user", "outsider", "newcomer"];

export interface World {
  api: ApiHarness;
  db: DB;
  tokens: Record<Who, string>;
  team: string | null;
  heart: number;
  draft: number;
  archived: number;
  clone: number;
  draftCategory: number;
  draftQuestion: number;
  draftOption: number;
  draftAttribute: number;
  draftAttributeOption: number;
  single: number;
  singleOption: number;
  multiple: number;
  multipleOption: number;
  freeText: number;
  numerical: number;
  dateTime: number;
  attribute: number;
  attributeOption: number;
  openPatient: string;
  openCase: number;
  closedPatient: string;
  closedCase: number;
  closedFile: number;
  dashboard: number;
  chart: number;
  /** Calls the API as the admin and reads the JSON answer, expecting a success. */
  admin(method: string, path: string, body?: unknown): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** A new survey (Draft, with one question; Active or Archived on request), restricted like the world. */
  newSurvey(state?: "draft" | "active" | "archived"): Promise<number>;
  /** A fresh patient id. */
  patientId(): string;
  /** Starts a case of the Active survey as the admin; its id. */
  newCase(patientId?: string): Promise<number>;
  /** Uploads a PNG to a new Open case; its name and the case. */
  newFile(): Promise<{ name: string; caseId: number }>;
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(++counter).toString(36)}`;

export async function buildWorld(api: ApiHarness, team: string | null = null): Promise<World> {
  const db = api.testDb.db;
  const tokens = {} as Record<Who, string>;
  for (const who of signedIn) {
    tokens[who] = await api.token(who);
    await api.call("GET", "/users/current", { token: tokens[who] });
  }
  const teamId = team
    ? (await db.selectFrom("teams").select("id").where("name", "=", team).executeTakeFirstOrThrow()).id
    : null;
  const restrict = async (surveyId: number) => {
    if (teamId === null) return;
    for (const kind of ["user", "editor", "approver"] as const) {
      await db.insertInto("survey_team_permissions").values({ survey_id: surveyId, team_id: teamId, kind }).execute();
    }
  };

  async function admin(method: string, path: string, body?: unknown) {
    const res = await api.call(method, path, { token: tokens.admin, body });
    const text = await res.text();
    expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300);
    return text ? JSON.parse(text) : null;
  }
  async function rawAdmin(path: string, body: FormData) {
    const res = await api.ctx.api.request(`http://localhost:3000/api${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens.admin}` },
      body,
    });
    const answer = await res.json();
    expect(res.status, JSON.stringify(answer)).toBe(200);
    return answer as { Results: { Id: number; FileName: string }[] };
  }

  const [heart, , draft, , archived] = await seedDemoData(db);
  for (const id of [heart, draft, archived]) await restrict(id);
  // A clone keeps its original's teams.
  const clone = (await admin("POST", `/surveys/${heart}/clone`)).Id as number;

  const draftCategory = (await admin("POST", "/categories", { SurveyId: draft, Title: "Probe" })).Id as number;
  const draftQuestion = (
    await admin("POST", "/questions", {
      SurveyId: draft,
      CategoryId: draftCategory,
      Type: "SingleSelection",
      Title: "F",
    })
  ).Id as number;
  const draftOption = (
    await admin("POST", "/answer-options", { SurveyId: draft, QuestionId: draftQuestion, Text: "A" })
  ).Id as number;
  await admin("POST", "/answer-options", { SurveyId: draft, QuestionId: draftQuestion, Text: "B" });
  await admin("POST", `/answer-options/${draftOption}/sub-question`, { SurveyId: draft, Type: "FreeText", Title: "S" });
  const attribute = await admin("POST", "/patient-attributes", {
    SurveyId: draft,
    Title: "Station",
    AnswerOptions: [{ Text: "A" }, { Text: "B" }],
  });

  const single = await questionId(db, heart, "Wie stark ist die Atemnot bei Belastung?");
  const firstOption = await db
    .selectFrom("answer_options")
    .select("id")
    .where("question_id", "=", single)
    .orderBy("sort")
    .executeTakeFirstOrThrow();
  const multiple = await questionId(db, heart, "Wo genau?");
  const multipleOption = (
    await db.selectFrom("answer_options").select("id").where("question_id", "=", multiple).executeTakeFirstOrThrow()
  ).id;
  const pre = await preliminaryOption(db, heart, "weiblich");
  const dateTime = await questionId(db, heart, "Zeitpunkt der Messung");

  const newCase = async (patientId = `FZ_${unique()}`) =>
    (await admin("POST", `/patients/add?patientId=${patientId}&surveyId=${heart}`)).PatientDataId as number;
  const openPatient = "FZ_OPEN";
  const openCase = await newCase(openPatient);
  const closedPatient = "FZ_DONE";
  const closedCase = await newCase(closedPatient);
  await admin("POST", "/question-responses/free-text", {
    SurveyId: heart,
    PatientId: closedPatient,
    QuestionId: await questionId(db, heart, "Weitere Beschwerden"),
    TextResponse: "Schwindel",
  });
  const uploaded = await rawAdmin(
    `/file-attachments/upload?questionId=${dateTime}&patientDataId=${closedCase}&surveyId=${heart}`,
    form(["befund.pdf", pdf()]),
  );
  await admin("POST", `/patients/close?patientId=${closedPatient}&surveyId=${heart}`);

  const dashboard = (await admin("POST", `/statistics-dashboards/get-by-survey-id/${heart}`, {})).Id as number;
  const withChart = await admin("POST", `/statistics-dashboards/${dashboard}/charts/add`, {
    ChartAddRequests: [{ ChartType: "SurveyResponsesOverTime" }],
  });

  const world: World = {
    api,
    db,
    tokens,
    team,
    heart,
    draft,
    archived,
    clone,
    draftCategory,
    draftQuestion,
    draftOption,
    draftAttribute: attribute.Id,
    draftAttributeOption: attribute.AnswerOptions[0].Id,
    single,
    singleOption: firstOption.id,
    multiple,
    multipleOption,
    freeText: await questionId(db, heart, "Weitere Beschwerden"),
    numerical: await questionId(db, heart, "Körpergewicht"),
    dateTime,
    attribute: pre.attributeId,
    attributeOption: pre.optionId,
    openPatient,
    openCase,
    closedPatient,
    closedCase,
    closedFile: uploaded.Results[0].Id,
    dashboard,
    chart: withChart.Charts[withChart.Charts.length - 1].Id,
    admin,
    async newSurvey(state = "draft") {
      const id = (await admin("POST", "/surveys", { Title: `Probe ${unique()}` })).Id as number;
      await restrict(id);
      await addQuestion(db, id);
      if (state === "active") await admin("POST", `/surveys/${id}/approve`);
      if (state === "archived") await admin("POST", `/surveys/${id}/archive`);
      return id;
    },
    patientId: () => `FZ_${unique()}`,
    newCase,
    async newFile() {
      const name = `bild-${unique()}.png`;
      const caseId = await newCase();
      await rawAdmin(
        `/file-attachments/upload?questionId=${dateTime}&patientDataId=${caseId}&surveyId=${heart}`,
        form([name, PNG]),
      );
      return { name, caseId };
    },
  };
  return world;
}
