import {
  languageName,
  MAX_TRANSLATION_TEXT,
  offersLanguage,
  sourceDigest,
  translatableTexts,
  type ContentLanguage,
  type PutTranslations,
} from "~/domain/content-languages";
import { AppError } from "~/domain/errors";
import type { Survey } from "~/domain/survey";
import type { DB, Trx } from "~/server/db/types.server";
import { openEdit, recordChange } from "../editing/common.server";
import { sanitizeRichText } from "../rich-text.server";
import { loadSurveyTree } from "../survey-tree.server";
import { getSurvey, type SurveyCaller } from "../surveys.server";

/** Rows per insert: 5 values each, well under both databases' limits on a statement's parameters. */
const CHUNK = 200;
/** Unknown keys named in a refusal, at most. */
const NAMED = 10;

interface Row {
  text_key: string;
  text: string;
  source_digest: string;
}

/**
 * PUT /surveys/{id}/translations/{language} (docs/decisions/054-content-languages.md): the given texts'
 * translations, each marked with the digest of its source as it is now; an empty text removes one, and the
 * same text again confirms it for the current source. Editors of a Draft survey, as for its other texts; one
 * trail entry per request that changed something.
 */
export async function putTranslations(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  language: ContentLanguage,
  input: PutTranslations,
): Promise<Survey> {
  await db.transaction().execute(async (trx) => {
    const edit = await openEdit(trx, caller, surveyId);
    const survey = await loadSurveyTree(trx, surveyId, edit.access.rights);
    if (!survey) throw new AppError("SURVEY_NOT_FOUND", `Survey ${surveyId} does not exist`);
    if (!offersLanguage(survey, language)) {
      throw new AppError("VALIDATION_ERROR", `The survey does not offer the language ${language}`);
    }
    const texts = new Map(translatableTexts(survey).map((t) => [t.key, t]));
    const unknown = input.Texts.map((t) => t.Key).filter((key) => !texts.has(key));
    if (unknown.length > 0) {
      const named = unknown.slice(0, NAMED).join(", ") + (unknown.length > NAMED ? ", …" : "");
      throw new AppError("VALIDATION_ERROR", `Unknown text keys (${unknown.length}): ${named}`);
    }
    const stored = survey.Translations[language] ?? {};
    const upserts: Row[] = [];
    const removed: string[] = [];
    const before: Record<string, string> = {};
    const after: Record<string, string> = {};
    let reviewed = 0;
    for (const { Key, Text } of input.Texts) {
      const source = texts.get(Key)!;
      const text = Text.trim() ? (source.html ? sanitizeRichText(Text) : Text) : "";
      if (!source.html && text.length > MAX_TRANSLATION_TEXT) {
        throw new AppError("VALIDATION_ERROR", `The translation of ${Key} is longer than ${MAX_TRANSLATION_TEXT}`);
      }
      const old = stored[Key];
      if (!text) {
        if (!old) continue;
        removed.push(Key);
        before[Key] = old.Text;
        after[Key] = "";
        continue;
      }
      const digest = sourceDigest(source.source);
      if (old?.Text === text && old.Digest === digest) continue;
      upserts.push({ text_key: Key, text, source_digest: digest });
      if (old?.Text === text) reviewed++;
      else {
        before[Key] = old?.Text ?? "";
        after[Key] = text;
      }
    }
    if (upserts.length === 0 && removed.length === 0) return;
    await write(trx, surveyId, language, upserts, removed);
    const name = languageName(language, language);
    await recordChange(edit, {
      action: "survey.translate",
      entity: "survey_translation",
      entityId: surveyId,
      before: { Name: name, Texts: before },
      after: { Name: name, Texts: after, ...(reviewed > 0 ? { Reviewed: reviewed } : {}) },
    });
  });
  return getSurvey(db, caller, surveyId);
}

async function write(trx: Trx, surveyId: number, language: string, upserts: Row[], removed: string[]) {
  for (let i = 0; i < removed.length; i += CHUNK) {
    await trx
      .deleteFrom("survey_translations")
      .where("survey_id", "=", surveyId)
      .where("language", "=", language)
      .where("text_key", "in", removed.slice(i, i + CHUNK))
      .execute();
  }
  for (let i = 0; i < upserts.length; i += CHUNK) {
    await trx
      .insertInto("survey_translations")
      .values(upserts.slice(i, i + CHUNK).map((r) => ({ ...r, survey_id: surveyId, language })))
      .onConflict((oc) =>
        oc.columns(["survey_id", "language", "text_key"]).doUpdateSet((eb) => ({
          text: eb.ref("excluded.text"),
          source_digest: eb.ref("excluded.source_digest"),
        })),
      )
      .execute();
  }
}
