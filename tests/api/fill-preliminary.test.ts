import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import {
  addImageQuestion,
  json,
  optionId,
  preliminaryOption,
  questionId,
  startCase,
  useFillWorld,
  type FillWorld,
} from "./fill-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("preliminary answers, dependence and image questions on %s", (kind) => {
  let single: { questionId: number; optionIds: number[] };
  let multiple: { questionId: number; optionIds: number[] };
  const world = useFillWorld(
    kind,
    () => idp,
    async (w) => {
      single = await addImageQuestion(w.db, w.a.heart, false);
      multiple = await addImageQuestion(w.db, w.a.heart, true);
    },
  );
  const setAttribute = (w: FillWorld, patientId: string, attributeId: number, optionId: number | null) =>
    w.call("user", "POST", "/attribute-responses", {
      PatientId: patientId,
      SurveyId: w.a.heart,
      PatientFormAttributeId: attributeId,
      PatientFormAnswerOptionId: optionId,
    });
  const attributes = async (w: FillWorld, patientId: string) =>
    json(await w.call("user", "GET", `/attribute-responses/?surveyId=${w.a.heart}&patientId=${patientId}`));

  it("records, replaces, lists and deletes preliminary answers", async () => {
    const w = world();
    await startCase(w, w.a.heart, "PRE_1");
    const female = await preliminaryOption(w.db, w.a.heart, "weiblich");
    const male = await preliminaryOption(w.db, w.a.heart, "männlich");
    const age = await preliminaryOption(w.db, w.a.heart, "65 bis 79");
    expect((await setAttribute(w, "PRE_1", female.attributeId, female.optionId)).status).toBe(200);
    await setAttribute(w, "PRE_1", male.attributeId, male.optionId);
    await setAttribute(w, "PRE_1", age.attributeId, age.optionId);
    expect(await attributes(w, "PRE_1")).toEqual([
      { PatientFormAttributeId: male.attributeId, PatientFormAnswerOptionId: male.optionId },
      { PatientFormAttributeId: age.attributeId, PatientFormAnswerOptionId: age.optionId },
    ]);
    await setAttribute(w, "PRE_1", age.attributeId, null);
    expect(await attributes(w, "PRE_1")).toEqual([
      { PatientFormAttributeId: male.attributeId, PatientFormAnswerOptionId: male.optionId },
    ]);
    const rows = await w.db
      .selectFrom("attribute_responses")
      .select("id")
      .where("attribute_id", "=", male.attributeId)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("refuses answers of another preliminary question or survey (400) and closed cases (409)", async () => {
    const w = world();
    await startCase(w, w.a.heart, "PRE_2");
    const female = await preliminaryOption(w.db, w.a.heart, "weiblich");
    const age = await preliminaryOption(w.db, w.a.heart, "unter 65");
    const otherSurvey = await preliminaryOption(w.db, w.b.heart, "weiblich");
    expect((await setAttribute(w, "PRE_2", female.attributeId, age.optionId)).status).toBe(400);
    expect((await setAttribute(w, "PRE_2", otherSurvey.attributeId, otherSurvey.optionId)).status).toBe(400);
    expect((await setAttribute(w, "PRE_2", female.attributeId, 0)).status).toBe(400);
    await w.call("user", "POST", `/patients/close?patientId=PRE_2&surveyId=${w.a.heart}`);
    const closed = await setAttribute(w, "PRE_2", female.attributeId, female.optionId);
    expect(closed.status).toBe(409);
    expect(await attributes(w, "PRE_2")).toEqual([]);
    expect((await setAttribute(w, "PRE_NOBODY", female.attributeId, female.optionId)).status).toBe(404);
  });

  it("a question shown only for some preliminary answers is refused while hidden", async () => {
    const w = world();
    await startCase(w, w.a.heart, "PRE_3");
    const pregnancy = await questionId(w.db, w.a.heart, "Schwangerschaft ausgeschlossen?");
    const yes = await optionId(w.db, pregnancy, "Ja");
    const answer = () =>
      w.call("user", "POST", "/question-responses/single-selection", {
        PatientId: "PRE_3",
        SurveyId: w.a.heart,
        QuestionId: pregnancy,
        AnswerOptionId: yes,
      });
    const hidden = await answer();
    expect(hidden.status).toBe(400);
    expect((await json<{ Error: string }>(hidden)).Error).toMatch(/not shown/);
    const female = await preliminaryOption(w.db, w.a.heart, "weiblich");
    await setAttribute(w, "PRE_3", female.attributeId, female.optionId);
    expect((await answer()).status).toBe(200);
  });

  it("a preliminary answer that hides answered questions deletes their answers in the same write", async () => {
    const w = world();
    const caseId = await startCase(w, w.a.heart, "PRE_4");
    const pregnancy = await questionId(w.db, w.a.heart, "Schwangerschaft ausgeschlossen?");
    const notes = await questionId(w.db, w.a.heart, "Weitere Beschwerden");
    const female = await preliminaryOption(w.db, w.a.heart, "weiblich");
    const male = await preliminaryOption(w.db, w.a.heart, "männlich");
    await setAttribute(w, "PRE_4", female.attributeId, female.optionId);
    await w.call("user", "POST", "/question-responses/single-selection", {
      PatientId: "PRE_4",
      SurveyId: w.a.heart,
      QuestionId: pregnancy,
      AnswerOptionId: await optionId(w.db, pregnancy, "Nein"),
    });
    await w.call("user", "POST", "/question-responses/free-text", {
      PatientId: "PRE_4",
      SurveyId: w.a.heart,
      QuestionId: notes,
      TextResponse: "bleibt",
    });
    const res = await setAttribute(w, "PRE_4", male.attributeId, male.optionId);
    expect(await json(res)).toEqual({ RemovedQuestionIds: [pregnancy], Version: expect.any(Number) });
    const left = await json<{ QuestionId: number }[]>(
      await w.call("user", "GET", `/question-responses?surveyId=${w.a.heart}&patientId=PRE_4`),
    );
    expect(left.map((a) => a.QuestionId)).toEqual([notes]);
    const audit = await w.db
      .selectFrom("audit_log")
      .select(["action", "after"])
      .where("patient_data_id", "=", caseId)
      .where("action", "=", "attributeResponse.record")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.after!)).toMatchObject({ removedQuestionIds: [pregnancy] });
    // Removing the preliminary answer keeps it hidden (SHOW needs a listed answer).
    expect(await json(await setAttribute(w, "PRE_4", male.attributeId, null))).toEqual({
      RemovedQuestionIds: [],
      Version: expect.any(Number),
    });
  });

  it("an image question is answered by its marker ids, through single or multiple selection", async () => {
    const w = world();
    await startCase(w, w.a.heart, "IMG_1");
    const send = (path: string, body: Record<string, unknown>) =>
      w.call("user", "POST", `/question-responses/${path}`, { PatientId: "IMG_1", SurveyId: w.a.heart, ...body });
    expect(
      (await send("single-selection", { QuestionId: single.questionId, AnswerOptionId: single.optionIds[1] })).status,
    ).toBe(200);
    const tooMany = await send("multiple-selection", {
      QuestionId: single.questionId,
      AnswerOptionIds: single.optionIds.slice(0, 2),
    });
    expect(tooMany.status).toBe(400);
    await send("multiple-selection", {
      QuestionId: multiple.questionId,
      AnswerOptionIds: [multiple.optionIds[2], multiple.optionIds[0]],
    });
    const foreign = await send("single-selection", {
      QuestionId: multiple.questionId,
      AnswerOptionId: single.optionIds[0],
    });
    expect(foreign.status).toBe(400);
    const listed = await json<Record<string, unknown>[]>(
      await w.call("user", "GET", `/question-responses/?surveyId=${w.a.heart}&patientId=IMG_1`),
    );
    expect(listed).toEqual([
      { QuestionId: single.questionId, AnswerOptionId: single.optionIds[1] },
      { QuestionId: multiple.questionId, AnswerOptionIds: [multiple.optionIds[0], multiple.optionIds[2]] },
    ]);
  });
});
