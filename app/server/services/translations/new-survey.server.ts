import { sourceDigest } from "~/domain/content-languages";
import type { Executor } from "~/server/db/types.server";

/** One text of a survey being made, with its translations by language. */
export interface TextWithTranslations {
  /** The text's key (docs/decisions/054-content-languages.md): "Title", "question:12", "answer:40", … */
  key: string;
  /** The text as the survey stores it, whose digest each translation keeps. */
  source: string;
  texts: Record<string, string>;
}

/**
 * The translations of a survey that is being made (a FHIR import, the demo data), written as PUT
 * /surveys/{id}/translations/{language} would write them: one row per language and text, made from the source
 * as it is stored. The caller sets the survey's offered languages.
 */
export async function insertNewTranslations(
  trx: Executor,
  surveyId: number,
  list: readonly TextWithTranslations[],
): Promise<number> {
  const rows = list.flatMap((t) =>
    Object.entries(t.texts)
      .filter(([, text]) => text !== "")
      .map(([language, text]) => ({
        survey_id: surveyId,
        language,
        text_key: t.key,
        text,
        source_digest: sourceDigest(t.source),
      })),
  );
  for (let i = 0; i < rows.length; i += 200) {
    await trx
      .insertInto("survey_translations")
      .values(rows.slice(i, i + 200))
      .execute();
  }
  return rows.length;
}
