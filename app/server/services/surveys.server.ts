import type { HandoverScope } from "~/domain/handover";
import type { LinkScope } from "./links/scope.server";
import { respondentActorSub } from "~/domain/respondents";
import { AppError } from "~/domain/errors";
import { titleMatches } from "~/domain/title-search";
import { isoToWireDate, wireToIsoDate } from "~/domain/dates";
import { storedInstrument } from "~/domain/instrument";
import { isEditor, rightsOf, type Person } from "~/domain/permissions";
import type { Survey, SurveyListEntry, UpdateSurvey } from "~/domain/survey";
import { translate } from "~/server/locales.server";
import { prepared } from "~/server/db/prepared.server";
import type { DB, Executor } from "~/server/db/types.server";
import { audit, type Actor } from "./audit.server";
import {
  maySee,
  requireEditableSurvey,
  requireSurvey,
  statusOf,
  teamsOfSurveys,
  touchSurvey,
  type SurveyAccess,
} from "./survey-access.server";
import { surveyStructure } from "./fill/structure.server";
import { surveyHead } from "./survey-tree.server";
import { sanitizeRichText } from "./rich-text.server";
import { languagesOf, sourceLanguageOf, storedLanguages } from "./translations/stored.server";
import { pruneTranslations } from "./translations/prune.server";

export interface SurveyCaller extends Person {
  /** The person's record; 0 for a patient's link, which has no account. */
  surveyUserDataId: number;
  sub: string;
  culture: string | null;
  /** A patient answering through a one-time link: only this case (docs/decisions/057-patient-links.md). */
  link?: LinkScope;
  /** The staff member's device handed to the patient for one case (docs/decisions/058-hand-over.md). */
  handover?: HandoverScope;
}

export const actorOf = (caller: SurveyCaller): Actor =>
  caller.link
    ? { surveyUserDataId: null, sub: respondentActorSub({ kind: "link", linkId: caller.link.linkId }) }
    : caller.handover
      ? {
          surveyUserDataId: caller.surveyUserDataId,
          sub: respondentActorSub({ kind: "handover", staffUserId: caller.surveyUserDataId, staffName: "" }),
        }
      : { surveyUserDataId: caller.surveyUserDataId, sub: caller.sub };

/** The surveys a person may see, newest first; archived ones only for editors and approvers of their teams. */
export async function listSurveys(
  db: DB,
  caller: SurveyCaller,
  query: { take: number; skip: number; filterString?: string; archived: boolean },
): Promise<{ Data: SurveyListEntry[]; Total: number }> {
  const rows = await db
    .selectFrom("surveys")
    .select(["id", "title", "start_date", "end_date", "status", "hash"])
    .where("status", query.archived ? "=" : "!=", 4)
    .orderBy("updated_at", "desc")
    .orderBy("id", "desc")
    .execute();
  const teams = await teamsOfSurveys(
    db,
    rows.map((r) => r.id),
  );
  const visible = rows
    .map((r) => ({ r, rights: rightsOf(caller, teams.get(r.id)!), status: statusOf(r) }))
    .filter(({ rights, status }) => (query.archived ? rights.CanEdit || rights.CanApprove : maySee(rights, status)))
    .filter(({ r }) => titleMatches(r.title, query.filterString));
  return {
    Total: visible.length,
    Data: visible.slice(query.skip, query.skip + query.take).map(({ r, rights, status }) => ({
      Id: r.id,
      Title: r.title,
      StartDate: isoToWireDate(r.start_date),
      EndDate: isoToWireDate(r.end_date),
      Status: status,
      Hash: r.hash,
      Rights: rights,
    })),
  };
}

const tagsOf = prepared<[number], { tag_id: number }>((db, $) =>
  db.selectFrom("survey_tags").select("tag_id").where("survey_id", "=", $(0)).orderBy("tag_id"),
);

/**
 * The whole survey as the caller may see it. Its content (categories, questions, the patient form) comes
 * from the structure kept while the survey's Hash and modification time hold (every content edit changes
 * both; fill/structure.server.ts); its own fields, tags, teams and the caller's rights are read each time.
 */
export async function getSurvey(db: Executor, caller: Person, surveyId: number): Promise<Survey> {
  const access = await requireSurvey(db, caller, surveyId, "see");
  const [{ survey: content }, tags] = await Promise.all([surveyStructure(db, access), tagsOf.all(db, surveyId)]);
  if ((caller as SurveyCaller).link) return forPatient(access, content);
  return {
    ...surveyHead(
      access.row,
      tags.map((r) => r.tag_id),
      access.teams,
      access.rights,
    ),
    Categories: content.Categories,
    PatientFormId: content.PatientFormId,
    PatientForm: content.PatientForm,
    Translations: content.Translations,
  };
}

/**
 * The survey as a patient's link reads it (decision 057): its questionnaire and texts, nothing of staff's:
 * no teams, tags, rights beyond taking part, or origin; the preliminary questions only when the survey lets the
 * patient answer them (`PreliminaryByPatient`, decision 058), else they stay with staff.
 */
function forPatient(access: SurveyAccess, content: Awaited<ReturnType<typeof surveyStructure>>["survey"]): Survey {
  const head = surveyHead(access.row, [], { userTeamIds: [], editorTeamIds: [], approverTeamIds: [] }, access.rights);
  return {
    ...head,
    RetentionMonths: 0,
    SourceSurveyId: null,
    IsPatientFormEnabled: head.PreliminaryByPatient && access.row.patient_form_enabled === 1,
    Categories: content.Categories,
    PatientFormId: content.PatientFormId,
    PatientForm: head.PreliminaryByPatient ? content.PatientForm : [],
    Translations: content.Translations,
  };
}

/** A new Draft survey with the given title (or the translated default) and a patient form. */
export async function createSurvey(
  db: DB,
  caller: SurveyCaller,
  input: { Title?: string; TeamPermissions?: number[] },
) {
  if (!isEditor(caller)) throw new AppError("FORBIDDEN", "Only editors create surveys");
  const title = input.Title?.trim() || translate(caller.culture ?? undefined, "surveys.defaultTitle");
  const teamIds = [...new Set(input.TeamPermissions ?? [])];
  const id = await db.transaction().execute(async (trx) => {
    await assertTeamsSelectable(trx, teamIds, []);
    const now = new Date().toISOString();
    const row = await trx
      .insertInto("surveys")
      .values({
        title,
        status: 1,
        created_by_user_id: caller.surveyUserDataId,
        created_at: now,
        updated_at: now,
        start_date: null,
        end_date: null,
        status_before_archive: null,
        source_survey_id: null,
        archived_at: null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx.insertInto("patient_forms").values({ survey_id: row.id }).execute();
    if (teamIds.length > 0) {
      await trx
        .insertInto("survey_team_permissions")
        .values(teamIds.map((team_id) => ({ survey_id: row.id, team_id, kind: "user" as const })))
        .execute();
    }
    await touchSurvey(trx, row.id);
    await audit(trx, actorOf(caller), {
      action: "survey.create",
      entity: "survey",
      entityId: row.id,
      surveyId: row.id,
      after: { Title: title, TeamPermissions: teamIds },
    });
    return row.id;
  });
  return getSurvey(db, caller, id);
}

/** Teams being newly chosen must exist and not be disabled (already chosen ones may stay). */
async function assertTeamsSelectable(db: Executor, wanted: number[], current: readonly number[]) {
  const added = wanted.filter((t) => !current.includes(t));
  if (added.length === 0) return;
  const rows = await db.selectFrom("teams").select(["id", "disabled"]).where("id", "in", added).execute();
  const usable = new Set(rows.filter((r) => r.disabled === 0).map((r) => r.id));
  const bad = added.filter((t) => !usable.has(t));
  if (bad.length > 0) throw new AppError("VALIDATION_ERROR", `Teams not selectable: ${bad.join(", ")}`);
}

const kinds = [
  ["UserTeamPermissions", "user", "userTeamIds"],
  ["EditorTeamPermissions", "editor", "editorTeamIds"],
  ["ApproverTeamPermissions", "approver", "approverTeamIds"],
] as const;

/** PUT /surveys/{id}: changes only the fields given, and only those whose value differs. */
export async function updateSurvey(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  input: UpdateSurvey,
): Promise<Survey> {
  await db.transaction().execute(async (trx) => {
    const { row, teams } = await requireEditableSurvey(trx, caller, surveyId);
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    const set: Record<string, unknown> = {};
    const change = (field: string, column: string, oldValue: unknown, newValue: unknown) => {
      if (newValue === undefined || oldValue === newValue) return;
      before[field] = oldValue;
      after[field] = newValue;
      set[column] = newValue;
    };
    change("Title", "title", row.title, input.Title?.trim());
    change("Description", "description", row.description, input.Description);
    change(
      "IntroText",
      "intro_text",
      row.intro_text,
      input.IntroText === undefined ? undefined : sanitizeRichText(input.IntroText),
    );
    change(
      "OutroText",
      "outro_text",
      row.outro_text,
      input.OutroText === undefined ? undefined : sanitizeRichText(input.OutroText),
    );
    change("TargetNumberOfResponses", "target_responses", row.target_responses, input.TargetNumberOfResponses);
    const flag = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);
    change(
      "IsPatientIdAutoGenerationEnabled",
      "patient_id_auto_generation",
      row.patient_id_auto_generation,
      flag(input.IsPatientIdAutoGenerationEnabled),
    );
    change("IsPatientFormEnabled", "patient_form_enabled", row.patient_form_enabled, flag(input.IsPatientFormEnabled));
    change("RequiresSignature", "requires_signature", row.requires_signature, flag(input.RequiresSignature));
    change("PatientSubmitReview", "patient_submit_review", row.patient_submit_review, flag(input.PatientSubmitReview));
    change(
      "PreliminaryByPatient",
      "preliminary_by_patient",
      row.preliminary_by_patient,
      flag(input.PreliminaryByPatient),
    );
    // 0 keeps the cases: stored as null (docs/decisions/042-retention-and-erasure.md).
    change(
      "RetentionMonths",
      "retention_months",
      row.retention_months,
      input.RetentionMonths === undefined ? undefined : input.RetentionMonths || null,
    );
    // A title turns the total score on, null turns it off (docs/decisions/051-instrument-scores.md).
    change("ScoreTitle", "score_title", row.score_title, input.ScoreTitle);
    change(
      "Instrument",
      "instrument",
      row.instrument,
      input.Instrument === undefined ? undefined : storedInstrument(input.Instrument),
    );

    // The source language is never among the offered ones (docs/decisions/054-content-languages.md).
    const source = input.SourceLanguage ?? sourceLanguageOf(row.source_language);
    change("SourceLanguage", "source_language", row.source_language, input.SourceLanguage);
    const offered = languagesOf(row.languages);
    const languages = storedLanguages(input.Languages ?? offered).filter((l) => l !== source);
    if (languages.join() !== offered.join()) {
      before.Languages = offered;
      after.Languages = languages;
      set.languages = JSON.stringify(languages);
    }

    const toIso = (v: string | undefined) => (v === undefined ? undefined : v === "" ? null : wireToIsoDate(v));
    const start = toIso(input.StartDate);
    let end = toIso(input.EndDate);
    const nextStart = start === undefined ? row.start_date : start;
    let nextEnd = end === undefined ? row.end_date : end;
    if (nextStart && nextEnd && nextEnd < nextStart) {
      // Moving the start past the end pushes the end; an end given before the start is refused.
      if (end !== undefined) throw new AppError("VALIDATION_ERROR", "The end date cannot be before the start date");
      end = nextStart;
      nextEnd = nextStart;
    }
    change("StartDate", "start_date", row.start_date, start);
    change("EndDate", "end_date", row.end_date, end === undefined ? undefined : nextEnd);

    if (Object.keys(set).length > 0) {
      await trx.updateTable("surveys").set(set).where("id", "=", surveyId).execute();
    }

    if (input.TagIds !== undefined) {
      const wanted = [...new Set(input.TagIds)].sort((a, b) => a - b);
      const current = (
        await trx
          .selectFrom("survey_tags")
          .select("tag_id")
          .where("survey_id", "=", surveyId)
          .orderBy("tag_id")
          .execute()
      ).map((r) => r.tag_id);
      if (wanted.join() !== current.join()) {
        const known = wanted.length
          ? await trx.selectFrom("tags").select("id").where("id", "in", wanted).execute()
          : [];
        if (known.length !== wanted.length) throw new AppError("VALIDATION_ERROR", "Unknown tag");
        await trx.deleteFrom("survey_tags").where("survey_id", "=", surveyId).execute();
        if (wanted.length)
          await trx
            .insertInto("survey_tags")
            .values(wanted.map((tag_id) => ({ survey_id: surveyId, tag_id })))
            .execute();
        before.TagIds = current;
        after.TagIds = wanted;
      }
    }

    for (const [field, kind, key] of kinds) {
      const value = input[field];
      if (value === undefined) continue;
      const wanted = [...new Set(value)].sort((a, b) => a - b);
      const current = [...teams[key]].sort((a, b) => a - b);
      if (wanted.join() === current.join()) continue;
      await assertTeamsSelectable(trx, wanted, current);
      await trx
        .deleteFrom("survey_team_permissions")
        .where("survey_id", "=", surveyId)
        .where("kind", "=", kind)
        .execute();
      if (wanted.length) {
        await trx
          .insertInto("survey_team_permissions")
          .values(wanted.map((team_id) => ({ survey_id: surveyId, team_id, kind })))
          .execute();
      }
      before[field] = current;
      after[field] = wanted;
    }

    if (Object.keys(after).length === 0) return;
    await pruneTranslations(trx, surveyId);
    await touchSurvey(trx, surveyId);
    await audit(trx, actorOf(caller), {
      action: "survey.update",
      entity: "survey",
      entityId: surveyId,
      surveyId,
      before,
      after,
    });
  });
  return getSurvey(db, caller, surveyId);
}
