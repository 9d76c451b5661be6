import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { responseOf } from "~/server/services/fhir/response.server";
import { demoSurveys } from "~/server/services/demo-data.server";
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

/** A Questionnaire's shape without its ids: types, texts, options, codes, weights, units and conditions. */
function shape(q: Body): Body {
  const textOf = new Map<string, string>();
  const index = (items: Body[] = []) => {
    for (const i of items) {
      textOf.set(i.linkId, i.text ?? i.type);
      index(i.item);
    }
  };
  index(q.item);
  const strip = (items: Body[] = []): Body[] =>
    items.map((i) => ({
      type: i.type,
      text: i.text,
      repeats: i.repeats,
      extension: i.extension?.map((e: Body) => (e.url.endsWith("/image") ? { url: "image" } : e)),
      answerOption: i.answerOption?.map((o: Body) => ({
        coding: o.valueCoding,
        own: o.extension?.map((e: Body) => ({ ...e, url: e.url.replace(/^.*\/fhir\//, "") })),
      })),
      enableWhen: i.enableWhen?.map((w: Body) => ({ ...w, question: textOf.get(w.question) })),
      enableBehavior: i.enableBehavior,
      item: i.item ? strip(i.item) : undefined,
    }));
  return { title: q.title, status: q.status, item: strip(q.item) };
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
    Dependence: q.Dependence?.PreliminaryAnswerOptions.length ? q.Dependence.Type : null,
    AnswerOptions: q.AnswerOptions.map((o: Body) => ({
      Text: o.Text ?? o.Title,
      Code: code(o),
      IsExitAnswer: o.IsExitAnswer,
      Weight: o.WeightingState === 2 ? null : o.Weight,
      WeightingState: o.WeightingState,
      X: o.X,
      Y: o.Y,
      SubQuestions: o.SubQuestions.map(question),
    })),
  });
  return {
    Title: survey.Title,
    PatientForm: survey.PatientForm.map((a: Body) => ({
      Title: a.Title,
      AnswerOptions: a.AnswerOptions.map((o: Body) => [o.Text, code(o), o.IsExitAnswer]),
    })),
    Categories: survey.Categories.map((c: Body) => ({ Title: c.Title, Questions: c.Questions.map(question) })),
  };
}

describe.each(dialects)("FHIR import on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);

  it("a Questionnaire of our own: previewed with what is not kept, then a Draft survey", async () => {
    const w = world();
    const vitals = file("vitals.json");
    expectValidR4(vitals);
    const preview = await read(await w.call("editor", "POST", "/surveys/fhir-import?preview=true", vitals), 201);
    expect(preview).toMatchObject({ Title: "Vital signs follow-up", Categories: 3, PreliminaryQuestions: 0 });
    const notKept: string[] = preview.NotKept;
    const about = (item: string) => notKept.filter((n) => n.includes(`„${item}“`));
    expect(about("Body mass index").join()).toContain("sdc-questionnaire-calculatedExpression");
    expect(about("Why is the pulse high?").join()).toContain("pulse >");
    expect(about("Do you smoke?").join()).toContain("boolean");
    expect(about("Other complaints").join()).toContain("Sonstiges");
    expect(about("Anything else?").join()).toContain("required");
    expect(notKept).toHaveLength(5);
    // Nothing was created by the preview.
    const before = await w.db
      .selectFrom("surveys")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirst();

    const made = await read(await w.call("editor", "POST", "/surveys/fhir-import", vitals), 201);
    expect(made.NotKept).toEqual(notKept);
    const survey = await read(await w.call("editor", "GET", `/surveys/${made.SurveyId}`));
    expect(survey.Status).toBe("Draft");
    expect(survey.Description).toContain("Written for the import tests");
    for (const n of notKept) expect(survey.Description).toContain(n);
    expect(survey.IntroText).toContain("Please answer for the last seven days.");
    expect(survey.IntroText).toContain("Tick everything that applies.");
    expect(survey.Categories.map((c: Body) => c.Title)).toEqual(["Vital signs", "Complaints", "Vital signs follow-up"]);
    const [vital, complaints, loose] = survey.Categories;
    expect(vital.Questions.map((q: Body) => [q.Title, q.Type, q.Unit])).toEqual([
      ["Body weight", "Numerical", "kg"],
      ["Resting pulse", "Numerical", null],
      ["Measured at", "DateTime", null],
      ["Why is the pulse high?", "FreeText", null],
      ["Body mass index", "Numerical", null],
    ]);
    const pain = complaints.Questions.find((q: Body) => q.Title === "Do you have pain?");
    expect(pain.Type).toBe("SingleSelection");
    const yes = pain.AnswerOptions[0];
    expect([yes.Text, yes.Value, yes.Weight, yes.WeightingState]).toEqual(["Yes", "yes", 2, 1]);
    // The nested item and the item with enableWhen on "Yes" are both sub-questions of "Yes".
    expect(yes.SubQuestions.map((s: Body) => [s.Title, s.Type])).toEqual([
      ["Where?", "MultipleSelection"],
      ["How severe?", "SingleSelection"],
    ]);
    expect(yes.SubQuestions[1].AnswerOptions.map((o: Body) => o.Text)).toEqual(["Mild", "Moderate", "Severe"]);
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
    // The import is in the survey's trail.
    const logged = await w.db.selectFrom("audit_log").select("action").where("survey_id", "=", made.SurveyId).execute();
    expect(logged.map((l) => l.action)).toContain("survey.import.fhir");
  });

  it("a second Questionnaire of our own: integer options with weights, an expanded ValueSet, nested groups", async () => {
    const w = world();
    const screening = file("screening.json");
    expectValidR4(screening);
    const made = await read(await w.call("editor", "POST", "/surveys/fhir-import", screening), 201);
    expect(made.NotKept).toHaveLength(3);
    expect(made.NotKept.join("\n")).toContain("„Describe“: „maxLength“");
    expect(made.NotKept.join("\n")).toContain("„Describe“: die Bedingung down != ");
    expect(made.NotKept.join("\n")).toContain("„Hours of sleep“: die Bedingung sleep-trouble exists true");
    const survey = await read(await w.call("editor", "GET", `/surveys/${made.SurveyId}`));
    expect(survey.Categories.map((c: Body) => c.Title)).toEqual([
      "Over the last two weeks",
      "Over the last two weeks – Sleep",
    ]);
    const [interest, down] = survey.Categories[0].Questions;
    expect(interest.IsTestQuestion).toBe(true);
    expect(interest.AnswerOptions.map((o: Body) => [o.Text, o.Value, o.Weight, o.WeightingState])).toEqual([
      ["0", "0", 1, 1],
      ["1", "1", 2, 1],
      ["2", "2", 3, 1],
    ]);
    expect(down.AnswerOptions.map((o: Body) => [o.Text, o.Value])).toEqual([
      ["Not at all", "0"],
      ["Several days", "1"],
      ["Nearly every day", "2"],
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
      { questionnaireUrl: first.url, apiUrl: "http://localhost/api", culture: "de-DE" },
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
