import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { translatableTexts } from "~/domain/content-languages";
import type { Survey } from "~/domain/survey";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { TRANSLATION_URL } from "~/server/services/fhir/translations.server";
import { dialects } from "../support/databases";
import { expectValidR4 } from "../support/fhir-validator";
import { translateFixture, turkish } from "./languages-support";
import { read, useStatisticsWorld, type Body } from "./statistics-support";

/**
 * A survey's languages in FHIR (docs/decisions/056-statistics-languages.md): the Questionnaire in its source
 * language with each text's translations in HL7's translation extension, kept whole through an import and a
 * second export; each QuestionnaireResponse in its case's language; languages a survey cannot offer are told.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/** A primitive's translations as { lang: text }, or undefined without any. */
function translationsOf(element: Body): Record<string, string> | undefined {
  const list = (element?.extension ?? []).filter((e: Body) => e.url === TRANSLATION_URL);
  if (list.length === 0) return undefined;
  return Object.fromEntries(
    list.map((e: Body) => [
      e.extension.find((p: Body) => p.url === "lang").valueCode,
      e.extension.find((p: Body) => p.url === "content").valueString,
    ]),
  );
}

/** Every text a Questionnaire writes with its translations, in order, without linkIds or codes. */
function textsOf(q: Body): unknown[] {
  const out: unknown[] = [
    ["title", q.title, translationsOf(q._title)],
    ["description", q.description, translationsOf(q._description)],
  ];
  const coding = (c: Body, what: string) => out.push([what, c.display, translationsOf(c._display)]);
  const walk = (items: Body[] = []) => {
    for (const i of items) {
      out.push([i.type, i.text, translationsOf(i._text)]);
      for (const e of i.extension ?? []) if (e.valueCoding) coding(e.valueCoding, "unit");
      for (const o of i.answerOption ?? []) coding(o.valueCoding, "answer");
      for (const w of i.enableWhen ?? []) if (w.answerCoding) coding(w.answerCoding, "when");
      walk(i.item);
    }
  };
  walk(q.item);
  return out;
}

describe.each(dialects)("FHIR in the survey's languages on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);
  let survey: Survey;
  beforeAll(async () => {
    const f = fixture();
    survey = await translateFixture(world, f.survey, f.cases, async (call) => {
      const ok = async (res: Response) => expect(res.status, await res.text()).toBeLessThan(300);
      await ok(
        await call("editor", "PUT", `/surveys/${f.survey}`, {
          Description: "Verlauf nach dem Aufenthalt",
          IntroText: "<p>Willkommen zur Befragung.</p>",
          ScoreTitle: "Befindenspunkte",
        }),
      );
      await ok(await call("editor", "PUT", `/questions/${f.q.weight}`, { Hint: "Morgens, vor dem Frühstück" }));
      for (const [key, Score] of [
        ["gut", 0],
        ["mittel", 1],
        ["schlecht", 2],
      ] as const)
        await ok(await call("editor", "PUT", `/answer-options/${f.o[key]}`, { SurveyId: f.survey, Score }));
    });
  });
  const questionnaire = async (id: number) =>
    read(await world().call("editor", "GET", `/surveys/${id}/fhir/questionnaire`));

  it("the Questionnaire: its source language, and every text's translations beside it", async () => {
    const f = fixture();
    const q = await questionnaire(f.survey);
    expectValidR4(q);
    expect(q.language).toBe("de");
    const texts = translatableTexts(survey);
    expect(texts.map((t) => t.key)).toEqual(expect.arrayContaining(["Description", "IntroText", "ScoreTitle"]));
    const tr = (key: string) =>
      turkish(
        texts.find((t) => t.key === key)!.source,
        texts.findIndex((t) => t.key === key),
      );
    expect(translationsOf(q._title)).toEqual({ tr: tr("Title"), ar: expect.stringMatching(/^عربي/) });
    expect(translationsOf(q._description)?.tr).toBe(tr("Description"));
    const all = JSON.stringify(q);
    // Every translated text of the survey is in the file (the intro as plain text, as its source is).
    for (const t of texts) expect(all, t.key).toContain(JSON.stringify(tr(t.key)));
    const byId = new Map<string, Body>();
    const walk = (items: Body[] = []) => items.forEach((i) => (byId.set(i.linkId, i), walk(i.item)));
    walk(q.item);
    const weight = byId.get(`Q${f.q.weight}`);
    expect(translationsOf(weight._text)?.tr).toBe(tr(`question:${f.q.weight}`));
    expect(translationsOf(weight.extension[0].valueCoding._display)?.tr).toBe(tr(`question:${f.q.weight}:Unit`));
    expect(translationsOf(weight.item[0]._text)?.tr).toBe(tr(`question:${f.q.weight}:Hint`));
    const feeling = byId.get(`Q${f.q.feeling}`);
    expect(translationsOf(feeling.answerOption[0].valueCoding._display)?.tr).toBe(tr(`answer:${f.o.gut}`));
    const daily = byId.get(`Q${f.q.daily}`);
    expect(translationsOf(daily.enableWhen[0].answerCoding._display)?.tr).toBe(tr(`entry:${f.smoker.yes}`));
  });

  it("each QuestionnaireResponse is in its case's language", async () => {
    const f = fixture();
    for (const [patientId, language] of [
      ["P1", "tr"],
      ["P3", "ar"],
      ["P4", "de"],
    ]) {
      const qr = await read(
        await world().call("editor", "GET", `/surveys/${f.survey}/fhir/questionnaire-response?patientId=${patientId}`),
      );
      expectValidR4(qr);
      expect(qr.language, patientId).toBe(language);
    }
  });

  it("export, import and export again: every text and every translation kept", async () => {
    const f = fixture();
    const first = await questionnaire(f.survey);
    const made = await read(await world().call("editor", "POST", "/surveys/fhir-import", first), 201);
    expect(made.NotKept.join(" ")).not.toMatch(/Sprache|language|Übersetzung|translation/i);
    const imported: Survey = await read(await world().call("editor", "GET", `/surveys/${made.SurveyId}`));
    expect([imported.SourceLanguage, imported.Languages]).toEqual(["de", ["tr", "ar"]]);
    // Every text the first survey had a translation of has one in the import (the same count per language).
    const count = (s: Survey, lang: string) => Object.keys(s.Translations[lang] ?? {}).length;
    expect(count(imported, "tr")).toBe(translatableTexts(imported).length);
    expect(count(imported, "ar")).toBe(count(imported, "tr"));
    const second = await questionnaire(made.SurveyId);
    expectValidR4(second);
    expect(second.language).toBe("de");
    expect(textsOf(second)).toEqual(textsOf(first));
    expect(textsOf(first).filter((t) => (t as unknown[])[2] !== undefined).length).toBeGreaterThan(30);
  });

  it("translations into languages a survey cannot offer, and an unknown source language, are told", async () => {
    const file = {
      resourceType: "Questionnaire",
      status: "active",
      language: "fr",
      title: "Questionnaire",
      _title: {
        extension: [
          {
            url: TRANSLATION_URL,
            extension: [
              { url: "lang", valueCode: "es" },
              { url: "content", valueString: "Cuestionario" },
            ],
          },
          {
            url: TRANSLATION_URL,
            extension: [
              { url: "lang", valueCode: "tr-TR" },
              { url: "content", valueString: "Anket" },
            ],
          },
        ],
      },
      item: [
        {
          linkId: "q1",
          text: "Douleur ?",
          _text: {
            extension: [
              {
                url: TRANSLATION_URL,
                extension: [
                  { url: "lang", valueCode: "it" },
                  { url: "content", valueString: "Dolore?" },
                ],
              },
              {
                url: TRANSLATION_URL,
                extension: [
                  { url: "lang", valueCode: "de" },
                  { url: "content", valueString: "Schmerz?" },
                ],
              },
            ],
          },
          type: "string",
        },
      ],
    };
    const preview = await read(await world().call("editor", "POST", "/surveys/fhir-import?preview=true", file));
    const lines: string[] = preview.NotKept;
    expect(lines).toContain(
      "Die Sprache des Fragebogens (fr) kann eine Umfrage nicht haben: Seine Texte werden als deutsche Texte übernommen.",
    );
    expect(lines).toContain(
      "Übersetzungen in Sprachen, die eine Umfrage nicht anbieten kann, werden nicht übernommen: es, it",
    );
    const made = await read(await world().call("editor", "POST", "/surveys/fhir-import", file), 201);
    const imported: Survey = await read(await world().call("editor", "GET", `/surveys/${made.SurveyId}`));
    // "tr-TR" is Turkish; "de" is the survey's own language here, so no translation.
    expect([imported.SourceLanguage, imported.Languages]).toEqual(["de", ["tr"]]);
    expect(imported.Translations.tr?.Title?.Text).toBe("Anket");
    // The category made for the loose question is named after the title, in Turkish too.
    const category = imported.Categories[0];
    expect(Object.keys(imported.Translations.tr ?? {}).sort()).toEqual([`category:${category.Id}`, "Title"].sort());
    expect(imported.Translations.tr?.[`category:${category.Id}`]?.Text).toBe("Anket");
  });
});
