import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FHIR_IMPORT_MAX_QUESTIONS } from "~/contracts/fhir";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { responseOf } from "~/server/services/fhir/response.server";
import { demoSurveys } from "~/server/services/demo-data.server";
import { clinicZone } from "~/server/time-zone.server";
import { dialects } from "../support/databases";
import { expectValidR4 } from "../support/fhir-validator";
import { read, useStatisticsWorld, type Body } from "./statistics-support";

/**
 * FHIR R4 in (docs/decisions/040-fhir.md): a Questionnaire written elsewhere becomes a Draft survey with
 * everything it cannot hold listed; a file that is not a Questionnaire creates nothing; and export, import,
 * export keeps the structure, the codes and the rules.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

const file = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, "fhir-questionnaires", name), "utf8")) as Body;

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

  it("a Questionnaire of our own: previewed with what is not kept, then a Draft survey", async () => {
    const w = world();
    const vitals = file("vitals.json");
    expectValidR4(vitals);
    const preview = await read(await w.call("editor", "POST", "/surveys/fhir-import?preview=true", vitals), 200);
    expect(preview).toMatchObject({ Title: "Vital signs follow-up", Categories: 3, PreliminaryQuestions: 0 });
    const notKept: string[] = preview.NotKept;
    const about = (item: string) => notKept.filter((n) => n.includes(`„${item}“`));
    // Each loss once, those that change what is asked first; the calculated item is no question.
    expect(about("Body mass index")).toEqual([
      "1 berechnetes Element wird nicht übernommen (eine Umfrage rechnet nicht): „Body mass index“",
    ]);
    expect(notKept[0]).toBe(about("Body mass index")[0]);
    expect(about("Why is the pulse high?").join()).toContain("(„Resting pulse“ > 100)");
    expect(about("Do you smoke?").join()).toContain("Typ boolean");
    expect(about("Other complaints").join()).toContain("Sonstiges");
    expect(notKept).toContain("1 Frage ist als Pflichtfrage markiert; Pflichtantworten werden nicht erzwungen.");
    expect(notKept).toHaveLength(5);
    // Nothing was created by the preview.
    const before = await w.db
      .selectFrom("surveys")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirst();

    const made = await read(await w.call("editor", "POST", "/surveys/fhir-import", vitals), 201);
    expect(made.NotKept).toEqual(notKept);
    expect(made.Title).toBe("Vital signs follow-up");
    const survey = await read(await w.call("editor", "GET", `/surveys/${made.SurveyId}`));
    expect(survey.Status).toBe("Draft");
    // The description is the Questionnaire's own: everyone who fills the survey reads it.
    expect(survey.Description).toBe(vitals.description);
    expect(survey.IntroText).toContain("Please answer for the last seven days.");
    expect(survey.IntroText).toContain("Tick everything that applies.");
    expect(survey.Categories.map((c: Body) => c.Title)).toEqual(["Vital signs", "Complaints", "Vital signs follow-up"]);
    const [vital, complaints, loose] = survey.Categories;
    expect(vital.Questions.map((q: Body) => [q.Title, q.Type, q.Unit])).toEqual([
      ["Body weight", "Numerical", "kg"],
      ["Resting pulse", "Numerical", null],
      ["Measured at", "DateTime", null],
      ["Why is the pulse high?", "FreeText", null],
    ]);
    const pain = complaints.Questions.find((q: Body) => q.Title === "Do you have pain?");
    expect(pain.Type).toBe("SingleSelection");
    const yes = pain.AnswerOptions[0];
    // ordinalValue is the answer's score, no test weight: the question is not a test question.
    expect([yes.Text, yes.Value, yes.Score, yes.Weight, yes.WeightingState]).toEqual(["Yes", "yes", 2, null, 2]);
    expect(pain.IsTestQuestion).toBe(false);
    // The nested item and the item with enableWhen on "Yes" are both sub-questions of "Yes".
    expect(yes.SubQuestions.map((s: Body) => [s.Title, s.Type])).toEqual([
      ["Where?", "MultipleSelection"],
      ["How severe?", "SingleSelection"],
    ]);
    expect(yes.SubQuestions[1].AnswerOptions.map((o: Body) => [o.Text, o.System])).toEqual([
      ["Mild", "http://example.org/severity"],
      ["Moderate", "http://example.org/severity"],
      ["Severe", "http://example.org/severity"],
    ]);
    expect(complaints.Questions.map((q: Body) => q.Title)).toEqual([
      "Do you have pain?",
      "Since when?",
      "Woken at",
      "Other complaints",
      "Anything else?",
    ]);
    expect(loose.Questions.map((q: Body) => q.Title)).toEqual(["Who filled this in?"]);
    const before2 = await w.db
      .selectFrom("surveys")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirst();
    expect(Number(before2!.n)).toBe(Number(before!.n) + 1);
    // The import is in the survey's trail, with the list of what was not kept.
    const logged = await w.db
      .selectFrom("audit_log")
      .select(["action", "after"])
      .where("survey_id", "=", made.SurveyId)
      .where("action", "=", "survey.import.fhir")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(logged.after!)).toEqual({ Title: "Vital signs follow-up", NotKept: notKept });
  });

  it("a second Questionnaire of our own: integer options with scores, an expanded ValueSet, nested groups", async () => {
    const w = world();
    const screening = file("screening.json");
    expectValidR4(screening);
    const made = await read(await w.call("editor", "POST", "/surveys/fhir-import", screening), 201);
    expect(made.NotKept).toEqual([
      "Die Bedingungen von 2 Fragen können nicht übernommen werden; die Fragen werden immer gezeigt: " +
        "„Describe“ („Feeling down“ != 0), „Hours of sleep“ („Which troubles?“ exists true)",
      "1 Frage: Höchstlänge nicht übernommen.",
    ]);
    const survey = await read(await w.call("editor", "GET", `/surveys/${made.SurveyId}`));
    expect(survey.Categories.map((c: Body) => c.Title)).toEqual([
      "Over the last two weeks",
      "Over the last two weeks – Sleep",
    ]);
    const [interest, down] = survey.Categories[0].Questions;
    // Scores, not test weights: no answer is "correct".
    expect(interest.IsTestQuestion).toBe(false);
    expect(interest.AnswerOptions.map((o: Body) => [o.Text, o.Value, o.Score, o.Weight, o.WeightingState])).toEqual([
      ["0", "0", 1, null, 2],
      ["1", "1", 2, null, 2],
      ["2", "2", 3, null, 2],
    ]);
    expect(down.AnswerOptions.map((o: Body) => [o.Text, o.Value, o.System])).toEqual([
      ["Not at all", "0", "http://example.org/frequency"],
      ["Several days", "1", "http://example.org/frequency"],
      ["Nearly every day", "2", "http://example.org/frequency"],
    ]);
    expect(survey.Categories[1].Questions.map((q: Body) => [q.Title, q.Type, q.Dependence])).toEqual([
      ["Which troubles?", "MultipleSelection", null],
      ["Describe", "FreeText", null],
      ["Hours of sleep", "Numerical", null],
    ]);
  });

  it("what is not a Questionnaire, not JSON or too large creates nothing and says why", async () => {
    const w = world();
    const count = async () =>
      Number(
        (await w.db
          .selectFrom("surveys")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirst())!.n,
      );
    const before = await count();
    const patient = await w.call("editor", "POST", "/surveys/fhir-import", file("not-a-questionnaire.json"));
    expect(patient.status).toBe(400);
    expect((await patient.json()).Error).toContain("A Patient is not a Questionnaire");
    const notJson = await w.raw("editor", "POST", "/surveys/fhir-import", {
      body: "{ not json",
      headers: { "content-type": "application/json" },
    });
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).Error).toContain("not valid JSON");
    const big = { ...file("vitals.json"), description: "x".repeat(3_100_000) };
    expect((await w.call("editor", "POST", "/surveys/fhir-import", big)).status).toBe(413);
    const broken = { resourceType: "Questionnaire", item: [{ type: "string" }] };
    const res = await w.call("editor", "POST", "/surveys/fhir-import", broken);
    expect(res.status).toBe(400);
    expect((await res.json()).Error).toContain("item.0.linkId");
    expect((await w.call("approver", "POST", "/surveys/fhir-import", file("vitals.json"))).status).toBe(403);
    expect(await count()).toBe(before);
  });

  it("takes application/fhir+json and application/json, with or without charset; nothing else", async () => {
    const w = world();
    const body = JSON.stringify(file("screening.json"));
    for (const type of [
      "application/fhir+json",
      "application/fhir+json; charset=utf-8",
      "application/json",
      "application/json;charset=UTF-8",
    ]) {
      const res = await w.raw("editor", "POST", "/surveys/fhir-import?preview=true", {
        body,
        headers: { "content-type": type },
      });
      expect((await read(res, 200)).Title, type).toBe("Mood screening");
    }
    const made = await w.raw("editor", "POST", "/surveys/fhir-import", {
      body,
      headers: { "content-type": "application/fhir+json; charset=utf-8" },
    });
    expect((await read(made, 201)).Title).toBe("Mood screening");
    const text = await w.raw("editor", "POST", "/surveys/fhir-import?preview=true", {
      body,
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(415);
    expect((await text.json()).Error).toContain("application/fhir+json");
  });

  it("a Questionnaire with no question a survey holds, or with too many, is refused in the caller's words", async () => {
    const w = world();
    const count = async () =>
      Number(
        (await w.db
          .selectFrom("surveys")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirst())!.n,
      );
    const before = await count();
    const refusal = async (resource: unknown, preview: boolean) => {
      const res = await w.call("editor", "POST", `/surveys/fhir-import${preview ? "?preview=true" : ""}`, resource);
      return read(res, 400);
    };
    const empty = { resourceType: "Questionnaire", status: "draft", title: "Leer" };
    const onlyText = { ...empty, item: [{ linkId: "t", type: "display", text: "Welcome" }] };
    const onlyRepeats = {
      ...empty,
      item: [
        { linkId: "kin", type: "group", text: "Relatives", repeats: true, item: [{ linkId: "a", type: "string" }] },
      ],
    };
    for (const resource of [empty, onlyText, onlyRepeats]) {
      for (const preview of [true, false]) {
        const answer = await refusal(resource, preview);
        expect(answer).toMatchObject({ Type: "VALIDATION_ERROR", Reason: "empty" });
        expect(answer.Error).toContain("Der Fragebogen enthält keine Frage, die eine Umfrage aufnehmen kann");
      }
    }
    // What refused the items is said with it.
    expect((await refusal(onlyRepeats, false)).Error).toContain("Die Gruppe „Relatives“ wiederholt sich");

    const many = (n: number) => ({
      ...empty,
      item: [
        {
          linkId: "g",
          type: "group",
          text: "Viele",
          item: Array.from({ length: n }, (_, i) => ({ linkId: `q${i}`, type: "string", text: `Frage ${i}` })),
        },
      ],
    });
    const most = await read(
      await w.call("editor", "POST", "/surveys/fhir-import?preview=true", many(FHIR_IMPORT_MAX_QUESTIONS)),
    );
    expect(most.Questions).toBe(FHIR_IMPORT_MAX_QUESTIONS);
    const over = await refusal(many(FHIR_IMPORT_MAX_QUESTIONS + 1), false);
    expect(over).toMatchObject({ Type: "VALIDATION_ERROR", Reason: "tooMany" });
    expect(over.Error).toContain(`${FHIR_IMPORT_MAX_QUESTIONS + 1} Fragen`);
    expect(over.Error).toContain(`höchstens ${FHIR_IMPORT_MAX_QUESTIONS}`);

    // In English for a caller who speaks it.
    await read(await w.call("editor", "POST", "/users/current/culture?culture=en-US"), 204);
    try {
      expect((await refusal(onlyText, true)).Error).toContain("The questionnaire holds no question a survey can hold");
      expect((await refusal(many(FHIR_IMPORT_MAX_QUESTIONS + 1), true)).Error).toContain(
        `an imported survey has at most ${FHIR_IMPORT_MAX_QUESTIONS}`,
      );
    } finally {
      await read(await w.call("editor", "POST", "/users/current/culture?culture=de-DE"), 204);
    }
    expect(await count()).toBe(before);
  });

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
