import { form, PNG } from "./fill-files";
import type { World } from "./endpoint-world";

/**
 * Every endpoint of the API, once: a valid request for it (against the endpoint world) and the status each
 * demo role gets for that request when the survey's teams leave nobody out. The access walk and the fuzzing
 * both read this table; a route of the router without a row here fails the access walk.
 *
 * Columns of `access`: editor, approver, admin, user. Everyone else is the same for every endpoint:
 * no credentials, a foreign token or a token for another audience 401; a person without the tool's role or
 * who has not accepted the terms 403 (public endpoints answer everyone). A request that destroys or moves
 * what it names makes its own target first, so every cell starts from the same world.
 */

export interface Probe {
  /** The path under /api with its parameters filled in. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** A multipart body instead of JSON (uploads). */
  form?: () => FormData;
}

export interface Endpoint {
  /** "METHOD /path/:param" as the router declares it. */
  route: string;
  access: { editor: number; approver: number; admin: number; user: number };
  /** Not about one survey: the survey's teams do not change the answer. */
  global: boolean;
  public: boolean;
  /** Refused by role before the survey is looked at: the same 403 whatever the survey's teams. */
  byRole: boolean;
  probe(w: World): Probe | Promise<Probe>;
}

function row(
  route: string,
  access: string,
  probe: Endpoint["probe"],
  flags: { global?: boolean; public?: boolean; byRole?: boolean } = {},
): Endpoint {
  const [editor, approver, admin, user] = access.split(/\s+/).map(Number);
  const access_ = { editor, approver, admin, user };
  return { route, access: access_, global: !!flags.global, public: !!flags.public, byRole: !!flags.byRole, probe };
}

const reorder = (surveyId: number) => ({ newPosition: "0", surveyId: String(surveyId) });
const answer = (w: World, patientId = w.openPatient) => ({ SurveyId: w.heart, PatientId: patientId });
const filters = { Filters: {} };

// One row per endpoint, kept on one line each so that the table reads as a table.
// prettier-ignore
export const endpoints: Endpoint[] = [
  row("GET /health", "200 200 200 200", () => ({ path: "/health" }), { global: true, public: true }),
  row("GET /health/live", "200 200 200 200", () => ({ path: "/health/live" }), { global: true, public: true }),
  row("GET /health/ready", "200 200 200 200", () => ({ path: "/health/ready" }), { global: true, public: true }),
  // Off while METRICS_TOKEN is unset, as in these tests (tests/server/metrics.test.ts scrapes it with its token).
  row("GET /metrics", "404 404 404 404", () => ({ path: "/metrics" }), { global: true, public: true }),
  row("GET /users/current", "200 200 200 200", () => ({ path: "/users/current" }), { global: true }),
  row("GET /users/current/offline-key", "200 200 200 200", () => ({ path: "/users/current/offline-key" }), { global: true }),
  row("POST /users/current/culture", "204 204 204 204", () => ({ path: "/users/current/culture", query: { culture: "de-DE" } }), { global: true }),
  row("GET /teams", "200 200 200 200", () => ({ path: "/teams" }), { global: true }),
  row("GET /tags", "200 200 200 200", () => ({ path: "/tags" }), { global: true }),

  // Surveys
  row("GET /surveys", "200 200 200 200", () => ({ path: "/surveys", query: { take: "10", skip: "0", filterString: "Herz", Archived: "false" } }), { global: true }),
  row("GET /surveys/benchmarkable", "200 200 200 200", (w) => ({ path: "/surveys/benchmarkable", query: { surveyId: String(w.heart), filterString: "Herz" } })),
  row("GET /surveys/:id", "200 200 200 200", (w) => ({ path: `/surveys/${w.heart}` })),
  row("POST /surveys", "201 403 201 403", () => ({ path: "/surveys", body: { Title: "Neu" } }), { global: true }),
  row("PUT /surveys/:id", "200 403 200 404", (w) => ({ path: `/surveys/${w.draft}`, body: { Description: "Beschreibung", IntroText: "<p>Hallo</p>" } })),
  row("POST /surveys/:id/archive", "204 403 204 404", async (w) => ({ path: `/surveys/${await w.newSurvey()}/archive` })),
  row("POST /surveys/:id/archive/restore", "204 403 204 404", async (w) => ({ path: `/surveys/${await w.newSurvey("archived")}/archive/restore` })),
  row("DELETE /surveys/:id/archive", "204 403 204 404", async (w) => ({ path: `/surveys/${await w.newSurvey("archived")}/archive` })),
  row("POST /surveys/fhir-import", "200 403 200 403", () => ({ path: "/surveys/fhir-import", query: { preview: "true" }, body: { resourceType: "Questionnaire", status: "draft", title: "Neu", item: [{ linkId: "a", type: "string", text: "Frage" }] } }), { global: true }),
  row("POST /surveys/:id/clone", "201 403 201 403", (w) => ({ path: `/surveys/${w.heart}/clone` }), { byRole: true }),
  row("PUT /surveys/:id/translations/:language", "200 403 200 404", async (w) => {
    await w.admin("PUT", `/surveys/${w.draft}`, { Languages: ["tr"] });
    return { path: `/surveys/${w.draft}/translations/tr`, body: { Texts: [{ Key: "Title", Text: "Yeni" }] } };
  }),
  row("POST /surveys/:id/approve", "403 204 204 404", async (w) => ({ path: `/surveys/${await w.newSurvey()}/approve` })),
  row("PUT /surveys/:id/change-status", "403 204 204 403", async (w) => ({ path: `/surveys/${await w.newSurvey("active")}/change-status`, query: { newStatusId: "3" } })),

  // Editing a Draft survey
  row("POST /categories", "201 403 201 404", (w) => ({ path: "/categories", body: { SurveyId: w.draft, Title: "Kategorie" } })),
  row("PUT /categories/:id", "200 403 200 404", (w) => ({ path: `/categories/${w.draftCategory}`, body: { SurveyId: w.draft, Title: "Umbenannt" } })),
  row("DELETE /categories", "204 403 204 404", async (w) => {
    const { Id } = await w.admin("POST", "/categories", { SurveyId: w.draft, Title: "Weg" });
    return { path: "/categories", query: { categoryId: String(Id), surveyId: String(w.draft) } };
  }),
  row("POST /categories/:id/reorder", "204 403 204 404", (w) => ({ path: `/categories/${w.draftCategory}/reorder`, query: reorder(w.draft) })),
  row("POST /questions", "201 403 201 404", (w) => ({ path: "/questions", body: { SurveyId: w.draft, CategoryId: w.draftCategory, Type: "FreeText", Title: "Frage" } })),
  row("PUT /questions/:id", "200 403 200 404", (w) => ({ path: `/questions/${w.draftQuestion}`, body: { SurveyId: w.draft, Title: "Frage neu" } })),
  row("DELETE /questions/:id", "204 403 204 404", async (w) => {
    const { Id } = await w.admin("POST", "/questions", { SurveyId: w.draft, CategoryId: w.draftCategory, Type: "FreeText", Title: "Weg" });
    return { path: `/questions/${Id}`, query: { surveyId: String(w.draft) } };
  }),
  row("POST /questions/reorder/:id", "204 403 204 404", (w) => ({ path: `/questions/reorder/${w.draftQuestion}`, query: reorder(w.draft) })),
  row("POST /answer-options", "201 403 201 404", (w) => ({ path: "/answer-options", body: { SurveyId: w.draft, QuestionId: w.draftQuestion, Text: `C ${Math.random().toString(36).slice(2, 8)}` } })),
  row("PUT /answer-options/:id", "200 403 200 404", (w) => ({ path: `/answer-options/${w.draftOption}`, body: { SurveyId: w.draft, Text: "A neu", Value: "1" } })),
  row("DELETE /answer-options/:id", "204 403 204 404", async (w) => {
    const { Id } = await w.admin("POST", "/answer-options", { SurveyId: w.draft, QuestionId: w.draftQuestion, Text: `Weg ${Math.random().toString(36).slice(2, 8)}` });
    return { path: `/answer-options/${Id}`, query: { surveyId: String(w.draft) } };
  }),
  row("POST /answer-options/:id/reorder", "204 403 204 404", (w) => ({ path: `/answer-options/${w.draftOption}/reorder`, query: reorder(w.draft) })),
  row("POST /answer-options/:id/sub-question", "201 403 201 404", (w) => ({ path: `/answer-options/${w.draftOption}/sub-question`, body: { SurveyId: w.draft, Type: "Numerical", Title: "Wie viel?", Unit: "kg" } })),
  row("POST /patient-attributes/", "201 403 201 404", (w) => ({ path: "/patient-attributes/", body: { SurveyId: w.draft, Title: "Alter", AnswerOptions: [{ Text: "jung" }] } })),
  row("POST /patient-attributes", "201 403 201 404", (w) => ({ path: "/patient-attributes", body: { SurveyId: w.draft, Title: "Alter", AnswerOptions: [{ Text: "alt", Value: "2" }] } })),
  row("PUT /patient-attributes/:id", "200 403 200 404", (w) => ({ path: `/patient-attributes/${w.draftAttribute}`, body: { SurveyId: w.draft, Title: "Station neu" } })),
  row("DELETE /patient-attributes/:id", "204 403 204 404", async (w) => {
    const { Id } = await w.admin("POST", "/patient-attributes", { SurveyId: w.draft, Title: "Weg", AnswerOptions: [{ Text: "x" }] });
    return { path: `/patient-attributes/${Id}`, query: { surveyId: String(w.draft) } };
  }),
  row("POST /patient-attributes/reorder/:id", "204 403 204 404", (w) => ({ path: `/patient-attributes/reorder/${w.draftAttribute}`, query: reorder(w.draft) })),
  row("POST /patient-attributes/answer-options/reorder/:id", "204 403 204 404", (w) => ({ path: `/patient-attributes/answer-options/reorder/${w.draftAttributeOption}`, query: reorder(w.draft) })),

  // Filling an Active survey
  row("GET /patients/autocomplete", "200 200 200 200", (w) => ({ path: "/patients/autocomplete", query: { patientId: "FZ", surveyId: String(w.heart) } })),
  row("GET /patients/latest", "200 200 200 200", (w) => ({ path: "/patients/latest", query: { count: "10", surveyId: String(w.heart) } })),
  row("GET /patients", "200 200 200 200", (w) => ({ path: "/patients", query: { patientId: w.openPatient, surveyId: String(w.heart) } })),
  row("POST /patients/add", "201 201 201 201", (w) => ({ path: "/patients/add", query: { patientId: w.patientId(), surveyId: String(w.heart) } })),
  row("POST /patients/language", "204 204 204 204", async (w) => {
    const patientId = w.patientId();
    await w.newCase(patientId);
    return { path: "/patients/language", query: { patientId, surveyId: String(w.heart) }, body: { Language: "de" } };
  }),
  row("POST /patients/close", "204 204 204 204", async (w) => {
    const patientId = w.patientId();
    await w.newCase(patientId);
    return { path: "/patients/close", query: { patientId, surveyId: String(w.heart) } };
  }),
  // Patients' links (decision 057): those who fill the survey; revoking and renewing make their own link.
  row("POST /patient-links", "201 201 201 201", (w) => ({ path: "/patient-links", body: { SurveyId: w.heart, PatientId: w.patientId() } })),
  row("GET /patient-links", "200 200 200 200", (w) => ({ path: "/patient-links", query: { surveyId: String(w.heart), patientId: w.openPatient } })),
  row("POST /patient-links/:id/revoke", "200 200 200 200", async (w) => {
    const made = await w.admin("POST", "/patient-links", { SurveyId: w.heart, PatientId: w.patientId() });
    return { path: `/patient-links/${made.Link.Id}/revoke` };
  }),
  row("POST /patient-links/:id/renew", "201 201 201 201", async (w) => {
    const made = await w.admin("POST", "/patient-links", { SurveyId: w.heart, PatientId: w.patientId() });
    return { path: `/patient-links/${made.Link.Id}/renew`, body: { ExpiryDays: 3 } };
  }),
  // The hand-over (decision 058) is a signed-in session's: a bearer token is refused whoever holds it.
  row("POST /handover/start", "403 403 403 403", (w) => ({ path: "/handover/start", body: { SurveyId: w.heart, PatientId: w.openPatient, ReturnHash: "0".repeat(64) } }), { byRole: true }),
  row("GET /handover/current", "200 200 200 200", () => ({ path: "/handover/current" }), { global: true }),
  row("POST /handover/end", "403 403 403 403", () => ({ path: "/handover/end", body: { ReturnToken: "t" } }), { byRole: true }),
  ...["/attribute-responses", "/attribute-responses/"].flatMap((path) => [
    row(`POST ${path}`, "200 200 200 200", (w) => ({ path, body: { ...answer(w), PatientFormAttributeId: w.attribute, PatientFormAnswerOptionId: w.attributeOption } })),
    row(`GET ${path}`, "200 200 200 200", (w) => ({ path, query: { surveyId: String(w.heart), patientId: w.openPatient } })),
  ]),
  row("POST /question-responses/single-selection", "200 200 200 200", (w) => ({ path: "/question-responses/single-selection", body: { ...answer(w), QuestionId: w.single, AnswerOptionId: w.singleOption } })),
  row("POST /question-responses/multiple-selection", "200 200 200 200", (w) => ({ path: "/question-responses/multiple-selection", body: { ...answer(w), QuestionId: w.multiple, AnswerOptionIds: [] } })),
  row("POST /question-responses/free-text", "200 200 200 200", (w) => ({ path: "/question-responses/free-text", body: { ...answer(w), QuestionId: w.freeText, TextResponse: "Husten" } })),
  row("POST /question-responses/date-time", "200 200 200 200", (w) => ({ path: "/question-responses/date-time", body: { ...answer(w), QuestionId: w.dateTime, DateTimeResponse: "01.02.2026 10:30" } })),
  row("POST /question-responses/numerical", "200 200 200 200", (w) => ({ path: "/question-responses/numerical", body: { ...answer(w), QuestionId: w.numerical, NumericalResponse: 72.5 } })),
  row("DELETE /question-responses/question", "200 200 200 200", (w) => ({ path: "/question-responses/question", body: { ...answer(w), QuestionId: w.numerical } })),
  ...["/question-responses", "/question-responses/"].map((path) =>
    row(`GET ${path}`, "200 200 200 200", (w) => ({ path, query: { surveyId: String(w.heart), patientId: w.openPatient } })),
  ),

  // Files of a case
  row("GET /file-attachments", "200 200 200 200", (w) => ({ path: "/file-attachments", query: { questionId: String(w.dateTime), patientDataId: String(w.closedCase) } })),
  row("GET /file-attachments/count", "200 200 200 200", (w) => ({ path: "/file-attachments/count", query: { patientDataId: String(w.closedCase) } })),
  row("POST /file-attachments/upload", "200 200 200 200", async (w) => ({
    path: "/file-attachments/upload",
    query: { questionId: String(w.dateTime), patientDataId: String(await w.newCase()), surveyId: String(w.heart) },
    form: () => form(["bild.png", PNG]),
  })),
  row("DELETE /file-attachments/delete", "204 204 204 204", async (w) => {
    const file = await w.newFile();
    return { path: "/file-attachments/delete", query: { questionId: String(w.dateTime), patientDataId: String(file.caseId) }, body: { fileName: file.name } };
  }),
  row("GET /file-attachments/get-sas-blob-url", "200 200 200 200", (w) => ({ path: "/file-attachments/get-sas-blob-url", query: { surveyFileAttachmentId: String(w.closedFile) } })),
  row("GET /file-attachments/download", "200 200 200 200", async (w) => {
    const { Url } = await w.admin("GET", `/file-attachments/get-sas-blob-url?surveyFileAttachmentId=${w.closedFile}`);
    return { path: "/file-attachments/download", query: { token: new URL(Url).searchParams.get("token")! } };
  }, { global: true, public: true }),
  row("POST /survey-offline-sync/:surveyId", "200 200 200 200", async (w) => {
    const { Hash } = await w.admin("GET", `/surveys/${w.heart}`);
    return {
      path: `/survey-offline-sync/${w.heart}`,
      body: { PatientId: w.patientId(), SurveyHash: Hash, QuestionAnswers: [{ QuestionId: w.freeText, TextResponse: "offline" }], PreliminaryQuestionAnswers: [] },
    };
  }),

  // Statistics: the survey's editors and approvers
  row("POST /statistics/:surveyId", "200 200 200 403", (w) => ({ path: `/statistics/${w.heart}`, query: { benchmarkSurveyId: String(w.clone) }, body: {} })),
  row("POST /statistics/:surveyId/patient-ids", "200 200 200 403", (w) => ({ path: `/statistics/${w.heart}/patient-ids`, body: { StartDateTime: "01.01.2000" } })),
  row("POST /statistics/:surveyId/csv", "200 200 200 403", (w) => ({ path: `/statistics/${w.heart}/csv`, body: {} })),
  row("POST /statistics/:surveyId/fhir", "200 200 200 403", (w) => ({ path: `/statistics/${w.heart}/fhir`, query: { format: "bundle" }, body: {} })),
  row("GET /surveys/:surveyId/fhir/questionnaire", "200 200 200 403", (w) => ({ path: `/surveys/${w.heart}/fhir/questionnaire` })),
  row("GET /surveys/:surveyId/fhir/questionnaire-response", "200 200 200 403", (w) => ({ path: `/surveys/${w.heart}/fhir/questionnaire-response`, query: { patientId: w.closedPatient } })),
  row("POST /statistics/:surveyId/free-text/:questionId", "200 200 200 403", (w) => ({ path: `/statistics/${w.heart}/free-text/${w.freeText}`, query: { take: "15", skip: "0", filterString: "Sch" }, body: {} })),
  row("GET /statisticsFilterData", "200 200 200 403", (w) => ({ path: "/statisticsFilterData", query: { surveyId: String(w.heart) } })),
  row("POST /file-attachments/get-by-question-id/:id", "200 200 200 403", (w) => ({ path: `/file-attachments/get-by-question-id/${w.dateTime}`, query: { surveyId: String(w.heart) }, body: {} })),
  row("POST /file-attachments/get-archived", "200 200 200 403", (w) => ({ path: "/file-attachments/get-archived", body: { QuestionId: w.dateTime, SurveyFileAttachmentIds: [w.closedFile] } })),
  row("POST /statistics-dashboards/get-by-survey-id/:id", "200 200 200 403", (w) => ({ path: `/statistics-dashboards/get-by-survey-id/${w.heart}`, body: filters })),
  row("GET /statistics-dashboards/supported-chart-types", "200 200 200 200", () => ({ path: "/statistics-dashboards/supported-chart-types" }), { global: true }),
  row("POST /statistics-dashboards/:id/benchmark/:surveyId", "200 200 200 403", (w) => ({ path: `/statistics-dashboards/${w.dashboard}/benchmark/${w.clone}`, body: filters })),
  row("POST /statistics-dashboards/:id/charts/add", "200 200 200 403", (w) => ({ path: `/statistics-dashboards/${w.dashboard}/charts/add`, body: { ChartAddRequests: [{ ChartType: "NumericalRange" }] } })),
  row("POST /statistics-dashboards/:id/charts/update/:chartId", "200 200 200 403", async (w) => {
    const added = await w.admin("POST", `/statistics-dashboards/${w.dashboard}/charts/add`, { ChartAddRequests: [{ ChartType: "AmountPerPreQuestion" }] });
    const chart = added.Charts[added.Charts.length - 1].Id;
    return { path: `/statistics-dashboards/${w.dashboard}/charts/update/${chart}`, body: { AttributeId: w.attribute } };
  }),
  row("DELETE /statistics-dashboards/:id/charts/:chartId", "204 204 204 403", async (w) => {
    const added = await w.admin("POST", `/statistics-dashboards/${w.dashboard}/charts/add`, { ChartAddRequests: [{ ChartType: "IndividualSurveyScores" }] });
    return { path: `/statistics-dashboards/${w.dashboard}/charts/${added.Charts[added.Charts.length - 1].Id}` };
  }),
  // The audit log: the survey's approvers (docs/decisions/014-audit-log.md)
  row("GET /audit-log", "403 200 200 403", (w) => ({ path: "/audit-log", query: { surveyId: String(w.heart) } })),
  row("GET /audit-log/csv", "403 200 200 403", (w) => ({ path: "/audit-log/csv", query: { surveyId: String(w.heart), patientId: w.openPatient } })),
  row("GET /audit-log/verify", "403 200 200 403", (w) => ({ path: "/audit-log/verify", query: { surveyId: String(w.heart) } })),
  row("GET /audit-log/case-history", "403 200 200 403", (w) => ({ path: "/audit-log/case-history", query: { surveyId: String(w.heart), patientId: w.openPatient } })),
  row("GET /audit-log/trail", "403 200 200 403", (w) => ({ path: "/audit-log/trail", query: { surveyId: String(w.heart), action: "survey.create" } })),
  // Erasure: the survey's approvers (docs/decisions/042-retention-and-erasure.md); each erasure makes its own case.
  row("GET /erasures/preview", "403 200 200 403", (w) => ({ path: "/erasures/preview", query: { surveyId: String(w.heart), patientId: w.closedPatient } })),
  // Before shortening a survey's retention period: its editors, as for the period itself.
  row("GET /erasures/retention-preview", "200 403 200 403", (w) => ({ path: "/erasures/retention-preview", query: { surveyId: String(w.heart), months: "6" } })),
  row("GET /patient-data", "403 200 200 403", (w) => ({ path: "/patient-data", query: { surveyId: String(w.heart), patientId: w.closedPatient } })),
  row("POST /erasures", "403 200 200 403", async (w) => {
    const patientId = w.patientId();
    await w.newCase(patientId);
    return { path: "/erasures", body: { SurveyId: w.heart, PatientId: patientId, Reason: "consent" } };
  }),
  row("POST /statistics-dashboards/:id/charts/reorder/:chartId", "204 204 204 403", (w) => ({ path: `/statistics-dashboards/${w.dashboard}/charts/reorder/${w.chart}`, query: { newPosition: "0" } })),
];

/** The method and path of a row. */
export function splitRoute(route: string): { method: string; path: string } {
  const [method, path] = route.split(" ");
  return { method, path };
}

/** Sends a probe with the given headers (credentials) and returns the answer. */
export function send(
  w: World,
  method: string,
  probe: Probe,
  headers: Record<string, string> = {},
  raw?: { body?: BodyInit; contentType?: string },
): Promise<Response> {
  const query = probe.query ? `?${new URLSearchParams(probe.query)}` : "";
  const all: Record<string, string> = { ...headers };
  let body: BodyInit | undefined;
  if (raw) {
    body = raw.body;
    if (raw.contentType) all["content-type"] = raw.contentType;
  } else if (probe.form) {
    body = probe.form();
  } else if (probe.body !== undefined) {
    all["content-type"] = "application/json";
    body = JSON.stringify(probe.body);
  }
  return Promise.resolve(
    w.api.ctx.api.request(`http://localhost:3000/api${probe.path}${query}`, { method, headers: all, body }),
  );
}
