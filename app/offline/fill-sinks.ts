import { patientsApi } from "~/contracts/patients";
import { responsesApi } from "~/contracts/responses";
import { type ApiResult, callApi, apiSink, type AnswerSink } from "~/api-client";
import type { Answers, PreliminaryAnswers } from "~/domain/answers";
import type { Survey } from "~/domain/survey";
import type { AnswerWriteResult } from "~/domain/fill-requests";
import type { CaseBase } from "./case-copies";
import { answerKind } from "~/domain/question-types";
import { questionsById } from "~/domain/visibility";
import type { FillEntry } from "./fill-entry";
import { recordAnswer, recordClose, recordPreliminary, type EntryContext } from "./fill-store";

const OK: ApiResult<unknown> = { ok: true, data: undefined };

export interface FillWriters {
  sink: AnswerSink;
  savePreliminary: (attributeId: number, optionId: number) => Promise<ApiResult<unknown>>;
  close: () => Promise<ApiResult<unknown>>;
  /** Whether this page now keeps its answers on the device. */
  isLocal: () => boolean;
}

/**
 * Where the fill page's answers go. Offline pages write to the device (marked not synced), continuing the
 * server's case as the device has it (`base`) when it has one. An online page writes to the API and keeps
 * the device's copy of the case as the server now holds it (case-copies.ts); when a write finds no
 * network, that write and every later one on this page go to the device, in an entry that starts from
 * everything the server held (with its answers version), so the sync sends only what changed since.
 */
export function fillWriters(input: {
  survey: Survey;
  patientId: string;
  patientDataId?: number;
  userId: string;
  surveyUserDataId: number;
  answers: Answers;
  preliminary: PreliminaryAnswers;
  /** Online: the case's answers version on the server as the page was drawn. */
  version?: number;
  /** Offline: the server's case as this device has it, when it has one and no fill of it yet. */
  base?: CaseBase;
  offline: boolean;
  onLocal?: () => void;
}): FillWriters {
  const ids = { PatientId: input.patientId, SurveyId: input.survey.Id };
  const online = apiSink(ids);
  const known = { answers: { ...input.answers }, preliminary: { ...input.preliminary }, version: input.version };
  let local = input.offline;
  const questions = questionsById(input.survey);

  // The kept cases' code loads when first needed (not with every page, decision 038).
  const copies = () => import("./case-copies");
  const context = async (): Promise<EntryContext> => {
    const who = {
      survey: input.survey,
      patientId: input.patientId,
      userId: input.userId,
      surveyUserDataId: input.surveyUserDataId,
    };
    if (input.offline) {
      if (!input.base) return who;
      const { continuing } = await import("./case-context");
      return { ...who, ...continuing(input.survey, input.base) };
    }
    const questionTypes: FillEntry["questionTypes"] = {};
    for (const id of Object.keys(known.answers)) {
      const q = questions.get(Number(id));
      if (q) questionTypes[q.Id] = answerKind(q);
    }
    const seed = { answers: { ...known.answers }, preliminary: { ...known.preliminary }, questionTypes };
    if (known.version === undefined) return { ...who, seed };
    return { ...who, seed, base: { version: known.version, answers: seed.answers, preliminary: seed.preliminary } };
  };
  // What the server now holds of the case: the device keeps it, to continue the case offline.
  const keptOnServer = (data: unknown) => {
    const result = data as Partial<AnswerWriteResult> | undefined;
    for (const id of result?.RemovedQuestionIds ?? []) delete known.answers[id];
    if (typeof result?.Version !== "number" || input.patientDataId === undefined) return;
    known.version = result.Version;
    // The case as it stands with this version, taken now: later saves change `known`.
    const copy = {
      surveyId: input.survey.Id,
      patientId: input.patientId,
      patientDataId: input.patientDataId,
      version: result.Version,
      answers: { ...known.answers },
      preliminary: { ...known.preliminary },
    };
    void copies()
      .then((m) => m.keepCaseCopy(copy))
      .catch(() => undefined);
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
      isLocal: () => local,
      save: async (question, value) => {
        const result = await attempt(
          () => online.save(question, value),
          async () => recordAnswer(await context(), question, value),
        );
        if (result.ok) {
          if (value) known.answers[question.Id] = value;
          else delete known.answers[question.Id];
          if (!local) keptOnServer(result.data);
        }
        return result;
      },
    },
    savePreliminary: async (attributeId, optionId) => {
      const result = await attempt(
        () =>
          callApi(responsesApi.answerPreliminary, {
            body: { ...ids, PatientFormAttributeId: attributeId, PatientFormAnswerOptionId: optionId },
          }),
        async () => recordPreliminary(await context(), attributeId, optionId),
      );
      if (result.ok) {
        known.preliminary[attributeId] = optionId;
        if (!local) keptOnServer(result.data);
      }
      return result;
    },
    close: async () => {
      const result = await attempt(
        () => callApi(patientsApi.close, { query: { patientId: input.patientId, surveyId: ids.SurveyId } }),
        async () => recordClose(await context()),
      );
      // A case closed on the server is no longer continued anywhere.
      if (result.ok && !local) {
        await copies()
          .then((m) => m.dropCaseCopy(ids.SurveyId, input.patientId))
          .catch(() => undefined);
      }
      return result;
    },
  };
}
