import { z } from "./zod";
import type { Question, Survey } from "./survey";
import { contentLanguages, type ContentLanguage } from "./languages";

// The languages and translateSurvey without zod, for the pages (app/domain/languages.ts).
export {
  asContentLanguage,
  contentLanguages,
  isContentLanguage,
  isRightToLeft,
  languageName,
  offersLanguage,
  translateSurvey,
  type ContentLanguage,
} from "./languages";

/**
 * The languages a survey's own texts can be offered in (docs/decisions/054-content-languages.md): the source
 * language the editors write in, and translations of every text a patient reads. Pure and browser-safe: the
 * editor, the fill page, the offline copy, the statistics and the FHIR export all read a survey through it.
 */
export const ContentLanguageSchema = z.enum(contentLanguages).meta({
  id: "ContentLanguage",
  description: "A language a survey's texts can be written or translated in (ISO 639-1)",
});

/**
 * A short fingerprint of a source text (FNV-1a, 32 bits, over its UTF-16 code units, as 8 hex digits): a
 * translation keeps the fingerprint of the source it was made from, so a changed source shows that the
 * translation needs a look.
 */
export function sourceDigest(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

export type TranslatableTab = "start" | "questionnaire" | "patientForm";
export const translatableTabs: readonly TranslatableTab[] = ["start", "questionnaire", "patientForm"];

/** Which field of its item a text is. */
export type TranslatableField =
  | "title"
  | "description"
  | "intro"
  | "outro"
  | "scoreTitle"
  | "category"
  | "question"
  | "hint"
  | "unit"
  | "answer"
  | "marker"
  | "attribute"
  | "entry";

/** What a text belongs to: the survey, a category, a question (a sub-question below an answer), an answer. */
export type TranslatableKind = "survey" | "category" | "question" | "subQuestion" | "answer" | "attribute" | "entry";

export interface TranslatableText {
  /** Stable by the item's id: "Title", "question:12", "question:12:Hint", "answer:40", "entry:7", … */
  key: string;
  tab: TranslatableTab;
  source: string;
  /** Which field of its item the text is. */
  label: TranslatableField;
  kind: TranslatableKind;
  multiline: boolean;
  /** The text is (sanitized) rich text: the intro and the outro. */
  html: boolean;
}

/** One stored translation of a text: the text, and the digest of the source it was made from. */
export const TranslationSchema = z
  .object({ Text: z.string(), Digest: z.string() })
  .meta({ id: "Translation", description: "A text's translation and the digest of the source it translates" });
export type Translation = z.infer<typeof TranslationSchema>;

/** Per language, per text key: the survey's translations. */
export const TranslationsSchema = z
  .record(z.string(), z.record(z.string(), TranslationSchema))
  .meta({ id: "Translations", description: "Per language, per text key (docs/decisions/054-content-languages.md)" });
export type Translations = z.infer<typeof TranslationsSchema>;

/** The most texts one request may translate: a long survey's every text at once (an import). */
export const MAX_TRANSLATION_TEXTS = 2000;
/** The longest translation of a rich text (the intro, the outro), as their sources may be; others are shorter. */
export const MAX_TRANSLATION_HTML = 200_000;
export const MAX_TRANSLATION_TEXT = 5000;

/** PUT /surveys/{id}/translations/{language}: texts by their keys; an empty Text removes the translation. */
export const PutTranslationsSchema = z
  .strictObject({
    Texts: z
      .array(
        z.strictObject({
          Key: z.string().min(1).max(100),
          Text: z.string().max(MAX_TRANSLATION_HTML),
        }),
      )
      .max(MAX_TRANSLATION_TEXTS)
      .refine((texts) => new Set(texts.map((t) => t.Key)).size === texts.length, {
        message: "Each key may appear once",
      }),
  })
  .meta({ id: "PutTranslations" });
export type PutTranslations = z.infer<typeof PutTranslationsSchema>;

type Visit = (
  key: string,
  source: string | null | undefined,
  tab: TranslatableTab,
  label: TranslatableField,
  kind: TranslatableKind,
) => void;

/** The parts of a survey that hold its translatable texts. */
export type TranslatableParts = Pick<
  Survey,
  "Title" | "Description" | "IntroText" | "OutroText" | "ScoreTitle" | "Categories" | "PatientForm"
>;

/** Every text a survey holds, in the order a person reads them (empty ones too: `visit` decides). */
function walk(survey: TranslatableParts, visit: Visit): void {
  visit("Title", survey.Title, "start", "title", "survey");
  visit("Description", survey.Description, "start", "description", "survey");
  visit("IntroText", survey.IntroText, "start", "intro", "survey");
  for (const a of survey.PatientForm) {
    visit(`attribute:${a.Id}`, a.Title, "patientForm", "attribute", "attribute");
    for (const o of a.AnswerOptions) visit(`entry:${o.Id}`, o.Text, "patientForm", "entry", "entry");
  }
  const question = (q: Question, kind: TranslatableKind) => {
    visit(`question:${q.Id}`, q.Title, "questionnaire", "question", kind);
    visit(`question:${q.Id}:Hint`, q.Hint, "questionnaire", "hint", kind);
    visit(`question:${q.Id}:Unit`, q.Unit, "questionnaire", "unit", kind);
    for (const o of q.AnswerOptions) {
      const marker = o.Title !== undefined;
      visit(`answer:${o.Id}`, marker ? o.Title : o.Text, "questionnaire", marker ? "marker" : "answer", "answer");
      for (const s of o.SubQuestions) question(s, "subQuestion");
    }
  };
  for (const c of survey.Categories) {
    visit(`category:${c.Id}`, c.Title, "questionnaire", "category", "category");
    for (const q of c.Questions) question(q, "question");
  }
  visit("OutroText", survey.OutroText, "start", "outro", "survey");
  visit("ScoreTitle", survey.ScoreTitle, "start", "scoreTitle", "survey");
}

const MULTILINE = new Set<TranslatableField>(["description", "intro", "outro", "hint"]);
const HTML = new Set<TranslatableField>(["intro", "outro"]);

/** Every non-empty text of a survey that can be translated, in the order a person reads them. */
export function translatableTexts(survey: TranslatableParts): TranslatableText[] {
  const texts: TranslatableText[] = [];
  walk(survey, (key, source, tab, label, kind) => {
    if (!source || !source.trim()) return;
    texts.push({ key, tab, source, label, kind, multiline: MULTILINE.has(label), html: HTML.has(label) });
  });
  return texts;
}

/** A text's translation in one language: none, made from the current source, or from an older one. */
export type TranslationState = "missing" | "review" | "translated";

export function translationState(
  survey: Pick<Survey, "Translations">,
  lang: string,
  text: TranslatableText,
): TranslationState {
  const stored = survey.Translations[lang]?.[text.key];
  if (!stored || !stored.Text) return "missing";
  return stored.Digest === sourceDigest(text.source) ? "translated" : "review";
}

export interface TranslationCount {
  total: number;
  /** Texts with a translation, including those to review. */
  translated: number;
  /** Translations whose source changed since they were made. */
  review: number;
  missing: TranslatableText[];
}

export interface TranslationProgress {
  overall: TranslationCount;
  byTab: Record<TranslatableTab, TranslationCount>;
}

const emptyCount = (): TranslationCount => ({ total: 0, translated: 0, review: 0, missing: [] });

/** How far a language's translation is: per tab of the editor and overall. */
export function translationProgress(
  survey: TranslatableParts & Pick<Survey, "Translations">,
  lang: ContentLanguage,
): TranslationProgress {
  const overall = emptyCount();
  const byTab: Record<TranslatableTab, TranslationCount> = {
    start: emptyCount(),
    questionnaire: emptyCount(),
    patientForm: emptyCount(),
  };
  for (const text of translatableTexts(survey)) {
    const state = translationState(survey, lang, text);
    for (const count of [overall, byTab[text.tab]]) {
      count.total++;
      if (state === "missing") count.missing.push(text);
      else count.translated++;
      if (state === "review") count.review++;
    }
  }
  return { overall, byTab };
}
