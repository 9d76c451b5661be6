import { auditApi } from "~/contracts/audit";
import { surveysApi } from "~/contracts/surveys";
import { usersApi } from "~/contracts/users";
import { data } from "@remix-run/node";
import { AUDIT_TIME_ZONE, trailFilterOf, type ReadableValue } from "~/domain/audit-reading";
import type { Culture } from "~/domain/culture";
import { changesOf, entityName, type TrailNames } from "~/domain/audit-words";
import { formatDateTime } from "~/domain/dates";
import { answerText } from "~/domain/answer-text";
import { type Survey } from "~/domain/survey";
import type { Tag, Team } from "~/domain/user";
import { surveyQuestions } from "~/domain/visibility";
import { ErasureReasonSchema, type ErasedCase } from "~/domain/erasure";
import { ApiError, type ApiClient } from "./api-client.server";
import { localeFromRequest } from "./i18n.server";
import { refused } from "./refusals.server";

/** An answer as the person reads it, in their language's number format; null for no answer. */
export function valueText(value: ReadableValue | null, locale: Culture): string | null {
  if (!value) return null;
  const parts: string[] = [];
  if (value.Options) parts.push(value.Options.join(", "));
  if (value.Text !== undefined) parts.push(value.Text);
  if (value.Number !== undefined) parts.push(new Intl.NumberFormat(locale).format(value.Number));
  if (value.DateTime !== undefined) parts.push(value.DateTime);
  return parts.join(" · ");
}

export const when = (iso: string) => formatDateTime(iso, true, AUDIT_TIME_ZONE);

/**
 * A patient id whose case was erased (409 CASE_ALREADY_ERASED): when and why, as the page says it in place of
 * the case (docs/decisions/042-retention-and-erasure.md); null for any other refusal.
 */
export function erasedCase(error: unknown): ErasedCase | null {
  if (!(error instanceof ApiError) || error.type !== "CASE_ALREADY_ERASED") return null;
  const at = error.envelope.ErasedAt ?? null;
  const reason = ErasureReasonSchema.safeParse(error.envelope.Reason);
  return { atIso: at, at: at ? when(at) : null, reason: reason.success ? reason.data : null };
}

/**
 * The survey, for its approvers only: the audit trail is theirs (docs/decisions/028-audit-reading.md). Anyone
 * else gets this page's own message (status 403), with the way back to the survey, not the tool's.
 */
export async function approverSurvey(request: Request, api: ApiClient, surveyId: number) {
  const survey = await api
    .call(surveysApi.get, { params: { id: surveyId } })
    .catch((error: unknown) => refused(request, error, { back: "/surveys", notFound: "/surveys" }));
  if (!survey.Rights.CanApprove) {
    throw data(
      { forbidden: true as const, survey: { id: survey.Id, title: survey.Title, canEdit: survey.Rights.CanEdit } },
      { status: 403 },
    );
  }
  return { id: survey.Id, title: survey.Title, tree: survey };
}

/** The names the trail gives ids: the survey's parts as they are now, its teams and tags. */
function trailNames(survey: Survey, teams: Team[], tags: Tag[]): TrailNames {
  const questions = surveyQuestions(survey);
  return {
    questions: new Map(questions.map((q) => [q.Id, q.Title])),
    options: new Map(questions.flatMap((q) => q.AnswerOptions.map((o) => [o.Id, answerText(o)] as const))),
    categories: new Map(survey.Categories.map((c) => [c.Id, c.Title])),
    attributes: new Map(survey.PatientForm.map((a) => [a.Id, a.Title])),
    preliminaryOptions: new Map(survey.PatientForm.flatMap((a) => a.AnswerOptions.map((o) => [o.Id, o.Text] as const))),
    teams: new Map(teams.map((t) => [t.Id, t.Name])),
    tags: new Map(tags.map((t) => [t.Id, t.Name])),
  };
}

/** The case history page: the survey, the patient id asked for, and each question's values formatted. */
export async function loadCaseHistoryPage(request: Request, api: ApiClient, surveyId: number) {
  const { tree: _tree, ...survey } = await approverSurvey(request, api, surveyId);
  const patientId = new URL(request.url).searchParams.get("patientId")?.trim() ?? "";
  if (!patientId)
    return {
      survey,
      patientId,
      timeZone: AUDIT_TIME_ZONE,
      preliminary: null,
      questions: null,
      signatures: null,
      events: null,
      erased: null,
    };
  const locale = localeFromRequest(request);
  const history = await api.call(auditApi.caseHistory, { query: { surveyId, patientId } }).catch((error: unknown) => {
    const erased = erasedCase(error);
    if (erased) return { erased };
    return refused(request, error, {
      back: `/survey/${surveyId}/history`,
      to: { SURVEY_PATIENTID_NOT_FOUND: `/survey/${surveyId}/history` },
    });
  });
  if ("erased" in history)
    return {
      survey,
      patientId,
      timeZone: AUDIT_TIME_ZONE,
      preliminary: null,
      questions: null,
      signatures: null,
      events: null,
      erased: history.erased,
    };
  const rowsOf = (list: typeof history.Questions) =>
    list.map((q) => ({
      id: q.QuestionId,
      title: q.Title,
      entries: q.Entries.map((e, i) => ({
        key: `${e.Id}:${i}`,
        atIso: e.At,
        at: when(e.At),
        actor: e.Actor,
        source: e.Source,
        value: valueText(e.Value, locale),
      })),
    }));
  return {
    survey,
    patientId: history.PatientId,
    timeZone: AUDIT_TIME_ZONE,
    preliminary: rowsOf(history.PreliminaryQuestions),
    questions: rowsOf(history.Questions),
    signatures: history.Signatures.map((s) => ({
      id: s.Id,
      atIso: s.SignedAt,
      at: when(s.SignedAt),
      name: s.SignerName,
      meaning: s.Meaning,
    })),
    events: (history.Events ?? []).map((e) => ({
      id: e.Id,
      atIso: e.At,
      at: when(e.At),
      actor: e.Actor,
      action: e.Action,
      endedBy: e.EndedBy ?? null,
    })),
    erased: null,
  };
}

/** The survey trail page: the filter as asked, the choices for it, and one page of entries formatted. */
export async function loadSurveyTrailPage(request: Request, api: ApiClient, surveyId: number) {
  const survey = await approverSurvey(request, api, surveyId);
  const filter = trailFilterOf(new URL(request.url).searchParams);
  const [teams, tags] = await Promise.all([api.call(usersApi.teams), api.call(usersApi.tags)]);
  const names = trailNames(survey.tree, teams, tags);
  const trail = await api
    .call(auditApi.trail, {
      query: {
        surveyId,
        actor: filter.actor,
        action: filter.action,
        from: filter.from,
        to: filter.to,
        page: filter.page,
      },
    })
    .catch((error: unknown) => refused(request, error, { back: "/surveys", notFound: "/surveys" }));
  return {
    survey: { id: survey.id, title: survey.title },
    timeZone: AUDIT_TIME_ZONE,
    filter: {
      actor: filter.actor === undefined ? "" : String(filter.actor),
      action: filter.action ?? "",
      from: filter.from ?? "",
      to: filter.to ?? "",
    },
    page: trail.Page,
    pages: Math.max(1, Math.ceil(trail.Total / trail.PageSize)),
    total: trail.Total,
    actors: trail.Actors.filter((a) => a.UserId !== null).map((a) => ({ userId: a.UserId!, name: a.Name })),
    actions: trail.Actions,
    entries: trail.Entries.map((e) => ({
      id: e.Id,
      atIso: e.At,
      at: when(e.At),
      actor: e.Actor,
      action: e.Action,
      entity: { kind: e.Entity, name: entityName(e.Entity, e.EntityId, e.Before, e.After, names) },
      ...changesOf(e.Before, e.After, names, e.Entity),
    })),
  };
}
