import { type ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "~/server/responses.server";
import { positiveId } from "~/domain/ids";
import { apiClient } from "~/server/api-client.server";
import { requireUser } from "~/server/auth/guards.server";
import { statisticsDownload } from "~/server/statistics-downloads.server";

/** The statistics screen's downloads (CSV export, one attachment, a question's attachments), as form posts. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = positiveId(params.surveyId);
  if (id === null) throw redirect("/surveys");
  return statisticsDownload(request, apiClient(user.accessToken), id);
}

export function loader({ params }: ActionFunctionArgs) {
  return redirect(`/survey/${params.surveyId}/statistics`);
}
