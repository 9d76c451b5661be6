import { redirect, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { positiveId } from "~/domain/ids";
import { canFill } from "~/domain/start-state";
import { pageFrom, pagesOf, type FillPage } from "~/domain/fill-pages";
import { resumePlace } from "~/domain/fill-resume";
import type { Answers, PreliminaryAnswers } from "~/domain/answers";
import { isValidPatientId } from "~/domain/patient-id";
import type { Survey } from "~/domain/survey";
import { caseLanguageOf } from "~/domain/case-language";
import type { ContentLanguage } from "~/domain/languages";
import { loadFillTexts } from "~/locale-files";
import { reportNetworkError } from "./connectivity";
import type { CaseBase } from "./case-copies";
import { getEntry } from "./fill-store";
import { isNetworkError } from "./network";
import { cachedUser } from "./root-cache";
import { getSurvey, removeSurvey, saveSurvey } from "./survey-store";

export { SHELL_PATIENT_ID } from "./sw-constants";

export interface FillData {
  survey: Survey;
  patientId: string;
  patientDataId: number;
  userId: string;
  surveyUserDataId: number;
  answers: Answers;
  preliminary: PreliminaryAnswers;
  attachmentCounts: Record<number, number>;
  /** The files attached on the server, by question (for those that have any). */
  attachments: Record<number, { Id: number; FileName: string }[]>;
  page: FillPage;
  categoryId: number | null;
  /** Opened without a page in its address: the place was chosen from what the case holds (decision 019). */
  resumed: boolean;
  /** Sent back with the page's form (without JavaScript): a form sent twice stores its files once. */
  formKey?: string;
  /** Online: the case's answers version on the server when its answers were read. */
  version?: number;
  /** Offline, without a fill of the case on this device yet: the server's case as the device has it. */
  base?: CaseBase;
  /** Built from this device's copy: answers are kept here until they are synced. */
  offline: boolean;
  /** The language the case is filled in (docs/decisions/055-fill-languages.md). */
  language: ContentLanguage;
  /** A closed case: when, and by whose signature (the confirmation page says so). */
  closed?: CaseClosed | null;
  /** Submitted by the patient through their link, to review: when (decision 057). */
  toReview?: string | null;
}

export interface CaseClosed {
  at: string | null;
  signature: { SignerName: string; Meaning: "author" | "reviewer" | "approval"; SignedAt: string } | null;
}

export type ServerFillData = Omit<FillData, "offline"> | { shell: true };

/**
 * Whether this page is the kept offline fill document, by the mark its server-drawn placeholder carries
 * (`data-offline-shell`). Read as the route's module loads, before the page starts: that page is built from
 * this device's copy as it starts; every other fill page starts from the server's data as it came.
 */
export function isShellDocument(): boolean {
  return typeof document !== "undefined" && document.querySelector("[data-offline-shell]") !== null;
}

/** Opening an Active survey online keeps its copy fresh; one no longer fillable loses its copy. */
export async function keepCopy(survey: Survey) {
  const fillable = canFill(survey);
  const known = await getSurvey(survey.Id);
  if (!fillable) return known ? removeSurvey(survey.Id) : undefined;
  await saveSurvey(survey);
  // First stored now: the service worker keeps its pages too, so it opens after a reload offline.
  if (!known) await import("./sw.client").then((sw) => sw.warmOffline([survey.Id]));
}

/**
 * The fill page from this device's copy of the survey and this patient's fill on the device, or, before
 * there is one, the server's open case as the device has it (case-copies.ts).
 */
export async function localFillData(surveyId: number, patientId: string, url: URL): Promise<FillData> {
  const [survey, entry, copy] = await Promise.all([
    getSurvey(surveyId),
    getEntry(surveyId, patientId),
    import("./case-copies").then((m) => m.getCaseCopy(surveyId, patientId)).catch(() => undefined),
  ]);
  if (!survey || !isValidPatientId(patientId) || !patientId) throw redirect("/surveys");
  const pages = pagesOf(survey);
  const requested = url.searchParams.get("page");
  const resumed = !pages.includes(requested as FillPage);
  let page = pageFrom(requested, pages);
  if (entry?.status === "Closed" && page !== "done") throw redirect(`/survey/${surveyId}`);
  let categoryId = positiveId(url.searchParams.get("category"));
  const base = entry ? undefined : copy;
  const answers = entry?.answers ?? base?.answers ?? {};
  const preliminary = entry?.preliminaryAnswers ?? base?.preliminary ?? {};
  if (resumed) ({ page, categoryId } = resumePlace(survey, answers, preliminary));
  const user = await cachedUser();
  const language = caseLanguageOf(survey, entry?.language ?? copy?.language);
  return {
    survey,
    patientId,
    language,
    patientDataId: entry?.patientDataId ?? copy?.patientDataId ?? 0,
    userId: entry?.upload.userId ?? user?.userId ?? "",
    surveyUserDataId: entry?.upload.ssiUserDataId ?? user?.surveyUserDataId ?? 0,
    answers,
    preliminary,
    attachmentCounts: {},
    attachments: {},
    page,
    categoryId,
    resumed,
    ...(base ? { base: { version: base.version, answers: base.answers, preliminary: base.preliminary } } : {}),
    offline: true,
  };
}

/**
 * The fill route's client loader: the server's page when it answers, this device's copy when the network
 * is gone. The kept fill document carries the placeholder patient's (empty) data: it is never used.
 * The page keeps the survey's copy itself once it has started (FillPageView), not here.
 */
export async function fillClientLoader({ params, request, serverLoader }: ClientLoaderFunctionArgs) {
  const surveyId = Number(params.surveyId);
  const patientId = params.patientId ?? "";
  try {
    const data = await serverLoader<ServerFillData>();
    if (!("shell" in data) && data.patientId === patientId) return withTexts(data);
  } catch (error) {
    if (!isNetworkError(error)) throw error;
    reportNetworkError();
  }
  return withTexts(await localFillData(surveyId, patientId, new URL(request.url)));
}

/** The page's data once the fill words of its case's language are here (offline: from the kept files). */
async function withTexts<T extends { language: ContentLanguage }>(data: T): Promise<T> {
  // Should they not come, the page's own words stand in for them (FillLanguage): the case can still be filled.
  await loadFillTexts(data.language).catch((error: unknown) => console.error(error));
  return data;
}
