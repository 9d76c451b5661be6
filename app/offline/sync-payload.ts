import { isAnswered, type AnswerValue } from "~/domain/answers";
import type { OfflineSyncRequest, SyncQuestionAnswer } from "~/domain/offline-sync";
import type { AnswerKind } from "~/domain/question-types";
import type { FillEntry } from "./fill-entry";

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

const same = (a: AnswerValue | undefined, b: AnswerValue | undefined) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The sync body of one entry (section 3, offline sync payload). A fill that continues the server's case
 * (`base`, not overwriting) sends only what changed since that version (docs/decisions/038-typed-work-kept.md).
 */
export function syncPayload(entry: FillEntry, close = entry.close): OfflineSyncRequest {
  const base = entry.overwrite ? undefined : entry.base;
  const QuestionAnswers: SyncQuestionAnswer[] = [];
  const RemovedQuestionIds: number[] = [];
  for (const [id, value] of Object.entries(entry.answers)) {
    const kind = entry.questionTypes[Number(id)];
    if (base && same(value, base.answers[Number(id)])) continue;
    if (kind && isAnswered(value)) QuestionAnswers.push(wireAnswer(Number(id), kind, value));
    else if (base && isAnswered(base.answers[Number(id)])) RemovedQuestionIds.push(Number(id));
  }
  if (base) {
    for (const [id, value] of Object.entries(base.answers)) {
      if (!(id in entry.answers) && isAnswered(value)) RemovedQuestionIds.push(Number(id));
    }
  }
  const preliminary = Object.entries(entry.preliminaryAnswers).filter(
    ([id, option]) => !base || base.preliminary[Number(id)] !== option,
  );
  return {
    PatientId: entry.patientId,
    SurveyHash: entry.surveyHash,
    ...(entry.upload.userId ? { AuthorId: entry.upload.userId } : {}),
    Overwrite: entry.overwrite,
    Close: close,
    QuestionAnswers,
    PreliminaryQuestionAnswers: preliminary.map(([id, option]) => ({ QuestionId: Number(id), AnswerOptionId: option })),
    ...(base ? { BaseVersion: base.version, RemovedQuestionIds } : {}),
    ...(entry.language ? { Language: entry.language } : {}),
    ...(entry.respondent ? { Respondent: entry.respondent } : {}),
  };
}
