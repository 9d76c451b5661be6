import { patientsApi } from "~/contracts/patients";
import { type LoaderFunctionArgs } from "@remix-run/node";
import { data } from "~/server/responses.server";
import { positiveId } from "~/domain/ids";
import { normalizePatientId, shouldLookUp, type PatientLookup } from "~/domain/start-state";
import { apiClient } from "~/server/api-client.server";
import { requireUser } from "~/server/auth/guards.server";
import { refusalMessage } from "~/server/refusals.server";

/** Patient ids are personal data: never kept by a cache. */
const headers = { "Cache-Control": "private, no-store" };

/**
 * Suggestions for the start page's patient-id field: GET /patients/autocomplete with the session's token.
 * A lost session or permission leaves the page (refusalMessage()); any other refusal answers "nothing known", so
 * typing never breaks the page.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const surveyId = positiveId(params.surveyId);
  const patientId = normalizePatientId(new URL(request.url).searchParams.get("patientId") ?? "");
  const none: PatientLookup = { patientId, openIds: [], isClosed: false };
  if (surveyId === null || !shouldLookUp(patientId)) return data(none, { headers });
  try {
    const found = await apiClient(user.accessToken).call(patientsApi.autocomplete, { query: { patientId, surveyId } });
    const lookup: PatientLookup = { patientId, openIds: found.OpenIds, isClosed: found.IsClosed };
    return data(lookup, { headers });
  } catch (error) {
    refusalMessage(error);
    return data(none, { headers });
  }
}
