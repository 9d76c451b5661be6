import { AppError } from "~/domain/errors";
import { rightsOf, type Person } from "~/domain/permissions";
import { isoToWireDate } from "~/domain/dates";
import type { DB, Executor } from "~/server/db/types.server";
import { audit } from "./audit.server";
import { requireSurvey, statusOf, teamsOfSurveys } from "./survey-access.server";
import { loadSurveyTree } from "./survey-tree.server";
import { blocksPublishing, describeProblem, publishProblems } from "~/domain/publish-check";
import { actorOf, type SurveyCaller } from "./surveys.server";
import { statusName, type SurveyStatusCode } from "~/domain/survey-status";

async function setStatus(
  db: Executor,
  caller: SurveyCaller,
  surveyId: number,
  action: string,
  from: number,
  to: SurveyStatusCode,
  extra: Record<string, unknown> = {},
) {
  await db
    .updateTable("surveys")
    .set({ status: to, updated_at: new Date().toISOString(), ...extra })
    .where("id", "=", surveyId)
    .execute();
  await audit(db, actorOf(caller), {
    action,
    entity: "survey",
    entityId: surveyId,
    surveyId,
    before: { Status: statusName(from) },
    after: { Status: statusName(to) },
  });
}

/**
 * Publish: an approver of the survey's teams, a Draft that passes the pre-publish check (a title, at least
 * one question, answers for every choice question, an image and markers for every image question, rules
 * that name existing preliminary answers; app/domain/publish-check.ts).
 */
export async function approveSurvey(db: DB, caller: SurveyCaller, surveyId: number) {
  await db.transaction().execute(async (trx) => {
    const { row, rights } = await requireSurvey(trx, caller, surveyId, "approve");
    if (row.status !== 1) throw new AppError("SURVEY_INVALID_STATUS", "Only a Draft survey can be published");
    const tree = await loadSurveyTree(trx, surveyId, rights);
    const problems = tree ? publishProblems(tree).filter(blocksPublishing) : [];
    if (problems.length > 0) {
      throw new AppError(
        "VALIDATION_ERROR",
        `The survey cannot be published: ${problems.map(describeProblem).join("; ")}`,
      );
    }
    await setStatus(trx, caller, surveyId, "survey.approve", row.status, 2);
  });
}

/**
 * PUT change-status: an approver sets Draft (1, unpublish) from a published or closed survey, or
 * Closed (3) from a published one. Anything else is refused.
 */
export async function changeSurveyStatus(db: DB, caller: SurveyCaller, surveyId: number, newStatusId: number) {
  await db.transaction().execute(async (trx) => {
    const { row } = await requireSurvey(trx, caller, surveyId, "approve");
    const allowed =
      (newStatusId === 1 && (row.status === 2 || row.status === 3)) || (newStatusId === 3 && row.status === 2);
    if (!allowed) {
      throw new AppError(
        "SURVEY_INVALID_STATUS",
        `Cannot change status from ${statusName(row.status)} to ${statusName(newStatusId)}`,
      );
    }
    await setStatus(
      trx,
      caller,
      surveyId,
      newStatusId === 1 ? "survey.unpublish" : "survey.close",
      row.status,
      newStatusId as SurveyStatusCode,
    );
  });
}

export async function archiveSurvey(db: DB, caller: SurveyCaller, surveyId: number) {
  await db.transaction().execute(async (trx) => {
    const { row } = await requireSurvey(trx, caller, surveyId, "edit");
    if (row.status === 4) throw new AppError("SURVEY_INVALID_STATUS", "The survey is archived already");
    await setStatus(trx, caller, surveyId, "survey.archive", row.status, 4, {
      status_before_archive: row.status,
      archived_at: new Date().toISOString(),
    });
  });
}

/** Restore to Draft (section 2: archive menu). */
export async function restoreSurvey(db: DB, caller: SurveyCaller, surveyId: number) {
  await db.transaction().execute(async (trx) => {
    const { row } = await requireSurvey(trx, caller, surveyId, "edit");
    if (row.status !== 4) throw new AppError("SURVEY_INVALID_STATUS", "Only an archived survey can be restored");
    await setStatus(trx, caller, surveyId, "survey.restore", row.status, 1, { archived_at: null });
  });
}

/** Permanent delete, of an archived survey only: everything that belongs to it goes with it. */
export async function deleteSurvey(db: DB, caller: SurveyCaller, surveyId: number) {
  await db.transaction().execute(async (trx) => {
    const { row } = await requireSurvey(trx, caller, surveyId, "edit");
    if (row.status !== 4) throw new AppError("SURVEY_INVALID_STATUS", "Only an archived survey can be deleted");
    await trx.deleteFrom("surveys").where("id", "=", surveyId).execute();
    await audit(trx, actorOf(caller), {
      action: "survey.delete",
      entity: "survey",
      entityId: surveyId,
      surveyId,
      before: { Title: row.title, Status: statusName(row.status), StartDate: row.start_date, EndDate: row.end_date },
    });
  });
}

/**
 * Surveys that can be compared with this one: clones of one another (the same original), which the
 * caller may analyse, not archived. Their questions match, so figures can stand side by side.
 */
export async function benchmarkableSurveys(db: DB, caller: Person, surveyId: number, filterString?: string) {
  const { row } = await requireSurvey(db, caller, surveyId, "see");
  const root = row.source_survey_id ?? row.id;
  const rows = await db
    .selectFrom("surveys")
    .select(["id", "title", "start_date", "end_date", "status"])
    .where((eb) => eb.or([eb("id", "=", root), eb("source_survey_id", "=", root)]))
    .where("id", "!=", surveyId)
    .where("status", "!=", 4)
    .orderBy("id")
    .execute();
  const teams = await teamsOfSurveys(
    db,
    rows.map((r) => r.id),
  );
  const filter = filterString?.trim().toLocaleLowerCase("de-DE") ?? "";
  return rows
    .filter((r) => {
      const rights = rightsOf(caller, teams.get(r.id)!);
      return rights.CanEdit || rights.CanApprove;
    })
    .filter((r) => !filter || r.title.toLocaleLowerCase("de-DE").includes(filter))
    .map((r) => ({
      Id: r.id,
      Title: r.title,
      StartDate: isoToWireDate(r.start_date),
      EndDate: isoToWireDate(r.end_date),
      Status: statusOf(r),
    }));
}
