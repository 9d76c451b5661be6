import { redirect } from "@remix-run/node";
import {
  AUDIT_TIME_ZONE,
  CaseHistorySchema,
  SurveyTrailSchema,
  trailFilterOf,
  type ReadableValue,
} from "~/domain/audit-reading";
import type { Culture } from "~/domain/culture";
import { formatDateTime } from "~/domain/dates";
import { SurveySchema } from "~/domain/survey";
import type { ApiClient } from "./api-client.server";
import { localeFromRequest } from "./i18n.server";
import { refused } from "./refusals.server";

/** An answer as the person reads it, in their language's number format; null for no answer. */
function valueText(value: ReadableValue | null, locale: Culture): string | null {
  if (!value) return null;
  const parts: string[] = [];
  if (value.Options) parts.push(value.Options.join(", "));
  if (value.Text !== undefined) parts.push(value.Text);
  if (value.Number !== undefined) parts.push(new Intl.NumberFormat(locale).format(value.Number));
  if (value.DateTime !== undefined) parts.push(value.DateTime);
  return parts.join(" · ");
}

const when = (iso: string) => formatDateTime(iso, true, AUDIT_TIME_ZONE);

/** The survey, for its approvers only: the audit trail is theirs (docs/decisions/028-audit-reading.md). */
async function approverSurvey(request: Request, api: ApiClient, surveyId: number) {
  const survey = await api
    .get(`/surveys/${surveyId}`, { schema: SurveySchema })
    .catch((error: unknown) => refused(request, error, { back: "/surveys", notFound: "/surveys" }));
  if (!survey.Rights.CanApprove) throw redirect("/403");
  return { id: survey.Id, title: survey.Title };
}

/** The case history page: the survey, the patient id asked for, and each question's values formatted. */
export async function loadCaseHistoryPage(request: Request, api: ApiClient, surveyId: number) {
  const survey = await approverSurvey(request, api, surveyId);
  const patientId = new URL(request.url).searchParams.get("patientId")?.trim() ?? "";
  if (!patientId)
    return { survey, patientId, timeZone: AUDIT_TIME_ZONE, preliminary: null, questions: null, signatures: null };
  const locale = localeFromRequest(request);
  const history = await api
    .get("/audit-log/case-history", { query: { surveyId, patientId }, schema: CaseHistorySchema })
    .catch((error: unknown) =>
      refused(request, error, {
        back: `/survey/${surveyId}/history`,
        to: { SURVEY_PATIENTID_NOT_FOUND: `/survey/${surveyId}/history` },
      }),
    );
  const rowsOf = (list: typeof history.Questions) =>
    list.map((q) => ({
      id: q.QuestionId,
      title: q.Title,
      entries: q.Entries.map((e, i) => ({
        key: `${e.Id}:${i}`,
        atIso: e.At,
        at: when(e.At),
        name: e.Actor.Name,
        userId: e.Actor.UserId,
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
  };
}

/** A stored JSON value, short enough for a table cell. */
function shortJson(text: string | null): string {
  if (text === null || text === "null") return "";
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

/** The survey trail page: the filter as asked, the choices for it, and one page of entries formatted. */
export async function loadSurveyTrailPage(request: Request, api: ApiClient, surveyId: number) {
  const survey = await approverSurvey(request, api, surveyId);
  const filter = trailFilterOf(new URL(request.url).searchParams);
  const trail = await api
    .get("/audit-log/trail", {
      query: {
        surveyId,
        actor: filter.actor,
        action: filter.action,
        from: filter.from,
        to: filter.to,
        page: filter.page,
      },
      schema: SurveyTrailSchema,
    })
    .catch((error: unknown) => refused(request, error, { back: "/surveys", notFound: "/surveys" }));
  return {
    survey,
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
      name: e.Actor.Name,
      userId: e.Actor.UserId,
      action: e.Action,
      entity: e.EntityId ? `${e.Entity} ${e.EntityId}` : e.Entity,
      before: shortJson(e.Before),
      after: shortJson(e.After),
    })),
  };
}
