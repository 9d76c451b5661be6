import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CaseHistory, SurveyTrail } from "~/domain/audit-reading";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { verifyStoredChain } from "~/server/services/audit-verify.server";
import { dialects } from "../support/databases";
import { json, optionId, preliminaryOption, questionId, startCase, useFillWorld, type FillWorld } from "./fill-support";
import { payload, sync } from "./sync-support";

/**
 * Reading the audit trail (docs/decisions/028-audit-reading.md): a case's answer history per question
 * (values in order, who, when, online or by sync), the survey's trail, and the rows that reading appends.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

async function readingRows(w: FillWorld, surveyId: number, action: string) {
  return w.db
    .selectFrom("audit_log")
    .selectAll()
    .where("survey_id", "=", surveyId)
    .where("action", "=", action)
    .orderBy("id")
    .execute();
}

async function userIdOf(w: FillWorld, who: "user" | "admin") {
  const res = await w.call(who, "GET", "/users/current");
  return (await json<{ SurveyUserDataId: number }>(res)).SurveyUserDataId;
}

describe.each(dialects)("reading the audit trail on %s", (kind) => {
  const world = useFillWorld(kind, () => idp);
  let survey: number;
  let notes: number;
  let breath: number;
  let female: { attributeId: number; optionId: number };
  let male: { attributeId: number; optionId: number };

  beforeAll(async () => {
    const w = world();
    survey = w.a.heart;
    notes = await questionId(w.db, survey, "Weitere Beschwerden");
    breath = await questionId(w.db, survey, "Wie stark ist die Atemnot bei Belastung?");
    // Online: two values for the free text and a choice, by the participant.
    await startCase(w, survey, "H_1");
    female = await preliminaryOption(w.db, survey, "weiblich");
    male = await preliminaryOption(w.db, survey, "männlich");
    const chosen = await w.call("user", "POST", "/attribute-responses", {
      PatientId: "H_1",
      SurveyId: survey,
      PatientFormAttributeId: female.attributeId,
      PatientFormAnswerOptionId: female.optionId,
    });
    expect(chosen.status).toBe(200);
    const post = (path: string, body: Record<string, unknown>) =>
      w.call("user", "POST", `/question-responses/${path}`, { PatientId: "H_1", SurveyId: survey, ...body });
    expect((await post("free-text", { QuestionId: notes, TextResponse: "erst" })).status).toBe(200);
    expect((await post("free-text", { QuestionId: notes, TextResponse: "dann" })).status).toBe(200);
    const mild = await optionId(w.db, breath, "leicht");
    expect((await post("single-selection", { QuestionId: breath, AnswerOptionId: mild })).status).toBe(200);
    // Then an offline fill of the same case overwrites it: a new text, the choice gone.
    const body = await payload(w.db, survey, "H_1", {
      Overwrite: true,
      QuestionAnswers: [{ QuestionId: notes, TextResponse: "offline" }],
      PreliminaryQuestionAnswers: [{ QuestionId: male.attributeId, AnswerOptionId: male.optionId }],
    });
    expect((await sync(w, survey, body, { key: "history-h1", who: "admin" })).status).toBe(200);
  });

  const history = async (who: "approver" | "admin" | "editor" | "user" | "nobody", patientId = "H_1") =>
    world().call(who, "GET", `/audit-log/case-history?surveyId=${survey}&patientId=${patientId}`);

  it("shows each question's values in order, with who, when, and online or sync", async () => {
    const w = world();
    const res = await history("approver");
    expect(res.status).toBe(200);
    const data = await json<CaseHistory>(res);
    expect(data.PatientId).toBe("H_1");
    const text = data.Questions.find((q) => q.QuestionId === notes)!;
    expect(text.Title).toBe("Weitere Beschwerden");
    expect(text.Entries.map((e) => [e.Value?.Text ?? null, e.Source])).toEqual([
      ["erst", "online"],
      ["dann", "online"],
      ["offline", "sync"],
    ]);
    const [user, admin] = [await userIdOf(w, "user"), await userIdOf(w, "admin")];
    expect(text.Entries.map((e) => e.Actor.UserId)).toEqual([user, user, admin]);
    expect(text.Entries.every((e) => typeof e.Actor.Name === "string" && e.Actor.Name.length > 0)).toBe(true);
    const times = text.Entries.map((e) => Date.parse(e.At));
    expect(times.every((t) => !Number.isNaN(t))).toBe(true);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // The choice shows its option's text, then its removal by the sync.
    const choice = data.Questions.find((q) => q.QuestionId === breath)!;
    expect(choice.Entries.map((e) => [e.Value?.Options ?? null, e.Source])).toEqual([
      [["leicht"], "online"],
      [null, "sync"],
    ]);
  });

  it("shows the preliminary questions' answers the same way", async () => {
    const data = await json<CaseHistory>(await history("approver"));
    const sex = data.PreliminaryQuestions.find((q) => q.QuestionId === female.attributeId)!;
    expect(sex.Title).toBe("Geschlecht");
    expect(sex.Entries.map((e) => [e.Value?.Options ?? null, e.Source])).toEqual([
      [["weiblich"], "online"],
      [["männlich"], "sync"],
    ]);
  });

  it("logs every reading into the survey's chain, which still verifies", async () => {
    const w = world();
    const before = (await readingRows(w, survey, "case.history.view")).length;
    expect((await history("admin")).status).toBe(200);
    const rows = await readingRows(w, survey, "case.history.view");
    expect(rows.length).toBe(before + 1);
    const last = rows[rows.length - 1];
    expect(last.actor_user_id).toBe(await userIdOf(w, "admin"));
    expect(last.patient_data_id).not.toBeNull();
    expect(JSON.parse(last.after!)).toEqual({ PatientId: "H_1" });
    expect(last.hash).toMatch(/^[0-9a-f]{64}$/);

    const exports = (await readingRows(w, survey, "statistics.export")).length;
    const csv = await w.call("approver", "POST", `/statistics/${survey}/csv`, {});
    expect(csv.status).toBe(200);
    await csv.arrayBuffer();
    const statistics = await readingRows(w, survey, "statistics.export");
    expect(statistics.length).toBe(exports + 1);
    // The entry says which filters and which language of labels the export was made with.
    expect(JSON.parse(statistics[statistics.length - 1].after!)).toMatchObject({ Language: "de" });

    const audits = (await readingRows(w, survey, "audit.export")).length;
    expect((await w.call("approver", "GET", `/audit-log/csv?surveyId=${survey}&patientId=H_1`)).status).toBe(200);
    const exported = await readingRows(w, survey, "audit.export");
    expect(exported.length).toBe(audits + 1);
    expect(JSON.parse(exported[exported.length - 1].after!)).toEqual({ PatientId: "H_1", Format: "csv" });

    expect(await verifyStoredChain(w.db, String(survey))).toMatchObject({ ok: true });
  });

  it("refuses others, logs nothing for them, and answers 404 for an unknown case", async () => {
    const w = world();
    const before = (await readingRows(w, survey, "case.history.view")).length;
    for (const [who, status] of [
      ["editor", 403],
      ["user", 403],
      ["nobody", 401],
    ] as const) {
      expect((await history(who)).status, who).toBe(status);
    }
    expect((await history("approver", "NO_SUCH_CASE")).status).toBe(404);
    expect((await readingRows(w, survey, "case.history.view")).length).toBe(before);
  });

  it("lists the survey's trail without answers, filtered by person, action and days, paged", async () => {
    const w = world();
    const trail = async (query: string) =>
      json<SurveyTrail>(await w.call("approver", "GET", `/audit-log/trail?surveyId=${survey}${query}`));
    const all = await trail("");
    expect(all.Total).toBeGreaterThan(0);
    expect(all.Entries.every((e) => !e.Action.startsWith("response."))).toBe(true);
    expect(all.Actions).toEqual(expect.arrayContaining(["statistics.export"]));
    const ids = all.Entries.map((e) => e.Id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);

    const exports = await trail("&action=statistics.export");
    expect(exports.Total).toBeGreaterThan(0);
    expect(exports.Entries.every((e) => e.Action === "statistics.export")).toBe(true);

    const admin = await userIdOf(w, "admin");
    const byAdmin = await trail(`&actor=${admin}`);
    expect(byAdmin.Entries.every((e) => e.Actor.UserId === admin)).toBe(true);

    const future = await trail("&from=2999-01-01");
    expect(future.Total).toBe(0);
    const past = await trail("&to=2000-01-01");
    expect(past.Total).toBe(0);
    const around = await trail(`&from=2000-01-01&to=2999-12-31&action=statistics.export`);
    expect(around.Total).toBe(exports.Total);

    const second = await trail("&page=2");
    expect(second.Page).toBe(2);
    expect(second.Entries.length).toBe(Math.max(0, Math.min(all.PageSize, all.Total - all.PageSize)));
    expect((await w.call("editor", "GET", `/audit-log/trail?surveyId=${survey}`)).status).toBe(403);
  });
});
