import type { AnswerOption, Category, PatientFormAttribute, Question, Survey } from "./survey";

/**
 * The content languages and a survey's texts in one of them (docs/decisions/054-content-languages.md), free of
 * zod so that the fill and start pages can use them within their JavaScript budget; content-languages.ts
 * adds the schemas and the editor's lists.
 *
 * The languages a survey's own texts can be offered in: the source language the editors write in, and
 * translations of every text a patient reads.
 */
export const contentLanguages = ["de", "en", "tr", "ar", "ru", "uk", "pl"] as const;
export type ContentLanguage = (typeof contentLanguages)[number];
export function isContentLanguage(lang: string): lang is ContentLanguage {
  return (contentLanguages as readonly string[]).includes(lang);
}

/** A stored language as one of the content languages; null for none or one not (or no longer) known. */
export function asContentLanguage(value: string | null | undefined): ContentLanguage | null {
  return value && isContentLanguage(value) ? value : null;
}

/**
 * The content language a browser asks for first (its Accept-Language header, by weight), else German: the
 * words of a patient's pages that belong to no case yet (decision 057).
 */
export function preferredContentLanguage(acceptLanguage: string | null | undefined): ContentLanguage {
  const asked = (acceptLanguage ?? "")
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q ? Number(q.slice(2)) : 1;
      return { lang: tag.split("-")[0]!.toLowerCase(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((a) => a.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return asked.map((a) => asContentLanguage(a.lang)).find((l) => l !== null) ?? "de";
}

/** Whether a language is written right to left. */
export function isRightToLeft(lang: string): boolean {
  return lang.split("-")[0]!.toLowerCase() === "ar";
}

const displayNames = new Map<string, Intl.DisplayNames | null>();

function namesIn(inLanguage: string): Intl.DisplayNames | null {
  let names = displayNames.get(inLanguage);
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames([inLanguage], { type: "language", fallback: "code" });
    } catch {
      names = null;
    }
    displayNames.set(inLanguage, names);
  }
  return names;
}

/**
 * A language's name in another language ("Türkisch" in German), or its own name when both are the same
 * ("Türkçe", "العربية"), starting with a capital letter as it stands alone in a list.
 */
export function languageName(lang: ContentLanguage, inLanguage: string): string {
  const name = namesIn(inLanguage)?.of(lang) ?? lang;
  return name.charAt(0).toLocaleUpperCase(inLanguage) + name.slice(1);
}

/** Whether the survey offers this language as a translation (not its source language). */
export function offersLanguage(survey: Pick<Survey, "SourceLanguage" | "Languages">, lang: string): boolean {
  return lang !== survey.SourceLanguage && (survey.Languages as readonly string[]).includes(lang);
}

/**
 * The survey with its texts in `lang`: each text's translation where one is stored and not empty, the source
 * elsewhere. The source language, or a language the survey does not offer, gives the survey as it is.
 */
export function translateSurvey(survey: Survey, lang: string): Survey {
  if (!offersLanguage(survey, lang)) return survey;
  const stored = survey.Translations[lang];
  if (!stored) return survey;
  const t = <T extends string | null>(key: string, source: T): T => {
    if (!source) return source;
    const text = stored[key]?.Text;
    return (text ? text : source) as T;
  };
  const option = (o: AnswerOption): AnswerOption => {
    const SubQuestions = o.SubQuestions.map(question);
    return o.Title !== undefined
      ? { ...o, Title: t(`answer:${o.Id}`, o.Title), SubQuestions }
      : { ...o, Text: t(`answer:${o.Id}`, o.Text), SubQuestions };
  };
  function question(q: Question): Question {
    return {
      ...q,
      Title: t(`question:${q.Id}`, q.Title),
      Hint: t(`question:${q.Id}:Hint`, q.Hint),
      Unit: t(`question:${q.Id}:Unit`, q.Unit),
      AnswerOptions: q.AnswerOptions.map(option),
    };
  }
  const category = (c: Category): Category => ({
    ...c,
    Title: t(`category:${c.Id}`, c.Title),
    Questions: c.Questions.map(question),
  });
  const attribute = (a: PatientFormAttribute): PatientFormAttribute => ({
    ...a,
    Title: t(`attribute:${a.Id}`, a.Title),
    AnswerOptions: a.AnswerOptions.map((o) => ({ ...o, Text: t(`entry:${o.Id}`, o.Text) })),
  });
  return {
    ...survey,
    Title: t("Title", survey.Title),
    Description: t("Description", survey.Description),
    IntroText: t("IntroText", survey.IntroText),
    OutroText: t("OutroText", survey.OutroText),
    ScoreTitle: t("ScoreTitle", survey.ScoreTitle),
    Categories: survey.Categories.map(category),
    PatientForm: survey.PatientForm.map(attribute),
  };
}
