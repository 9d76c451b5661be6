import { contentLanguages, type ContentLanguage } from "~/domain/content-languages";
import type { Losses } from "./import-losses.server";
import type { ImportPlan, PlanQuestion } from "./import-plan-types.server";
import { contentLanguageOf, type LanguageTexts } from "./translations.server";

/**
 * The languages of an imported Questionnaire (docs/decisions/056-statistics-languages.md): its `language` is the
 * survey's source language, and the translations its texts carry become the survey's offered languages. A
 * translation into a language a survey cannot offer is listed as not kept; so is a Questionnaire's own
 * language that is none of them (its texts are then taken as the default language's).
 */

/** Translations trimmed, cut to the text's limit, the empty ones left out (as the text itself is made). */
export function trimmed(texts: LanguageTexts, max: number, trim = true): LanguageTexts {
  const out: LanguageTexts = {};
  for (const [lang, text] of Object.entries(texts)) {
    const made = (trim ? text.trim() : text).slice(0, max);
    if (made.trim()) out[lang] = made;
  }
  return out;
}

/** Every translation map of a plan, to settle in place. */
function textMaps(plan: ImportPlan): LanguageTexts[] {
  const maps: LanguageTexts[] = [plan.titleTexts, plan.descriptionTexts, plan.scoreTitleTexts, ...plan.introTexts];
  for (const p of plan.prelims) maps.push(p.titleTexts, ...p.options.map((o) => o.texts));
  const question = (q: PlanQuestion) => {
    maps.push(q.titleTexts, q.hintTexts, q.unitTexts);
    for (const o of q.options) {
      maps.push(o.texts);
      o.sub.forEach(question);
    }
  };
  for (const c of plan.categories) {
    maps.push(c.titleTexts);
    c.questions.forEach(question);
  }
  return maps;
}

/**
 * Sets the plan's source language from the Questionnaire's `language`, makes every translation's language a
 * content language ("tr-TR" → "tr"), leaves out those in the source language and notes those a survey cannot
 * offer, and sets the offered languages: those with any translation.
 */
export function settleLanguages(plan: ImportPlan, language: unknown, losses: Losses): void {
  const whole = { linkId: "", name: "", unit: "questionnaire" as const };
  const stated = typeof language === "string" && language.trim() ? language.trim() : null;
  const source = contentLanguageOf(stated);
  if (stated && !source) losses.note({ kind: "sourceLanguage", at: whole, values: [stated] });
  plan.sourceLanguage = source ?? "de";
  const unknown = new Set<string>();
  const used = new Set<ContentLanguage>();
  for (const map of textMaps(plan)) {
    const entries = Object.entries(map);
    for (const key of Object.keys(map)) delete map[key];
    for (const [lang, text] of entries) {
      const known = contentLanguageOf(lang);
      if (!known) unknown.add(lang);
      else if (known !== plan.sourceLanguage) {
        map[known] = text;
        used.add(known);
      }
    }
  }
  if (unknown.size > 0) losses.note({ kind: "translations", at: whole, values: [...unknown].sort() });
  plan.languages = contentLanguages.filter((l) => used.has(l));
}
