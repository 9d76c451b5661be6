import { AppError } from "~/domain/errors";
import type { StatisticsFilters } from "~/domain/statistics";
import type { DB } from "~/server/db/types.server";
import { auditReading } from "../audit-reading.server";
import { surveyStructure } from "../fill/structure.server";
import { casesPage } from "../statistics/export.server";
import { requireAnalyst } from "../statistics/cases.server";
import type { SurveyCaller } from "../surveys.server";
import { questionnaireOf } from "./questionnaire.server";
import type { AttachmentStore } from "~/server/storage/attachments.server";
import { clinicZone } from "~/server/time-zone.server";
import { caseContents, inlineSmallFiles, responseOf, type CaseRow } from "./response.server";

/**
 * Reading a survey as FHIR (docs/decisions/040-fhir.md): its Questionnaire, one case's QuestionnaireResponse,
 * or the counted cases' responses as a Bundle or NDJSON. The survey's editors and approvers, in any status;
 * each read is logged like the CSV export (decision 028).
 */

export interface FhirUrls {
  /** The server's public origin, e.g. https://surveys.example.org. */
  publicUrl: string;
  /** Where the small files' bytes are read from, to travel inside the responses. */
  attachments: AttachmentStore;
  /** The clinic's time zone (CLINIC_TIME_ZONE): date-time answers are written in it with their offset. */
  timeZone: string;
}

const questionnaireUrl = (urls: FhirUrls, surveyId: number) =>
  `${urls.publicUrl}/api/surveys/${surveyId}/fhir/questionnaire`;

async function prepared(db: DB, caller: SurveyCaller, surveyId: number) {
  const access = await requireAnalyst(db, caller, surveyId);
  const { survey } = await surveyStructure(db, access);
  return survey;
}

export async function fhirQuestionnaire(db: DB, caller: SurveyCaller, surveyId: number, urls: FhirUrls) {
  const survey = await prepared(db, caller, surveyId);
  await auditReading(db, caller, { action: "fhir.questionnaire", surveyId });
  return questionnaireOf(survey, {
    url: questionnaireUrl(urls, surveyId),
    base: urls.publicUrl,
    culture: caller.culture ?? undefined,
  });
}

const options = (caller: SurveyCaller, urls: FhirUrls, surveyId: number) => ({
  questionnaireUrl: questionnaireUrl(urls, surveyId),
  apiUrl: `${urls.publicUrl}/api`,
  culture: caller.culture ?? undefined,
  zone: clinicZone(urls.timeZone),
});

/** The newest case of a patient id in the survey, open or closed. */
export async function fhirResponse(db: DB, caller: SurveyCaller, surveyId: number, patientId: string, urls: FhirUrls) {
  const survey = await prepared(db, caller, surveyId);
  const row = await db
    .selectFrom("patient_data")
    .select(["id", "patient_id", "state", "created_at", "closed_at", "language", "respondent"])
    .where("survey_id", "=", surveyId)
    .where("patient_id", "=", patientId)
    .orderBy("id", "desc")
    .executeTakeFirst();
  if (!row) throw new AppError("NOT_FOUND", `The survey has no case of patient ${patientId}`);
  await auditReading(db, caller, { action: "fhir.questionnaire-response", surveyId, patientDataId: row.id });
  const content = (await caseContents(db, [row.id])).get(row.id)!;
  await inlineSmallFiles(urls.attachments, [content]);
  return responseOf(survey, row, content, options(caller, urls, surveyId));
}

const PAGE = 200;
const encoder = new TextEncoder();

/**
 * The counted cases that pass the filters (those of the CSV export) as QuestionnaireResponses: NDJSON, one
 * resource a line, or a Bundle of type collection; streamed a page of cases at a time.
 */
export async function fhirResponses(
  db: DB,
  caller: SurveyCaller,
  surveyId: number,
  filters: StatisticsFilters,
  format: "ndjson" | "bundle",
  urls: FhirUrls,
): Promise<ReadableStream<Uint8Array>> {
  const survey = await prepared(db, caller, surveyId);
  await auditReading(db, caller, { action: "fhir.export", surveyId, after: { Filters: filters, Format: format } });
  const opts = options(caller, urls, surveyId);
  let after = 0;
  let first = true;
  let done = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return;
      const rows = await casesPage(db, surveyId, filters, after, PAGE).execute();
      let out = first && format === "bundle" ? '{"resourceType":"Bundle","type":"collection","entry":[' : "";
      if (rows.length === 0) {
        if (format === "bundle") out += "]}";
        done = true;
        if (out) controller.enqueue(encoder.encode(out));
        controller.close();
        return;
      }
      after = rows[rows.length - 1].id;
      const contents = await caseContents(
        db,
        rows.map((r) => r.id),
      );
      await inlineSmallFiles(urls.attachments, contents.values());
      for (const r of rows) {
        const resource = responseOf(survey, r as CaseRow, contents.get(r.id)!, opts);
        if (format === "ndjson") out += `${JSON.stringify(resource)}\n`;
        else {
          out += `${first ? "" : ","}${JSON.stringify({ fullUrl: `urn:uuid:${uuidOf(r.id)}`, resource })}`;
          first = false;
        }
      }
      first = false;
      controller.enqueue(encoder.encode(out));
    },
  });
}

/** A stable UUID-shaped name for a case inside a Bundle (fullUrl must be absolute). */
function uuidOf(caseId: number): string {
  const hex = caseId.toString(16).padStart(12, "0");
  return `00000000-0000-4000-8000-${hex}`;
}
