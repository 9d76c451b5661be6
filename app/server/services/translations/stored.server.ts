import {
  asContentLanguage,
  contentLanguages,
  isContentLanguage,
  type ContentLanguage,
  type Translations,
} from "~/domain/content-languages";
import type { Executor } from "~/server/db/types.server";

/**
 * How a survey's languages and translations are stored (migration 0019, docs/decisions/054-content-languages.md):
 * the source language as its code, the offered languages as a JSON array, each translation as a row.
 */

/** The stored source language; "de" for a value no longer known. */
export function sourceLanguageOf(stored: string): ContentLanguage {
  return asContentLanguage(stored) ?? "de";
}

/** The stored offered languages, known ones only, in the order of the list of content languages. */
export function languagesOf(stored: string): ContentLanguage[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return storedLanguages(parsed.filter((l): l is string => typeof l === "string" && isContentLanguage(l)));
}

/** A list of languages as it is stored and shown: once each, in the order of the list of content languages. */
export function storedLanguages(languages: readonly string[]): ContentLanguage[] {
  return contentLanguages.filter((l) => languages.includes(l));
}

/** The translations of the offered languages, per language and text key (languages without any are left out). */
export async function translationsOf(
  db: Executor,
  surveyId: number,
  languages: readonly ContentLanguage[],
): Promise<Translations> {
  if (languages.length === 0) return {};
  const rows = await db
    .selectFrom("survey_translations")
    .select(["language", "text_key", "text", "source_digest"])
    .where("survey_id", "=", surveyId)
    .where("language", "in", [...languages])
    .orderBy("language")
    .orderBy("text_key")
    .execute();
  const out: Translations = {};
  for (const r of rows) (out[r.language] ??= {})[r.text_key] = { Text: r.text, Digest: r.source_digest };
  return out;
}
