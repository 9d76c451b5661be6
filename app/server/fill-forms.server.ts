import { attachmentsApi } from "~/contracts/attachments";
import { patientsApi } from "~/contracts/patients";
import { answerCall, responsesApi } from "~/contracts/responses";
import type { FileProblem, PageProblems, ValueProblem } from "~/domain/page-problems";
import { positiveId } from "~/domain/ids";
import { answersFromResponses, isAnswered, type AnswerValue } from "~/domain/answers";
import { keyForWrite } from "~/domain/idempotency";
import { typedToNumber, typedToWireDateTime } from "~/domain/response-values";
import type { Question, Survey } from "~/domain/survey";
import { freeFileName, uploadErrorKeys } from "~/domain/uploads";
import { surveyQuestions } from "~/domain/visibility";
import { ApiError, type ApiClient } from "./api-client.server";
import { readLimited, UPLOAD_BODY_LIMIT } from "./api/body.server";
import { preliminaryComplete } from "~/domain/fill-pages";
import { allComplete } from "~/domain/category-status";

/** The message shown for a date and time that is not one (the typed value stays in its field). */
export const DATE_TIME_INVALID = "fill.dateTimeInvalid";

/**
 * The page's form as sent. A form with files (multipart) is read within the limit of one upload request,
 * so that a single file over the size limit still reaches the API and gets its refusal; more than that at
 * once is refused as a whole (PAYLOAD_TOO_LARGE).
 */
export async function readPageForm(request: Request): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) return request.formData();
  const bytes = await readLimited(request, UPLOAD_BODY_LIMIT);
  return new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": type } }).formData();
}

/** The value a page form gives for one question (field q{id}): none when left empty, a problem when refused. */
function valueFromForm(question: Question, form: FormData): AnswerValue | ValueProblem | undefined {
  const values = form
    .getAll(`q${question.Id}`)
    .map(String)
    .filter((v) => v.trim() !== "");
  if (values.length === 0) return undefined;
  switch (question.Type) {
    case "FreeText":
      return { TextResponse: values[0] };
    case "Numerical": {
      const n = typedToNumber(values[0]);
      return n === null ? undefined : { NumericalResponse: n };
    }
    case "DateTime": {
      const wire = typedToWireDateTime(values[0]);
      return wire ? { DateTimeResponse: wire } : { typed: values[0], reason: DATE_TIME_INVALID };
    }
    default:
      return { AnswerOptionIds: values.map(Number).filter((n) => Number.isInteger(n)) };
  }
}

function same(a: AnswerValue | undefined, b: AnswerValue | undefined) {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * Saves what a page form (without JavaScript) carries: each listed question whose value changed is
 * recorded or, emptied, deleted. A typed value that is not one is not sent: it comes back as a problem, so
 * the page shows it as typed with its reason. The API checks every value; its refusal is thrown.
 */
export async function savePageFromForm(
  api: ApiClient,
  survey: Survey,
  patientId: string,
  form: FormData,
  except?: number,
): Promise<PageProblems["values"]> {
  const ids = { PatientId: patientId, SurveyId: survey.Id };
  const listed = new Set(form.getAll("questionIds").map(Number));
  const current = answersFromResponses(
    await api.call(responsesApi.answers, { query: { surveyId: survey.Id, patientId } }),
  );
  const problems: NonNullable<PageProblems["values"]> = {};
  for (const question of surveyQuestions(survey).filter((q) => listed.has(q.Id) && q.Id !== except)) {
    const next = valueFromForm(question, form);
    if (next && "typed" in next) {
      problems[question.Id] = next;
      continue;
    }
    const before = current[question.Id];
    if (same(next, before) || (!next && !isAnswered(before))) continue;
    const save = answerCall(question, next, ids);
    await api.call(save.contract, { body: save.body });
  }
  return problems;
}

interface UploadResult {
  FileName: string;
  Uploaded: boolean;
  Type?: string;
  Error?: string;
}

function refusedFiles(results: UploadResult[] | undefined): FileProblem[] {
  return (results ?? [])
    .filter((r) => !r.Uploaded)
    .map((r) => {
      const key = [r.Type, r.Error].find((k) => k && (uploadErrorKeys as readonly string[]).includes(k));
      return { name: r.FileName, reason: key ? `uploadErrors.${key}` : (r.Error ?? "errors.unexpected") };
    });
}

/**
 * Uploads the files chosen in a page form (fields f{questionId}) to the API, one request per question, as
 * the page with JavaScript does: the API's rules and refusals apply unchanged, and the form's key makes a
 * resent form store its files once. A name the question holds (the form lists them, fields taken{questionId})
 * or one picked with it is freed first ("image (2).jpg"), as the page with JavaScript does: from the form alone,
 * so that a form sent again sends the same names. Returns the refused files by question.
 */
export async function uploadPageFiles(
  api: ApiClient,
  survey: Survey,
  patientId: string,
  form: FormData,
): Promise<PageProblems["files"]> {
  const listed = new Set(form.getAll("questionIds").map(Number));
  const chosen = surveyQuestions(survey)
    .filter((q) => listed.has(q.Id))
    .map((q) => ({
      q,
      files: form.getAll(`f${q.Id}`).filter((f): f is File => typeof f !== "string" && f.name !== ""),
    }))
    .filter((c) => c.files.length > 0);
  const problems: NonNullable<PageProblems["files"]> = {};
  if (chosen.length === 0) return problems;
  const patient = await api.call(patientsApi.record, { query: { patientId, surveyId: survey.Id } });
  for (const { q, files } of chosen) {
    const body = new FormData();
    const taken = form.getAll(`taken${q.Id}`).map(String);
    for (const file of files) {
      const name = freeFileName(file.name, taken);
      taken.push(name);
      body.append("files", file, name);
    }
    try {
      await api.call(
        attachmentsApi.upload,
        { query: { questionId: q.Id, patientDataId: patient.PatientDataId!, surveyId: survey.Id } },
        { form: body, idempotencyKey: keyForWrite(form.get("formKey"), "upload", q.Id) },
      );
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 406) throw error;
      const refused = refusedFiles((error.envelope as { Results?: UploadResult[] }).Results);
      problems[q.Id] = refused.length
        ? refused
        : files.map((f) => ({ name: f.name, reason: `uploadErrors.${error.type}` }));
    }
  }
  return problems;
}

/** Saves the preliminary answers of the form (fields a{attributeId}), but that of `except`. */
export async function savePreliminaryFromForm(
  api: ApiClient,
  survey: Survey,
  patientId: string,
  form: FormData,
  except?: number,
) {
  for (const attribute of survey.PatientForm) {
    const value = positiveId(form.get(`a${attribute.Id}`));
    if (value === null || attribute.Id === except) continue;
    await api.call(responsesApi.answerPreliminary, {
      body: {
        PatientId: patientId,
        SurveyId: survey.Id,
        PatientFormAttributeId: attribute.Id,
        PatientFormAnswerOptionId: value,
      },
    });
  }
}

/** Whether every preliminary question asked has an answer on the server (section 5). */
export async function preliminaryStored(api: ApiClient, survey: Survey, patientId: string): Promise<boolean> {
  const given = await api.call(responsesApi.preliminaryAnswers, { query: { surveyId: survey.Id, patientId } });
  return preliminaryComplete(
    survey,
    Object.fromEntries(given.map((a) => [a.PatientFormAttributeId, a.PatientFormAnswerOptionId])),
  );
}

/** The form's preliminary answers that end the survey (fields a{attributeId}). */
export function exitsInForm(survey: Survey, form: FormData): { attributeId: number; optionId: number }[] {
  return survey.PatientForm.flatMap((attribute) => {
    const value = positiveId(form.get(`a${attribute.Id}`));
    const option = attribute.AnswerOptions.find((o) => o.Id === value);
    return option?.IsExitAnswer ? [{ attributeId: attribute.Id, optionId: option.Id }] : [];
  });
}

/**
 * A preliminary answer that ends the survey, chosen in the form and not yet the case's: it waits for its
 * confirmation (section 4, exit answer), as on the page with JavaScript. Null when there is none.
 */
export async function newPreliminaryExit(api: ApiClient, survey: Survey, patientId: string, form: FormData) {
  const exits = exitsInForm(survey, form);
  if (exits.length === 0) return null;
  const given = await api.call(responsesApi.preliminaryAnswers, { query: { surveyId: survey.Id, patientId } });
  const stored = new Map(given.map((a) => [a.PatientFormAttributeId, a.PatientFormAnswerOptionId]));
  return exits.find((e) => stored.get(e.attributeId) !== e.optionId) ?? null;
}

/** The questions of a page form (fields q{id}) whose chosen options include one that ends the survey. */
export function questionExitsInForm(survey: Survey, form: FormData): { questionId: number; optionIds: number[] }[] {
  const listed = new Set(form.getAll("questionIds").map(Number));
  return surveyQuestions(survey)
    .filter((q) => listed.has(q.Id))
    .map((q) => ({ q, optionIds: form.getAll(`q${q.Id}`).map(Number).filter(Number.isInteger) }))
    .filter(({ q, optionIds }) => q.AnswerOptions.some((o) => o.IsExitAnswer && optionIds.includes(o.Id)))
    .map(({ q, optionIds }) => ({ questionId: q.Id, optionIds }));
}

/**
 * A question's answer that ends the survey, chosen in a page form and not yet the case's: it waits for its
 * confirmation, as on the page with JavaScript (and as a preliminary one does). Null when there is none.
 */
export async function newQuestionExit(api: ApiClient, survey: Survey, patientId: string, form: FormData) {
  const exits = questionExitsInForm(survey, form);
  if (exits.length === 0) return null;
  const current = answersFromResponses(
    await api.call(responsesApi.answers, { query: { surveyId: survey.Id, patientId } }),
  );
  const exitIds = new Set(
    surveyQuestions(survey).flatMap((q) => q.AnswerOptions.filter((o) => o.IsExitAnswer).map((o) => o.Id)),
  );
  const isNew = (e: (typeof exits)[number], id: number) =>
    exitIds.has(id) && !current[e.questionId]?.AnswerOptionIds?.includes(id);
  return exits.find((e) => e.optionIds.some((id) => isNew(e, id))) ?? null;
}

/**
 * Whether every category of the case is complete with its stored answers, as the page's sidebar shows it: a
 * patient's submit without JavaScript asks first when not (decision 067). `withPreliminary`: the case's
 * preliminary answers show or hide questions, as on the page that asked (a link's page without its own
 * preliminary questions draws them with none).
 */
export async function storedAnswersComplete(
  api: ApiClient,
  survey: Survey,
  patientId: string,
  withPreliminary: boolean,
): Promise<boolean> {
  const query = { surveyId: survey.Id, patientId };
  const [responses, given] = await Promise.all([
    api.call(responsesApi.answers, { query }),
    withPreliminary ? api.call(responsesApi.preliminaryAnswers, { query }) : Promise.resolve([]),
  ]);
  const preliminary: Record<number, number> = {};
  for (const a of given) preliminary[a.PatientFormAttributeId] = a.PatientFormAnswerOptionId;
  return allComplete(survey.Categories, preliminary, answersFromResponses(responses));
}
