import { answerText } from "~/domain/answer-text";
import {
  AUDIT_TIME_ZONE,
  HANDOVER_EVENTS,
  TRAIL_PAGE_SIZE,
  dayStartIn,
  type AnswerSource,
  type AuditActor,
  type CaseEvent,
  type CaseHistory,
  type QuestionHistory,
  type ReadableValue,
  type SurveyTrail,
  type TrailFilter,
} from "~/domain/audit-reading";
import { AppError } from "~/domain/errors";
import { isHandoverEndedBy } from "~/domain/handover";
import { respondentOfActor } from "~/domain/respondents";
import type { QuestionResponse } from "~/domain/fill-requests";
import type { Question } from "~/domain/survey";
import type { DB } from "~/server/db/types.server";
import { audit } from "./audit.server";
import { surveyStructure } from "./fill/structure.server";
import { requireSurvey, type SurveyAccess } from "./survey-access.server";
import { actorOf, type SurveyCaller } from "./surveys.server";
import { signaturesOf } from "./fill/signatures.server";
import { noCase } from "./erasure/erasure-requests.server";

/**
 * Reading the audit trail in the app (docs/decisions/028-audit-reading.md): a case's answer history and a
 * survey's trail, for the survey's approvers, the people who may export its audit log (decision 014).
 */

/** The audit actions that set or clear a question's answer, and how the answer came. */
const ANSWER_ACTIONS: Record<string, AnswerSource> = {
  "response.record": "online",
  "response.delete": "online",
  "response.sync": "sync",
};

/** The same for preliminary questions. */
const PRELIMINARY_ACTIONS: Record<string, AnswerSource> = {
  "attributeResponse.record": "online",
  "attributeResponse.delete": "online",
  "attributeResponse.sync": "sync",
};

async function requireAuditReader(db: DB, caller: SurveyCaller, surveyId: number): Promise<SurveyAccess> {
  const access = await requireSurvey(db, caller, surveyId, "see");
  if (!access.rights.CanApprove) throw new AppError("FORBIDDEN", "Only the survey's approvers read its audit trail");
  return access;
}

/** Logs that someone read a case's answers; the row joins the survey's audit chain (decision 027). */
export function auditReading(
  db: DB,
  caller: SurveyCaller,
  entry: { action: string; surveyId: number; patientDataId?: number | null; after?: unknown },
): Promise<void> {
  return audit(db, actorOf(caller), {
    action: entry.action,
    entity: entry.patientDataId ? "patient_data" : "survey",
    entityId: entry.patientDataId ?? entry.surveyId,
    surveyId: entry.surveyId,
    patientDataId: entry.patientDataId ?? null,
    after: entry.after,
  });
}

function readable(answer: QuestionResponse | null | undefined, question: Question | undefined): ReadableValue | null {
  if (!answer) return null;
  const out: ReadableValue = {};
  const ids = answer.AnswerOptionIds ?? (answer.AnswerOptionId != null ? [answer.AnswerOptionId] : []);
  if (ids.length > 0) {
    const options = new Map(question?.AnswerOptions.map((o) => [o.Id, answerText(o)]) ?? []);
    out.Options = ids.map((id) => options.get(id) ?? `#${id}`);
  }
  if (answer.TextResponse != null) out.Text = answer.TextResponse;
  if (answer.NumericalResponse != null) out.Number = answer.NumericalResponse;
  if (answer.DateTimeResponse != null) out.DateTime = answer.DateTimeResponse;
  return Object.keys(out).length > 0 ? out : null;
}

function parse(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

const actorName = (name: string | null | undefined) => (name ? name : null);

/** A row's actor: the user's name and, where the patient wrote it (actor `link:N`, `handover:N`), who. */
export function actorOfRow(row: {
  actor_user_id: number | null;
  full_name?: string | null;
  actor_sub: string | null;
}): AuditActor {
  const respondent = respondentOfActor(row.actor_sub);
  return {
    UserId: row.actor_user_id,
    Name: actorName(row.full_name),
    Respondent:
      respondent?.kind === "link"
        ? { Kind: "link", Id: respondent.linkId }
        : respondent?.kind === "handover"
          ? { Kind: "handover", Id: respondent.staffUserId }
          : null,
  };
}

/** The case's own steps the history shows besides the answers. */
const CASE_EVENTS = ["case.patientSubmit", "case.close", "case.autoClose", ...HANDOVER_EVENTS] as const;

/**
 * GET /audit-log/case-history: every value each question of a case had, oldest first, who set it, when and
 * whether online or by a sync. Reading it is logged as "case.history.view" before the rows are read (as
 * "case.data.view" when it is part of showing a patient their data, decision 042).
 */
export async function caseHistoryOf(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  patientId: string,
  logAs: "case.history.view" | "case.data.view" = "case.history.view",
  /** The erasure key: a patient id whose case was erased is answered as such (decision 042). */
  erasureKey?: string,
): Promise<CaseHistory> {
  const access = await requireAuditReader(db, caller, surveyId);
  const cases = await db
    .selectFrom("patient_data")
    .select("id")
    .where("survey_id", "=", surveyId)
    .where("patient_id", "=", patientId)
    .orderBy("id")
    .execute();
  if (cases.length === 0) {
    if (erasureKey) return noCase(db, erasureKey, surveyId, patientId);
    throw new AppError("SURVEY_PATIENTID_NOT_FOUND", `No case ${patientId} in this survey`);
  }
  const caseIds = cases.map((c) => c.id);
  await auditReading(db, caller, {
    action: logAs,
    surveyId,
    patientDataId: caseIds[caseIds.length - 1],
    after: { PatientId: patientId },
  });
  const rows = await db
    .selectFrom("audit_log as a")
    .leftJoin("users as u", "u.id", "a.actor_user_id")
    .select(["a.id", "a.at", "a.action", "a.entity_id", "a.actor_user_id", "a.actor_sub", "u.full_name", "a.after"])
    .where("a.survey_id", "=", surveyId)
    .where("a.patient_data_id", "in", caseIds)
    .where("a.action", "in", [...Object.keys(ANSWER_ACTIONS), ...Object.keys(PRELIMINARY_ACTIONS), ...CASE_EVENTS])
    .orderBy("a.id")
    .execute();
  const structure = await surveyStructure(db, access);
  const byQuestion = new Map<number, QuestionHistory>();
  const entryOf = (questionId: number) => {
    let history = byQuestion.get(questionId);
    if (!history) {
      history = {
        QuestionId: questionId,
        Title: structure.questions.get(questionId)?.Title ?? `#${questionId}`,
        Entries: [],
      };
      byQuestion.set(questionId, history);
    }
    return history;
  };
  const preliminary = new Map<number, QuestionHistory>();
  const preliminaryOf = (attributeId: number) => {
    let history = preliminary.get(attributeId);
    if (!history) {
      const title = structure.attributes.get(attributeId)?.Title ?? `#${attributeId}`;
      history = { QuestionId: attributeId, Title: title, Entries: [] };
      preliminary.set(attributeId, history);
    }
    return history;
  };
  const events: CaseEvent[] = [];
  for (const row of rows) {
    if ((CASE_EVENTS as readonly string[]).includes(row.action)) {
      const endedBy = (parse(row.after) as { EndedBy?: unknown } | null)?.EndedBy;
      events.push({
        Id: row.id,
        At: row.at,
        Actor: actorOfRow(row),
        Action: row.action as CaseEvent["Action"],
        ...(isHandoverEndedBy(endedBy) ? { EndedBy: endedBy } : {}),
      });
      continue;
    }
    const entityId = Number(row.entity_id);
    if (!Number.isInteger(entityId)) continue;
    const after = parse(row.after) as {
      answer?: QuestionResponse | null;
      PatientFormAnswerOptionId?: number | null;
      removedQuestionIds?: number[];
    } | null;
    const isPreliminary = row.action in PRELIMINARY_ACTIONS;
    const base = {
      At: row.at,
      Actor: actorOfRow(row),
      Source: isPreliminary ? PRELIMINARY_ACTIONS[row.action] : ANSWER_ACTIONS[row.action],
      Action: row.action,
    };
    if (isPreliminary) {
      const optionId = after?.PatientFormAnswerOptionId ?? null;
      const option = structure.attributes.get(entityId)?.AnswerOptions.find((o) => o.Id === optionId);
      preliminaryOf(entityId).Entries.push({
        Id: row.id,
        ...base,
        Value: optionId === null ? null : { Options: [option?.Text ?? `#${optionId}`] },
      });
    } else {
      entryOf(entityId).Entries.push({
        Id: row.id,
        ...base,
        Value: readable(after?.answer, structure.questions.get(entityId)),
      });
    }
    // Questions that the new choice hid (sub-questions, or those a preliminary answer shows) lost their answers.
    for (const removed of after?.removedQuestionIds ?? []) {
      entryOf(removed).Entries.push({ Id: row.id, ...base, Value: null });
    }
  }
  const order = new Map([...structure.questions.keys()].map((id, i) => [id, i]));
  const rank = (id: number) => order.get(id) ?? Number.MAX_SAFE_INTEGER;
  const questions = [...byQuestion.values()].sort(
    (a, b) => rank(a.QuestionId) - rank(b.QuestionId) || a.QuestionId - b.QuestionId,
  );
  const attributeOrder = new Map([...structure.attributes.keys()].map((id, i) => [id, i]));
  const attributeRank = (id: number) => attributeOrder.get(id) ?? Number.MAX_SAFE_INTEGER;
  const preliminaryQuestions = [...preliminary.values()].sort(
    (a, b) => attributeRank(a.QuestionId) - attributeRank(b.QuestionId) || a.QuestionId - b.QuestionId,
  );
  return {
    SurveyId: surveyId,
    PatientId: patientId,
    PreliminaryQuestions: preliminaryQuestions,
    Questions: questions,
    Signatures: await signaturesOf(db, caseIds),
    Events: events,
  };
}

/**
 * GET /audit-log/trail: the survey's audit rows that belong to no case (its structure, status, team rights,
 * exports), newest first, filtered by person, action and days (in AUDIT_TIME_ZONE), a page at a time.
 */
export async function surveyTrailOf(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  filter: TrailFilter,
): Promise<SurveyTrail> {
  await requireAuditReader(db, caller, surveyId);
  const base = db
    .selectFrom("audit_log as a")
    .where("a.survey_id", "=", surveyId)
    // A hand-over's start and end belong to its case, and are the survey's steps too (decision 058).
    .where((eb) => eb.or([eb("a.patient_data_id", "is", null), eb("a.action", "in", HANDOVER_EVENTS)]));
  let query = base;
  if (filter.actor !== undefined) query = query.where("a.actor_user_id", "=", filter.actor);
  if (filter.action) query = query.where("a.action", "=", filter.action);
  if (filter.from) query = query.where("a.at", ">=", dayStartIn(filter.from, AUDIT_TIME_ZONE));
  if (filter.to) query = query.where("a.at", "<", dayStartIn(filter.to, AUDIT_TIME_ZONE, 1));
  const total = await query.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const page = filter.page ?? 1;
  const rows = await query
    .leftJoin("users as u", "u.id", "a.actor_user_id")
    .select([
      "a.id",
      "a.at",
      "a.actor_user_id",
      "a.actor_sub",
      "u.full_name",
      "a.action",
      "a.entity",
      "a.entity_id",
      "a.before",
      "a.after",
    ])
    .orderBy("a.id", "desc")
    .limit(TRAIL_PAGE_SIZE)
    .offset((page - 1) * TRAIL_PAGE_SIZE)
    .execute();
  const actors = await base
    .leftJoin("users as u", "u.id", "a.actor_user_id")
    .select(["a.actor_user_id", "u.full_name"])
    .distinct()
    .execute();
  const actions = await base.select("a.action").distinct().orderBy("a.action").execute();
  return {
    Entries: rows.map((r) => ({
      Id: r.id,
      At: r.at,
      Actor: actorOfRow(r),
      Action: r.action,
      Entity: r.entity,
      EntityId: r.entity_id,
      Before: r.before,
      After: r.after,
    })),
    Total: Number(total.n),
    Page: page,
    PageSize: TRAIL_PAGE_SIZE,
    Actors: actors
      .map((a) => ({ UserId: a.actor_user_id, Name: actorName(a.full_name) }))
      .sort((a, b) => (a.Name ?? "").localeCompare(b.Name ?? "") || (a.UserId ?? 0) - (b.UserId ?? 0)),
    Actions: actions.map((a) => a.action),
  };
}
