import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { expectValidR4 } from "../support/fhir-validator";
import { questionnaireFile } from "./fhir-items";
import { read, useStatisticsWorld, type Body } from "./statistics-support";

/**
 * FHIR R4 in (docs/decisions/040-fhir.md): a Questionnaire written elsewhere becomes a Draft survey with
 * everything it cannot hold listed, previewed first, its import in the survey's trail. What the import takes
 * and refuses is in fhir-import-input.test.ts; export, import, export in fhir-import-round-trip.test.ts.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

const file = questionnaireFile;

describe.each(dialects)("FHIR import on %s", (kind) => {
  const { world } = useStatisticsWorld(kind, () => idp);

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
});
