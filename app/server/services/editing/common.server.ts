import { AppError } from "~/domain/errors";
import type { Survey } from "~/domain/survey";
import { dialectOf } from "~/server/db/db.server";
import type { DB, Trx } from "~/server/db/types.server";
import { audit } from "../audit.server";
import { requireEditableSurvey, touchSurvey, type SurveyAccess } from "../survey-access.server";
import { loadSurveyTree } from "../survey-tree.server";
import { pruneTranslations } from "../translations/prune.server";
import { actorOf, type SurveyCaller } from "../surveys.server";

/** One change to a survey's content, inside its transaction. */
export interface Edit {
  trx: Trx;
  caller: SurveyCaller;
  surveyId: number;
  access: SurveyAccess;
}

/**
 * Checks that the caller may edit the survey now (an editor of its teams, the survey in Draft). On
 * PostgreSQL the survey's row is locked first, so that edits of one survey (a reorder, a check for recorded
 * answers before a delete) run one after the other; SQLite runs one write transaction at a time anyway.
 */
export async function openEdit(trx: Trx, caller: SurveyCaller, surveyId: number): Promise<Edit> {
  if (dialectOf(trx) === "postgres") {
    await trx.selectFrom("surveys").select("id").where("id", "=", surveyId).forUpdate().execute();
  }
  const access = await requireEditableSurvey(trx, caller, surveyId);
  return { trx, caller, surveyId, access };
}

/**
 * The survey of an item named by id: 404 when the item does not exist or belongs to another survey than
 * the one the caller named.
 */
export function surveyOfItem(
  row: { survey_id: number } | undefined,
  namedSurveyId: number | undefined,
  what: string,
  id: number,
): number {
  if (!row || (namedSurveyId !== undefined && namedSurveyId !== row.survey_id)) {
    throw new AppError("NOT_FOUND", `${what} ${id} does not exist in this survey`);
  }
  return row.survey_id;
}

/** Records a change: one audit row and a new survey Hash; the translations of texts it removed go with them. */
export async function recordChange(
  edit: Edit,
  entry: { action: string; entity: string; entityId: number; before?: unknown; after?: unknown },
): Promise<void> {
  await pruneTranslations(edit.trx, edit.surveyId);
  await touchSurvey(edit.trx, edit.surveyId);
  await audit(edit.trx, actorOf(edit.caller), { ...entry, surveyId: edit.surveyId });
}

/** The columns whose value differs, with their old and new values; null when nothing differs. */
export function diff<T extends object>(current: T, next: Partial<T>): { before: Partial<T>; after: Partial<T> } | null {
  const before: Partial<T> = {};
  const after: Partial<T> = {};
  for (const key of Object.keys(next) as (keyof T)[]) {
    const value = next[key];
    if (value === undefined || value === current[key]) continue;
    before[key] = current[key];
    after[key] = value;
  }
  return Object.keys(after).length > 0 ? { before, after } : null;
}

/** Image data URLs are kept out of the audit log; their length stands in for them. */
export function forAudit<T extends object>(values: T): T {
  const out = { ...values } as Record<string, unknown>;
  for (const key of ["image_src", "ImageSrc"]) {
    if (typeof out[key] === "string") out[key] = `[image, ${(out[key] as string).length} characters]`;
  }
  return out as T;
}

export const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

/** The survey as the editor sees it after a change, for answering with the changed item. */
export async function surveyAfterEdit(db: DB, edit: Pick<Edit, "surveyId" | "access">): Promise<Survey> {
  const survey = await loadSurveyTree(db, edit.surveyId, edit.access.rights);
  if (!survey) throw new AppError("SURVEY_NOT_FOUND", `Survey ${edit.surveyId} does not exist`);
  return survey;
}
