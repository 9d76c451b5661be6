import crypto from "node:crypto";
import { AppError } from "~/domain/errors";
import {
  canApprove,
  canEdit,
  canParticipate,
  rightsOf,
  type Person,
  type SurveyRights,
  type SurveyTeams,
} from "~/domain/permissions";
import { todayIso } from "~/domain/dates";
import { effectiveStatus, statusName, type SurveyStatus } from "~/domain/survey-status";
import { prepared } from "~/server/db/prepared.server";
import { oncePerRequest } from "~/server/log.server";
import type { Executor, Row } from "~/server/db/types.server";

const teamsOfOne = prepared<[number], Pick<Row<"survey_team_permissions">, "survey_id" | "team_id" | "kind">>((db, $) =>
  db
    .selectFrom("survey_team_permissions")
    .select(["survey_id", "team_id", "kind"])
    .where("survey_id", "=", $(0))
    .orderBy("team_id"),
);

const surveyById = prepared<[number], Row<"surveys">>((db, $) =>
  db.selectFrom("surveys").selectAll().where("id", "=", $(0)),
);

/** The teams named in each survey's permission lists (empty lists mean everyone of the role). */
export async function teamsOfSurveys(db: Executor, surveyIds: number[]): Promise<Map<number, SurveyTeams>> {
  const map = new Map<number, SurveyTeams>();
  for (const sid of surveyIds) map.set(sid, { userTeamIds: [], editorTeamIds: [], approverTeamIds: [] });
  if (surveyIds.length === 0) return map;
  const rows =
    surveyIds.length === 1
      ? await teamsOfOne.all(db, surveyIds[0])
      : await db
          .selectFrom("survey_team_permissions")
          .select(["survey_id", "team_id", "kind"])
          .where("survey_id", "in", surveyIds)
          .orderBy("team_id")
          .execute();
  for (const r of rows) {
    const teams = map.get(r.survey_id)!;
    const list =
      r.kind === "user" ? teams.userTeamIds : r.kind === "editor" ? teams.editorTeamIds : teams.approverTeamIds;
    (list as number[]).push(r.team_id);
  }
  return map;
}

export interface SurveyAccess {
  row: Row<"surveys">;
  teams: SurveyTeams;
  rights: SurveyRights;
  /** The status people see (Pending and Ended derive from the dates of a published survey). */
  status: SurveyStatus;
}

export function statusOf(row: Pick<Row<"surveys">, "status" | "start_date" | "end_date">): SurveyStatus {
  return effectiveStatus(statusName(row.status), row.start_date, row.end_date, todayIso());
}

/** Whether a person may see a survey at all: editors and approvers of its teams, participants once it is published. */
export function maySee(rights: SurveyRights, status: SurveyStatus): boolean {
  if (rights.CanEdit || rights.CanApprove) return true;
  return rights.CanParticipate && status !== "Draft" && status !== "Archived" && status !== "Pending";
}

type Need = "see" | "edit" | "approve" | "participate";

/**
 * Loads a survey and checks the caller's right for what they are about to do: 404 when it does not
 * exist, 403 when they may not.
 */
export async function requireSurvey(db: Executor, person: Person, surveyId: number, need: Need): Promise<SurveyAccess> {
  const read = async () => {
    const row = await surveyById.first(db, surveyId);
    return row && { row, teams: (await teamsOfSurveys(db, [surveyId])).get(surveyId)! };
  };
  // Outside a transaction, a request that only reads reads the survey once however often it is checked.
  const found = db.isTransaction ? await read() : await oncePerRequest(`survey:${surveyId}`, read);
  if (!found) throw new AppError("SURVEY_NOT_FOUND", `Survey ${surveyId} does not exist`);
  const { row, teams } = found;
  const link = (person as { link?: { surveyId: number } }).link;
  if (link) return linkAccess(row, teams, link.surveyId, need);
  const rights = rightsOf(person, teams);
  const status = statusOf(row);
  const allowed =
    need === "see"
      ? maySee(rights, status)
      : need === "edit"
        ? canEdit(person, teams)
        : need === "approve"
          ? canApprove(person, teams)
          : canParticipate(person, teams);
  if (!allowed) {
    // Someone who may not even see the survey learns nothing about it.
    if (!maySee(rights, status)) throw new AppError("SURVEY_NOT_FOUND", `Survey ${surveyId} does not exist`);
    throw new AppError("FORBIDDEN", `Not allowed to ${need} this survey`);
  }
  return { row, teams, rights, status };
}

/** For content edits: an editor of the survey's teams, and the survey in Draft. */
export async function requireEditableSurvey(db: Executor, person: Person, surveyId: number): Promise<SurveyAccess> {
  const access = await requireSurvey(db, person, surveyId, "edit");
  if (access.row.status !== 1) {
    throw new AppError("SURVEY_INVALID_STATUS", "Only a survey in Draft can be changed");
  }
  return access;
}

/** Marks a survey's content as changed: a new Hash (change detection for offline copies) and modified time. */
export async function touchSurvey(db: Executor, surveyId: number): Promise<string> {
  const hash = crypto.randomBytes(12).toString("hex");
  await db
    .updateTable("surveys")
    .set({ hash, updated_at: new Date().toISOString() })
    .where("id", "=", surveyId)
    .execute();
  return hash;
}

/**
 * A patient's link (docs/decisions/057-patient-links.md) reaches only its own survey, and there only what
 * taking part needs: reading the survey and its case, writing its answers. Anything else is not there for it.
 */
function linkAccess(row: Row<"surveys">, teams: SurveyTeams, linkSurveyId: number, need: Need): SurveyAccess {
  if (row.id !== linkSurveyId || (need !== "see" && need !== "participate")) {
    throw new AppError("SURVEY_NOT_FOUND", `Survey ${row.id} does not exist`);
  }
  const rights: SurveyRights = { CanParticipate: true, CanEdit: false, CanApprove: false };
  return { row, teams, rights, status: statusOf(row) };
}
