import { sanitiseFileName } from "~/domain/statistics-rules";
import { contentDisposition } from "~/server/services/fill/attachment-links.server";
import { redirect } from "./responses.server";
import { AUDIT_TIME_ZONE } from "~/domain/audit-reading";
import { erasuresApi } from "~/contracts/erasures";
import { ErasureReasonSchema } from "~/domain/erasure";
import type { PatientData, PatientDataShown } from "~/domain/patient-data";
import type { ApiClient } from "./api-client.server";
import { approverSurvey, erasedCase, valueText, when } from "./audit-pages.server";
import { setFlash } from "./flash.server";
import { localeFromRequest } from "./i18n.server";
import { badForm, refused } from "./refusals.server";

/**
 * The patient data page (docs/decisions/042-retention-and-erasure.md): for the survey's approvers, one patient
 * id's case as a printable page with its download, and its erasure after a confirmation naming what goes.
 * The confirmation's open state lives in the URL (`erase=<reason>`), so all of it works without JavaScript.
 */
export async function loadPatientDataPage(request: Request, api: ApiClient, surveyId: number) {
  const { tree: _tree, ...survey } = await approverSurvey(request, api, surveyId);
  const url = new URL(request.url);
  const patientId = url.searchParams.get("patientId")?.trim() ?? "";
  const here = `/survey/${surveyId}/data`;
  const nothing = { survey, patientId, timeZone: AUDIT_TIME_ZONE, data: null, confirm: null, erased: null };
  if (!patientId) return nothing;
  const back = { back: here, to: { SURVEY_PATIENTID_NOT_FOUND: here, CASE_ALREADY_ERASED: here } };
  const data = await api.call(erasuresApi.patientData, { query: { surveyId, patientId } }).catch((error: unknown) => {
    // Erased: the page says when and why, under the patient id asked for.
    const erased = erasedCase(error);
    if (erased) return { erased };
    return refused(request, error, back);
  });
  if ("erased" in data) return { ...nothing, erased: data.erased };
  const reason = ErasureReasonSchema.safeParse(url.searchParams.get("erase"));
  const confirm = reason.success
    ? {
        reason: reason.data,
        preview: await api
          .call(erasuresApi.preview, { query: { surveyId, patientId } })
          .catch((error: unknown) => refused(request, error, back)),
      }
    : null;
  return {
    survey,
    patientId,
    timeZone: AUDIT_TIME_ZONE,
    data: shown(data, localeFromRequest(request)),
    confirm,
    erased: null,
  };
}

/** The data as the page shows it: values in the reader's number format, times in the audit time zone. */
function shown(data: PatientData, locale: ReturnType<typeof localeFromRequest>): PatientDataShown {
  const rows = (list: PatientData["Answers"]) =>
    list.map((a) => ({ title: a.Title, value: valueText(a.Value, locale) }));
  const history = (list: PatientData["History"]["Questions"]) =>
    list.map((q) => ({
      id: q.QuestionId,
      title: q.Title,
      entries: q.Entries.map((e, i) => ({
        key: `${e.Id}:${i}`,
        atIso: e.At,
        at: when(e.At),
        actor: e.Actor,
        value: valueText(e.Value, locale),
      })),
    }));
  return {
    state: data.State,
    createdIso: data.CreatedAt,
    created: when(data.CreatedAt),
    closedIso: data.ClosedAt,
    closed: data.ClosedAt ? when(data.ClosedAt) : null,
    preliminary: rows(data.Preliminary),
    answers: rows(data.Answers),
    attachments: data.Attachments,
    history: [...history(data.History.PreliminaryQuestions), ...history(data.History.Questions)],
    signatures: data.History.Signatures.map((s) => ({
      id: s.Id,
      atIso: s.SignedAt,
      at: when(s.SignedAt),
      name: s.SignerName,
      meaning: s.Meaning,
    })),
  };
}

/** The confirmed erasure: the API erases; the page returns to the patient id, which says when and why. */
export async function erasePatientData(request: Request, api: ApiClient, surveyId: number) {
  const form = await request.formData();
  const here = `/survey/${surveyId}/data`;
  const patientId = String(form.get("patientId") ?? "").trim();
  const reason = ErasureReasonSchema.safeParse(form.get("reason"));
  if (form.get("intent") !== "erase" || !patientId || !reason.success) return badForm(request, here);
  await api
    .call(erasuresApi.erase, { body: { SurveyId: surveyId, PatientId: patientId, Reason: reason.data } })
    .catch((error: unknown) => refused(request, error, { back: here, notFound: here }));
  const flash = { kind: "success" as const, key: "dataProtection.erased", vars: { patientId } };
  return redirect(`${here}?patientId=${encodeURIComponent(patientId)}`, {
    headers: { "Set-Cookie": await setFlash(request, flash) },
  });
}

/** The download: the same data as JSON, as a file. */
export async function patientDataDownload(request: Request, api: ApiClient, surveyId: number) {
  const patientId = new URL(request.url).searchParams.get("patientId")?.trim() ?? "";
  const here = `/survey/${surveyId}/data`;
  if (!patientId) throw redirect(here);
  const res = await api
    .raw(erasuresApi.patientData, { query: { surveyId, patientId } })
    .catch((error: unknown) => refused(request, error, { back: here, notFound: here }));
  const name = sanitiseFileName(`patient-data-${surveyId}-${patientId}`, "patient-data");
  return new Response(await res.text(), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": contentDisposition(`${name}.json`),
      "Cache-Control": "no-store",
    },
  });
}
