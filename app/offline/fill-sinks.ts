import { patientsApi } from "~/contracts/patients";
import { responsesApi } from "~/contracts/responses";
import { type ApiResult, callApi } from "~/api-client";
import { apiSink, type AnswerSink } from "~/answer-sink";
import type { Answers, PreliminaryAnswers } from "~/domain/answers";
import type { Survey } from "~/domain/survey";
import type { AnswerWriteResult } from "~/domain/fill-requests";
import type { CaseBase } from "./case-copies";
import { answerKind } from "~/domain/question-types";
import { questionsById } from "~/domain/visibility";
import type { CaseSynced } from "./case-synced";
import type { FillEntry } from "./fill-entry";
import type { ContentLanguage } from "~/domain/languages";
import {
  getEntry,
  recordAnswer,
  recordClose,
  recordLanguage,
  recordPreliminary,
  type EntryContext,
} from "./fill-store";

const OK: ApiResult<unknown> = { ok: true, data: undefined };

export interface FillWriters {
  sink: AnswerSink;
  savePreliminary: (attributeId: number, optionId: number) => Promise<ApiResult<unknown>>;
  close: () => Promise<ApiResult<unknown>>;
  /** The language the case is filled in from now on (docs/decisions/055-fill-languages.md). */
  setLanguage: (language: ContentLanguage) => Promise<ApiResult<unknown>>;
  /** Whether this page now keeps its answers on the device. */
  isLocal: () => boolean;
  /** The sync put this case's fill on the server: what the server holds now. */
  synced: (server: CaseSynced) => void;
  /**
   * The fill is synced and gone from the device: the page saves to the server again, unless something was
   * kept on the device meanwhile (that waits for the next sync). Resolves to whether it does.
   */
  resume: () => Promise<boolean>;
}

/**
 * Where the fill page's answers go. Offline pages write to the device (marked not synced), continuing the
 * server's case as the device has it (`base`) when it has one. An online page writes to the API and keeps
 * the device's copy of the case as the server now holds it (case-copies.ts); when a write finds no
 * network, that write and every later one on this page go to the device, in an entry that starts from
 * everything the server held (with its answers version), so the sync sends only what changed since. Once
 * the sync has put the page's fill on the server and nothing of it is left on the device, the page writes to
 * the API again, continuing the case from the version that sync left.
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
  /** The language the case is filled in as the page was drawn. */
  language?: ContentLanguage;
  onLocal?: () => void;
}): FillWriters {
  const ids = { PatientId: input.patientId, SurveyId: input.survey.Id };
  const online = apiSink(ids);
  const known = {
    answers: { ...input.answers },
    preliminary: { ...input.preliminary },
    version: input.version,
    patientDataId: input.patientDataId,
  };
  let local = input.offline;
  let language = input.language;
  /** `known` is the server's case as it stands (the page came from the server, or a sync told it). */
  let fromServer = !input.offline;
  /** Writes to the device on their way, and how many were started. */
  const onTheirWay = new Set<Promise<unknown>>();
  let deviceWrites = 0;
  const questions = questionsById(input.survey);

  // The kept cases' code loads when first needed (not with every page, decision 038).
  const copies = () => import("./case-copies");
  const context = async (): Promise<EntryContext> => {
    const who = {
      survey: input.survey,
      patientId: input.patientId,
      userId: input.userId,
      surveyUserDataId: input.surveyUserDataId,
      language,
    };
    if (!fromServer) {
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
  // What the server now holds of the case: the device keeps it, to continue the case offline. The save is
  // done once it is kept: a person who leaves the page (or loses the network) the moment it says "saved"
  // continues offline from a copy with that answer.
  const keptOnServer = async (data: unknown) => {
    const result = data as Partial<AnswerWriteResult> | undefined;
    for (const id of result?.RemovedQuestionIds ?? []) delete known.answers[id];
    if (typeof result?.Version !== "number" || !known.patientDataId) return;
    known.version = result.Version;
    // The case as it stands with this version, taken now: later saves change `known`.
    const copy = {
      surveyId: input.survey.Id,
      patientId: input.patientId,
      patientDataId: known.patientDataId,
      version: result.Version,
      answers: { ...known.answers },
      preliminary: { ...known.preliminary },
      ...(language ? { language } : {}),
    };
    await copies()
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
    const write = keep();
    deviceWrites += 1;
    onTheirWay.add(write);
    try {
      await write;
    } finally {
      onTheirWay.delete(write);
    }
    return OK;
  };

  return {
    isLocal: () => local,
    synced: (server) => {
      known.answers = { ...server.answers };
      known.preliminary = { ...server.preliminary };
      known.version = server.version;
      known.patientDataId = server.patientDataId;
      fromServer = true;
    },
    resume: async () => {
      if (!local) return true;
      const started = deviceWrites;
      await Promise.allSettled([...onTheirWay]);
      const left = await getEntry(input.survey.Id, input.patientId).catch(() => null);
      // Kept on the device meanwhile (or unreadable): the page goes on there until the next sync.
      if (left !== undefined || deviceWrites !== started) return false;
      local = false;
      return true;
    },
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
          if (!local) await keptOnServer(result.data);
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
        if (!local) await keptOnServer(result.data);
      }
      return result;
    },
    setLanguage: async (next) => {
      const result = await attempt(
        () =>
          callApi(patientsApi.language, {
            query: { patientId: input.patientId, surveyId: ids.SurveyId },
            body: { Language: next },
          }),
        async () => recordLanguage(await context(), next),
      );
      if (result.ok) language = next;
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
