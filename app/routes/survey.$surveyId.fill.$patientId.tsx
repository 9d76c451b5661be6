import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData, useNavigate } from "@remix-run/react";
import { useCallback, useMemo } from "react";
import { callApi, type ApiResult } from "~/components/editor/editor-api";
import { pageTitle } from "~/components/layout/meta";
import { Attachments } from "~/components/fill/Attachments";
import { FillFlow } from "~/components/fill/FillFlow";
import { pageFrom, pagesOf, type FillPage } from "~/components/fill/pages";
import { apiSink } from "~/components/fill/useAnswers";
import { useToast } from "~/components/ui/Toaster";
import { useHydrated } from "~/components/ui/useHydrated";
import { answersFromResponses, type PreliminaryAnswers } from "~/domain/answers";
import { isValidPatientId } from "~/domain/patient-id";
import { SurveySchema } from "~/domain/survey";
import { useTranslation } from "react-i18next";
import { ApiError, apiClient, handleApiAuthErrors } from "~/server/api-client.server";
import { requireUser } from "~/server/auth/guards.server";
import { setFlash } from "~/server/flash.server";
import { savePageFromForm, savePreliminaryFromForm } from "~/server/fill-forms.server";

async function toStart(request: Request, surveyId: number, key: string): Promise<never> {
  throw redirect(`/survey/${surveyId}`, { headers: { "Set-Cookie": await setFlash(request, { kind: "error", key }) } });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const surveyId = Number(params.surveyId);
  const patientId = params.patientId ?? "";
  if (!Number.isInteger(surveyId) || surveyId <= 0) throw redirect("/surveys");
  if (!patientId || !isValidPatientId(patientId)) return toStart(request, surveyId, "start.surveyPatientIdInputError");
  const api = apiClient(user.accessToken);
  const url = new URL(request.url);
  try {
    const survey = await api.get(`/surveys/${surveyId}`, { schema: SurveySchema });
    const pages = pagesOf(survey);
    const page = pageFrom(url.searchParams.get("page"), pages);
    if (survey.Status !== "Active" || !survey.Rights.CanParticipate) {
      if (page !== "done") return toStart(request, surveyId, "fill.notFillable");
    }
    const patient = await api.get<{ State: "Open" | "Closed" | "Nonexistent"; PatientDataId?: number }>("/patients", {
      query: { patientId, surveyId },
    });
    if (patient.State === "Nonexistent") return toStart(request, surveyId, "fill.patientNotFound");
    if (patient.State === "Closed" && page !== "done")
      return toStart(request, surveyId, "fill.surveyCantBeFilledAlreadyClosed");
    const [responses, attributes, counts] = await Promise.all([
      api.get<Parameters<typeof answersFromResponses>[0]>("/question-responses/", { query: { surveyId, patientId } }),
      api.get<{ PatientFormAttributeId: number; PatientFormAnswerOptionId: number }[]>("/attribute-responses/", {
        query: { surveyId, patientId },
      }),
      api.get<{ QuestionId: number; NumberOfFileAttachment: number }[]>("/file-attachments/count", {
        query: { patientDataId: patient.PatientDataId },
      }),
    ]);
    const preliminary: PreliminaryAnswers = {};
    for (const a of attributes) preliminary[a.PatientFormAttributeId] = a.PatientFormAnswerOptionId;
    const category = Number(url.searchParams.get("category"));
    return {
      survey,
      patientId,
      patientDataId: patient.PatientDataId ?? 0,
      userId: user.identity.sub,
      surveyUserDataId: user.userId,
      answers: answersFromResponses(responses),
      preliminary,
      attachmentCounts: Object.fromEntries(counts.map((c) => [c.QuestionId, c.NumberOfFileAttachment])),
      page,
      categoryId: Number.isInteger(category) && category > 0 ? category : null,
    };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return toStart(request, surveyId, "editor.loadFailed");
    return handleApiAuthErrors(error);
  }
}

/** Without JavaScript each page is a form; its answers are saved here, then the next page is shown. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const surveyId = Number(params.surveyId);
  const patientId = params.patientId ?? "";
  const form = await request.formData();
  const base = `/survey/${surveyId}/fill/${encodeURIComponent(patientId)}`;
  const api = apiClient(user.accessToken);
  try {
    const survey = await api.get(`/surveys/${surveyId}`, { schema: SurveySchema });
    const pages = pagesOf(survey);
    const go = String(form.get("go") ?? "stay");
    if (form.get("intent") === "savePreliminary") {
      await savePreliminaryFromForm(api, survey, patientId, form);
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
    if (form.get("intent") === "savePage") {
      const categoryId = Number(form.get("categoryId"));
      await savePageFromForm(api, survey, patientId, form);
      if (go === "submit") {
        await api.post("/patients/close", { query: { patientId, surveyId } });
        return redirect(`${base}?page=done`);
      }
      if (go === "back") return redirect(`${base}?page=${pages[Math.max(0, pages.indexOf("questionnaire") - 1)]}`);
      const next = go.startsWith("category:") ? Number(go.slice(9)) : categoryId;
      return redirect(`${base}?page=questionnaire&category=${next}`);
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return toStart(request, surveyId, "fill.patientNotFound");
    if (error instanceof ApiError && error.type === "SURVEY_ALREADY_CLOSED")
      return toStart(request, surveyId, "fill.surveyCantBeFilledAlreadyClosed");
    if (error instanceof ApiError && error.status !== 401 && error.status !== 403) {
      return redirect(base + new URL(request.url).search, {
        headers: { "Set-Cookie": await setFlash(request, { kind: "error", key: "errors.validation" }) },
      });
    }
    return handleApiAuthErrors(error);
  }
  return data(null, { status: 400 });
}

export const meta: MetaFunction<typeof loader> = ({ matches, data: loaded }) =>
  pageTitle(matches, "fill.pageTitle", { title: loaded?.survey.Title ?? "" });

export default function FillRoute() {
  const d = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const toast = useToast();
  const { t } = useTranslation();
  const base = `/survey/${d.survey.Id}/fill/${encodeURIComponent(d.patientId)}`;
  const hrefOf = useCallback(
    (page: FillPage, categoryId?: number) => `${base}?page=${page}${categoryId ? `&category=${categoryId}` : ""}`,
    [base],
  );
  const ids = useMemo(() => ({ PatientId: d.patientId, SurveyId: d.survey.Id }), [d.patientId, d.survey.Id]);
  const sink = useMemo(() => apiSink(ids), [ids]);

  const onRefused = useCallback(
    (result: Extract<ApiResult<unknown>, { ok: false }>) => {
      if (result.status === 401) return window.location.assign("/401");
      if (result.status === 403) return window.location.assign("/403");
      if (result.type === "SURVEY_PATIENTID_NOT_FOUND") {
        toast("error", t("fill.patientNotFound"));
        return navigate(`/survey/${d.survey.Id}`);
      }
      if (result.type === "SURVEY_ALREADY_CLOSED") {
        toast("error", t("fill.surveyCantBeFilledAlreadyClosed"));
        return navigate(`/survey/${d.survey.Id}`);
      }
      toast(
        "error",
        t(result.type === "NETWORK" ? "errors.network" : result.status >= 500 ? "errors.server" : "fill.saveFailed"),
      );
    },
    [navigate, toast, t, d.survey.Id],
  );

  return (
    <section className="page" aria-label={d.survey.Title}>
      <FillFlow
        key={`${d.patientId}|${d.page}`}
        survey={d.survey}
        patientId={d.patientId}
        initialAnswers={d.answers}
        initialPreliminary={d.preliminary}
        page={d.page}
        categoryId={d.categoryId}
        preview={false}
        hydrated={hydrated}
        go={(page, categoryId) => navigate(hrefOf(page, categoryId), { preventScrollReset: page === "questionnaire" })}
        hrefOf={hrefOf}
        sink={sink}
        savePreliminary={(attributeId, optionId) =>
          callApi("POST", "/attribute-responses", {
            ...ids,
            PatientFormAttributeId: attributeId,
            PatientFormAnswerOptionId: optionId,
          })
        }
        close={() =>
          callApi("POST", `/patients/close?patientId=${encodeURIComponent(d.patientId)}&surveyId=${d.survey.Id}`)
        }
        onRefused={onRefused}
        attachments={(q) => (
          <Attachments
            question={q}
            surveyId={d.survey.Id}
            patientDataId={d.patientDataId}
            userId={d.userId}
            surveyUserDataId={d.surveyUserDataId}
            count={d.attachmentCounts[q.Id] ?? 0}
          />
        )}
      />
    </section>
  );
}
