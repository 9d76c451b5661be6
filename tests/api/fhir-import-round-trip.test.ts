import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { responseOf } from "~/server/services/fhir/response.server";
import { demoSurveys } from "~/server/services/demo-data.server";
import { clinicZone } from "~/server/time-zone.server";
import { dialects } from "../support/databases";
import { expectValidR4 } from "../support/fhir-validator";
import { read, useStatisticsWorld, type Body } from "./statistics-support";

/**
 * FHIR R4 out and in again (docs/decisions/040-fhir.md): export, import, export of every demo survey and the
 * test survey keeps the structure, the codes and the rules; so it does for a sub-question that a group in the
 * Questionnaire carries under its answer's condition.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/**
 * A Questionnaire's shape without its ids: identity, types, texts, codes, options, scores, weights, units,
 * hints, conditions and the total's calculation (the questions it names by their texts).
 */
function shape(q: Body): Body {
  const textOf = new Map<string, string>();
  const index = (items: Body[] = []) => {
    for (const i of items) {
      textOf.set(i.linkId, i.text ?? i.type);
      index(i.item);
    }
  };
  index(q.item);
  const named = (expression: string) => expression.replace(/'(Q\d+)'/g, (_, id: string) => `'${textOf.get(id)}'`);
  const extension = (e: Body) =>
    e.url.endsWith("/image")
      ? { url: "image" }
      : e.valueExpression
        ? { ...e, valueExpression: { ...e.valueExpression, expression: named(e.valueExpression.expression) } }
        : e;
  const strip = (items: Body[] = []): Body[] =>
    items.map((i) => ({
      type: i.type,
      code: i.code,
      text: i.text,
      repeats: i.repeats,
      readOnly: i.readOnly,
      extension: i.extension?.map(extension),
      answerOption: i.answerOption?.map((o: Body) => ({
        coding: o.valueCoding,
        own: o.extension?.map((e: Body) => ({ ...e, url: e.url.replace(/^.*\/fhir\//, "") })),
      })),
      enableWhen: i.enableWhen?.map((w: Body) => ({ ...w, question: textOf.get(w.question) })),
      enableBehavior: i.enableBehavior,
      item: i.item ? strip(i.item) : undefined,
    }));
  const { name, identifier, date, subjectType, code, copyright } = q;
  return {
    title: q.title,
    name,
    identifier,
    date,
    subjectType,
    code,
    copyright,
    status: q.status,
    item: strip(q.item),
  };
}

/** Every item of a Questionnaire, nested ones included. */
function items(resource: Body): Body[] {
  const out: Body[] = [];
  const walk = (list: Body[] | undefined) => {
    for (const i of list ?? []) {
      out.push(i);
      walk(i.item);
    }
  };
  walk(resource.item);
  return out;
}

/** A survey's content without ids: what an import must bring back. */
function tree(survey: Body): Body {
  const code = (o: Body) => o.Value?.trim() || String(o.Id);
  const question = (q: Body): Body => ({
    Title: q.Title,
    Type: q.Type,
    Unit: q.Unit,
    AllowFileAttachments: q.AllowFileAttachments,
    AllowMultipleAnswers: q.Type === "Image" ? q.AllowMultipleAnswers : undefined,
    IsTestQuestion: q.IsTestQuestion,
    ImageSrc: q.ImageSrc,
    Hint: q.Hint,
    Codes: q.Codes,
    Dependence: q.Dependence?.PreliminaryAnswerOptions.length ? q.Dependence.Type : null,
    AnswerOptions: q.AnswerOptions.map((o: Body) => ({
      Text: o.Text ?? o.Title,
      Code: code(o),
      IsExitAnswer: o.IsExitAnswer,
      System: o.System,
      Score: o.Score,
      Weight: o.WeightingState === 2 ? null : o.Weight,
      WeightingState: o.WeightingState,
      X: o.X,
      Y: o.Y,
      SubQuestions: o.SubQuestions.map(question),
    })),
  });
  return {
    Title: survey.Title,
    ScoreTitle: survey.ScoreTitle,
    Instrument: survey.Instrument,
    PatientForm: survey.PatientForm.map((a: Body) => ({
      Title: a.Title,
      AnswerOptions: a.AnswerOptions.map((o: Body) => [o.Text, code(o), o.IsExitAnswer]),
    })),
    Categories: survey.Categories.map((c: Body) => ({
      Title: c.Title,
      Codes: c.Codes,
      Questions: c.Questions.map(question),
    })),
  };
}

describe.each(dialects)("FHIR import on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);

  it("export, import, export keeps the structure, the codes and the rules", async () => {
    const w = world();
    // Every demo survey (the image question of the wound survey among them) and the test survey.
    const demos = await w.db
      .selectFrom("surveys")
      .select("id")
      .where(
        "title",
        "in",
        demoSurveys().map((d) => d.title),
      )
      .where("id", "<", w.b.heart)
      .execute();
    const ids = [fixture().survey, ...demos.map((d) => d.id)];
    expect(ids.length).toBeGreaterThan(5);
    for (const id of ids) {
      const first = await read(await w.call("editor", "GET", `/surveys/${id}/fhir/questionnaire`));
      const made = await read(await w.call("editor", "POST", "/surveys/fhir-import", first), 201);
      expect(made.NotKept, `survey ${id}`).toEqual([]);
      const second = await read(await w.call("editor", "GET", `/surveys/${made.SurveyId}/fhir/questionnaire`));
      expectValidR4(second);
      expect(shape(second)).toEqual({ ...shape(first), status: "draft" });
      // The surveys themselves agree but for their ids: kinds, weights, states, exits, markers, rules.
      const original = await read(await w.call("editor", "GET", `/surveys/${id}`));
      const copy = await read(await w.call("editor", "GET", `/surveys/${made.SurveyId}`));
      expect(tree(copy), `survey ${id}`).toEqual(tree(original));
    }
  });

  it("a sub-question shown by any of several preliminary answers: a group carries the answer's condition", async () => {
    const w = world();
    const f = fixture();
    const clone = await read(await w.call("editor", "POST", `/surveys/${f.survey}/clone`), 201);
    const survey = await read(await w.call("editor", "GET", `/surveys/${clone.Id}`));
    const feeling = survey.Categories[0].Questions.find((q: Body) => q.Title === "Wie geht es Ihnen?");
    const since = feeling.AnswerOptions[0].SubQuestions[0];
    const sex = survey.PatientForm.find((a: Body) => a.Title === "Geschlecht");
    const rule = { Type: "SHOW", PreliminaryAnswerOptions: sex.AnswerOptions.map((o: Body) => o.Id) };
    await read(await w.call("editor", "PUT", `/questions/${since.Id}`, { Dependence: rule }));
    const first = await read(await w.call("editor", "GET", `/surveys/${clone.Id}/fhir/questionnaire`));
    expectValidR4(first);
    const group = items(first).find((i: Body) => i.linkId === `Q${since.Id}.when`);
    expect(group.type).toBe("group");
    expect(group.enableWhen).toEqual([
      { question: `Q${feeling.Id}`, operator: "=", answerCoding: { code: "G1", display: "gut" } },
    ]);
    expect(group.item[0].enableBehavior).toBe("any");
    expect(group.item[0].enableWhen.map((e: Body) => e.question)).toEqual([`P${sex.Id}`, `P${sex.Id}`]);
    // A response places the sub-question inside the group, inside the answer it stands under.
    const female = sex.AnswerOptions[0];
    const ruled = await read(await w.call("editor", "GET", `/surveys/${clone.Id}`));
    const response = responseOf(
      ruled,
      { id: 1, patient_id: "X1", state: "Open", created_at: new Date().toISOString(), closed_at: null },
      {
        answers: [
          {
            question_id: feeling.Id,
            answer_option_id: feeling.AnswerOptions[0].Id,
            text_response: null,
            numerical_response: null,
            date_time_response: null,
          },
          {
            question_id: since.Id,
            answer_option_id: since.AnswerOptions[0].Id,
            text_response: null,
            numerical_response: null,
            date_time_response: null,
          },
        ],
        prelims: [{ attribute_id: sex.Id, answer_option_id: female.Id }],
        files: [],
        signature: null,
      },
      {
        questionnaireUrl: first.url,
        apiUrl: "http://localhost/api",
        culture: "de-DE",
        zone: clinicZone("Europe/Berlin"),
      },
    );
    expectValidR4(response);
    const answered = response.item.find((i: Body) => i.linkId === `C${survey.Categories[0].Id}`).item[0];
    expect(answered.answer[0].item[0].linkId).toBe(`Q${since.Id}.when`);
    expect(answered.answer[0].item[0].item[0].linkId).toBe(`Q${since.Id}`);
    const made = await read(await w.call("editor", "POST", "/surveys/fhir-import", first), 201);
    expect(made.NotKept).toEqual([]);
    const second = await read(await w.call("editor", "GET", `/surveys/${made.SurveyId}/fhir/questionnaire`));
    expect(shape(second)).toEqual(shape(first));
    const copy = await read(await w.call("editor", "GET", `/surveys/${made.SurveyId}`));
    expect(tree(copy)).toEqual(tree(ruled));
  });
});
