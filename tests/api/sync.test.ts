import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { teamId } from "../support/surveys";
import {
  addImageQuestion,
  caseRow,
  json,
  optionId,
  preliminaryOption,
  questionId,
  startCase,
  useFillWorld,
  type FillWorld,
} from "./fill-support";
import { casesWith, countsOf, errorType, payload, sync } from "./sync-support";

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

type Listed = { QuestionId: number }[];
const byQuestion = (list: Listed) => [...list].sort((a, b) => a.QuestionId - b.QuestionId);

describe.each(dialects)("offline sync: applying a fill on %s", (kind) => {
  let image: { questionId: number; optionIds: number[] };
  let images: { questionId: number; optionIds: number[] };
  const world = useFillWorld(
    kind,
    () => idp,
    async (w) => {
      image = await addImageQuestion(w.db, w.a.heart, false);
      images = await addImageQuestion(w.db, w.a.heart, true);
    },
  );
  const q: Record<keyof typeof T, number> = {} as never;
  let survey: number;
  beforeAll(async () => {
    const w = world();
    survey = w.a.heart;
    for (const [key, title] of Object.entries(T)) q[key as keyof typeof T] = await questionId(w.db, survey, title);
  });
  const opt = (question: number, text: string) => optionId(world().db, question, text);
  const listed = async (w: FillWorld, path: string, patientId: string) =>
    json<Listed>(await w.call("user", "GET", `${path}?surveyId=${survey}&patientId=${patientId}`));

  /** A fill with every answer kind, a sub-question and a question that a preliminary answer shows. */
  async function fullFill() {
    const female = await preliminaryOption(world().db, survey, "weiblich");
    const age = await preliminaryOption(world().db, survey, "65 bis 79");
    const answers = [
      { QuestionId: q.breath, AnswerOptionId: await opt(q.breath, "mittel") },
      { QuestionId: q.oedema, AnswerOptionId: await opt(q.oedema, "Ja") },
      { QuestionId: q.where, AnswerOptionIds: [await opt(q.where, "Knöchel"), await opt(q.where, "Bauch")] },
      { QuestionId: q.pregnancy, AnswerOptionId: await opt(q.pregnancy, "Ja") },
      { QuestionId: q.notes, TextResponse: "Schwindel beim Aufstehen" },
      { QuestionId: q.weight, NumericalResponse: 81.5 },
      { QuestionId: q.measured, DateTimeResponse: "24.12.2025 18:30" },
      { QuestionId: image.questionId, AnswerOptionId: image.optionIds[1] },
      { QuestionId: images.questionId, AnswerOptionIds: [images.optionIds[0], images.optionIds[2]] },
    ];
    const preliminary = [
      { QuestionId: female.attributeId, AnswerOptionId: female.optionId },
      { QuestionId: age.attributeId, AnswerOptionId: age.optionId },
    ];
    return { answers, preliminary };
  }

  it("creates the case with every answer kind, sub-questions and preliminary answers", async () => {
    const w = world();
    const fill = await fullFill();
    const body = await payload(w.db, survey, "S_NEW", {
      QuestionAnswers: fill.answers,
      PreliminaryQuestionAnswers: fill.preliminary,
    });
    const res = await sync(w, survey, body, { key: "key-new-0001" });
    expect(res.status).toBe(200);
    const { Data } = await json<{ Data: number }>(res);
    const row = await caseRow(w.db, survey, "S_NEW");
    expect(row).toMatchObject({ id: Data, state: "Open", closed_at: null });
    expect(row!.team_id).toBe(await teamId(w.db, "Station 3A"));

    expect(byQuestion(await listed(w, "/question-responses/", "S_NEW"))).toEqual(byQuestion(fill.answers));
    expect(await listed(w, "/attribute-responses/", "S_NEW")).toEqual(
      fill.preliminary.map((p) => ({
        PatientFormAttributeId: p.QuestionId,
        PatientFormAnswerOptionId: p.AnswerOptionId,
      })),
    );
    const audit = await w.db
      .selectFrom("audit_log")
      .select(["action", "after"])
      .where("patient_data_id", "=", Data)
      .orderBy("id")
      .execute();
    // One attributeResponse.sync row per preliminary answer, then one response.sync row per answered
    // question, in id order, between creation and summary.
    const answered = [...new Set(fill.answers.map((a) => a.QuestionId))].sort((a, b) => a - b);
    expect(audit.map((a) => a.action)).toEqual([
      "case.create",
      ...fill.preliminary.map(() => "attributeResponse.sync"),
      ...answered.map(() => "response.sync"),
      "case.sync",
    ]);
    const prelim = audit.slice(1, 1 + fill.preliminary.length).map((a) => JSON.parse(a.after!) as unknown);
    expect(prelim).toEqual(
      expect.arrayContaining(
        fill.preliminary.map((p) => ({ PatientFormAnswerOptionId: p.AnswerOptionId, removedQuestionIds: [] })),
      ),
    );
    const synced = audit
      .slice(1 + fill.preliminary.length, -1)
      .map((a) => (JSON.parse(a.after!) as { answer: { QuestionId: number } }).answer);
    expect(synced.map((a) => a.QuestionId)).toEqual(answered);
    expect(synced).toEqual(expect.arrayContaining([{ QuestionId: q.notes, TextResponse: "Schwindel beim Aufstehen" }]));
    expect(JSON.parse(audit[audit.length - 1].after!)).toEqual({
      PatientId: "S_NEW",
      QuestionAnswers: fill.answers.length,
      PreliminaryQuestionAnswers: 2,
      Overwrite: false,
      Close: false,
      IdempotencyKey: "key-new-0001",
    });
  });

  it("accepts a single choice sent as a list of one option, and skips entries without a value", async () => {
    const w = world();
    const mild = await opt(q.breath, "leicht");
    const body = await payload(w.db, survey, "S_LIST", {
      QuestionAnswers: [
        { QuestionId: q.breath, AnswerOptionIds: [mild] },
        { QuestionId: q.notes, TextResponse: "   " },
        { QuestionId: q.weight, NumericalResponse: null },
      ],
    });
    expect((await sync(w, survey, body)).status).toBe(200);
    expect(await listed(w, "/question-responses/", "S_LIST")).toEqual([{ QuestionId: q.breath, AnswerOptionId: mild }]);
  });

  it("Close submits the case in the same request", async () => {
    const w = world();
    const body = await payload(w.db, survey, "S_CLOSE", {
      Close: true,
      QuestionAnswers: [{ QuestionId: q.notes, TextResponse: "fertig" }],
    });
    const res = await sync(w, survey, body, { key: "key-close-0001" });
    expect(res.status).toBe(200);
    const row = await caseRow(w.db, survey, "S_CLOSE");
    expect(row).toMatchObject({ id: (await json<{ Data: number }>(res)).Data, state: "Closed" });
    expect(row!.closed_at).not.toBeNull();
    expect(await countsOf(w.db, row!.id, "case.close")).toMatchObject({ audits: 1, answerRows: 1 });
    const state = await w.call("user", "GET", `/patients?surveyId=${survey}&patientId=S_CLOSE`);
    expect((await json<{ State: string }>(state)).State).toBe("Closed");
  });

  it("Overwrite replaces every answer of an Open case and keeps its attachments", async () => {
    const w = world();
    const caseId = await startCase(w, survey, "S_OVER");
    const male = await preliminaryOption(w.db, survey, "männlich");
    await w.call("user", "POST", "/attribute-responses", {
      PatientId: "S_OVER",
      SurveyId: survey,
      PatientFormAttributeId: male.attributeId,
      PatientFormAnswerOptionId: male.optionId,
    });
    await w.call("user", "POST", "/question-responses/free-text", {
      PatientId: "S_OVER",
      SurveyId: survey,
      QuestionId: q.notes,
      TextResponse: "alt",
    });
    await w.db
      .insertInto("file_attachments")
      .values({
        survey_id: survey,
        patient_data_id: caseId,
        question_id: q.measured,
        file_name: "ekg.pdf",
        file_extension: ".pdf",
        content_type: "application/pdf",
        size: 10,
        storage_key: "sync/ekg.pdf",
        uploaded_by_user_id: null,
      })
      .execute();

    const fill = await fullFill();
    const body = await payload(w.db, survey, "S_OVER", {
      QuestionAnswers: fill.answers.filter((a) => a.QuestionId !== q.notes),
      PreliminaryQuestionAnswers: fill.preliminary,
    });
    const clash = await sync(w, survey, body);
    expect(clash.status).toBe(409);
    expect(await errorType(clash)).toBe("SYNC_SURVEY_PATIENTID_CLASH");
    expect(await listed(w, "/question-responses/", "S_OVER")).toEqual([{ QuestionId: q.notes, TextResponse: "alt" }]);

    const res = await sync(w, survey, { ...body, Overwrite: true });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ Data: caseId, Version: expect.any(Number) });
    const answers = await listed(w, "/question-responses/", "S_OVER");
    expect(byQuestion(answers)).toEqual(byQuestion(fill.answers.filter((a) => a.QuestionId !== q.notes)));
    expect((await listed(w, "/attribute-responses/", "S_OVER")).map((a) => a)).toHaveLength(2);
    const files = await w.db.selectFrom("file_attachments").select("file_name").where("patient_data_id", "=", caseId);
    expect(await files.execute()).toEqual([{ file_name: "ekg.pdf" }]);
    expect(await casesWith(w.db, survey, "S_OVER")).toHaveLength(1);
    const audit = await w.db
      .selectFrom("audit_log")
      .select("before")
      .where("patient_data_id", "=", caseId)
      .where("action", "=", "case.sync")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.before!)).toEqual({ answerRows: 1, preliminaryAnswers: 1 });
  });

  it("refuses a fill with a bad answer (400) and writes nothing of it", async () => {
    const w = world();
    const caseId = await startCase(w, survey, "S_BAD_OPEN");
    await w.call("user", "POST", "/question-responses/free-text", {
      PatientId: "S_BAD_OPEN",
      SurveyId: survey,
      QuestionId: q.notes,
      TextResponse: "bleibt",
    });
    const female = await preliminaryOption(w.db, survey, "weiblich");
    const under65 = await preliminaryOption(w.db, survey, "unter 65");
    const yes = await opt(q.oedema, "Ja");
    const bad: [string, Partial<Parameters<typeof payload>[3]>][] = [
      ["foreign option", { QuestionAnswers: [{ QuestionId: q.breath, AnswerOptionId: yes }] }],
      ["wrong kind", { QuestionAnswers: [{ QuestionId: q.weight, TextResponse: "80" }] }],
      ["two kinds", { QuestionAnswers: [{ QuestionId: q.weight, NumericalResponse: 80, TextResponse: "80" }] }],
      ["unknown question", { QuestionAnswers: [{ QuestionId: 999_999, TextResponse: "x" }] }],
      [
        "answered twice",
        {
          QuestionAnswers: [
            { QuestionId: q.notes, TextResponse: "a" },
            { QuestionId: q.notes, TextResponse: "b" },
          ],
        },
      ],
      [
        "hidden by preliminary",
        { QuestionAnswers: [{ QuestionId: q.pregnancy, AnswerOptionId: await opt(q.pregnancy, "Ja") }] },
      ],
      [
        "sub-question without its parent's choice",
        { QuestionAnswers: [{ QuestionId: q.where, AnswerOptionIds: [await opt(q.where, "Bauch")] }] },
      ],
      [
        "foreign preliminary answer",
        { PreliminaryQuestionAnswers: [{ QuestionId: female.attributeId, AnswerOptionId: under65.optionId }] },
      ],
      ["bad date", { QuestionAnswers: [{ QuestionId: q.measured, DateTimeResponse: "31.02.2025 10:00" }] }],
    ];
    for (const [what, rest] of bad) {
      for (const [patientId, overwrite] of [
        ["S_BAD_NEW", false],
        ["S_BAD_OPEN", true],
      ] as const) {
        const fill = {
          QuestionAnswers: [{ QuestionId: q.breath, AnswerOptionId: await opt(q.breath, "stark") }],
          ...rest,
        };
        const res = await sync(w, survey, await payload(w.db, survey, patientId, { ...fill, Overwrite: overwrite }));
        expect(res.status, `${what} (${patientId})`).toBe(400);
        expect(await errorType(res)).toBe("VALIDATION_ERROR");
      }
    }
    expect(await casesWith(w.db, survey, "S_BAD_NEW")).toEqual([]);
    expect(await listed(w, "/question-responses/", "S_BAD_OPEN")).toEqual([
      { QuestionId: q.notes, TextResponse: "bleibt" },
    ]);
    expect(await countsOf(w.db, caseId)).toEqual({ answerRows: 1, preliminary: 0, audits: 0 });
    const hiddenMessage = await sync(
      w,
      survey,
      await payload(w.db, survey, "S_BAD_NEW", { QuestionAnswers: [{ QuestionId: q.pregnancy, AnswerOptionId: yes }] }),
    );
    expect((await json<{ Error: string }>(hiddenMessage)).Error).toContain(String(q.pregnancy));
  });
});
