import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { json, optionId, questionId, startCase, useFillWorld, type FillWorld, type Who } from "./fill-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

const T = {
  breath: "Wie stark ist die Atemnot bei Belastung?",
  oedema: "Haben Sie Wassereinlagerungen bemerkt?",
  where: "Wo genau?",
  pregnancy: "Schwangerschaft ausgeschlossen?",
  notes: "Weitere Beschwerden",
  weight: "Körpergewicht",
  measured: "Zeitpunkt der Messung",
};

describe.each(dialects)("question responses API on %s", (kind) => {
  const world = useFillWorld(kind, () => idp);
  const ids: Record<keyof typeof T, number> = {} as never;
  let survey: number;

  beforeAll(async () => {
    const w = world();
    survey = w.a.heart;
    for (const [key, title] of Object.entries(T)) ids[key as keyof typeof T] = await questionId(w.db, survey, title);
  });

  const opt = (question: number, text: string) => optionId(world().db, question, text);
  const post = (kindPath: string, patientId: string, body: Record<string, unknown>, who: Who = "user") =>
    world().call(who, "POST", `/question-responses/${kindPath}`, { PatientId: patientId, SurveyId: survey, ...body });
  const answers = async (patientId: string, who: Who = "user") =>
    json<Record<string, unknown>[]>(
      await world().call(who, "GET", `/question-responses/?surveyId=${survey}&patientId=${patientId}`),
    );
  const rowsOf = (w: FillWorld, caseId: number, question: number) =>
    w.db
      .selectFrom("question_responses")
      .selectAll()
      .where("patient_data_id", "=", caseId)
      .where("question_id", "=", question)
      .execute();

  it("single selection: records, replaces, lists; one row per answer", async () => {
    const w = world();
    const caseId = await startCase(w, survey, "R_SINGLE");
    const first = await post("single-selection", "R_SINGLE", {
      QuestionId: ids.breath,
      AnswerOptionId: await opt(ids.breath, "leicht"),
    });
    expect(first.status).toBe(200);
    expect(await json(first)).toEqual({ RemovedQuestionIds: [], Version: expect.any(Number) });
    const strong = await opt(ids.breath, "stark");
    await post("single-selection", "R_SINGLE", { QuestionId: ids.breath, AnswerOptionId: strong });
    expect(await answers("R_SINGLE")).toEqual([{ QuestionId: ids.breath, AnswerOptionId: strong }]);
    expect(await rowsOf(w, caseId, ids.breath)).toHaveLength(1);
    const audit = await w.db
      .selectFrom("audit_log")
      .select(["action", "entity_id"])
      .where("patient_data_id", "=", caseId)
      .where("action", "=", "response.record")
      .execute();
    expect(audit).toHaveLength(2);
    // The same answer again changes nothing and writes nothing.
    await post("single-selection", "R_SINGLE", { QuestionId: ids.breath, AnswerOptionId: strong });
    const again = await w.db.selectFrom("audit_log").select("id").where("patient_data_id", "=", caseId).execute();
    expect(again).toHaveLength(3); // case.create and the two answers
  });

  it("refuses options of other questions, unknown questions and the wrong endpoint (400)", async () => {
    const w = world();
    await startCase(w, survey, "R_BAD");
    const foreign = await opt(ids.oedema, "Ja");
    const cases: [string, Record<string, unknown>][] = [
      ["single-selection", { QuestionId: ids.breath, AnswerOptionId: foreign }],
      ["single-selection", { QuestionId: 999_999, AnswerOptionId: foreign }],
      [
        "single-selection",
        { QuestionId: await questionId(w.db, w.a.postop, "Pain at rest (0–10)"), AnswerOptionId: 1 },
      ],
      ["multiple-selection", { QuestionId: ids.breath, AnswerOptionIds: [await opt(ids.breath, "leicht")] }],
      ["free-text", { QuestionId: ids.weight, TextResponse: "80" }],
      ["numerical", { QuestionId: ids.notes, NumericalResponse: 3 }],
      ["date-time", { QuestionId: ids.weight, DateTimeResponse: "01.01.2026 10:00" }],
      ["single-selection", { QuestionId: ids.breath }],
      ["single-selection", { QuestionId: ids.breath, AnswerOptionId: "1" }],
    ];
    for (const [path, body] of cases) {
      const res = await post(path, "R_BAD", body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect((await json<{ Type: string }>(res)).Type).toBe("VALIDATION_ERROR");
    }
    expect(await answers("R_BAD")).toEqual([]);
  });

  it("a sub-question is answered only under its chosen option; changing the choice removes its answer", async () => {
    const w = world();
    await startCase(w, survey, "R_SUB");
    const [ankle, belly] = [await opt(ids.where, "Knöchel"), await opt(ids.where, "Bauch")];
    const hidden = await post("multiple-selection", "R_SUB", { QuestionId: ids.where, AnswerOptionIds: [ankle] });
    expect(hidden.status).toBe(400);

    const yes = await opt(ids.oedema, "Ja");
    await post("single-selection", "R_SUB", { QuestionId: ids.oedema, AnswerOptionId: yes });
    const ok = await post("multiple-selection", "R_SUB", {
      QuestionId: ids.where,
      AnswerOptionIds: [belly, ankle, ankle],
    });
    expect(ok.status).toBe(200);
    expect(await answers("R_SUB")).toEqual([
      { QuestionId: ids.oedema, AnswerOptionId: yes },
      { QuestionId: ids.where, AnswerOptionIds: [ankle, belly] },
    ]);

    const no = await post("single-selection", "R_SUB", {
      QuestionId: ids.oedema,
      AnswerOptionId: await opt(ids.oedema, "Nein"),
    });
    expect(await json(no)).toEqual({ RemovedQuestionIds: [ids.where], Version: expect.any(Number) });
    expect((await answers("R_SUB")).map((a) => a.QuestionId)).toEqual([ids.oedema]);
  });

  it("multiple selection: replaces the set; an empty list deletes the answer", async () => {
    const w = world();
    const caseId = await startCase(w, survey, "R_MULTI");
    await post("single-selection", "R_MULTI", { QuestionId: ids.oedema, AnswerOptionId: await opt(ids.oedema, "Ja") });
    const [ankle, leg, belly] = [
      await opt(ids.where, "Knöchel"),
      await opt(ids.where, "Unterschenkel"),
      await opt(ids.where, "Bauch"),
    ];
    await post("multiple-selection", "R_MULTI", { QuestionId: ids.where, AnswerOptionIds: [ankle, belly] });
    await post("multiple-selection", "R_MULTI", { QuestionId: ids.where, AnswerOptionIds: [leg] });
    expect((await rowsOf(w, caseId, ids.where)).map((r) => r.answer_option_id)).toEqual([leg]);
    await post("multiple-selection", "R_MULTI", { QuestionId: ids.where, AnswerOptionIds: [] });
    expect(await rowsOf(w, caseId, ids.where)).toEqual([]);
  });

  it("DELETE /question-responses/question removes the answer and those of its sub-questions", async () => {
    const w = world();
    await startCase(w, survey, "R_DEL");
    await post("single-selection", "R_DEL", { QuestionId: ids.oedema, AnswerOptionId: await opt(ids.oedema, "Ja") });
    await post("multiple-selection", "R_DEL", {
      QuestionId: ids.where,
      AnswerOptionIds: [await opt(ids.where, "Bauch")],
    });
    const body = { SurveyId: survey, PatientId: "R_DEL", QuestionId: ids.oedema };
    const res = await w.call("user", "DELETE", "/question-responses/question", body);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ RemovedQuestionIds: [ids.where], Version: expect.any(Number) });
    expect(await answers("R_DEL")).toEqual([]);
    // Deleting what is not there is no error.
    expect((await w.call("user", "DELETE", "/question-responses/question", body)).status).toBe(200);
    expect((await w.call("user", "DELETE", "/question-responses/question", { SurveyId: survey })).status).toBe(400);
  });

  it("free text: records, replaces; blank deletes; too long is refused", async () => {
    const w = world();
    await startCase(w, survey, "R_TEXT");
    await post("free-text", "R_TEXT", { QuestionId: ids.notes, TextResponse: "Schwindel" });
    await post("free-text", "R_TEXT", { QuestionId: ids.notes, TextResponse: "Schwindel, Husten <b>" });
    expect(await answers("R_TEXT")).toEqual([{ QuestionId: ids.notes, TextResponse: "Schwindel, Husten <b>" }]);
    const long = await post("free-text", "R_TEXT", { QuestionId: ids.notes, TextResponse: "x".repeat(10_001) });
    expect(long.status).toBe(400);
    await post("free-text", "R_TEXT", { QuestionId: ids.notes, TextResponse: "   " });
    expect(await answers("R_TEXT")).toEqual([]);
  });

  it("date-time: DD.MM.YYYY HH:mm in and out, stored sortable; impossible dates refused", async () => {
    const w = world();
    const caseId = await startCase(w, survey, "R_DATE");
    const ok = await post("date-time", "R_DATE", { QuestionId: ids.measured, DateTimeResponse: "24.12.2025 18:30" });
    expect(ok.status).toBe(200);
    expect(await answers("R_DATE")).toEqual([{ QuestionId: ids.measured, DateTimeResponse: "24.12.2025 18:30" }]);
    expect((await rowsOf(w, caseId, ids.measured))[0].date_time_response).toBe("2025-12-24T18:30");
    for (const bad of ["31.02.2025 10:00", "2025-12-24 18:30", "24.12.2025", "24.12.2025 25:00", ""]) {
      expect((await post("date-time", "R_DATE", { QuestionId: ids.measured, DateTimeResponse: bad })).status).toBe(400);
    }
  });

  it("numerical: steps of 0.01, finite numbers only", async () => {
    const w = world();
    await startCase(w, survey, "R_NUM");
    await post("numerical", "R_NUM", { QuestionId: ids.weight, NumericalResponse: 0.1 + 0.2 });
    expect(await answers("R_NUM")).toEqual([{ QuestionId: ids.weight, NumericalResponse: 0.3 }]);
    await post("numerical", "R_NUM", { QuestionId: ids.weight, NumericalResponse: -72.55 });
    expect(await answers("R_NUM")).toEqual([{ QuestionId: ids.weight, NumericalResponse: -72.55 }]);
    for (const bad of [72.555, "72", null, 1e300]) {
      expect((await post("numerical", "R_NUM", { QuestionId: ids.weight, NumericalResponse: bad })).status).toBe(400);
    }
  });

  it("refuses answers to a closed case (409), an unknown one (404) and bad patient ids (400)", async () => {
    const w = world();
    await startCase(w, survey, "R_CLOSED");
    await w.call("user", "POST", `/patients/close?patientId=R_CLOSED&surveyId=${survey}`);
    const body = { QuestionId: ids.notes, TextResponse: "spät" };
    const closed = await post("free-text", "R_CLOSED", body);
    expect(closed.status).toBe(409);
    expect((await json<{ Type: string }>(closed)).Type).toBe("SURVEY_ALREADY_CLOSED");
    const missing = await post("free-text", "R_NOBODY", body);
    expect(missing.status).toBe(404);
    expect((await json<{ Type: string }>(missing)).Type).toBe("SURVEY_PATIENTID_NOT_FOUND");
    expect((await post("free-text", "R-1", body)).status).toBe(400);
    const list = await w.call("user", "GET", `/question-responses/?surveyId=${survey}&patientId=R_NOBODY`);
    expect(list.status).toBe(404);
  });

  it("refuses answers once the survey is unpublished (409 SURVEY_INVALID_STATUS)", async () => {
    const w = world();
    const other = w.b.postop;
    await startCase(w, other, "R_UNPUB");
    const pain = await questionId(w.db, other, "Pain at rest (0–10)");
    expect((await w.call("approver", "PUT", `/surveys/${other}/change-status?newStatusId=1`)).status).toBe(204);
    const res = await w.call("editor", "POST", "/question-responses/numerical", {
      PatientId: "R_UNPUB",
      SurveyId: other,
      QuestionId: pain,
      NumericalResponse: 3,
    });
    expect(res.status).toBe(409);
    expect((await json<{ Type: string }>(res)).Type).toBe("SURVEY_INVALID_STATUS");
  });

  it("checks the caller: 401, 403 without the tool's role; analysts may read", async () => {
    const w = world();
    await startCase(w, survey, "R_AUTH");
    await post("free-text", "R_AUTH", { QuestionId: ids.notes, TextResponse: "a" });
    expect((await post("free-text", "R_AUTH", { QuestionId: ids.notes, TextResponse: "b" }, "nobody")).status).toBe(
      401,
    );
    expect((await post("free-text", "R_AUTH", { QuestionId: ids.notes, TextResponse: "b" }, "outsider")).status).toBe(
      403,
    );
    expect(await answers("R_AUTH", "approver")).toEqual([{ QuestionId: ids.notes, TextResponse: "a" }]);
    const listed = await w.call("outsider", "GET", `/question-responses/?surveyId=${survey}&patientId=R_AUTH`);
    expect(listed.status).toBe(403);
  });
});
