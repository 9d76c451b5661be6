import { patientsApi } from "~/contracts/patients";
import { surveysApi } from "~/contracts/surveys";
import { positiveId } from "~/domain/ids";
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type SerializeFrom,
} from "@remix-run/node";
import { data, redirect } from "~/server/responses.server";
import {
  Link,
  useActionData,
  useLoaderData,
  type ClientActionFunctionArgs,
  type ClientLoaderFunctionArgs,
} from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/texts";
import type { TFunction } from "~/i18n";
import { pageTitle } from "~/components/layout/meta";
import { LatestResponses, type LatestResponse } from "~/components/start/LatestResponses";
import { PatientIdForm } from "~/components/start/PatientIdForm";
import type { StartProblem } from "~/domain/start-state";
import { fillBlock, isClearRequest, normalizePatientId, startSurvey } from "~/domain/start-state";
import { DISPLAY_TIME_ZONE, formatDateTime } from "~/domain/dates";
import { newIdempotencyKey } from "~/domain/idempotency";
import { afterLoad } from "~/offline/after-load";
import { useOnline } from "~/offline/connectivity";
import { startClientAction, startClientLoader } from "~/offline/start-local";
import { apiClient } from "~/server/api-client.server";
import { requireUser } from "~/server/auth/guards.server";
import { getContext } from "~/server/context.server";
import { badForm, notFound, refused } from "~/server/refusals.server";
import { parseForm } from "~/domain/forms";
import { StartFormSchema } from "~/domain/page-forms";
import { startCase } from "~/server/start-case.server";
import { Hyphenated } from "~/components/ui/Hyphenated";
import { defaultCaseLanguage } from "~/domain/case-language";
import { isRightToLeft } from "~/domain/languages";

/** Latest open responses shown (section 9). */
const LATEST_COUNT = 10;

function surveyIdOf(params: { surveyId?: string }) {
  return positiveId(params.surveyId);
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = surveyIdOf(params);
  const api = apiClient(user.accessToken);
  const latestOf = (surveyId: number) =>
    api.call(patientsApi.latest, { query: { count: LATEST_COUNT, surveyId } }).catch(() => null);
  // A survey that cannot be loaded sends the person back to the list, with the reason.
  if (!id) return notFound(request, "errors.surveyNotFound", "/surveys");
  const [survey, latestRows] = await Promise.all([api.call(surveysApi.get, { params: { id } }), latestOf(id)]).catch(
    (error: unknown) => refused(request, error, { back: "/surveys", notFound: "/surveys" }),
  );
  const blocked = fillBlock(survey);
  const latest: LatestResponse[] | null =
    blocked || !latestRows
      ? null
      : latestRows.map((row) => ({
          patientId: row.PatientId,
          modifiedIso: row.ModifiedDate,
          modified: formatDateTime(row.ModifiedDate, true, DISPLAY_TIME_ZONE),
          version: row.Version,
          toReview: row.ToReview === true,
        }));
  return {
    survey: startSurvey(survey),
    blocked,
    latest,
    imageUrl: getContext().env.CLIENT_IMAGE_URL,
    // Sent back with the start form: the same form sent twice starts one case (decision 018).
    formKey: newIdempotencyKey(),
  };
}

/** The start form: a plain post, so starting a case works without JavaScript. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = surveyIdOf(params);
  if (!id) return notFound(request, "errors.surveyNotFound", "/surveys");
  const here = `/survey/${id}`;
  const submission = parseForm(await request.formData(), StartFormSchema);
  if (submission.status !== "success") return badForm(request, here);
  const form = submission.value;
  const typed = form.patientId;
  if (isClearRequest(form.intent, typed, form.closedId)) return redirect(here);
  const api = apiClient(user.accessToken);
  try {
    const survey = await api.call(surveysApi.get, { params: { id } });
    // The page explains why a survey cannot be filled.
    if (fillBlock(survey)) return redirect(here);
    const outcome = await startCase(
      api,
      id,
      typed,
      survey.IsPatientIdAutoGenerationEnabled,
      form.formKey,
      form.language,
    );
    if ("to" in outcome) return redirect(outcome.to);
    const result: StartProblem = { patientId: normalizePatientId(typed), problem: outcome.problem };
    return data(result, { status: outcome.problem === "closed" ? 409 : 400 });
  } catch (error) {
    return refused(request, error, { back: here, notFound: "/surveys" });
  }
}

export async function clientLoader(args: ClientLoaderFunctionArgs) {
  return startClientLoader<SerializeFrom<typeof loader>>(args);
}

export async function clientAction(args: ClientActionFunctionArgs) {
  return startClientAction(args);
}

export const meta: MetaFunction<typeof loader> = ({ matches, data: loaded }) =>
  pageTitle(matches, "start.pageTitle", { title: loaded?.survey.title ?? "" });

export default function SurveyStart() {
  const { t, i18n } = useTranslation();
  const { survey, blocked, latest, imageUrl, formKey } = useLoaderData<typeof loader>();
  // The language a new case is filled in: the staff's own where the survey has it (decision 055). The title
  // and the description, which the patient may read here, are shown in it.
  const languages = survey.texts.map((x) => x.lang);
  const [language, setLanguage] = useState(() =>
    defaultCaseLanguage({ SourceLanguage: survey.sourceLanguage, Languages: languages }, i18n.language),
  );
  const texts = survey.texts.find((x) => x.lang === language) ?? {
    lang: survey.sourceLanguage,
    title: survey.title,
    description: survey.description,
  };
  const textLang = { lang: texts.lang, dir: isRightToLeft(texts.lang) ? "rtl" : "ltr" } as const;
  const result = (useActionData<typeof action>() as StartProblem | undefined) ?? null;
  const online = useOnline();
  // A survey kept on this device keeps these open cases too, to continue them offline (decision 038).
  useEffect(() => {
    if (!latest) return;
    return afterLoad(
      () =>
        void import("~/offline/case-download").then((m) => m.keepListedCases(survey.id, latest)).catch(() => undefined),
    );
  }, [latest, survey.id]);
  return (
    <section className="page start" aria-labelledby="start-title">
      <div className="start__main">
        <h1 id="start-title" data-testid="start-title" {...textLang}>
          <Hyphenated text={texts.title} />
        </h1>
        {texts.description ? (
          <p className="start__description" {...textLang}>
            {texts.description}
          </p>
        ) : null}
        <p className="start__retention" data-testid="start-retention">
          {retentionSentence(t, survey.retentionMonths)}
        </p>
        {blocked ? (
          <div className="start__blocked">
            <p className="notice" role="alert" data-testid="start-blocked">
              {t(blocked === "notActive" ? "start.notActive" : "start.notAllowed")}
            </p>
            <Link to="/surveys" className="btn btn--primary">
              {t("start.backToList")}
            </Link>
          </div>
        ) : (
          <>
            <PatientIdForm
              key={survey.id}
              surveyId={survey.id}
              autoGeneration={survey.autoGeneration}
              result={result}
              formKey={formKey}
              language={{ languages, value: language, onChange: setLanguage }}
            />
            {online ? (
              <p className="start__patient-link">
                <Link to={`/survey/${survey.id}/links`} data-testid="start-patient-link">
                  {t("patientLinks.forPatient")}
                </Link>
              </p>
            ) : null}
            {online ? <LatestResponses surveyId={survey.id} latest={latest} /> : null}
          </>
        )}
      </div>
      <img className="start__image" src={imageUrl} alt={t("start.clientImageAlt")} width={320} height={220} />
    </section>
  );
}

/** The survey's retention in one sentence (docs/decisions/042-retention-and-erasure.md). */
function retentionSentence(t: TFunction, months: number): string {
  if (months <= 0) return t("start.retentionNone");
  if (months % 12 === 0) return t("start.retentionYears", { count: months / 12 });
  return t("start.retentionMonths", { count: months });
}
