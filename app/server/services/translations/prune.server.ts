import { translatableTexts } from "~/domain/content-languages";
import type { Executor } from "~/server/db/types.server";
import { loadSurveyTree } from "../survey-tree.server";

const NO_RIGHTS = { CanParticipate: false, CanEdit: false, CanApprove: false };
/** Keys per delete: well under both databases' limits on a statement's parameters. */
const CHUNK = 500;

/**
 * After a change of a survey's content: deletes the translations of texts that are gone (their item deleted,
 * or the text emptied, as a hint or a total's title taken away). Costs one indexed read for a survey without
 * translations; with translations, the survey's tree is read once, in the change's transaction.
 */
export async function pruneTranslations(db: Executor, surveyId: number): Promise<number> {
  const stored = await db
    .selectFrom("survey_translations")
    .select("text_key")
    .distinct()
    .where("survey_id", "=", surveyId)
    .execute();
  if (stored.length === 0) return 0;
  const survey = await loadSurveyTree(db, surveyId, NO_RIGHTS);
  if (!survey) return 0;
  const live = new Set(translatableTexts(survey).map((t) => t.key));
  const stale = stored.map((r) => r.text_key).filter((key) => !live.has(key));
  for (let i = 0; i < stale.length; i += CHUNK) {
    await db
      .deleteFrom("survey_translations")
      .where("survey_id", "=", surveyId)
      .where("text_key", "in", stale.slice(i, i + CHUNK))
      .execute();
  }
  return stale.length;
}
