import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImageSrcSchema } from "~/domain/editing";
import { translatableTexts, translateSurvey, translationProgress } from "~/domain/content-languages";
import { answerText, type Survey } from "~/domain/survey";
import { visibleQuestionIds } from "~/domain/visibility";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { caseTotal } from "~/domain/scores";
import { demoSurveys, seedDemoData, seedDemoDataIfEmpty } from "~/server/services/demo-data.server";
import { benchmarkableSurveys } from "~/server/services/survey-lifecycle.server";
import { loadSurveyTree } from "~/server/services/survey-tree.server";
import { dialects, openTestDb, type TestDb } from "../support/databases";

const rights = { CanEdit: true, CanApprove: true, CanParticipate: true };
const WOUND = "Wundverlauf – Dokumentation";
const WOUND_COPY = "Wundverlauf – Dokumentation (Station B)";
const MULTILINGUAL = "Befinden im Krankenhaus (mehrsprachig)";

const questionsOf = (tree: Survey) => tree.Categories.flatMap((c) => c.Questions);
const byTitle = (tree: Survey, title: string) => questionsOf(tree).find((q) => q.Title === title)!;

/** Whether the pixel at a fraction of an 8-bit RGB PNG's width and height is white (the picture's ground). */
function whiteAt(dataUrl: string, x: number, y: number) {
  const png = Buffer.from(dataUrl.split(",")[1], "base64");
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  expect([png[24], png[25]]).toEqual([8, 2]);
  const chunks: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString("ascii", at + 4, at + 8) === "IDAT") chunks.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const rows = zlib.inflateSync(Buffer.concat(chunks));
  const [px, py] = [Math.floor(x * width), Math.floor(y * height)];
  const at = py * (1 + width * 3) + 1 + px * 3;
  expect(rows[py * (1 + width * 3)]).toBe(0); // rows without a filter
  return rows[at] === 255 && rows[at + 1] === 255 && rows[at + 2] === 255;
}

describe.each(dialects)("demo data on %s", (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb(kind);
  });
  afterAll(async () => {
    await t.cleanup();
  });
  async function surveyByTitle(title: string): Promise<Survey> {
    const row = await t.db
      .selectFrom("surveys")
      .select("id")
      .where("title", "=", title)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    return (await loadSurveyTree(t.db, row.id, rights))!;
  }

  it("seeds an empty database once, with surveys in several states and languages", async () => {
    expect(await seedDemoDataIfEmpty(t.db)).toBe(true);
    expect(await seedDemoDataIfEmpty(t.db)).toBe(false);
    const rows = await t.db.selectFrom("surveys").select(["id", "title", "status"]).orderBy("id").execute();
    // The eight surveys of demo-surveys.server.ts, then PHQ-9 imported from its FHIR file (Active).
    expect(rows.map((r) => r.status)).toEqual([2, 2, 1, 2, 4, 2, 2, 2, 2]);
    expect(rows.map((r) => r.title)).toContain("Post-operative Pain Assessment");
    const tree = await loadSurveyTree(t.db, rows[0].id, rights);
    expect(tree!.PatientForm.map((a) => a.Title)).toEqual(["Geschlecht", "Altersgruppe"]);
    const questions = tree!.Categories.flatMap((c) => c.Questions);
    expect(new Set(questions.map((q) => q.Type))).toEqual(
      new Set(["SingleSelection", "FreeText", "Numerical", "DateTime"]),
    );
    const withSub = questions.find((q) => q.AnswerOptions.some((o) => o.SubQuestions.length > 0));
    expect(withSub?.AnswerOptions[0].SubQuestions[0].Type).toBe("MultipleSelection");
    const dependent = questions.find((q) => q.Dependence);
    const weiblich = tree!.PatientForm[0].AnswerOptions.find((o) => o.Text === "weiblich")!.Id;
    expect(dependent?.Dependence).toEqual({ Type: "SHOW", PreliminaryAnswerOptions: [weiblich] });
  });

  it("has an image question whose answer markers sit on its picture", async () => {
    const wound = await surveyByTitle(WOUND);
    const image = questionsOf(wound).find((q) => q.Type === "Image")!;
    expect(image.Title).toBe("Wo befinden sich die Wunden?");
    expect(ImageSrcSchema.safeParse(image.ImageSrc).success).toBe(true);
    expect(image.AllowMultipleAnswers).toBe(true);
    expect(image.AnswerOptions.length).toBeGreaterThanOrEqual(5);
    for (const marker of image.AnswerOptions) {
      expect(marker.Title, JSON.stringify(marker)).toEqual(expect.any(String));
      expect(marker.X! > 0.04 && marker.X! < 0.96 && marker.Y! > 0.04 && marker.Y! < 0.96).toBe(true);
      expect(whiteAt(image.ImageSrc!, marker.X!, marker.Y!), `${marker.Title} beside the person`).toBe(false);
    }
    expect(whiteAt(image.ImageSrc!, 0.05, 0.05)).toBe(true);
  });

  it("has a question that a preliminary answer hides", async () => {
    const wound = await surveyByTitle(WOUND);
    const bedridden = wound.PatientForm.flatMap((a) => a.AnswerOptions).find((o) => o.Text === "bettlägerig")!;
    const hidden = questionsOf(wound).find((q) => q.Dependence?.Type === "HIDE")!;
    expect(hidden.Title).toBe("Kann der Verband selbst gewechselt werden?");
    expect(hidden.Dependence).toEqual({ Type: "HIDE", PreliminaryAnswerOptions: [bedridden.Id] });
    const mobility = wound.PatientForm.find((a) => a.AnswerOptions.some((o) => o.Id === bedridden.Id))!;
    const limited = mobility.AnswerOptions.find((o) => o.Text === "eingeschränkt mobil")!;
    const shows = (chosen: number) =>
      visibleQuestionIds(questionsOf(wound), { [mobility.Id]: chosen }, {}).has(hidden.Id);
    expect(shows(limited.Id)).toBe(true);
    expect(shows(bedridden.Id)).toBe(false);
  });

  it("has a survey in four languages: every text translated, cases filled in each language", async () => {
    const survey = await surveyByTitle(MULTILINGUAL);
    expect([survey.SourceLanguage, survey.Languages]).toEqual(["de", ["en", "tr", "ar"]]);
    const texts = translatableTexts(survey);
    expect(texts.map((t) => t.key)).toEqual(
      expect.arrayContaining([
        "Title",
        "Description",
        "IntroText",
        "OutroText",
        `attribute:${survey.PatientForm[0].Id}`,
      ]),
    );
    expect(texts.some((t) => t.label === "hint") && texts.some((t) => t.label === "unit")).toBe(true);
    expect(texts.some((t) => t.kind === "subQuestion")).toBe(true);
    for (const lang of survey.Languages) {
      const progress = translationProgress(survey, lang);
      expect(
        progress.overall.missing.map((t) => t.key),
        lang,
      ).toEqual([]);
      expect(progress.overall.review, lang).toBe(0);
      expect(progress.overall.translated, lang).toBe(texts.length);
      // Each a translation of its own: no text left as it was, no two texts the same.
      const translated = texts.map((t) => survey.Translations[lang][t.key].Text);
      expect(
        translated.filter((text, i) => text === texts[i].source),
        lang,
      ).toEqual([]);
      expect(new Set(translated).size, lang).toBe(new Set(texts.map((t) => t.source)).size);
    }
    expect(translateSurvey(survey, "tr").Categories[0].Questions[0].Title).toBe("Şu anda ağrınız ne kadar şiddetli?");
    expect(translateSurvey(survey, "ar").Title).toBe("الشعور بالراحة في المستشفى (متعدد اللغات)");
    const cases = await t.db
      .selectFrom("patient_data")
      .select(["language", (eb) => eb.fn.countAll<number>().as("n")])
      .where("survey_id", "=", survey.Id)
      .groupBy("language")
      .orderBy("language")
      .execute();
    // German, the source language, is stored as none.
    expect(Object.fromEntries(cases.map((c) => [c.language ?? "source", Number(c.n)]))).toEqual({
      source: 10,
      en: 10,
      tr: 10,
      ar: 10,
    });
    // A case's free texts are in its language.
    const freeTexts = await t.db
      .selectFrom("question_responses as qr")
      .innerJoin("patient_data as pd", "pd.id", "qr.patient_data_id")
      .select(["pd.language", "qr.text_response"])
      .where("pd.survey_id", "=", survey.Id)
      .where("qr.text_response", "is not", null)
      .execute();
    expect(freeTexts.filter((r) => r.language === "ar").every((r) => /[\u0600-\u06ff]/.test(r.text_response!))).toBe(
      true,
    );
    expect(
      freeTexts.filter((r) => r.language === null).every((r) => /^[\p{Script=Latin} ,äöüß]+$/u.test(r.text_response!)),
    ).toBe(true);
  });

  it("has a second survey of the same making to benchmark against", async () => {
    const wound = await surveyByTitle(WOUND);
    const copy = await surveyByTitle(WOUND_COPY);
    expect(copy.SourceSurveyId).toBe(wound.Id);
    const shape = (tree: Survey) =>
      tree.Categories.map((c) => [c.Title, c.Questions.map((q) => [q.Title, q.Type, q.AnswerOptions.map(answerText)])]);
    expect(shape(copy)).toEqual(shape(wound));
    const analyst = { roles: ["SsiEditor", "SsiApprover"], teamIds: [] };
    expect((await benchmarkableSurveys(t.db, analyst, wound.Id)).map((s) => s.Title)).toEqual([WOUND_COPY]);
    expect((await benchmarkableSurveys(t.db, analyst, copy.Id)).map((s) => s.Title)).toEqual([WOUND]);
  });

  it("gives the Active demo surveys closed cases whose answers fit what each case could see", async () => {
    const ids = (await t.db.selectFrom("surveys").select("id").orderBy("id").execute()).map((r) => r.id);
    const withCases = demoSurveys().flatMap((s, i) => (s.cases ? [[ids[i], s.cases.count] as const] : []));
    expect(withCases.map(([, count]) => count)).toEqual([60, 40, 50, 35, 40]);
    for (const [surveyId, count] of withCases) {
      const cases = await t.db.selectFrom("patient_data").selectAll().where("survey_id", "=", surveyId).execute();
      expect(cases).toHaveLength(count);
      expect(new Set(cases.map((c) => c.state))).toEqual(new Set(["Closed"]));
      const tree = (await loadSurveyTree(t.db, surveyId, rights))!;
      const top = tree.Categories.flatMap((c) => c.Questions);
      let answered = 0;
      for (const c of cases.slice(0, 15)) {
        const prelim = await t.db
          .selectFrom("attribute_responses")
          .selectAll()
          .where("patient_data_id", "=", c.id)
          .execute();
        const rows = await t.db
          .selectFrom("question_responses")
          .selectAll()
          .where("patient_data_id", "=", c.id)
          .execute();
        const preliminary = Object.fromEntries(prelim.map((p) => [p.attribute_id, p.answer_option_id]));
        const answers: Record<number, { AnswerOptionIds?: number[] }> = {};
        for (const r of rows)
          if (r.answer_option_id)
            (answers[r.question_id] ??= { AnswerOptionIds: [] }).AnswerOptionIds!.push(r.answer_option_id);
        const visible = visibleQuestionIds(top, preliminary, answers);
        for (const r of rows) expect(visible.has(r.question_id)).toBe(true);
        answered += rows.length;
      }
      expect(answered).toBeGreaterThan(15 * 3);
    }
  });

  it("answers the wound survey plausibly: markers where wounds are, the hidden question only where it shows", async () => {
    const wound = await surveyByTitle(WOUND);
    const image = questionsOf(wound).find((q) => q.Type === "Image")!;
    const hidden = byTitle(wound, "Kann der Verband selbst gewechselt werden?");
    const bedridden = wound.PatientForm.flatMap((a) => a.AnswerOptions).find((o) => o.Text === "bettlägerig")!;
    const answers = await t.db
      .selectFrom("question_responses")
      .select(["patient_data_id", "question_id", "answer_option_id"])
      .where("survey_id", "=", wound.Id)
      .execute();
    const markers = answers.filter((a) => a.question_id === image.Id);
    const chosen = (title: string) =>
      markers.filter((a) => a.answer_option_id === image.AnswerOptions.find((o) => o.Title === title)!.Id).length;
    // Wounds of the lower leg and the foot are the common ones; some cases mark two places.
    expect(chosen("Unterschenkel")).toBeGreaterThan(chosen("Kopf"));
    expect(chosen("Fuß")).toBeGreaterThan(chosen("Brust"));
    const perCase = new Map<number, number>();
    for (const m of markers) perCase.set(m.patient_data_id, (perCase.get(m.patient_data_id) ?? 0) + 1);
    expect([...perCase.values()].some((n) => n === 2)).toBe(true);
    expect(perCase.size).toBeGreaterThan(35);
    // The hidden question is answered only by cases whose mobility is not "bettlägerig", and by most of them.
    const bedriddenCases = new Set(
      (
        await t.db
          .selectFrom("attribute_responses")
          .select("patient_data_id")
          .where("answer_option_id", "=", bedridden.Id)
          .execute()
      ).map((r) => r.patient_data_id),
    );
    expect(bedriddenCases.size).toBeGreaterThan(5);
    const selfCare = answers.filter((a) => a.question_id === hidden.Id);
    for (const a of selfCare) expect(bedriddenCases.has(a.patient_data_id)).toBe(false);
    expect(selfCare.length).toBeGreaterThan((50 - bedriddenCases.size) * 0.7);
    const copy = await surveyByTitle(WOUND_COPY);
    const copyCases = await t.db.selectFrom("patient_data").select("id").where("survey_id", "=", copy.Id).execute();
    expect(copyCases).toHaveLength(35);
  });

  it("answers number questions within their range: pain 0 to 10 in whole steps, blood pressure 95 to 175", async () => {
    const numbers = async (title: string) => {
      const rows = await t.db
        .selectFrom("question_responses as qr")
        .innerJoin("questions as q", "q.id", "qr.question_id")
        .select("qr.numerical_response")
        .where("q.title", "=", title)
        .where("qr.numerical_response", "is not", null)
        .execute();
      return rows.map((r) => Number(r.numerical_response));
    };
    const pain = await numbers("Pain at rest (0–10)");
    expect(pain.length).toBeGreaterThan(20);
    for (const v of pain) expect(Number.isInteger(v) && v >= 0 && v <= 10).toBe(true);
    expect(new Set(pain).size).toBeGreaterThan(4);
    const pressure = await numbers("Systolischer Blutdruck");
    expect(pressure.length).toBeGreaterThan(20);
    for (const v of pressure) expect(Number.isInteger(v) && v >= 95 && v <= 175).toBe(true);
    for (const v of await numbers("Körpergewicht")) expect(v >= 48 && v <= 115).toBe(true);
    const area = await numbers("Wundfläche");
    expect(area.length).toBeGreaterThan(20);
    for (const v of area) expect(v >= 0.5 && v <= 40 && Number.isInteger(v * 2)).toBe(true);
    for (const v of await numbers("Schmerz beim Verbandwechsel (0–10)"))
      expect(Number.isInteger(v) && v <= 10).toBe(true);
  });

  it("has PHQ-9 imported from LHC-Forms' file by the FHIR import, Active, its cases' totals spread", async () => {
    const file = (...parts: string[]) => readFileSync(join(import.meta.dirname, "..", "..", ...parts));
    // The demo's copy is the tests' copy of the published file, byte for byte.
    expect(file("app", "server", "services", "instruments", "phq9.json")).toEqual(
      file("tests", "api", "fhir-questionnaires", "phq9.json"),
    );
    const phq9 = await surveyByTitle("PHQ-9 quick depression assessment panel");
    expect(phq9.Status).toBe("Active");
    expect(phq9.ScoreTitle).toBe("Patient health questionnaire 9 item total score");
    expect(phq9.Instrument?.Identifier).toEqual([{ System: "http://loinc.org", Value: "44249-1" }]);
    const questions = questionsOf(phq9);
    expect(questions).toHaveLength(10);
    expect(questions[0].AnswerOptions.map((o) => [o.Value, o.Score])).toEqual([
      ["LA6568-5", 0],
      ["LA6569-3", 1],
      ["LA6570-1", 2],
      ["LA6571-9", 3],
    ]);
    const cases = await t.db
      .selectFrom("patient_data")
      .select(["id", "state"])
      .where("survey_id", "=", phq9.Id)
      .execute();
    expect(cases).toHaveLength(20);
    expect(new Set(cases.map((c) => c.state))).toEqual(new Set(["Closed"]));
    const answers = await t.db
      .selectFrom("question_responses")
      .select(["patient_data_id", "answer_option_id"])
      .where("survey_id", "=", phq9.Id)
      .execute();
    const totals = cases.map((c) =>
      caseTotal(
        phq9,
        answers.flatMap((a) => (a.patient_data_id === c.id && a.answer_option_id ? [a.answer_option_id] : [])),
      ),
    );
    // Every case has a total; they spread over the scale, low ones more often than high ones.
    expect(totals.every((total) => total !== null)).toBe(true);
    const values = totals as number[];
    expect(new Set(values).size).toBeGreaterThan(5);
    expect(Math.min(...values)).toBeLessThan(9);
    expect(Math.max(...values)).toBeGreaterThan(12);
    expect(values.reduce((a, b) => a + b, 0) / values.length).toBeLessThan(13.5);
  });

  it("seeds again on demand, the copy pointing to the original of its own seeding", async () => {
    const ids = await seedDemoData(t.db);
    // The eight surveys of demo-surveys.server.ts and PHQ-9, imported after them.
    expect(ids).toHaveLength(9);
    const copy = await t.db
      .selectFrom("surveys")
      .select("source_survey_id")
      .where("id", "=", ids[6])
      .executeTakeFirst();
    expect(copy?.source_survey_id).toBe(ids[5]);
  });
});
