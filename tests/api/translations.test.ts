import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sourceDigest, translateSurvey, translationProgress } from "~/domain/content-languages";
import { changesOf, type TrailNames } from "~/domain/audit-words";
import type { PatientFormAttribute, Survey } from "~/domain/survey";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import type { ApiHarness } from "../support/api";
import { dialects } from "../support/databases";
import { useSurveysApi } from "../support/surveys";

/** A survey's texts in other languages (docs/decisions/054-content-languages.md) through the API. */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

const noNames: TrailNames = {
  questions: new Map(),
  options: new Map(),
  categories: new Map(),
  attributes: new Map(),
  preliminaryOptions: new Map(),
  teams: new Map(),
  tags: new Map(),
};

describe.each(dialects)("survey translations on %s", (kind) => {
  const { api: harness, create, publish } = useSurveysApi(kind, () => idp);
  let api: ApiHarness;
  beforeAll(() => {
    api = harness();
  });

  const ok = async (method: string, path: string, body?: unknown, who = "editor") => {
    const res = await api.json(method, path, body, who);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  const put = (id: number, lang: string, texts: Record<string, string>, who = "editor") =>
    api.json(
      "PUT",
      `/surveys/${id}/translations/${lang}`,
      { Texts: Object.entries(texts).map(([Key, Text]) => ({ Key, Text })) },
      who,
    );
  const lastTrail = async (surveyId: number) =>
    api.testDb.db
      .selectFrom("audit_log")
      .selectAll()
      .where("survey_id", "=", surveyId)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();

  /** A Draft survey with a category, a choice question with a hint and a sub-question, offering Turkish. */
  async function translatable() {
    const survey = await create("Befinden");
    const category = await ok("POST", "/categories", { SurveyId: survey.Id, Title: "Allgemein" });
    const q = await ok("POST", "/questions", {
      SurveyId: survey.Id,
      CategoryId: category.Id,
      Title: "Wie geht es Ihnen?",
      Type: "SingleSelection",
      AnswerOptions: [{ Text: "Gut" }, { Text: "Schlecht" }],
    });
    await ok("PUT", `/questions/${q.Id}`, { Hint: "Heute" });
    const sub = await ok("POST", `/answer-options/${q.AnswerOptions[1].Id}/sub-question`, {
      SurveyId: survey.Id,
      Title: "Seit wann?",
      Type: "FreeText",
    });
    const offered = (await ok("PUT", `/surveys/${survey.Id}`, {
      Languages: ["tr"],
      ScoreTitle: "Summe",
      IntroText: "<p>Willkommen</p>",
    })) as Survey;
    return { id: survey.Id as number, survey: offered, category, q, sub };
  }

  it("offers languages besides the source language, in one order, and changes the Hash with them", async () => {
    const survey = await create();
    const before = (await ok("GET", `/surveys/${survey.Id}`)) as Survey;
    expect([before.SourceLanguage, before.Languages, before.Translations]).toEqual(["de", [], {}]);
    const offered = (await ok("PUT", `/surveys/${survey.Id}`, { Languages: ["pl", "tr", "de", "tr", "ar"] })) as Survey;
    expect(offered.Languages).toEqual(["tr", "ar", "pl"]);
    expect(offered.Hash).not.toBe(before.Hash);
    const trail = await lastTrail(survey.Id);
    expect(changesOf(trail.before, trail.after, noNames, trail.entity).changes).toEqual([
      { field: "Languages", before: { none: true }, after: { text: "Türkçe, العربية, Polski" } },
    ]);
    // A new source language leaves the offered ones without itself.
    const english = (await ok("PUT", `/surveys/${survey.Id}`, {
      SourceLanguage: "en",
      Languages: ["de", "en", "tr"],
    })) as Survey;
    expect([english.SourceLanguage, english.Languages]).toEqual(["en", ["de", "tr"]]);
    const same = (await ok("PUT", `/surveys/${survey.Id}`, { Languages: ["tr", "de"] })) as Survey;
    expect(same.Hash).toBe(english.Hash);
    for (const body of [{ Languages: ["fr"] }, { SourceLanguage: "xx" }, { Languages: "tr" }]) {
      expect((await api.json("PUT", `/surveys/${survey.Id}`, body)).status, JSON.stringify(body)).toBe(400);
    }
  });

  it("stores translations with the source's digest, in the survey and its trail, and removes an emptied one", async () => {
    const { id, survey, q, sub } = await translatable();
    const res = await put(id, "tr", {
      Title: "Durum",
      [`question:${q.Id}`]: "Nasılsınız?",
      [`question:${q.Id}:Hint`]: "Bugün",
      [`answer:${q.AnswerOptions[1].Id}`]: "Kötü",
      [`question:${sub.Id}`]: "Ne zamandan beri?",
      IntroText: '<p onclick="x()">Hoş geldiniz</p><script>alert(1)</script>',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const translated = res.body as Survey;
    expect(translated.Hash).not.toBe(survey.Hash);
    const tr = translated.Translations.tr!;
    expect(tr.Title).toEqual({ Text: "Durum", Digest: sourceDigest("Befinden") });
    expect(tr[`question:${q.Id}:Hint`]).toEqual({ Text: "Bugün", Digest: sourceDigest("Heute") });
    expect(tr.IntroText!.Text).toBe("<p>Hoş geldiniz</p>");
    expect(translationProgress(translated, "tr").overall).toMatchObject({ translated: 6, review: 0 });
    expect(((await ok("GET", `/surveys/${id}`)) as Survey).Translations).toEqual(translated.Translations);

    const trail = await lastTrail(id);
    expect([trail.action, trail.entity]).toEqual(["survey.translate", "survey_translation"]);
    const names = { ...noNames, questions: new Map([[q.Id as number, "Wie geht es Ihnen?"]]) };
    const { changes, more } = changesOf(trail.before, trail.after, names, trail.entity);
    expect(more).toBe(false);
    expect(changes).toHaveLength(1);
    expect(changes[0]!.field).toBe("Texts");
    expect(changes[0]!.before).toEqual({ none: true });
    expect(changes[0]!.after).toMatchObject({
      translations: expect.arrayContaining([
        { field: "title", text: "Durum" },
        { field: "hint", name: "Wie geht es Ihnen?", text: "Bugün" },
      ]),
    });

    // The same texts again change nothing: no trail entry, the same Hash.
    const count = async () =>
      (await api.testDb.db.selectFrom("audit_log").select("id").where("survey_id", "=", id).execute()).length;
    const entries = await count();
    const again = await put(id, "tr", { Title: "Durum" });
    expect((again.body as Survey).Hash).toBe(translated.Hash);
    expect(await count()).toBe(entries);

    const removed = (await put(id, "tr", { Title: "  " })).body as Survey;
    expect(removed.Translations.tr!.Title).toBeUndefined();
    expect(await count()).toBe(entries + 1);
  });

  it("marks a translation for review when its source changes, and confirms it when sent again", async () => {
    const { id, q } = await translatable();
    await put(id, "tr", { [`question:${q.Id}`]: "Nasılsınız?" });
    await ok("PUT", `/questions/${q.Id}`, { Title: "Wie geht es Ihnen heute?" });
    const changed = (await ok("GET", `/surveys/${id}`)) as Survey;
    expect(changed.Translations.tr![`question:${q.Id}`]).toEqual({
      Text: "Nasılsınız?",
      Digest: sourceDigest("Wie geht es Ihnen?"),
    });
    expect(translationProgress(changed, "tr").overall).toMatchObject({ translated: 1, review: 1 });
    const confirmed = (await put(id, "tr", { [`question:${q.Id}`]: "Nasılsınız?" })).body as Survey;
    expect(confirmed.Translations.tr![`question:${q.Id}`]!.Digest).toBe(sourceDigest("Wie geht es Ihnen heute?"));
    expect(translationProgress(confirmed, "tr").overall).toMatchObject({ translated: 1, review: 0 });
    const trail = await lastTrail(id);
    expect(changesOf(trail.before, trail.after, noNames, trail.entity).changes).toEqual([
      { field: "Reviewed", before: { none: true }, after: { text: "1" } },
    ]);
  });

  it("refuses unknown keys, languages not offered, bad bodies, and people who may not edit the survey", async () => {
    const { id, q } = await translatable();
    const unknown = await put(id, "tr", { Title: "Durum", "question:999999": "x", Bogus: "y" });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      Type: "VALIDATION_ERROR",
      Error: expect.stringContaining("question:999999, Bogus"),
    });
    const notOffered = await put(id, "ar", { Title: "حالة" });
    expect(notOffered.status).toBe(400);
    expect(notOffered.body.Error).toContain("ar");
    expect((await put(id, "de", { Title: "Befinden" })).status).toBe(400);
    expect((await put(id, "fr", { Title: "État" })).status).toBe(400);
    expect((await api.json("PUT", `/surveys/${id}/translations/tr`, { Texts: [{ Key: "Title" }] })).status).toBe(400);
    expect((await api.json("PUT", `/surveys/${id}/translations/tr`, { Texts: [], More: 1 })).status).toBe(400);
    expect((await put(id, "tr", { [`question:${q.Id}`]: "x".repeat(5001) })).status).toBe(400);
    expect((await put(id, "tr", { Title: "Durum" }, "approver")).status).toBe(403);
    expect((await put(id, "tr", { Title: "Durum" }, "user")).status).toBe(404);
    expect(((await ok("GET", `/surveys/${id}`)) as Survey).Translations).toEqual({});

    const active = await create("Aktiv");
    await ok("PUT", `/surveys/${active.Id}`, { Languages: ["tr"] });
    await publish(active.Id);
    const closed = await put(active.Id, "tr", { Title: "Aktif" });
    expect([closed.status, closed.body.Type]).toEqual([409, "SURVEY_INVALID_STATUS"]);
  });

  it("deletes the translations of texts that go, keeps those of a language no longer offered", async () => {
    const { id, category, q, sub } = await translatable();
    await put(id, "tr", {
      ScoreTitle: "Toplam",
      [`question:${q.Id}:Hint`]: "Bugün",
      [`question:${sub.Id}`]: "Ne zamandan beri?",
      [`answer:${q.AnswerOptions[0].Id}`]: "İyi",
      [`category:${category.Id}`]: "Genel",
    });
    const stored = async () =>
      (
        await api.testDb.db
          .selectFrom("survey_translations")
          .select("text_key")
          .where("survey_id", "=", id)
          .orderBy("text_key")
          .execute()
      ).map((r) => r.text_key);
    expect(await stored()).toHaveLength(5);
    await ok("PUT", `/surveys/${id}`, { ScoreTitle: null });
    await ok("PUT", `/questions/${q.Id}`, { Hint: null });
    await ok("DELETE", `/questions/${sub.Id}?surveyId=${id}`);
    expect(await stored()).toEqual([`answer:${q.AnswerOptions[0].Id}`, `category:${category.Id}`]);

    const hidden = (await ok("PUT", `/surveys/${id}`, { Languages: [] })) as Survey;
    expect(hidden.Translations).toEqual({});
    const back = (await ok("PUT", `/surveys/${id}`, { Languages: ["tr"] })) as Survey;
    expect(Object.keys(back.Translations.tr!)).toHaveLength(2);

    await ok("DELETE", `/categories?categoryId=${category.Id}&surveyId=${id}`);
    expect(await stored()).toEqual([]);
  });

  it("copies the languages and the translations of a survey to its clone, by the clone's ids", async () => {
    const { id, q, sub } = await translatable();
    await put(id, "tr", {
      Title: "Durum",
      [`question:${q.Id}:Hint`]: "Bugün",
      [`answer:${q.AnswerOptions[1].Id}`]: "Kötü",
      [`question:${sub.Id}`]: "Ne zamandan beri?",
    });
    const clone = (await ok("POST", `/surveys/${id}/clone`)) as Survey;
    expect([clone.SourceLanguage, clone.Languages]).toEqual(["de", ["tr"]]);
    const cq = clone.Categories[0]!.Questions[0]!;
    const csub = cq.AnswerOptions[1]!.SubQuestions[0]!;
    expect(cq.Id).not.toBe(q.Id);
    expect(Object.fromEntries(Object.entries(clone.Translations.tr!).map(([k, v]) => [k, v.Text]))).toEqual({
      Title: "Durum",
      [`question:${cq.Id}:Hint`]: "Bugün",
      [`answer:${cq.AnswerOptions[1]!.Id}`]: "Kötü",
      [`question:${csub.Id}`]: "Ne zamandan beri?",
    });
    // The clone's title is a new source text: its translation is to be reviewed.
    expect(translationProgress(clone, "tr").overall).toMatchObject({ translated: 4, review: 1 });
  });

  it("copies the preliminary questions' and their answers' translations to the clone, by the clone's ids", async () => {
    const { id } = await translatable();
    const attribute = (await ok("POST", "/patient-attributes/", {
      SurveyId: id,
      Title: "Station",
      AnswerOptions: [{ Text: "Innere" }, { Text: "Chirurgie" }],
    })) as PatientFormAttribute;
    await put(id, "tr", {
      [`attribute:${attribute.Id}`]: "Servis",
      [`entry:${attribute.AnswerOptions[1]!.Id}`]: "Cerrahi",
    });
    const clone = (await ok("POST", `/surveys/${id}/clone`)) as Survey;
    const copied = clone.PatientForm.find((a) => a.Title === "Station")!;
    expect(copied.Id).not.toBe(attribute.Id);
    const texts = Object.fromEntries(Object.entries(clone.Translations.tr!).map(([k, v]) => [k, v.Text]));
    expect(texts).toMatchObject({
      [`attribute:${copied.Id}`]: "Servis",
      [`entry:${copied.AnswerOptions.find((o) => o.Text === "Chirurgie")!.Id}`]: "Cerrahi",
    });
    expect(translateSurvey(clone, "tr").PatientForm.find((a) => a.Id === copied.Id)?.Title).toBe("Servis");
  });
});
