import { redirect } from "@remix-run/node";
import { positiveId } from "~/domain/ids";
import { readView } from "~/domain/statistics-view";
import { refused } from "./refusals.server";
import type { ApiClient } from "./api-client.server";

const positive = positiveId;

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
 * page's filters, one attachment (through its expiring link) and the attachments of a question as a zip.
 */
export async function statisticsDownload(request: Request, api: ApiClient, surveyId: number): Promise<Response> {
  const url = new URL(request.url);
  // The screen's own address (filters included) is where a refusal goes back to.
  const back = `/survey/${surveyId}/statistics${url.search}`;
  const form = await request.formData();
  const intent = form.get("intent");
  try {
    if (intent === "export") {
      const { filters } = readView(url.searchParams);
      return passOn(await api.raw("POST", `/statistics/${surveyId}/csv`, { body: filters }));
    }
    if (intent === "file") {
      const id = positive(form.get("id"));
      if (!id) return redirect(back);
      const link = await api.get<{ Url: string }>("/file-attachments/get-sas-blob-url", {
        query: { surveyFileAttachmentId: id },
      });
      return redirect(link.Url);
    }
    if (intent === "zip") {
      const question = positive(form.get("question"));
      const ids = form
        .getAll("id")
        .map(positive)
        .filter((n): n is number => n !== null);
      if (!question || ids.length === 0) return redirect(back);
      return passOn(
        await api.raw("POST", "/file-attachments/get-archived", {
          body: { QuestionId: question, SurveyFileAttachmentIds: ids },
        }),
      );
    }
  } catch (error) {
    return refused(request, error, { back });
  }
  return redirect(back);
}
