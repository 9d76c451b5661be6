import { type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/server/responses.server";
import { positiveId } from "~/domain/ids";
import { apiClient } from "~/server/api-client.server";
import { requireUser } from "~/server/auth/guards.server";
import { patientDataDownload } from "~/server/patient-data-page.server";

/** A patient id's data as a JSON file (docs/decisions/042-retention-and-erasure.md); the access is logged. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = positiveId(params.surveyId);
  if (id === null) throw redirect("/surveys");
  return patientDataDownload(request, apiClient(user.accessToken), id);
}
