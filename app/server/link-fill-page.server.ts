import { attachmentsApi } from "~/contracts/attachments";
import { patientsApi } from "~/contracts/patients";
import { responsesApi } from "~/contracts/responses";
import { surveysApi } from "~/contracts/surveys";
import { answersFromResponses } from "~/domain/answers";
import { caseLanguageOf } from "~/domain/case-language";
import { AppError } from "~/domain/errors";
import { isContentLanguage } from "~/domain/content-languages";
import { pageFrom, pagesOf, preliminaryComplete, reachablePage, type FillPage } from "~/domain/fill-pages";
import type { PreliminaryAnswers } from "~/domain/answers";
import { resumePlace } from "~/domain/fill-resume";
import { positiveId } from "~/domain/ids";
import { newIdempotencyKey } from "~/domain/idempotency";
import { preferredContentLanguage, type ContentLanguage } from "~/domain/languages";
import { parseForm } from "~/domain/forms";
import { FillPageFormSchema } from "~/domain/page-forms";
import { hasProblems, type PageProblems } from "~/domain/page-problems";
import type { Survey } from "~/domain/survey";
import { linkCookieOf } from "~/server/api/link-routes.server";
import { ApiError, linkApiClient, type ApiClient } from "~/server/api-client.server";
import { isCrossSiteWrite } from "~/server/auth/same-origin.server";
import { getContext } from "~/server/context.server";
import {
  exitsInForm,
  newPreliminaryExit,
  newQuestionExit,
  preliminaryStored,
  questionExitsInForm,
  readPageForm,
  savePageFromForm,
  savePreliminaryFromForm,
  storedAnswersComplete,
  uploadPageFiles,
} from "~/server/fill-forms.server";
import { data, redirect } from "~/server/responses.server";
import { linkSession } from "~/server/services/links/open.server";
import { problemStatus } from "~/server/link-pages.server";
import type { LinkScope } from "~/server/services/links/scope.server";

/**
 * The patient's page of a link, /l/fill (docs/decisions/057-patient-links.md): the case's questionnaire through
 * the link's own API (/l/api, with the link's cookie), after the preliminary questions, which stay with staff
 * unless the survey lets the patient answer them (`PreliminaryByPatient`, decision 058: then the link starts
 * with them, and they are saved with staff's rules). Without JavaScript each page is a form posted here, as on
 * staff's fill page.
 */

export const LINK_FILL = "/l/fill";
/**
 * The pages a patient fills: the survey's intro (if any), the preliminary questions where the link's survey
 * holds them (only when the patient answers them) and the questionnaire; then the thanks.
 */
export const linkPages = (
  survey: Pick<Survey, "IntroText" | "IsPatientFormEnabled" | "PatientForm" | "Categories">,
): FillPage[] => pagesOf(survey).filter((p) => p === "intro" || p === "preliminary" || p === "questionnaire");

const noStore = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

type LinkProblemPage = Extract<Awaited<ReturnType<typeof linkSession>>, { problem: unknown }>;

/** The link the request's cookie stands for, or why it opens nothing (no cookie: not valid). */
async function linkOf(request: Request): Promise<{ scope: LinkScope; api: ApiClient } | LinkProblemPage> {
  const session = linkCookieOf(request.headers.get("cookie"));
  if (!session) return { problem: "invalid", language: null };
  const found = await linkSession(getContext().db, session);
  return "scope" in found ? { scope: found.scope, api: linkApiClient(session) } : found;
}

/** The thanks page's language: one of the content languages, from its address (the link is used up then). */
function doneLanguage(url: URL): ContentLanguage | null {
  const lang = url.searchParams.get("lang");
  return lang && isContentLanguage(lang) ? lang : null;
}

export async function linkFillLoader(request: Request) {
  const url = new URL(request.url);
  if (url.searchParams.get("page") === "done") {
    return data({ kind: "done" as const, language: doneLanguage(url) ?? "de" }, { headers: noStore });
  }
  const link = await linkOf(request);
  // No cookie, or one whose link no longer opens: which way, in the case's language (Back after sending
  // says the questionnaire was sent); a cookie that stands for no link is not valid here.
  if ("problem" in link) {
    const { problem } = link;
    const language = link.language ?? preferredContentLanguage(request.headers.get("accept-language"));
    return data({ kind: "problem" as const, problem, language }, { status: problemStatus[problem], headers: noStore });
  }
  const { scope, api } = link;
  const ref = { surveyId: scope.surveyId, patientId: scope.patientId };
  const survey = await api.call(surveysApi.get, { params: { id: scope.surveyId } });
  const [patient, responses, counts] = await Promise.all([
    api.call(patientsApi.record, { query: ref }),
    api.call(responsesApi.answers, { query: ref }),
    api.call(attachmentsApi.count, { query: { patientDataId: scope.patientDataId } }),
  ]);
  const answers = answersFromResponses(responses);
  const pages = linkPages(survey);
  const preliminary: PreliminaryAnswers = {};
  if (pages.includes("preliminary")) {
    for (const a of await api.call(responsesApi.preliminaryAnswers, { query: ref }))
      preliminary[a.PatientFormAttributeId] = a.PatientFormAnswerOptionId;
  }
  const requested = url.searchParams.get("page");
  let page = pageFrom(requested, pages);
  let categoryId = positiveId(url.searchParams.get("category"));
  // Opened without a page: where the case was left (decision 019), the preliminary page included.
  if (!pages.includes(requested as FillPage)) ({ page, categoryId } = resumePlace(survey, answers, preliminary));
  // An address cannot skip the preliminary questions the patient answers.
  page = reachablePage(page, pages, preliminaryComplete(survey, preliminary));
  const withFiles = counts.filter((c) => c.NumberOfFileAttachment > 0);
  const files = await Promise.all(
    withFiles.map((c) =>
      api.call(attachmentsApi.list, { query: { questionId: c.QuestionId, patientDataId: scope.patientDataId } }),
    ),
  );
  return data(
    {
      kind: "fill" as const,
      survey,
      patientId: scope.patientId,
      patientDataId: scope.patientDataId,
      linkId: scope.linkId,
      answers,
      preliminary,
      page,
      categoryId,
      language: caseLanguageOf(survey, patient.Language),
      attachmentCounts: Object.fromEntries(counts.map((c) => [c.QuestionId, c.NumberOfFileAttachment])),
      attachments: Object.fromEntries(
        withFiles.map((c, i) => [c.QuestionId, files[i].map((f) => ({ Id: f.Id, FileName: f.FileName }))]),
      ),
      formKey: newIdempotencyKey(),
    },
    { headers: noStore },
  );
}

/** Where the patient goes after submitting: the thanks in their language (the link no longer opens). */
export const doneHref = (language: string) => `${LINK_FILL}?page=done&lang=${encodeURIComponent(language)}`;

/** Submits the case through the link; the thanks come in the case's language. */
async function submitByLink(api: ApiClient, survey: Survey, ref: { surveyId: number; patientId: string }) {
  const record = await api.call(patientsApi.record, { query: ref });
  await api.call(patientsApi.close, { query: ref });
  return redirect(doneHref(caseLanguageOf(survey, record.Language)));
}

/** Without JavaScript, the preliminary page's form (decision 058): saved with the rules of staff's page. */
async function savePreliminaryPage(
  api: ApiClient,
  survey: Survey,
  patientId: string,
  form: FormData,
  go: string,
  setLanguage: () => Promise<unknown>,
) {
  const ref = { surveyId: survey.Id, patientId };
  if (go === "exit") {
    // An answer that ends the survey, confirmed: saved with the rest, and the case is submitted.
    if (exitsInForm(survey, form).length === 0) return data<PageProblems>({}, { status: 400 });
    await savePreliminaryFromForm(api, survey, patientId, form);
    return submitByLink(api, survey, ref);
  }
  const exit = await newPreliminaryExit(api, survey, patientId, form);
  await savePreliminaryFromForm(api, survey, patientId, form, exit?.attributeId);
  await setLanguage();
  if (exit) return data<PageProblems>({ exit });
  if (go === "continue" && !(await preliminaryStored(api, survey, patientId)))
    return data<PageProblems>({ preliminaryIncomplete: true }, { status: 400 });
  const pages = linkPages(survey);
  const target = go === "back" ? pages[0] : go === "continue" ? "questionnaire" : "preliminary";
  return redirect(`${LINK_FILL}?page=${target}`);
}

/** Without JavaScript: the page's answers saved through the link, then the next page, or the thanks. */
export async function linkFillAction(request: Request, bodyRefused?: "tooLarge") {
  if (isCrossSiteWrite(request, getContext().env.publicUrl)) throw new Response("Forbidden", { status: 403 });
  const here = LINK_FILL + new URL(request.url).search;
  const link = await linkOf(request);
  if ("problem" in link) return redirect(here);
  const { scope, api } = link;
  const ref = { surveyId: scope.surveyId, patientId: scope.patientId };
  // Files together over the limit (refused before it was read, or while): the form cannot be read; the page
  // comes back and says that nothing of it was kept.
  const form = bodyRefused
    ? null
    : await readPageForm(request).catch((error: unknown) => {
        if (error instanceof AppError && error.type === "PAYLOAD_TOO_LARGE") return null;
        throw error;
      });
  if (!form) return data<PageProblems>({ tooLarge: true }, { status: 413, headers: noStore });
  const submission = parseForm(form, FillPageFormSchema);
  if (submission.status !== "success") return data<PageProblems>({}, { status: 400 });
  const value = submission.value;
  const switched = value.language && (value.intent === "language" || value.go === "language") ? value.language : null;
  const setLanguage = () =>
    switched ? api.call(patientsApi.language, { query: ref, body: { Language: switched } }) : Promise.resolve();
  try {
    if (value.intent === "language") {
      await setLanguage();
      return redirect(here);
    }
    const survey = await api.call(surveysApi.get, { params: { id: scope.surveyId } });
    if (value.intent === "savePreliminary" && linkPages(survey).includes("preliminary")) {
      return await savePreliminaryPage(api, survey, scope.patientId, form, value.go, setLanguage);
    }
    if (value.intent !== "savePage") return data<PageProblems>({}, { status: 400 });
    const go = value.go === "language" ? "stay" : value.go;
    // A question's answer that ends the survey: asked about first (the form's other answers are saved), then,
    // confirmed, saved, and the case ends as the patient's submit ends it; as on staff's page.
    const confirmed = go === "exit";
    if (confirmed && questionExitsInForm(survey, form).length === 0) return data<PageProblems>({}, { status: 400 });
    const exit = confirmed ? null : await newQuestionExit(api, survey, scope.patientId, form);
    const problems: PageProblems = {
      values: await savePageFromForm(api, survey, scope.patientId, form, exit?.questionId),
      files: await uploadPageFiles(api, survey, scope.patientId, form),
    };
    await setLanguage();
    if (hasProblems(problems)) return data(problems, { status: 400 });
    if (exit) return data<PageProblems>({ questionExit: exit }, { headers: noStore });
    // An early submit asks first (decision 067); confirmed, it closes the case with what is answered.
    if (
      go === "submit" &&
      !(await storedAnswersComplete(api, survey, scope.patientId, linkPages(survey).includes("preliminary")))
    )
      return data<PageProblems>({ submitOpen: true }, { headers: noStore });
    if (go === "submit" || go === "submitAnyway" || confirmed) return await submitByLink(api, survey, ref);
    const pages = linkPages(survey);
    if (go === "back") return redirect(`${LINK_FILL}?page=${pages[Math.max(0, pages.indexOf("questionnaire") - 1)]}`);
    const next = go.startsWith("category:") ? Number(go.slice(9)) : value.categoryId;
    return redirect(`${LINK_FILL}?page=questionnaire${next ? `&category=${next}` : ""}`);
  } catch (error) {
    // The link stopped standing for its case meanwhile: the page says so when drawn again.
    if (error instanceof ApiError && [401, 403, 404, 409].includes(error.status)) return redirect(here);
    throw error;
  }
}
