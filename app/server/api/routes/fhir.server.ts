import { fhirQuestionnaire, fhirResponse, fhirResponses } from "~/server/services/fhir/fhir.server";
import { importQuestionnaire, previewImport } from "~/server/services/fhir/import.server";
import { FHIR_JSON as FHIR_TYPE, fhirApi } from "~/contracts/fhir";
import { jsonAnswer } from "../in-process.server";
import { route, type AnyRoute } from "../route.server";
import { surveyCaller } from "../schemas.server";
import type { ApiDeps } from "../types.server";

const FHIR_JSON = `${FHIR_TYPE}; charset=utf-8`;

const urlsOf = (deps: ApiDeps) => ({
  publicUrl: deps.env.publicUrl,
  attachments: deps.attachments,
  timeZone: deps.env.CLINIC_TIME_ZONE,
});

/** A FHIR resource as its own media type. */
function fhirJson(resource: unknown) {
  return new Response(JSON.stringify(resource), {
    headers: { "Content-Type": FHIR_JSON, "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" },
  });
}

export const fhirRoutes: AnyRoute[] = [
  route(fhirApi.questionnaire, async ({ deps, caller, params, query }) => {
    const who = { ...surveyCaller(caller), culture: query.culture ?? caller.culture };
    return fhirJson(await fhirQuestionnaire(deps.db, who, params.surveyId, urlsOf(deps)));
  }),
  route(fhirApi.questionnaireResponse, async ({ deps, caller, params, query }) => {
    const who = { ...surveyCaller(caller), culture: query.culture ?? caller.culture };
    return fhirJson(await fhirResponse(deps.db, who, params.surveyId, query.patientId, urlsOf(deps)));
  }),
  route(fhirApi.responses, async ({ deps, caller, params, query, body }) => {
    const who = { ...surveyCaller(caller), culture: query.culture ?? caller.culture };
    const stream = await fhirResponses(deps.db, who, params.surveyId, body, query.format, urlsOf(deps));
    const ndjson = query.format === "ndjson";
    return new Response(stream, {
      headers: {
        "Content-Type": ndjson ? "application/fhir+ndjson" : FHIR_JSON,
        "Content-Disposition": `attachment; filename="survey-${params.surveyId}-responses.${ndjson ? "ndjson" : "json"}"`,
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  }),
  route(fhirApi.importQuestionnaire, async ({ c, deps, caller, query, body }) => {
    // A preview creates nothing: 200, not the creation's 201.
    if (query.preview) return jsonAnswer(c, previewImport(surveyCaller(caller), body), 200);
    return importQuestionnaire(deps.db, surveyCaller(caller), body);
  }),
];
