import { useNavigate } from "@remix-run/react";
import { memo, useCallback, useMemo, useState } from "react";
import { useTranslation } from "~/texts";
import { callApi, type ApiResult } from "~/api-client";
import { apiSink } from "~/answer-sink";
import { Attachments } from "~/components/fill/Attachments";
import { FillFlow } from "~/components/fill/FillFlow";
import { FillLanguage } from "~/components/fill/FillLanguage";
import { useToast } from "~/components/ui/Toaster";
import { useHydrated } from "~/components/ui/useHydrated";
import { patientsApi } from "~/contracts/patients";
import { responsesApi } from "~/contracts/responses";
import type { Answers, PreliminaryAnswers } from "~/domain/answers";
import { caseLanguages } from "~/domain/case-language";
import type { FillPage } from "~/domain/fill-pages";
import { translateSurvey, type ContentLanguage } from "~/domain/languages";
import type { PageProblems } from "~/domain/page-problems";
import type { Survey } from "~/domain/survey";
import { loadFillTexts } from "~/locale-files";

export interface LinkFillData {
  survey: Survey;
  patientId: string;
  patientDataId: number;
  answers: Answers;
  /** The preliminary answers, where the patient answers the preliminary questions (decision 058). */
  preliminary: PreliminaryAnswers;
  page: FillPage;
  categoryId: number | null;
  language: ContentLanguage;
  attachmentCounts: Record<number, number>;
  attachments: Record<number, { Id: number; FileName: string }[]>;
  formKey: string;
}

const FILL = "/l/fill";
const BASE = "/l";

/**
 * The patient's questionnaire through their link (docs/decisions/057-patient-links.md): the fill page's flow
 * in the case's language, its answers saved through the link's API, no patient id and nothing of staff's.
 */
export const LinkFill = memo(function LinkFill({ d, problems }: { d: LinkFillData; problems?: PageProblems }) {
  const [language, setLanguage] = useState(d.language);
  const [switching, setSwitching] = useState(false);
  const languages = useMemo(() => caseLanguages(d.survey), [d.survey]);
  const survey = useMemo(
    () => (language === languages[0] ? d.survey : translateSurvey(d.survey, language)),
    [d.survey, language, languages],
  );
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const toast = useToast();
  const { t } = useTranslation();
  const ref = useMemo(() => ({ surveyId: d.survey.Id, patientId: d.patientId }), [d.survey.Id, d.patientId]);
  const sink = useMemo(() => apiSink({ SurveyId: ref.surveyId, PatientId: ref.patientId }, BASE), [ref]);
  // Submitted, the link is used up: the thanks come in the patient's language, on a page of their own.
  const hrefOf = useCallback(
    (page: FillPage, categoryId?: number) =>
      page === "done"
        ? `${FILL}?page=done&lang=${language}`
        : `${FILL}?page=${page}${categoryId ? `&category=${categoryId}` : ""}`,
    [language],
  );
  // The link no longer stands for its case (revoked, expired, closed meanwhile): the page, drawn anew, says so.
  const onRefused = useCallback(
    (result: Extract<ApiResult<unknown>, { ok: false }>) => {
      if ([401, 403, 404, 409].includes(result.status)) return window.location.assign(FILL);
      toast("error", t(result.type === "NETWORK" ? "errors.network" : "fill.saveFailed"));
    },
    [toast, t],
  );
  const close = useCallback(() => callApi(patientsApi.close, { query: ref }, { base: BASE }), [ref]);
  // Only a survey whose preliminary questions the patient answers shows them here; the server checks it again.
  const savePreliminary = useCallback(
    (attributeId: number, optionId: number) =>
      callApi(
        responsesApi.answerPreliminary,
        {
          body: {
            SurveyId: ref.surveyId,
            PatientId: ref.patientId,
            PatientFormAttributeId: attributeId,
            PatientFormAnswerOptionId: optionId,
          },
        },
        { base: BASE },
      ),
    [ref],
  );
  const switchLanguage = useCallback(
    async (next: ContentLanguage) => {
      setSwitching(true);
      try {
        await loadFillTexts(next);
        const result = await callApi(patientsApi.language, { query: ref, body: { Language: next } }, { base: BASE });
        if (!result.ok) return onRefused(result);
        setLanguage(next);
      } catch {
        toast("error", t("fill.languageFailed"));
      } finally {
        setSwitching(false);
      }
    },
    [ref, onRefused, toast, t],
  );
  const choice = useMemo(
    () => ({ languages, current: language, onSwitch: (l: ContentLanguage) => void switchLanguage(l), busy: switching }),
    [languages, language, switchLanguage, switching],
  );
  return (
    <FillLanguage lang={language} className="page link-fill" label={survey.Title}>
      {problems?.tooLarge ? <FormTooLarge /> : null}
      <FillFlow
        key={`${d.page}|${d.categoryId ?? ""}`}
        survey={survey}
        language={choice}
        patientId={d.patientId}
        byPatient
        initialAnswers={d.answers}
        initialPreliminary={d.preliminary}
        page={d.page}
        categoryId={d.categoryId}
        preview={false}
        hydrated={hydrated}
        go={(page, categoryId, replace) =>
          navigate(hrefOf(page, categoryId), {
            preventScrollReset: page === "questionnaire",
            replace: replace || page === "done",
          })
        }
        hrefOf={hrefOf}
        sink={sink}
        savePreliminary={savePreliminary}
        close={close}
        onRefused={onRefused}
        problems={problems}
        formKey={d.formKey}
        local={false}
        attachments={(q) => (
          <Attachments
            question={q}
            surveyId={d.survey.Id}
            patientDataId={d.patientDataId}
            userId=""
            surveyUserDataId={0}
            count={d.attachmentCounts[q.Id] ?? 0}
            initial={d.attachments[q.Id]}
            refused={problems?.files?.[q.Id]}
            link
          />
        )}
      />
    </FillLanguage>
  );
});

/** The page's form came back unread, its files together too large (without JavaScript): nothing was kept. */
function FormTooLarge() {
  const { t } = useTranslation();
  return (
    <p className="notice" role="alert" data-testid="link-form-too-large">
      {t("fill.formTooLargeNothingKept")}
    </p>
  );
}
