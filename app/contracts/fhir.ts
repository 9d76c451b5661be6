import { z } from "~/domain/zod";
import { StatisticsFiltersSchema } from "~/domain/statistics";
import { CultureSchema } from "~/domain/user";
import { contract } from "./contract";
import { idParam, queryBool } from "./params";

const tag = "FHIR";

/** A FHIR resource's own media type; an import takes it as well as application/json. */
export const FHIR_JSON = "application/fhir+json";

/**
 * The most questions (sub-questions included) an imported Questionnaire may make: beyond it the editor,
 * which draws every question of a survey on one page, no longer serves its editor well (decision 052).
 */
export const FHIR_IMPORT_MAX_QUESTIONS = 150;

const FhirResourceSchema = z
  .looseObject({ resourceType: z.string() })
  .meta({ id: "FhirResource", description: "An HL7 FHIR R4 resource (docs/decisions/040-fhir.md)" });

export const ImportPreviewSchema = z
  .object({
    Title: z.string(),
    Categories: z.number().int(),
    Questions: z.number().int(),
    PreliminaryQuestions: z.number().int(),
    NotKept: z.array(z.string()),
  })
  .meta({ id: "FhirImportPreview" });
export const ImportResultSchema = z
  .object({ SurveyId: z.number().int(), Title: z.string(), NotKept: z.array(z.string()) })
  .meta({ id: "FhirImportResult" });

export const fhirApi = {
  questionnaire: contract({
    method: "get",
    path: "/surveys/:surveyId/fhir/questionnaire",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary:
      "The survey as an HL7 FHIR R4 Questionnaire (application/fhir+json): a group per category and for the " +
      "preliminary questions, sub-questions nested with enableWhen, rules as enableWhen, stable linkIds; " +
      "answer scores as ordinalValue and itemWeight, hints as help items, codes and the instrument's identity, " +
      "the total score as a calculated item (linkId score). " +
      "Editors and approvers, any status; reading it is logged (fhir.questionnaire)",
    params: z.object({ surveyId: idParam }),
    query: z.object({ culture: CultureSchema.optional() }),
    response: FhirResourceSchema,
  }),
  questionnaireResponse: contract({
    method: "get",
    path: "/surveys/:surveyId/fhir/questionnaire-response",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary:
      "The newest case of a patient id as an HL7 FHIR R4 QuestionnaireResponse: completed when closed, " +
      "in-progress when open, files as Attachments, the signature where signed, the case's total score where " +
      "the survey has one. Editors and approvers; " +
      "reading it is logged (fhir.questionnaire-response)",
    params: z.object({ surveyId: idParam }),
    query: z.object({ patientId: z.string().min(1).max(200), culture: CultureSchema.optional() }),
    response: FhirResourceSchema,
  }),
  responses: contract({
    method: "post",
    path: "/statistics/:surveyId/fhir",
    errors: ["SURVEY_NOT_FOUND", "NOT_FOUND"],
    tag,
    summary:
      "The cases the CSV export holds (same filters and permission) as HL7 FHIR R4 QuestionnaireResponses: " +
      "NDJSON (application/fhir+ndjson, one a line) or, with format=bundle, a Bundle of type collection; " +
      "streamed. Reading it is logged (fhir.export)",
    params: z.object({ surveyId: idParam }),
    query: z.object({ format: z.enum(["ndjson", "bundle"]).default("ndjson"), culture: CultureSchema.optional() }),
    body: StatisticsFiltersSchema.default({}),
  }),
  importQuestionnaire: contract({
    method: "post",
    path: "/surveys/fhir-import",
    errors: ["PAYLOAD_TOO_LARGE"],
    tag,
    summary:
      "An HL7 FHIR R4 Questionnaire (the body, application/fhir+json or application/json, at most 3 MB) as a " +
      "new Draft survey: groups become categories, choice items selections, enableWhen sub-questions or rules, " +
      "ordinalValue and itemWeight answer scores, a calculated sum of them the survey's total, help texts " +
      "hints; codes and the instrument's identity are kept. " +
      "NotKept lists, in the caller's language, each kind of thing the survey cannot hold once, those that " +
      "change what is asked first: a repeating group is refused with its questions, calculated and read-only " +
      "items are left out. The list is kept in the import's trail entry (survey.import.fhir). With " +
      "preview=true nothing is created and the answer is 200. A Questionnaire with no question the survey can " +
      `hold (Reason empty) or with more than ${FHIR_IMPORT_MAX_QUESTIONS} (Reason tooMany) is refused with 400. ` +
      "Editors only",
    query: z.object({ preview: queryBool.default(false) }),
    body: z.looseObject({ resourceType: z.string() }),
    bodyTypes: [FHIR_JSON, "application/json"],
    status: 201,
    alsoAnswers: {
      status: 200,
      description: "The preview (preview=true): nothing created",
      response: ImportPreviewSchema,
    },
    idempotent: true,
    response: ImportResultSchema,
  }),
};
