import { patientsApi } from "~/contracts/patients";
import { surveysApi } from "~/contracts/surveys";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { data, redirect } from "~/server/responses.server";
import { Form, Link, useActionData, useLoaderData, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Choice } from "~/components/ui/Field";
import { useTranslation } from "~/texts";
import { z } from "~/domain/zod";
import { pageTitle } from "~/components/layout/meta";
import { ensureTexts, type TextsHandle } from "~/locale-files";
import { parseForm } from "~/domain/forms";
import { positiveId } from "~/domain/ids";
import { isValidPatientId } from "~/domain/patient-id";
import { isSigningRefusal, SIGNATURE_MEANINGS, SignatureMeaningSchema } from "~/domain/signatures";
import { apiClient } from "~/server/api-client.server";
import { requireUser } from "~/server/auth/guards.server";
import { beginSigning, signPath } from "~/server/auth/signing.server";
import { caseLanguageOf } from "~/domain/case-language";
import { isRightToLeft, translateSurvey } from "~/domain/languages";
import type { Survey } from "~/domain/survey";
import { setFlash } from "~/server/flash.server";
import { refused } from "~/server/refusals.server";

/**
 * The signing page of a case (docs/decisions/029-signed-close.md): who signs, which case, the meaning of the
 * signature and its statement. "Sign" sends the person to the provider for a fresh sign-in; the callback
 * records the signature and submits the case. A plain form, so it works without JavaScript.
 */

const SignFormSchema = z.object({ meaning: SignatureMeaningSchema });

/** The survey's title in the case's language, as the case's other pages show it (decision 055). */
function caseTitle(survey: Survey, stored: string | null | undefined) {
  const lang = caseLanguageOf(survey, stored);
  return { title: translateSurvey(survey, lang).Title, lang };
}

async function toStart(request: Request, surveyId: number, key: string): Promise<never> {
  throw redirect(`/survey/${surveyId}`, { headers: { "Set-Cookie": await setFlash(request, { kind: "error", key }) } });
}

export const handle: TextsHandle = { texts: ["sign"] };

/** After an in-app navigation (a case submitted on its fill page), the page's texts come with its data. */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const [loaded] = await Promise.all([serverLoader<typeof loader>(), ensureTexts(["sign"])]);
  return loaded;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const surveyId = positiveId(params.surveyId);
  const patientId = params.patientId ?? "";
  if (surveyId === null) throw redirect("/surveys");
  if (!isValidPatientId(patientId)) return toStart(request, surveyId, "start.surveyPatientIdInputError");
  const api = apiClient(user.accessToken);
  const fill = `/survey/${surveyId}/fill/${encodeURIComponent(patientId)}`;
  try {
    const survey = await api.call(surveysApi.get, { params: { id: surveyId } });
    if (!survey.RequiresSignature) throw redirect(`${fill}?page=questionnaire`);
    const patient = await api.call(patientsApi.record, { query: { patientId, surveyId } });
    if (patient.State === "Nonexistent") return toStart(request, surveyId, "fill.patientNotFound");
    if (patient.State === "Closed") throw redirect(`${fill}?page=done`);
    const refusal = new URL(request.url).searchParams.get("refused");
    return {
      survey: { id: survey.Id, ...caseTitle(survey, patient.Language) },
      patientId,
      signer: user.identity.fullName,
      refused: isSigningRefusal(refusal) ? refusal : null,
    };
  } catch (error) {
    if (error instanceof Response) throw error;
    const start = `/survey/${surveyId}`;
    return refused(request, error, { back: start, notFound: start });
  }
}

/** "Sign": keeps the signing's intent and goes to the provider's sign-in. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const surveyId = positiveId(params.surveyId);
  const patientId = params.patientId ?? "";
  if (surveyId === null) throw redirect("/surveys");
  const submission = parseForm(await request.formData(), SignFormSchema);
  if (submission.status !== "success") return data({ chooseMeaning: true }, { status: 400 });
  try {
    // The provider's password page names the survey by its title, in the case's language as this page does.
    const api = apiClient(user.accessToken);
    const [survey, patient] = await Promise.all([
      api.call(surveysApi.get, { params: { id: surveyId } }),
      api.call(patientsApi.record, { query: { patientId, surveyId } }),
    ]);
    const { title, lang } = caseTitle(survey, patient.Language);
    return await beginSigning(request, user, {
      surveyId,
      patientId,
      meaning: submission.value.meaning,
      surveyTitle: title,
      surveyLanguage: lang,
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    const start = `/survey/${surveyId}`;
    if (!(error instanceof Error) || !("type" in error)) throw redirect("/authentication/error?reason=idp");
    return refused(request, error, {
      back: signPath(surveyId, patientId),
      notFound: start,
      to: { SURVEY_ALREADY_CLOSED: start },
    });
  }
}

export const meta: MetaFunction<typeof loader> = ({ matches, data: loaded }) =>
  pageTitle(matches, "sign.pageTitle", {
    title: loaded?.survey.title ?? "",
    patientId: loaded?.patientId ?? "",
  });

export default function SignPage() {
  const { survey, patientId, signer, refused: refusal } = useLoaderData<typeof loader>();
  const problem = useActionData<typeof action>();
  const { t } = useTranslation();
  // Signing is a fresh sign-in at the provider: without a connection the page says so (the answers stay).
  const [offline, setOffline] = useState(false);
  useEffect(() => {
    const update = () => setOffline(!navigator.onLine);
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  // "Unterschreiben" without a meaning says so on the page: here at once, without JavaScript in the server's answer.
  const [meaning, setMeaning] = useState<"unchosen" | "chosen" | null>(null);
  const fill = `/survey/${survey.id}/fill/${encodeURIComponent(patientId)}`;
  const chooseMeaning = meaning === "unchosen" || (meaning === null && Boolean(problem && "chooseMeaning" in problem));
  return (
    <section className="page sign" aria-labelledby="sign-title">
      <h1 id="sign-title">{t("sign.title", { patientId })}</h1>
      {refusal ? (
        <p className="notice notice--error" role="alert" data-testid="sign-refused">
          {t(`sign.errors.${refusal}`)}
        </p>
      ) : null}
      {offline ? (
        <p className="notice" role="status" data-testid="sign-offline">
          {t("sign.offline")}
        </p>
      ) : null}
      <p>{t("sign.intro")}</p>
      <dl className="sign__facts">
        <dt>{t("sign.survey")}</dt>
        <dd data-testid="sign-survey" lang={survey.lang} dir={isRightToLeft(survey.lang) ? "rtl" : "ltr"}>
          {survey.title}
        </dd>
        <dt>{t("sign.patientId")}</dt>
        <dd data-testid="sign-patient">{patientId}</dd>
        <dt>{t("sign.signer")}</dt>
        <dd data-testid="sign-signer">{signer}</dd>
      </dl>
      <Form
        method="post"
        reloadDocument
        noValidate
        className="sign__form"
        onSubmit={(event) => {
          const radios = event.currentTarget.querySelectorAll<HTMLInputElement>('input[name="meaning"]');
          if (Array.from(radios).some((radio) => radio.checked)) return;
          event.preventDefault();
          setMeaning("unchosen");
          radios[0]?.focus();
        }}
      >
        <fieldset
          onChange={() => setMeaning("chosen")}
          className="choice-list"
          aria-describedby={chooseMeaning ? "sign-meaning-error" : undefined}
          aria-invalid={chooseMeaning || undefined}
        >
          <legend className="field__label">{t("sign.meaningLegend")}</legend>
          {SIGNATURE_MEANINGS.map((meaning) => (
            <Choice key={meaning} id={`sign-meaning-${meaning}`} label={t(`sign.meaning.${meaning}`)}>
              <input id={`sign-meaning-${meaning}`} type="radio" name="meaning" value={meaning} required />
            </Choice>
          ))}
          {chooseMeaning ? (
            <p id="sign-meaning-error" className="field__error" role="alert">
              {t("sign.chooseMeaning")}
            </p>
          ) : null}
        </fieldset>
        <p className="sign__statement" id="sign-statement">
          {t("sign.statement")}
        </p>
        <p className="field__hint">{t("sign.passwordNote")}</p>
        <div className="fill-actions">
          <Link className="btn" to={`${fill}?page=questionnaire`}>
            {t("sign.back")}
          </Link>
          <button
            type="submit"
            className="btn btn--primary"
            aria-describedby="sign-statement"
            disabled={offline}
            data-testid="sign-submit"
          >
            {t("sign.submit")}
          </button>
        </div>
      </Form>
    </section>
  );
}
