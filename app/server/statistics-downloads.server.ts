import { fhirApi } from "~/contracts/fhir";
import { attachmentsApi } from "~/contracts/attachments";
import { statisticsApi } from "~/contracts/statistics";
import { redirect } from "@remix-run/node";
import { parseForm } from "~/domain/forms";
import { StatisticsDownloadFormSchema } from "~/domain/page-forms";
import { readView } from "~/domain/statistics-view";
import { localeFromRequest } from "./i18n.server";
import { badForm, refused } from "./refusals.server";
import type { ApiClient } from "./api-client.server";

/** Passes a file the API streams on to the browser, with its name and type. */
function passOn(res: Response): Response {
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const name of ["Content-Type", "Content-Disposition", "Content-Length"]) {
    const value = res.headers.get(name);
    if (value) headers.set(name, value);
  }
  return new Response(res.body, { status: 200, headers });
}

/**
 * The statistics screen's downloads, as form posts so they work without JavaScript: the CSV export under the
 * page's filters (or as FHIR NDJSON), one attachment (through its expiring link) and the attachments of a question as a zip.
 */
export async function statisticsDownload(request: Request, api: ApiClient, surveyId: number): Promise<Response> {
  const url = new URL(request.url);
  // The screen's own address (filters included) is where a refusal goes back to.
  const back = `/survey/${surveyId}/statistics${url.search}`;
  const submission = parseForm(await request.formData(), StatisticsDownloadFormSchema);
  if (submission.status !== "success") return badForm(request, back);
  const form = submission.value;
  try {
    if (form.intent === "export") {
      const { filters } = readView(url.searchParams);
      // In the language of the page it was asked from (the person's stored one may be another browser's).
      const culture = localeFromRequest(request);
      // The survey's labels in the language the page shows them in (docs/decisions/056-statistics-languages.md).
      const query = { culture, language: form.language };
      return passOn(await api.raw(statisticsApi.csv, { params: { surveyId }, query, body: filters }));
    }
    if (form.intent === "fhir") {
      // The same cases as FHIR R4 QuestionnaireResponses, one a line (docs/decisions/040-fhir.md).
      const { filters } = readView(url.searchParams);
      const culture = localeFromRequest(request);
      return passOn(await api.raw(fhirApi.responses, { params: { surveyId }, query: { culture }, body: filters }));
    }
    if (form.intent === "file") {
      const link = await api.call(attachmentsApi.link, { query: { surveyFileAttachmentId: form.id } });
      return redirect(link.Url);
    }
    return passOn(
      await api.raw(statisticsApi.archived, { body: { QuestionId: form.question, SurveyFileAttachmentIds: form.id } }),
    );
  } catch (error) {
    return refused(request, error, { back, notFound: back });
  }
}
