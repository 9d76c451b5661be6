import { attachmentsApi } from "~/contracts/attachments";
import { patientsApi } from "~/contracts/patients";
import { responsesApi } from "~/contracts/responses";
import { surveysApi } from "~/contracts/surveys";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { data, redirect } from "~/server/responses.server";
import { positiveId } from "~/domain/ids";
import { canFill } from "~/domain/start-state";
import { useActionData, useLoaderData, useRouteLoaderData, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { HandOverButton } from "~/components/handover/HandOverButton";
import { handOverOffered } from "~/domain/handover";
import { useMemo } from "react";
import { useTranslation } from "~/texts";
import { FillPageView } from "~/components/fill/FillPageView";
import { fillPageTitle } from "~/components/layout/meta";
import { hasProblems, type PageProblems } from "~/domain/page-problems";
import { pageFrom, pagesOf, preliminaryComplete, reachablePage, type FillPage } from "~/domain/fill-pages";
import { resumePlace } from "~/domain/fill-resume";
import { answersFromResponses, type PreliminaryAnswers } from "~/domain/answers";
import { newIdempotencyKey } from "~/domain/idempotency";
import { isValidPatientId } from "~/domain/patient-id";
import { fillClientLoader, isShellDocument, SHELL_PATIENT_ID, type FillData } from "~/offline/fill-local";
import { apiClient } from "~/server/api-client.server";
import { requireUser } from "~/server/auth/guards.server";
import { requestHandover } from "~/server/log.server";
import { setFlash } from "~/server/flash.server";
import { badForm, refused } from "~/server/refusals.server";
import { parseForm } from "~/domain/forms";
import { caseLanguageOf, caseLanguages, fillWordsOf } from "~/domain/case-language";
import { translateSurvey } from "~/domain/languages";
import { FillPageFormSchema } from "~/domain/page-forms";
import {
  exitsInForm,
  newPreliminaryExit,
  newQuestionExit,
  questionExitsInForm,
  preliminaryStored,
  readPageForm,
  savePageFromForm,
  savePreliminaryFromForm,
  storedAnswersComplete,
  uploadPageFiles,
} from "~/server/fill-forms.server";

async function toStart(request: Request, surveyId: number, key: string): Promise<never> {
  throw redirect(`/survey/${surveyId}`, { headers: { "Set-Cookie": await setFlash(request, { kind: "error", key }) } });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const surveyId = positiveId(params.surveyId);
  const patientId = params.patientId ?? "";
  if (surveyId === null) throw redirect("/surveys");
  // The document kept for offline use: no patient's data in it (the page is built on the device).
  if (patientId === SHELL_PATIENT_ID) return { shell: true as const };
  if (!patientId || !isValidPatientId(patientId)) return toStart(request, surveyId, "start.surveyPatientIdInputError");
  const api = apiClient(user.accessToken);
  const url = new URL(request.url);
  try {
    const survey = await api.call(surveysApi.get, { params: { id: surveyId } });
    const pages = pagesOf(survey);
    const requested = url.searchParams.get("page");
    // Opened without a page (from the start page): the case goes on where it was left (decision 019).
    const resumed = !pages.includes(requested as FillPage);
    let page = pageFrom(requested, pages);
    if (!canFill(survey)) {
      if (page !== "done") return toStart(request, surveyId, "fill.notFillable");
    }
    const patient = await api.call(patientsApi.record, { query: { patientId, surveyId } });
    if (patient.State === "Nonexistent") return toStart(request, surveyId, "fill.patientNotFound");
    if (patient.State === "Closed" && page !== "done")
      return toStart(request, surveyId, "fill.surveyCantBeFilledAlreadyClosed");
    const [responses, attributes, counts] = await Promise.all([
      api.call(responsesApi.answers, { query: { surveyId, patientId } }),
      api.call(responsesApi.preliminaryAnswers, { query: { surveyId, patientId } }),
      api.call(attachmentsApi.count, { query: { patientDataId: patient.PatientDataId! } }),
    ]);
    const preliminary: PreliminaryAnswers = {};
    for (const a of attributes) preliminary[a.PatientFormAttributeId] = a.PatientFormAnswerOptionId;
    const answers = answersFromResponses(responses);
    let categoryId = positiveId(url.searchParams.get("category"));
    if (resumed) ({ page, categoryId } = resumePlace(survey, answers, preliminary));
    // An address cannot skip the preliminary page either (with or without JavaScript).
    const preliminaryDone = preliminaryComplete(survey, preliminary);
    page = reachablePage(page, pages, preliminaryDone);
    // Handed over (decision 058): the pages staff keep (the intro and the preliminary questions, unless the
    // survey leaves them to the patient) lead the patient, by a link, Back or an address, to the questionnaire.
    if (requestHandover() && (page === "intro" || page === "preliminary") && !handOverOffered(survey, page))
      return redirect(`${url.pathname}?page=questionnaire`);
    // The files already attached, listed as the page is drawn (without JavaScript nothing lists them later).
    const withFiles = counts.filter((c) => c.NumberOfFileAttachment > 0);
    const files = await Promise.all(
      withFiles.map((c) =>
        api.call(attachmentsApi.list, { query: { questionId: c.QuestionId, patientDataId: patient.PatientDataId! } }),
      ),
    );
    return {
      survey,
      patientId,
      patientDataId: patient.PatientDataId ?? 0,
      // Read before the answers: a change in between makes the version older than they are, never newer.
      version: patient.Version,
      userId: user.identity.sub,
      surveyUserDataId: user.surveyUserDataId,
      answers,
      preliminary,
      attachmentCounts: Object.fromEntries(counts.map((c) => [c.QuestionId, c.NumberOfFileAttachment])),
      attachments: Object.fromEntries(
        withFiles.map((c, i) => [c.QuestionId, files[i].map((f) => ({ Id: f.Id, FileName: f.FileName }))]),
      ),
      page,
      categoryId,
      resumed,
      // The language the case is filled in (docs/decisions/055-fill-languages.md): the page speaks it.
      language: caseLanguageOf(survey, patient.Language),
      toReview: patient.SubmittedByPatient?.At ?? null,
      closed:
        patient.State === "Closed" ? { at: patient.ClosedAt ?? null, signature: patient.Signature ?? null } : null,
      // Sent back with the page's form: files of a form sent twice are stored once (decision 018).
      formKey: newIdempotencyKey(),
    };
  } catch (error) {
    const start = `/survey/${surveyId}`;
    return refused(request, error, { back: start, notFound: start });
  }
}

/** Without JavaScript each page is a form; its answers are saved here, then the next page is shown. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const surveyId = Number(params.surveyId);
  const patientId = params.patientId ?? "";
  const base = `/survey/${surveyId}/fill/${encodeURIComponent(patientId)}`;
  const here = base + new URL(request.url).search;
  const api = apiClient(user.accessToken);
  try {
    const form = await readPageForm(request);
    // The page's own fields through its schema; the answers' fields are read by question below.
    const submission = parseForm(form, FillPageFormSchema);
    if (submission.status !== "success") return badForm(request, here);
    const value = submission.value;
    // The fill header's switch: the page's values are saved as with "stay", then the page comes back in it.
    const switched = value.language && (value.intent === "language" || value.go === "language") ? value.language : null;
    const setLanguage = () =>
      switched
        ? api.call(patientsApi.language, { query: { patientId, surveyId }, body: { Language: switched } })
        : Promise.resolve();
    if (value.intent === "language") {
      await setLanguage();
      return redirect(here);
    }
    const go = value.go === "language" ? "stay" : value.go;
    const survey = await api.call(surveysApi.get, { params: { id: surveyId } });
    const pages = pagesOf(survey);
    // The case ends as a submit ends it; a survey that requires a signature is submitted on its signing page.
    const end = async () => {
      if (survey.RequiresSignature) return redirect(`/survey/${surveyId}/sign/${encodeURIComponent(patientId)}`);
      await api.call(patientsApi.close, { query: { patientId, surveyId } });
      return redirect(`${base}?page=done`);
    };
    if (value.intent === "savePreliminary") {
      if (go === "exit") {
        // An answer that ends the survey, confirmed: it is saved with the rest, and the case ends.
        if (exitsInForm(survey, form).length === 0) return badForm(request, here);
        await savePreliminaryFromForm(api, survey, patientId, form);
        return end();
      }
      // An answer that ends the survey, newly chosen, is asked about first; the form's other answers are saved.
      const exit = await newPreliminaryExit(api, survey, patientId, form);
      await savePreliminaryFromForm(api, survey, patientId, form, exit?.attributeId);
      await setLanguage();
      if (exit) return data<PageProblems>({ exit });
      // Continue only once every preliminary question is answered (section 5); the page says why not.
      if (go === "continue" && !(await preliminaryStored(api, survey, patientId)))
        return data<PageProblems>({ preliminaryIncomplete: true }, { status: 400 });
      // Back from the case's first page: the survey's start page, as the page with its script goes.
      if (go === "back" && pages.indexOf("preliminary") <= 0) return redirect(`/survey/${survey.Id}`);
      const target: FillPage =
        go === "back"
          ? pages[Math.max(0, pages.indexOf("preliminary") - 1)]
          : go === "outro"
            ? "outro"
            : go === "continue"
              ? "questionnaire"
              : "preliminary";
      return redirect(`${base}?page=${target}`);
    }
    if (value.intent === "savePage") {
      const { categoryId } = value;
      if (go === "exit") {
        // A question's answer that ends the survey, confirmed: it is saved, and the case ends.
        if (questionExitsInForm(survey, form).length === 0) return badForm(request, here);
        await savePageFromForm(api, survey, patientId, form);
        return end();
      }
      // One newly chosen is asked about first; the form's other answers are saved.
      const exit = await newQuestionExit(api, survey, patientId, form);
      const problems: PageProblems = {
        values: await savePageFromForm(api, survey, patientId, form, exit?.questionId),
        files: await uploadPageFiles(api, survey, patientId, form),
      };
      // Before the page is drawn again (with what it could not take, as typed): in the language switched to.
      await setLanguage();
      // What was not taken is shown on the same page, as typed and with its reason, before going anywhere.
      if (hasProblems(problems)) return data(problems, { status: 400 });
      if (exit) return data<PageProblems>({ questionExit: exit });
      // A patient handed the device is asked before an early submit (decision 067); staff are not.
      if (go === "submit" && requestHandover() && !(await storedAnswersComplete(api, survey, patientId, true)))
        return data<PageProblems>({ submitOpen: true });
      // A survey that requires a signature is submitted on its signing page (decision 029).
      if (go === "submit" || go === "submitAnyway") return end();
      if (go === "back")
        return redirect(
          pages.indexOf("questionnaire") <= 0
            ? `/survey/${survey.Id}`
            : `${base}?page=${pages[pages.indexOf("questionnaire") - 1]}`,
        );
      const next = go.startsWith("category:") ? Number(go.slice(9)) : categoryId;
      return redirect(`${base}?page=questionnaire${next ? `&category=${next}` : ""}`);
    }
  } catch (error) {
    // A case that is gone or closed starts again on the start page; anything else stays on this page.
    const start = `/survey/${surveyId}`;
    return refused(request, error, {
      back: here,
      notFound: start,
      to: { SURVEY_ALREADY_CLOSED: start },
      keys: { PAYLOAD_TOO_LARGE: "fill.formTooLarge" },
    });
  }
  return data(null, { status: 400 });
}

/** The survey's title in the case's language, as the page's heading shows it; the words around it are the staff's. */
export const meta: MetaFunction<typeof loader> = ({ matches, data: loaded }) => {
  const { survey, language } = (loaded ?? {}) as Partial<Pick<FillData, "survey" | "language">>;
  // A copy kept before languages has none: it is its source language (as FillPageView reads it).
  const title = !survey
    ? ""
    : !language || language === caseLanguages(survey)[0]
      ? survey.Title
      : translateSurvey(survey, language).Title;
  const root = matches.find((m) => m.id === "root")?.data as { locale?: string } | undefined;
  return [{ title: fillPageTitle(root?.locale, title, language) }];
};

/**
 * The case's fill words come with the page (root.tsx), where the page speaks them: a survey in one language
 * speaks the staff's own.
 */
export const handle = {
  fillTexts: (d: unknown) => {
    const data = d as Partial<Pick<FillData, "survey" | "language">> | null;
    return data?.survey && data.language ? fillWordsOf(data.survey, data.language) : null;
  },
};

export async function clientLoader(args: ClientLoaderFunctionArgs) {
  return fillClientLoader(args);
}
// On the kept offline fill document it runs as the page starts, to build the page from this device's copy.
// Any other fill page starts from the server's data as it came: nothing to load again, nothing redrawn.
clientLoader.hydrate = isShellDocument();

export default function FillRoute() {
  const d = useLoaderData<typeof clientLoader>() as FillData | Omit<FillData, "offline"> | { shell: true };
  // Without JavaScript: what the page's form could not take, shown on the page drawn again.
  const problems = useActionData<typeof action>() as PageProblems | null | undefined;
  const { t } = useTranslation();
  const root = useRouteLoaderData("root") as { handover?: unknown } | undefined;
  // The same loader data gives the same view: the page is not drawn again when only the route redraws.
  const view = useMemo(() => ("shell" in d ? null : { offline: false, ...d }), [d]);
  if (!view)
    return (
      <section className="page" aria-busy="true" data-offline-shell="">
        <p role="status">{t("offline.loading")}</p>
      </section>
    );
  return (
    <>
      {root?.handover || view.offline || !handOverOffered(view.survey, view.page) ? null : (
        <HandOverButton kase={{ surveyId: view.survey.Id, patientId: view.patientId }} />
      )}
      <FillPageView d={view} problems={problems ?? undefined} />
    </>
  );
}
