import { callApi, type ApiResult } from "~/api-client";
import { answerCall } from "~/contracts/responses";
import type { AnswerValue } from "~/domain/answers";
import type { Question } from "~/domain/survey";

/**
 * Where a fill page's answers go: the survey API, the device (offline, app/offline/fill-sinks.ts) or, in the
 * editor's preview, nowhere. Apart from the API client, so that the pages that save no answers (the lists)
 * do not load the answers' contract.
 */
export interface AnswerSink {
  /** Persists one answer (undefined deletes it); resolves to the API's outcome. */
  save: (question: Question, value: AnswerValue | undefined) => Promise<ApiResult<unknown>>;
  /** Whether the answers now go to this device (offline) rather than the server. */
  isLocal?: () => boolean;
}

/**
 * The live sink: the survey API (or, with `base`, a patient link's own API under it), with the session cookie. Preview uses a sink that stores nothing. Each
 * save outlives the page, so that one on its way when the page is left or reloaded still arrives.
 */
export function apiSink(ids: { PatientId: string; SurveyId: number }, base?: string): AnswerSink {
  return {
    save: (question, value) => {
      const call = answerCall(question, value, ids);
      return callApi(call.contract, { body: call.body }, { keepalive: true, base });
    },
  };
}

export const previewSink: AnswerSink = { save: async () => ({ ok: true, data: undefined }) };
