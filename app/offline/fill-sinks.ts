import { type ApiResult, callApi, apiSink, type AnswerSink } from "~/api-client";
import type { Answers, PreliminaryAnswers } from "~/domain/answers";
import type { Question, Survey } from "~/domain/survey";
import { answerKind, type FillEntry } from "./fill-entry";
import { recordAnswer, recordClose, recordPreliminary, type EntryContext } from "./fill-store";

/** Every question of a survey by id, sub-questions included. */
export function questionsById(survey: Survey): Map<number, Question> {
  const map = new Map<number, Question>();
  const walk = (q: Question) => {
    map.set(q.Id, q);
    for (const o of q.AnswerOptions) o.SubQuestions.forEach(walk);
  };
  for (const c of survey.Categories) c.Questions.forEach(walk);
  return map;
}

const OK: ApiResult<unknown> = { ok: true, data: undefined };

export interface FillWriters {
  sink: AnswerSink;
  savePreliminary: (attributeId: number, optionId: number) => Promise<ApiResult<unknown>>;
  close: () => Promise<ApiResult<unknown>>;
  /** Whether this page now keeps its answers on the device. */
  isLocal: () => boolean;
}

/**
 * Where the fill page's answers go. Offline pages write to the device (marked not synced). An online page
 * writes to the API; when a write finds no network, that write and every later one on this page go to
 * the device, in an entry that starts from everything the page held, so the sync replaces the server's
 * answers with the complete set.
 */
export function fillWriters(input: {
  survey: Survey;
  patientId: string;
  userId: string;
  surveyUserDataId: number;
  answers: Answers;
  preliminary: PreliminaryAnswers;
  offline: boolean;
  onLocal?: () => void;
}): FillWriters {
  const ids = { PatientId: input.patientId, SurveyId: input.survey.Id };
  const online = apiSink(ids);
  const known = { answers: { ...input.answers }, preliminary: { ...input.preliminary } };
  let local = input.offline;
  const questions = questionsById(input.survey);

  const context = (): EntryContext => {
    const questionTypes: FillEntry["questionTypes"] = {};
    for (const id of Object.keys(known.answers)) {
      const q = questions.get(Number(id));
      if (q) questionTypes[q.Id] = answerKind(q);
    }
    return {
      survey: input.survey,
      patientId: input.patientId,
      userId: input.userId,
      surveyUserDataId: input.surveyUserDataId,
      seed: input.offline ? undefined : { ...known, questionTypes },
    };
  };
  const goLocal = () => {
    if (!local) input.onLocal?.();
    local = true;
  };
  const attempt = async (send: () => Promise<ApiResult<unknown>>, keep: () => Promise<unknown>) => {
    if (!local) {
      const result = await send();
      if (result.ok || result.type !== "NETWORK") return result;
      goLocal();
    }
    await keep();
    return OK;
  };

  return {
    isLocal: () => local,
    sink: {
      save: async (question, value) => {
        const result = await attempt(
          () => online.save(question, value),
          () => recordAnswer(context(), question, value),
        );
        if (result.ok) {
          if (value) known.answers[question.Id] = value;
          else delete known.answers[question.Id];
        }
        return result;
      },
    },
    savePreliminary: async (attributeId, optionId) => {
      const result = await attempt(
        () =>
          callApi("POST", "/attribute-responses", {
            ...ids,
            PatientFormAttributeId: attributeId,
            PatientFormAnswerOptionId: optionId,
          }),
        () => recordPreliminary(context(), attributeId, optionId),
      );
      if (result.ok) known.preliminary[attributeId] = optionId;
      return result;
    },
    close: () =>
      attempt(
        () =>
          callApi("POST", `/patients/close?patientId=${encodeURIComponent(input.patientId)}&surveyId=${ids.SurveyId}`),
        () => recordClose(context()),
      ),
  };
}
