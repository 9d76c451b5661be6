import { answerKind } from "~/domain/question-types";
import { optionScoreUnits, totalOfUnits } from "~/domain/scores";
import { answerText, type AnswerOption, type Question, type Survey } from "~/domain/survey";
import type { Executor } from "~/server/db/types.server";
import type { ClinicZone } from "~/server/time-zone.server";
import type { AttachmentStore } from "~/server/storage/attachments.server";
import { signaturesOf } from "../fill/signatures.server";
import { code } from "../statistics/export-lines.server";
import { translate } from "~/server/locales.server";
import { linkIds } from "./link-ids.server";
import { HL7 } from "./types.server";

/**
 * A case as an HL7 FHIR R4 QuestionnaireResponse (docs/decisions/040-fhir.md): its answers in the items of
 * the survey's Questionnaire, sub-questions inside the answer they stand under, files as Attachments that
 * link to the API, the signature where the case was signed, the total score where the survey has one.
 */

export interface CaseRow {
  id: number;
  patient_id: string;
  state: string;
  created_at: string;
  closed_at: string | null;
  /** The language the case was filled in; null: the survey's source language (decision 054). */
  language?: string | null;
  /** Who answered: null staff, "link" or "handover" the patient (docs/decisions/057-patient-links.md). */
  respondent?: "link" | "handover" | null;
}

interface Answer {
  question_id: number;
  answer_option_id: number | null;
  text_response: string | null;
  numerical_response: number | null;
  date_time_response: string | null;
}

export interface CaseContent {
  answers: Answer[];
  prelims: { attribute_id: number; answer_option_id: number }[];
  files: {
    id: number;
    question_id: number;
    file_name: string;
    content_type: string;
    size: number;
    storage_key: string;
    /** The bytes in base64, for files up to INLINE_FILE_BYTES. */
    data?: string;
  }[];
  signature: { SignerName: string; SignedAt: string; Meaning: string } | null;
}

/** Files up to this size travel inside the response as well as by their link (docs/decisions/040-fhir.md). */
export const INLINE_FILE_BYTES = 64 * 1024;

/** The bytes of the small files among these, in base64 (a file the store no longer has stays a link). */
export async function inlineSmallFiles(store: AttachmentStore, contents: Iterable<CaseContent>): Promise<void> {
  for (const content of contents) {
    for (const f of content.files) {
      if (f.size > INLINE_FILE_BYTES) continue;
      const blob = await store.open(f.storage_key);
      if (!blob) continue;
      const pieces: Uint8Array[] = [];
      for await (const piece of blob.chunks) pieces.push(piece);
      f.data = Buffer.concat(pieces).toString("base64");
    }
  }
}

/** The answers, preliminary answers, files and signature of some cases, by case id. */
export async function caseContents(db: Executor, ids: number[]): Promise<Map<number, CaseContent>> {
  const out = new Map<number, CaseContent>();
  if (ids.length === 0) return out;
  for (const id of ids) out.set(id, { answers: [], prelims: [], files: [], signature: null });
  const [answers, prelims, files, signatures] = await Promise.all([
    db
      .selectFrom("question_responses")
      .select(["patient_data_id", "question_id", "answer_option_id", "text_response", "numerical_response"])
      .select("date_time_response")
      .where("patient_data_id", "in", ids)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("attribute_responses")
      .select(["patient_data_id", "attribute_id", "answer_option_id"])
      .where("patient_data_id", "in", ids)
      .execute(),
    db
      .selectFrom("file_attachments")
      .select(["id", "patient_data_id", "question_id", "file_name", "content_type", "size", "storage_key"])
      .where("patient_data_id", "in", ids)
      .orderBy("id")
      .execute(),
    signaturesOf(db, ids),
  ]);
  for (const a of answers) out.get(a.patient_data_id)!.answers.push(a);
  for (const p of prelims) out.get(p.patient_data_id)!.prelims.push(p);
  for (const f of files) out.get(f.patient_data_id)!.files.push({ ...f, size: Number(f.size) });
  for (const s of signatures) out.get(s.PatientDataId)!.signature = s;
  return out;
}

/** The answers' scores of a survey, worked out once for all the cases of an export. */
const scores = new WeakMap<Survey, Map<number, number>>();
function scoresOf(survey: Survey): Map<number, number> {
  let map = scores.get(survey);
  if (!map) scores.set(survey, (map = optionScoreUnits(survey)));
  return map;
}

const instant = (value: string) => new Date(value).toISOString();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- FHIR items are open JSON
type Item = Record<string, any>;

export function responseOf(
  survey: Survey,
  row: CaseRow,
  content: CaseContent,
  opts: { questionnaireUrl: string; apiUrl: string; culture: string | undefined; zone: ClinicZone },
) {
  const byQuestion = new Map<number, Answer[]>();
  for (const a of content.answers) byQuestion.set(a.question_id, [...(byQuestion.get(a.question_id) ?? []), a]);
  const filesOf = new Map<number, CaseContent["files"]>();
  for (const f of content.files) filesOf.set(f.question_id, [...(filesOf.get(f.question_id) ?? []), f]);

  const questionItem = (q: Question): Item | null => {
    const given = byQuestion.get(q.Id) ?? [];
    const kind = answerKind(q);
    const answer: Item[] = [];
    if (q.AnswerOptions.length > 0 || kind === "single" || kind === "multiple") {
      const chosen = new Set(given.map((a) => a.answer_option_id));
      for (const o of q.AnswerOptions) {
        if (!chosen.has(o.Id)) continue;
        const nested = o.SubQuestions.map((s) => subItem(s)).filter((i): i is Item => i !== null);
        answer.push({
          valueCoding: { ...(o.System ? { system: o.System } : {}), code: code(o), display: answerText(o) },
          ...(nested.length > 0 ? { item: nested } : {}),
        });
      }
    } else {
      const a = given[0];
      if (a && kind === "number" && a.numerical_response !== null)
        answer.push({ valueDecimal: Number(a.numerical_response) });
      // Typed as the clinic's wall-clock time: FHIR wants the offset with the hours (docs/decisions/053).
      if (a && kind === "dateTime" && a.date_time_response)
        answer.push({ valueDateTime: opts.zone.wallClock(a.date_time_response) });
      if (a && kind === "text" && a.text_response) answer.push({ valueString: a.text_response });
    }
    const files = filesOf.get(q.Id) ?? [];
    const filesItem: Item | null =
      files.length > 0
        ? {
            linkId: linkIds.files(q.Id),
            text: translate(opts.culture, "fhir.files"),
            answer: files.map((f) => ({
              valueAttachment: {
                contentType: f.content_type,
                ...(f.data !== undefined ? { data: f.data } : {}),
                url: `${opts.apiUrl}/file-attachments/get-sas-blob-url?surveyFileAttachmentId=${f.id}`,
                size: f.size,
                title: f.file_name,
              },
            })),
          }
        : null;
    if (answer.length === 0 && !filesItem) return null;
    const item: Item = { linkId: linkIds.question(q.Id), text: q.Title };
    if (answer.length > 0) {
      item.answer = answer;
      if (filesItem) answer[0].item = [...(answer[0].item ?? []), filesItem];
    } else item.item = [filesItem];
    return item;
  };
  /** A sub-question, inside the group that carries its answer's condition where the Questionnaire has one. */
  const wrapped = new Set<number>();
  const subItem = (q: Question): Item | null => {
    const item = questionItem(q);
    if (!item) return null;
    return wrapped.has(q.Id) ? { linkId: linkIds.when(q.Id), item: [item] } : item;
  };
  const markWrapped = (q: Question, parent: AnswerOption | null) => {
    const rule = q.Dependence;
    if (parent && rule?.Type === "SHOW" && rule.PreliminaryAnswerOptions.length > 1) wrapped.add(q.Id);
    for (const o of q.AnswerOptions) for (const s of o.SubQuestions) markWrapped(s, o);
  };
  for (const c of survey.Categories)
    for (const q of c.Questions) if (q.ParentAnswerOptionId === null) markWrapped(q, null);

  const items: Item[] = [];
  const prelimChosen = new Set(content.prelims.map((p) => p.answer_option_id));
  const prelimItems = survey.PatientForm.flatMap((a) => {
    const answer = a.AnswerOptions.filter((o) => prelimChosen.has(o.Id)).map((o) => ({
      valueCoding: { code: code(o), display: o.Text },
    }));
    return answer.length > 0 ? [{ linkId: linkIds.preliminaryQuestion(a.Id), text: a.Title, answer }] : [];
  });
  if (prelimItems.length > 0) {
    items.push({ linkId: linkIds.preliminary, text: translate(opts.culture, "fhir.preliminary"), item: prelimItems });
  }
  for (const c of survey.Categories) {
    const inner = c.Questions.filter((q) => q.ParentAnswerOptionId === null)
      .map((q) => questionItem(q))
      .filter((i): i is Item => i !== null);
    if (inner.length > 0) items.push({ linkId: linkIds.category(c.Id), text: c.Title, item: inner });
  }
  // The case's total score, as the statistics count it, in the Questionnaire's calculated item.
  const total = totalOfUnits(
    scoresOf(survey),
    content.answers.flatMap((a) => (a.answer_option_id === null ? [] : [a.answer_option_id])),
  );
  if (survey.ScoreTitle && total !== null)
    items.push({ linkId: linkIds.total, text: survey.ScoreTitle, answer: [{ valueDecimal: total }] });
  const closed = row.state === "Closed";
  const response: Item = {
    resourceType: "QuestionnaireResponse",
    id: `case-${row.id}`,
    // The language the case was filled in (docs/decisions/056-statistics-languages.md).
    language: row.language ?? survey.SourceLanguage,
    questionnaire: opts.questionnaireUrl,
    status: closed ? "completed" : "in-progress",
    subject: { identifier: { value: row.patient_id }, display: row.patient_id },
    authored: instant(closed && row.closed_at ? row.closed_at : row.created_at),
  };
  // A patient who answered for themselves (by link or on a handed-over device) is the answers' author and
  // source, named as the subject is: by the case's patient id (docs/decisions/057-patient-links.md).
  if (row.respondent === "link" || row.respondent === "handover") {
    const patient = { type: "Patient", identifier: { value: row.patient_id }, display: row.patient_id };
    response.author = patient;
    response.source = { ...patient };
  }
  if (content.signature) {
    response.extension = [
      {
        url: HL7.signature,
        valueSignature: {
          type: [
            { system: "urn:iso-astm:E1762-95:2013", code: "1.2.840.10065.1.12.1.1", display: "Author's Signature" },
          ],
          when: instant(content.signature.SignedAt),
          who: { display: content.signature.SignerName },
        },
      },
    ];
  }
  if (items.length > 0) response.item = items;
  return response;
}
