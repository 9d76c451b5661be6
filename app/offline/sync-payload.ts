import { isAnswered, type AnswerValue } from "~/domain/answers";
import type { OfflineSyncRequest, SyncQuestionAnswer } from "~/domain/offline-sync";
import type { AnswerKind, FillEntry } from "./fill-entry";

/** What the sync sends for a kept fill (loaded with the sync, not with every page). */

function wireAnswer(questionId: number, kind: AnswerKind, value: AnswerValue): SyncQuestionAnswer {
  switch (kind) {
    case "single":
      return { QuestionId: questionId, AnswerOptionId: value.AnswerOptionIds?.[0] ?? null };
    case "multiple":
      return { QuestionId: questionId, AnswerOptionIds: value.AnswerOptionIds ?? [] };
    case "text":
      return { QuestionId: questionId, TextResponse: value.TextResponse ?? "" };
    case "number":
      return { QuestionId: questionId, NumericalResponse: value.NumericalResponse ?? null };
    case "dateTime":
      return { QuestionId: questionId, DateTimeResponse: value.DateTimeResponse ?? null };
  }
}

/** The sync body of one entry (section 3, offline sync payload). */
export function syncPayload(entry: FillEntry, close = entry.close): OfflineSyncRequest {
  const QuestionAnswers: SyncQuestionAnswer[] = [];
  for (const [id, value] of Object.entries(entry.answers)) {
    const kind = entry.questionTypes[Number(id)];
    if (kind && isAnswered(value)) QuestionAnswers.push(wireAnswer(Number(id), kind, value));
  }
  return {
    PatientId: entry.patientId,
    SurveyHash: entry.surveyHash,
    Overwrite: entry.overwrite,
    Close: close,
    QuestionAnswers,
    PreliminaryQuestionAnswers: Object.entries(entry.preliminaryAnswers).map(([id, option]) => ({
      QuestionId: Number(id),
      AnswerOptionId: option,
    })),
  };
}
